"""Failure-scenario workload for ncclscope's root-cause corpus (2 GPUs).

A short "training" loop of all-reduces whose ranks fail in a chosen way, so that the
NCCL_DEBUG=INFO log of a real job shows the failure and its fallout.

WL_MODE      basic | kill | segv | abort | pyexc | oom | late | mismatch | stuck | restart
WL_BAD_RANK  rank that misbehaves (default: world - 1)
WL_FAIL_STEP step at which it misbehaves (default 3)
WL_STEPS     steps of the loop (default 6)
WL_TIMEOUT   ProcessGroup timeout in seconds (default 120)
WL_HOSTS     N: rank r pretends to live on host r // (world / N) (NCCL_HOSTID)
WL_LATE_S    late: seconds the bad rank sleeps before init_process_group
WL_STUCK_S   stuck: seconds the bad rank sleeps in Python at the failing step
WL_LAZY      1: init_process_group without device_id (NCCL's communicator is created at the
             first collective)
WL_BAD_IFNAME  the bad rank alone sets NCCL_SOCKET_IFNAME to this before init
WL_SAME_GPU  1: every rank uses GPU 0 (a duplicate GPU)
WL_BAD_ENV   K=V[,K=V]: set on the bad rank alone before init (e.g. NCCL_BUFFSIZE)
WL_SUBGROUPS 1: each step all-reduces in a subgroup of two ranks ([0,1], [2,3], ...) first
Modes added for batch 4: devassert (an out-of-bounds index: CUDA device-side assert), exit0
(sys.exit(0) at the failing step), done_early (destroy_process_group() and return at the failing
step), uneven (the bad rank runs only WL_FAIL_STEP steps, then the
normal end: barrier, destroy), gpuhang (the bad rank's GPU busy for WL_STUCK_S before its
all-reduce: torch.cuda._sleep), sigterm (nothing: the runner stops torchrun from outside). Batch 7: exit3 (sys.exit(3), no
traceback), p2p_skip (rank 0 sends to rank 1 every step, the bad rank skips one recv),
pyexc_early (the bad rank raises before init_process_group). Batch 8: dtype (the bad rank
all-reduces a half copy where the others reduce float, same element count).
"""
import sys
import ctypes
import datetime
import logging
import os
import signal
import time

import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

log = logging.getLogger("train")


def env_ranks():
    # mpirun starts the workers itself: map Open MPI's variables to torch's.
    if "RANK" not in os.environ and "OMPI_COMM_WORLD_RANK" in os.environ:
        os.environ["RANK"] = os.environ["OMPI_COMM_WORLD_RANK"]
        os.environ["WORLD_SIZE"] = os.environ["OMPI_COMM_WORLD_SIZE"]
        os.environ["LOCAL_RANK"] = os.environ["OMPI_COMM_WORLD_LOCAL_RANK"]
    return (int(os.environ["LOCAL_RANK"]), int(os.environ["RANK"]),
            int(os.environ["WORLD_SIZE"]))


