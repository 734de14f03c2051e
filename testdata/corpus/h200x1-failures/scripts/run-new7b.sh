#!/bin/bash
# Batch 7, rerun of the skipped-recv jobs with a 64 MB message (4 KB went through NCCL's buffers:
# the jobs succeeded). Batch 7: more families on one GPU (ranks as simulated hosts, sockets): a store nobody can
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
laneC() {
  trun p2p_skip_rank1 29741 110 2 -- WL_MODE=p2p_skip WL_BAD_RANK=1 WL_TIMEOUT=20
  trun p2p_skip_rank1_of4_warn 29742 110 4 -- WL_MODE=p2p_skip WL_BAD_RANK=1 WL_TIMEOUT=20 NCCL_DEBUG=WARN
}
laneC &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
