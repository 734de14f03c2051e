#!/bin/bash
# Restarted jobs with torchrun --log-dir (per-attempt, per-rank files), on one GPU (2 simulated hosts).
set -u
out=$1
mkdir -p "$out/failures"
here=$(cd "$(dirname "$0")" && pwd)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 WL_HOSTS=2
{ date; nvidia-smi -L; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version(), torch.cuda.device_count())'; } > "$out/MACHINE.txt" 2>&1
trun() {  # NAME PORT LIMIT [torchrun flags --] env...
  local name=$1 port=$2 t=$3; shift 3
  local flags=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  rm -rf "/tmp/ld-$name"
  local start=$(date +%s)
  env "$@" timeout -k 5 "$t" torchrun "${flags[@]}" --log-dir "/tmp/ld-$name" --redirects 3 --nnodes=1 --nproc_per_node=2 \
      --master_addr=127.0.0.1 --master_port="$port" "$here/wl.py" > "$out/failures/$name.console.log" 2>&1
  echo "failures/$name: torchrun ${flags[*]} --log-dir --redirects 3 env: $* -> rc=$? secs=$(( $(date +%s) - start ))" >> "$out/INDEX-$name.txt"
  mkdir -p "$out/failures/$name.logdir" && cp -r "/tmp/ld-$name/." "$out/failures/$name.logdir/"
}
laneA() { trun restart_pyexc_logdir 29911 150 --max-restarts=1 -- WL_MODE=restart WL_TIMEOUT=20; }
laneB() { trun restart_kill_logdir 29921 150 --max-restarts=1 -- WL_MODE=restartkill WL_TIMEOUT=20; }
laneA & laneB &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
