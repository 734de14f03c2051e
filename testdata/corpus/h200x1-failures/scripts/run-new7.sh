#!/bin/bash
# Batch 7: more families on one GPU (ranks as simulated hosts, sockets): a store nobody can
# reach from one rank, an error exit without a traceback, a skipped recv, an exception before init.
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
  trun store_unreachable_rank1 29711 90 2 -- WL_BAD_RANK=1 WL_TIMEOUT=20 WL_BAD_ENV=MASTER_ADDR=192.0.2.1
}
laneB() {
  trun exit3_rank1 29721 90 2 -- WL_MODE=exit3 WL_BAD_RANK=1 WL_TIMEOUT=20
  trun pyexc_early_rank0 29722 90 2 -- WL_MODE=pyexc_early WL_BAD_RANK=0 WL_TIMEOUT=20
}
laneC() {
  trun p2p_skip_rank1 29731 110 2 -- WL_MODE=p2p_skip WL_BAD_RANK=1 WL_TIMEOUT=20
  trun p2p_skip_rank1_of4_warn 29732 110 4 -- WL_MODE=p2p_skip WL_BAD_RANK=1 WL_TIMEOUT=20 NCCL_DEBUG=WARN
}
laneA & laneB & laneC &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
