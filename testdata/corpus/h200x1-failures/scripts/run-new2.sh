#!/bin/bash
# More failure scenarios on one GPU: ranks as simulated hosts (sockets).
set -u
out=$1
mkdir -p "$out/failures"
here=$(cd "$(dirname "$0")" && pwd)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
{ date; nvidia-smi -L; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version(), torch.cuda.device_count())'; } > "$out/MACHINE.txt" 2>&1
trun() {  # NAME PORT LIMIT NPROC [torchrun flags --] env...
  local name=$1 port=$2 t=$3 np=$4; shift 4
  local flags=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  local start=$(date +%s)
  env WL_HOSTS=$np "$@" timeout -k 5 "$t" torchrun "${flags[@]}" --nnodes=1 --nproc_per_node="$np" \
      --master_addr=127.0.0.1 --master_port="$port" "$here/wl.py" > "$out/failures/$name.log" 2>&1
  echo "failures/$name.log: torchrun ${flags[*]} nproc=$np WL_HOSTS=$np env: $* -> rc=$? secs=$(( $(date +%s) - start ))" >> "$out/INDEX-$name.txt"
}
laneA() {
  trun stuck_rank0 29811 110 2 -- WL_MODE=stuck WL_BAD_RANK=0 WL_TIMEOUT=20 WL_STUCK_S=45
  trun kill_rank2_of4_warn 29812 90 4 -- WL_MODE=kill WL_BAD_RANK=2 WL_TIMEOUT=20 NCCL_DEBUG=WARN
}
laneB() {
  trun mismatch_rank0 29821 110 2 -- WL_MODE=mismatch WL_BAD_RANK=0 WL_TIMEOUT=20 TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC=30
  trun segv_rank2_of4 29822 90 4 -- WL_MODE=segv WL_BAD_RANK=2 WL_TIMEOUT=20
}
laneC() {
  trun cuda_oom_rank0 29831 90 2 -- WL_MODE=oom WL_BAD_RANK=0 WL_TIMEOUT=20
  trun stuck_rank1_of4_warn 29832 110 4 -- WL_MODE=stuck WL_BAD_RANK=1 WL_TIMEOUT=20 WL_STUCK_S=45 NCCL_DEBUG=WARN
}
laneD() {
  trun late_rank0_45s 29841 120 2 -- WL_MODE=late WL_BAD_RANK=0 WL_LATE_S=45 WL_TIMEOUT=15
}
laneA & laneB & laneC & laneD &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
