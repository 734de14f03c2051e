#!/bin/bash
# Batch 4: failure families not in the corpus yet, on one GPU: ranks as simulated hosts (sockets).
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
  trun devassert_rank1 29911 90 2 -- WL_MODE=devassert WL_BAD_RANK=1 WL_TIMEOUT=20
  trun exit0_rank1 29912 90 2 -- WL_MODE=exit0 WL_BAD_RANK=1 WL_TIMEOUT=20
}
laneB() {
  trun uneven_rank1 29921 90 2 -- WL_MODE=uneven WL_BAD_RANK=1 WL_TIMEOUT=20
  trun gpuhang_rank1 29922 110 2 -- WL_MODE=gpuhang WL_BAD_RANK=1 WL_TIMEOUT=20 WL_STUCK_S=45
}
laneC() {
  trun sigterm_agent 29931 25 2 -- WL_MODE=basic WL_STEPS=300
  trun buffsize_rank1 29932 90 2 -- WL_BAD_RANK=1 WL_TIMEOUT=20 WL_BAD_ENV=NCCL_BUFFSIZE=68719476736
}
laneD() {
  trun stuck_subgroup_of4 29941 110 4 -- WL_MODE=stuck WL_BAD_RANK=1 WL_SUBGROUPS=1 WL_TIMEOUT=20 WL_STUCK_S=45
  trun kill_subgroup_rank3_of4 29942 90 4 -- WL_MODE=kill WL_BAD_RANK=3 WL_SUBGROUPS=1 WL_TIMEOUT=20
}
laneA & laneB & laneC & laneD &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
