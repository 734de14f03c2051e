#!/bin/bash
# Follow-up scenarios (2 × H200): a host OOM kill by the kernel (cgroup v2 memory limit) with the
# kernel log kept, per-rank log files of a kill (NCCL_DEBUG_FILE + torchrun --log-dir), a kill
# with NCCL timestamps on every line, a restart after a SIGKILL, and a rank too late for init.
set -u
out=$1
mkdir -p "$out/failures"
here=$(cd "$(dirname "$0")" && pwd)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
# One GPU (the 2-GPU kind was not lent): two ranks on it, each its own simulated host (sockets).
export WL_HOSTS=2
{ date; nvidia-smi -L; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'; } > "$out/MACHINE.txt" 2>&1

trun() {  # NAME PORT LIMIT [torchrun flags --] env...
  local name=$1 port=$2 t=$3; shift 3
  local flags=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  local start=$(date +%s)
  env "$@" timeout -k 5 "$t" torchrun "${flags[@]}" --nnodes=1 --nproc_per_node=2 \
      --master_addr=127.0.0.1 --master_port="$port" "$here/wl.py" > "$out/failures/$name.log" 2>&1
  echo "failures/$name.log: torchrun ${flags[*]} env: $* -> rc=$? secs=$(( $(date +%s) - start ))" >> "$out/INDEX-$name.txt"
}

laneA() {
  # Kernel OOM killer: torchrun and its workers in a cgroup limited to 16 GiB.
  if [ -w /sys/fs/cgroup/cgroup.subtree_control ] && grep -q memory /sys/fs/cgroup/cgroup.controllers; then
    echo +memory > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
    mkdir -p /sys/fs/cgroup/wl && echo 16G > /sys/fs/cgroup/wl/memory.max && echo 0 > /sys/fs/cgroup/wl/memory.swap.max 2>/dev/null
    dmesg -C 2>/dev/null
    local start=$(date +%s)
    ( echo $BASHPID > /sys/fs/cgroup/wl/cgroup.procs && exec env WL_MODE=hostoom WL_TIMEOUT=20 \
        timeout -k 5 90 torchrun --nnodes=1 --nproc_per_node=2 --master_addr=127.0.0.1 \
        --master_port=29611 "$here/wl.py" ) > "$out/failures/host_oom_cgroup.log" 2>&1
    echo "failures/host_oom_cgroup.log: cgroup memory.max=16G WL_MODE=hostoom -> rc=$? secs=$(( $(date +%s) - start ))" >> "$out/INDEX-oom.txt"
    dmesg -T > "$out/failures/host_oom_cgroup.kernel.log" 2>&1
  else
    echo "no cgroup v2 memory controller: host_oom_cgroup skipped" >> "$out/INDEX-oom.txt"
  fi
  trun kill_timestamps_all 29612 90 -- WL_MODE=kill WL_TIMEOUT=20 NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 WL_HOSTS=2 NCCL_DEBUG_TIMESTAMP_LEVELS=ALL "NCCL_DEBUG_TIMESTAMP_FORMAT=[%F %T.%Lf] "
}
laneB() {
  rm -rf /tmp/wl-perrank && mkdir -p /tmp/wl-perrank/nccl
  trun kill_per_rank_files 29621 90 --log-dir /tmp/wl-perrank/torchrun --redirects 3 -- WL_MODE=kill WL_TIMEOUT=20 "NCCL_DEBUG_FILE=/tmp/wl-perrank/nccl/nccl.%h.%p.log"
  mkdir -p "$out/failures/kill_per_rank_files.d" && cp -r /tmp/wl-perrank/. "$out/failures/kill_per_rank_files.d/"
  trun restart_after_kill 29622 150 --max-restarts=1 -- WL_MODE=restartkill WL_TIMEOUT=20
}
laneC() {
  trun late_rank_init_timeout 29631 120 -- WL_MODE=late WL_LATE_S=45 WL_TIMEOUT=15
}
laneA & laneB & laneC &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