def train_step(step, x, rank, world, mode, bad, groups=None):
    if rank == bad and step == int(os.environ.get("WL_FAIL_STEP", "3")):
        if mode == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        elif mode == "segv":
            ctypes.string_at(0)
        elif mode == "abort":
            os.abort()
        elif mode == "restartkill" and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0":
            os.kill(os.getpid(), signal.SIGKILL)
        elif mode == "pyexc" or (mode == "restart" and
                                 os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0"):
            raise ValueError(f"loss became NaN at step {step}")
        elif mode == "oom":
            big = torch.empty((200 * 1024 ** 3) // 4, device="cuda")
            x.add_(big[:1])
        elif mode == "mismatch":
            # Another collective than the other ranks: all-to-all instead of all-reduce.
            out = torch.empty_like(x)
            dist.all_to_all_single(out, x)
            torch.cuda.synchronize()
            return
        elif mode == "hostoom":
            # Host memory until the kernel's OOM killer (a cgroup limit) ends the process.
            hog = []
            while True:
                hog.append(bytearray(512 * 1024 * 1024))
                hog[-1][::4096] = b"x" * len(hog[-1][::4096])
        elif mode == "stuck":
            time.sleep(float(os.environ.get("WL_STUCK_S", "60")))
        elif mode == "devassert":
            idx = torch.tensor([x.numel() * 4], device="cuda")
            x[idx] = 0.0
            torch.cuda.synchronize()
        elif mode == "exit3":
            log.info("rank %d gives up at step %d", rank, step)
            sys.exit(3)
        elif mode == "exit0":
            log.info("rank %d leaves at step %d", rank, step)
            sys.exit(0)
        elif mode == "dtype":
            # The same collective with another dtype (half where the others reduce float).
            y = x.half()
            dist.all_reduce(y)
            torch.cuda.synchronize()
            return
        elif mode == "gpuhang":
            # About WL_STUCK_S seconds of GPU time at ~1.8 GHz, before the all-reduce.
            torch.cuda._sleep(int(float(os.environ.get("WL_STUCK_S", "60")) * 1.8e9))
    if mode == "p2p_skip":
        # A pipeline's hand-off: rank 0 sends to rank 1 every step; the bad rank skips one recv.
        buf = x  # 64 MB: more than NCCL buffers, so a send waits for its recv
        if rank == 0:
            dist.send(buf, dst=1)
        elif rank == 1 and not (rank == bad and step == int(os.environ.get("WL_FAIL_STEP", "3"))):
            dist.recv(buf, src=0)
    if groups is not None:
        dist.all_reduce(x, group=groups[rank // 2])
    dist.all_reduce(x)
    torch.cuda.synchronize()


@record
def main():
    mode = os.environ.get("WL_MODE", "basic")
    local, rank, world = env_ranks()
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s %(levelname)s [rank{rank}] %(message)s")
    bad = int(os.environ.get("WL_BAD_RANK", str(world - 1)))
    hosts = int(os.environ.get("WL_HOSTS", "0"))
    if hosts:
        per = max(1, world // hosts)
        os.environ["NCCL_HOSTID"] = f"simhost{rank // per}"
    ngpu = torch.cuda.device_count()
    if os.environ.get("WL_SAME_GPU") == "1":
        ngpu = 1
    if rank == bad and os.environ.get("WL_BAD_IFNAME"):
        os.environ["NCCL_SOCKET_IFNAME"] = os.environ["WL_BAD_IFNAME"]
    if rank == bad and os.environ.get("WL_BAD_ENV"):
        for kv in os.environ["WL_BAD_ENV"].split(","):
            k, v = kv.split("=", 1)
            os.environ[k] = v
    if os.environ.get("WL_NO_NCCL_DEBUG") == "1":
        os.environ.pop("NCCL_DEBUG", None)  # as most production jobs run: PyTorch's lines only
    torch.cuda.set_device(local % ngpu)
    if mode == "pyexc_early" and rank == bad:
        raise ImportError("cannot import name 'FusedAdam' from 'apex.optimizers'")
    if mode == "late" and rank == bad:
        time.sleep(float(os.environ.get("WL_LATE_S", "15")))
    timeout = datetime.timedelta(seconds=int(os.environ.get("WL_TIMEOUT", "120")))
    if os.environ.get("WL_LAZY") == "1":
        dist.init_process_group("nccl", timeout=timeout)
    else:
        dist.init_process_group("nccl", device_id=torch.device("cuda", local % ngpu),
                                timeout=timeout)
    log.info("process group ready: world %d, cuda device %d", world, local % ngpu)
    groups = None
    if os.environ.get("WL_SUBGROUPS") == "1":
        groups = [dist.new_group([2 * i, 2 * i + 1]) for i in range(world // 2)]
    x = torch.ones(16 * 1024 * 1024, device="cuda")
    steps = int(os.environ.get("WL_STEPS", "6"))
    if mode == "uneven" and rank == bad:
        steps = int(os.environ.get("WL_FAIL_STEP", "3"))
        log.info("rank %d has %d batches only", rank, steps)
    for step in range(steps):
        if mode == "done_early" and rank == bad and step == int(os.environ.get("WL_FAIL_STEP", "3")):
            # The loop ends early on this rank, which then ends cleanly (destroy, return).
            log.info("rank %d is done at step %d", rank, step)
            dist.destroy_process_group()
            return
        train_step(step, x, rank, world, mode, bad, groups)
        if rank == 0:
            log.info("step %d done", step)
        time.sleep(0.2)
    dist.barrier()
    dist.destroy_process_group()
    if rank == 0:
        log.info("training finished")


if __name__ == "__main__":
    main()
