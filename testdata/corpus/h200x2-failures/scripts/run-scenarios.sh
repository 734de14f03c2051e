#!/bin/bash
# Failure scenarios and extra configurations on a 2-GPU machine, four lanes in parallel.
# Usage: run-scenarios.sh OUTDIR   (each run's combined output is kept as produced)
set -u
out=$1
mkdir -p "$out/failures" "$out/extra"
here=$(cd "$(dirname "$0")" && pwd)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
ngpu=2
has_monitor=0
torchrun --help 2>&1 | grep -q -- '--monitor-interval' && has_monitor=1

# trun DIR NAME PORT LIMIT NPROC [torchrun flags --] env...
trun() {
  local dir=$1 name=$2 port=$3 t=$4 np=$5; shift 5
  local flags=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  local start=$(date +%s)
  env "$@" timeout -k 5 "$t" torchrun "${flags[@]}" --nnodes=1 --nproc_per_node="$np" \
      --master_addr=127.0.0.1 --master_port="$port" "$here/wl.py" > "$out/$dir/$name.log" 2>&1
  local rc=$?
  echo "$dir/$name.log: nproc=$np torchrun ${flags[*]} env: $* -> rc=$rc secs=$(( $(date +%s) - start )) lines=$(wc -l < "$out/$dir/$name.log")" >> "$out/INDEX-$dir-$name.txt"
}

laneA() {
  trun failures kill_p2p 29511 90 2 -- WL_MODE=kill WL_TIMEOUT=20
  trun failures segv 29512 90 2 -- WL_MODE=segv WL_TIMEOUT=20
  trun failures abort 29513 90 2 -- WL_MODE=abort WL_TIMEOUT=20
  trun failures pyexc 29514 90 2 -- WL_MODE=pyexc WL_TIMEOUT=20
  trun failures cuda_oom 29515 90 2 -- WL_MODE=oom WL_TIMEOUT=20
  trun failures buffsize_all_die 29516 90 2 -- WL_TIMEOUT=20 NCCL_BUFFSIZE=17179869184
  trun failures kill_tee 29517 90 2 --tee 3 -- WL_MODE=kill WL_TIMEOUT=20
  trun failures stuck_4ranks_socket 29524 100 4 -- WL_MODE=stuck WL_TIMEOUT=20 WL_STUCK_S=45 WL_HOSTS=4
}
laneB() {
  trun failures stuck_p2p 29521 100 2 -- WL_MODE=stuck WL_TIMEOUT=20 WL_STUCK_S=45 TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_NCCL_DEBUG_INFO_TEMP_FILE=/tmp/fr_stuck_
  trun failures mismatch_p2p 29522 100 2 -- WL_MODE=mismatch WL_TIMEOUT=20 TORCH_NCCL_DUMP_ON_TIMEOUT=0 TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC=30
  trun failures mismatch_4ranks_socket 29523 100 4 -- WL_MODE=mismatch WL_TIMEOUT=20 WL_HOSTS=4 TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC=30
}
laneC() {
  local mon=()
  [ $has_monitor = 1 ] && mon=(--monitor-interval 5)
  trun failures kill_socket 29531 90 2 "${mon[@]}" -- WL_MODE=kill WL_TIMEOUT=20 NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 WL_HOSTS=2
  trun failures late_rank 29532 90 2 -- WL_MODE=late WL_LATE_S=15
  trun failures elastic_restart 29533 120 2 --max-restarts=1 -- WL_MODE=restart WL_TIMEOUT=20
  rm -rf /tmp/wl-logdir
  trun failures pyexc_logdir 29534 90 2 --log-dir /tmp/wl-logdir --redirects 3 --tee 3 -- WL_MODE=pyexc WL_TIMEOUT=20
  mkdir -p "$out/failures/pyexc_logdir.files" && cp -r /tmp/wl-logdir/. "$out/failures/pyexc_logdir.files/" 2>/dev/null
  trun failures mismatch_detail 29535 90 2 -- WL_MODE=mismatch WL_TIMEOUT=20 TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO
  if command -v mpirun >/dev/null; then
    local start=$(date +%s)
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 5 90 mpirun --allow-run-as-root \
      -np 2 --tag-output -x NCCL_DEBUG -x NCCL_NVLS_ENABLE -x TORCH_SYMM_MEM_DISABLE_MULTICAST \
      -x NVSHMEM_DISABLE_NVLS -x PYTHONUNBUFFERED -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29536 \
      -x WL_MODE=kill -x WL_TIMEOUT=20 python3 "$here/wl.py" > "$out/failures/mpirun_kill.log" 2>&1
    echo "failures/mpirun_kill.log: mpirun -np 2 --tag-output WL_MODE=kill -> rc=$? secs=$(( $(date +%s) - start ))" >> "$out/INDEX-failures-mpirun_kill.txt"
  fi
}
laneD() {
  trun extra subsys_init_net_proxy 29541 90 2 -- NCCL_DEBUG_SUBSYS=INIT,NET,PROXY
  trun extra max_nchannels_2 29542 90 2 -- NCCL_MAX_NCHANNELS=2
  trun extra topo_file_missing 29543 90 2 -- NCCL_TOPO_FILE=/nonexistent.xml
  trun extra algo_tree_proto_ll 29544 90 2 -- NCCL_ALGO=Tree NCCL_PROTO=LL
  trun extra ifname_lo_2hosts 29545 90 2 -- NCCL_SOCKET_IFNAME=lo WL_HOSTS=2
  trun extra ib_disable_net_socket_2hosts 29546 90 2 -- NCCL_IB_DISABLE=1 NCCL_NET=Socket WL_HOSTS=2
  trun extra timestamps_all_levels_subsys_all 29547 90 2 -- NCCL_DEBUG_TIMESTAMP_LEVELS=ALL NCCL_DEBUG_SUBSYS=ALL
}

{
  date; nvidia-smi; nvidia-smi topo -m; command -v mpirun; mpirun --version 2>&1 | head -2
  python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version(), torch.cuda.device_count())'
  ip -br addr 2>&1
} > "$out/MACHINE.txt" 2>&1
laneA & laneB & laneC & laneD &
wait
cat "$out"/INDEX-*.txt > "$out/INDEX.txt"; rm -f "$out"/INDEX-*.txt
