#!/bin/bash
# Batch 8: restarts whose second attempt succeeds (c10d rendezvous), mismatches caught by
# TORCH_DISTRIBUTED_DEBUG=DETAIL, a blocking wait, NCCL_DEBUG_FILE per process, and jobs run
# without NCCL_DEBUG (PyTorch's lines only), on one GPU (ranks as simulated hosts, sockets).
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
      "$here/wl.py" > "$out/failures/$name.log" 2>&1
  echo "failures/$name.log: torchrun ${flags[*]} nproc=$np WL_HOSTS=$np env: $* -> rc=$? secs=$(( $(date +%s) - start ))" >> "$out/INDEX-$name.txt"
}
static() { echo --master_addr=127.0.0.1 --master_port=$1; }
c10d() { echo --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:$1 --max-restarts=1; }
laneA() {
  mkdir -p /tmp/ld8a
  trun restart_ok_logdir 29811 150 2 $(c10d 29811) --log-dir /tmp/ld8a --redirects 3 -- WL_MODE=restart WL_BAD_RANK=1 WL_TIMEOUT=20
  cp -r /tmp/ld8a "$out/failures/restart_ok_logdir.d"
  trun restartkill_ok 29812 150 2 $(c10d 29812) -- WL_MODE=restartkill WL_BAD_RANK=1 WL_TIMEOUT=20
}
laneB() {
  trun mismatch_detail_rank2_of4 29821 120 4 $(static 29821) -- WL_MODE=mismatch WL_BAD_RANK=2 WL_TIMEOUT=20 TORCH_DISTRIBUTED_DEBUG=DETAIL
  trun dtype_detail_rank1_of4 29822 120 4 $(static 29822) -- WL_MODE=dtype WL_BAD_RANK=1 WL_TIMEOUT=20 TORCH_DISTRIBUTED_DEBUG=DETAIL
  trun blocking_wait_stuck_rank1 29823 120 2 $(static 29823) -- WL_MODE=stuck WL_BAD_RANK=1 WL_TIMEOUT=20 WL_STUCK_S=60 TORCH_NCCL_BLOCKING_WAIT=1
}
laneC() {
  mkdir -p /tmp/df8
  trun debugfile_segv_rank1 29831 120 2 $(static 29831) -- WL_MODE=segv WL_BAD_RANK=1 WL_TIMEOUT=20 NCCL_DEBUG_FILE=/tmp/df8/nccl.%h.%p.log
  cp -r /tmp/df8 "$out/failures/debugfile_segv_rank1.d"
  trun nodebug_kill_rank1_of4 29832 120 4 $(static 29832) -- WL_MODE=kill WL_BAD_RANK=1 WL_TIMEOUT=20 WL_NO_NCCL_DEBUG=1
  trun nodebug_oom_rank3_of4 29833 120 4 $(static 29833) -- WL_MODE=oom WL_BAD_RANK=3 WL_TIMEOUT=20 WL_NO_NCCL_DEBUG=1
}
laneA & laneB & laneC &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
