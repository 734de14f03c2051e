#!/bin/bash
# New failure scenarios (2 ranks; on a 1-GPU machine two ranks share the GPU as two simulated hosts).
set -u
out=$1
mkdir -p "$out/failures"
here=$(cd "$(dirname "$0")" && pwd)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
{ date; nvidia-smi -L; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version(), torch.cuda.device_count())'; ip -br addr; } > "$out/MACHINE.txt" 2>&1
ngpu=$(nvidia-smi -L | wc -l)
hosts=2; [ "$ngpu" -ge 2 ] && hosts=0
trun() {  # NAME PORT LIMIT [torchrun flags --] env...
  local name=$1 port=$2 t=$3; shift 3
  local flags=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  local start=$(date +%s)
  env WL_HOSTS=$hosts "$@" timeout -k 5 "$t" torchrun "${flags[@]}" --nnodes=1 --nproc_per_node=2 \
      --master_addr=127.0.0.1 --master_port="$port" "$here/wl.py" > "$out/failures/$name.log" 2>&1
  echo "failures/$name.log: torchrun ${flags[*]} WL_HOSTS=$hosts env: $* -> rc=$? secs=$(( $(date +%s) - start ))" >> "$out/INDEX-$name.txt"
}
laneA() {
  trun kill_rank0 29711 90 -- WL_MODE=kill WL_BAD_RANK=0 WL_TIMEOUT=20
  trun segv_rank0 29712 90 -- WL_MODE=segv WL_BAD_RANK=0 WL_TIMEOUT=20
  trun pyexc_rank0 29713 90 -- WL_MODE=pyexc WL_BAD_RANK=0 WL_TIMEOUT=20
}
laneB() {
  trun bad_ifname_rank1 29721 100 -- WL_BAD_IFNAME=nosuchif0 WL_TIMEOUT=20
  trun kill_at_lazy_init 29722 100 -- WL_MODE=kill WL_FAIL_STEP=0 WL_LAZY=1 WL_TIMEOUT=20
}
laneC() {
  trun duplicate_gpu 29731 90 -- WL_SAME_GPU=1 WL_HOSTS=0 WL_TIMEOUT=20
  trun abort_rank0_lazy 29732 90 -- WL_MODE=abort WL_BAD_RANK=0 WL_LAZY=1 WL_TIMEOUT=20
}
laneA & laneB & laneC &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
