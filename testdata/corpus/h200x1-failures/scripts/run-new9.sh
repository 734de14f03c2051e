#!/bin/bash
# Batch 9: jobs that hang and are stopped from outside (the scheduler's time limit: SIGTERM to
# torchrun) before any timeout fires, so no watchdog line says who is missing; with
# NCCL_DEBUG_SUBSYS=INIT,COLL the collective lines are all there is. One GPU, ranks as simulated
# hosts (sockets).
set -u
out=$1
mkdir -p "$out/failures"
here=$(cd "$(dirname "$0")" && pwd)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
{ date; nvidia-smi -L; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version(), torch.cuda.device_count())'; } > "$out/MACHINE.txt" 2>&1
trun() {  # NAME PORT LIMIT NPROC env...
  local name=$1 port=$2 t=$3 np=$4; shift 4
  local start=$(date +%s)
  env WL_HOSTS=$np "$@" timeout -k 10 "$t" torchrun --nnodes=1 --nproc_per_node="$np" \
      --master_addr=127.0.0.1 --master_port="$port" "$here/wl.py" > "$out/failures/$name.log" 2>&1
  echo "failures/$name.log: torchrun nproc=$np WL_HOSTS=$np, SIGTERM after ${t}s, env: $* -> rc=$? secs=$(( $(date +%s) - start ))" >> "$out/INDEX-$name.txt"
}
laneA() {
  trun hang_coll_stuck_rank1 29911 40 2 WL_MODE=stuck WL_BAD_RANK=1 WL_STUCK_S=600 WL_TIMEOUT=1800 NCCL_DEBUG_SUBSYS=INIT,COLL
  trun hang_coll_running_of4 29912 40 4 WL_STEPS=400 WL_TIMEOUT=1800 NCCL_DEBUG_SUBSYS=INIT,COLL
}
laneB() {
  trun hang_coll_stuck_rank0_of4 29921 45 4 WL_MODE=stuck WL_BAD_RANK=0 WL_STUCK_S=600 WL_TIMEOUT=1800 NCCL_DEBUG_SUBSYS=INIT,COLL
  trun hang_init_late_rank1 29922 40 2 WL_MODE=late WL_BAD_RANK=1 WL_LATE_S=600 WL_TIMEOUT=1800
}
laneC() {
  trun hang_coll_subgroup_stuck_rank3_of4 29931 45 4 WL_SUBGROUPS=1 WL_MODE=stuck WL_BAD_RANK=3 WL_STUCK_S=600 WL_TIMEOUT=1800 NCCL_DEBUG_SUBSYS=INIT,COLL
  trun hang_info_stuck_rank2_of4 29932 40 4 WL_MODE=stuck WL_BAD_RANK=2 WL_STUCK_S=600 WL_TIMEOUT=1800
}
laneA & laneB & laneC &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
