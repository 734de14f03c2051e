#!/bin/bash
# Batch 6 (two GPUs): fresh runs of the early-exit and uneven-input families, other ranks and
# shapes (rank 0 leaving, a clean destroy before leaving, NCCL_DEBUG=WARN, subgroups).
set -u
out=$1
mkdir -p "$out/failures"
here=$(cd "$(dirname "$0")" && pwd)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
{ date; nvidia-smi -L; nvidia-smi topo -m; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version(), torch.cuda.device_count())'; } > "$out/MACHINE.txt" 2>&1
trun() {  # NAME PORT LIMIT NPROC HOSTS env...   (HOSTS 0: one host, no NCCL_HOSTID)
  local name=$1 port=$2 t=$3 np=$4 hosts=$5; shift 5
  local start=$(date +%s)
  env WL_HOSTS=$hosts "$@" timeout -k 5 "$t" torchrun --nnodes=1 --nproc_per_node="$np" \
      --master_addr=127.0.0.1 --master_port="$port" "$here/wl.py" > "$out/failures/$name.log" 2>&1
  echo "failures/$name.log: torchrun nproc=$np WL_HOSTS=$hosts env: $* -> rc=$? secs=$(( $(date +%s) - start ))" >> "$out/INDEX-$name.txt"
}
laneA() {
  trun exit0_rank0_p2p 29981 90 2 0 WL_MODE=exit0 WL_BAD_RANK=0 WL_TIMEOUT=20
  trun uneven_warn_p2p 29982 90 2 0 WL_MODE=uneven WL_BAD_RANK=1 WL_TIMEOUT=20 NCCL_DEBUG=WARN
}
laneB() {
  trun done_early_p2p 29991 90 2 0 WL_MODE=done_early WL_BAD_RANK=1 WL_TIMEOUT=20
  trun uneven_rank0_p2p 29992 90 2 0 WL_MODE=uneven WL_BAD_RANK=0 WL_TIMEOUT=20
}
laneC() {
  trun exit0_subgroup_of4 29971 90 4 4 WL_MODE=exit0 WL_BAD_RANK=3 WL_SUBGROUPS=1 WL_TIMEOUT=20
  trun done_early_warn_of4 29972 90 4 4 WL_MODE=done_early WL_BAD_RANK=1 WL_TIMEOUT=20 NCCL_DEBUG=WARN
}
laneA & laneB & laneC &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
