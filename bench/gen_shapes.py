#!/usr/bin/env python3
"""Benchmark inputs of different job shapes, built from the real logs of testdata/corpus/h200x4.

Every line is a corpus line; only host names, pids, communicator pointers, commIds and (in
`long`) the length of rank lists are rewritten. Each shape stresses one way a job can grow:

  mixed     coll_heavy + subsys_all + default, one copy per host (node000..node063), then the
            copies repeat: the shape of the original run_bench.sh (byte-identical to it).
  comms     one job of 4 processes that creates communicators again and again: default.log's
            communicator lifecycle (world comm, two splits per process, their connections,
            Destroy) repeated with new comm pointers and commIds: 3 communicators per
            process per round, --comms per process in all (default 10,000).
  restarts  hundreds of restart attempts of the same 4 processes (same host, same pids, same
            comm pointers, a new commId per attempt): default, p2p_read, cumem_off, two_nodes,
            subsys_all and coll_heavy one after the other, again and again.
  ranks     1,024 ranks on 128 hosts (bench/gen_job.py, whose lines copy corpus formats),
            with COLL lines up to the size.
  coll      NCCL_DEBUG_SUBSYS=INIT,COLL: coll_heavy.log with its COLL lines repeated (a long
            job's collective flood), the teardown at the end.
  all       NCCL_DEBUG_SUBSYS=ALL: subsys_all.log, one copy per host (64 hosts), repeated.
  long      very long lines: default.log with its ring-order and Trees lines printed for 2,048
            to 16,384 ranks / 64 to 1,024 channels (13 KB to 95 KB: the longest are cut at the
            64 KiB line limit), one long line every few lines.
  files     one file per rank (NCCL_DEBUG_FILE=nccl.%h.%p.log): gen_job.py --split for 512
            hosts x 8 GPUs = 4,096 files (a directory).
  hung      files, as a job that hung: every rank's file ends with PyTorch's watchdog lines of
            hang.log's rank 0 (the timeout, the flight-recorder dump, the failed collective's
            stack), renumbered for that rank; the middle rank ends like hang.log's stuck rank 3
            (no timeout of its own, a dump signal from another rank). Exercises the triage of a
            failed job of 4,096 ranks.
  gzip is not generated here: run_bench.sh compresses `mixed`.

  python3 bench/gen_shapes.py SHAPE --size-mb 256 -o FILE     (files: -o DIR)
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "testdata", "corpus", "h200x4")
PTR_RE = re.compile(rb"(?<=comm )0x[0-9a-f]+|(?<=parent )0x[0-9a-f]+")
COMMID_RE = re.compile(rb"commId 0x([0-9a-f]{16})")
PREFIX_RE = re.compile(rb"^([^:\n]+):(\d+):(\d+) \[(\d+)\]", re.M)
# Lines a process prints once in its life (not again for each new communicator).
ONCE_RE = re.compile(rb"NCCL version|cudaDriverVersion|ENV/Plugin|Bootstrap: Using|"
                     rb"NET/Plugin: Could not find|NET/IB : |NET/Socket : Using|"
                     rb"Failed to initialize NET plugin|PROFILER/Plugin|TUNER/Plugin")


def read(name):
    with open(os.path.join(CORPUS, name), "rb") as f:
        return f.read()


class Sink:
    """Writes blocks until the file reaches the target size."""

    def __init__(self, path, size_mb):
        self.f = open(path, "wb")
        self.want = size_mb * 1024 * 1024
        self.size = 0

    def full(self):
        return self.size >= self.want

    def write(self, data):
        self.f.write(data)
        self.size += len(data)

    def close(self):
        self.f.close()


def shape_mixed(out):
    """run_bench.sh's original log: per host h, `sed -e s/^vm:/nodeHHH:/ -e s/commId 0x..../
    commId 0xHHHH/g` of coll_heavy, subsys_all and default; 64 hosts, then repeated."""
    logs = [read(n) for n in ("coll_heavy.log", "subsys_all.log", "default.log")]
    copies = []
    for h in range(64):
        b = b"".join(re.sub(rb"commId 0x....", b"commId 0x%04x" % h,
                            re.sub(rb"^vm:", b"node%03d:" % h, log, flags=re.M)) for log in logs)
        copies.append(b)
    c = 0
    while not out.full():
        out.write(copies[c % 64])
        c += 1


def rewrite_comms(block, round_no):
    """New communicator pointers and commIds for one round (round 0 keeps the corpus values)."""
    if round_no == 0:
        return block
    tag = b"%x" % (0x100 + round_no)
    block = PTR_RE.sub(lambda m: b"0x" + tag + m.group(0)[2:], block)
    return COMMID_RE.sub(lambda m: b"commId 0x%016x" % (int(m.group(1), 16) ^ round_no), block)


def shape_comms(out, comms):
    log = read("default.log")
    lines = log.splitlines(keepends=True)
    # Round 0 is the whole log but its closing line; later rounds leave out the lines a process
    # prints only once.
    closing = [l for l in lines if b"Closing env plugin" in l]
    body = [l for l in lines if b"Closing env plugin" not in l]
    again = b"".join(l for l in body if not ONCE_RE.search(l))
    rounds = (comms + 2) // 3
    out.write(b"".join(body))
    for r in range(1, rounds):
        out.write(rewrite_comms(again, r))
    out.write(b"".join(closing))


def fixed_pids(log):
    """The pid of the process printing on GPU d becomes 1998 + d (one set of pids everywhere)."""
    pids = {}
    for m in PREFIX_RE.finditer(log):
        pids.setdefault(m.group(2), b"%d" % (1998 + int(m.group(4))))

    def sub(m):
        pid = pids.get(m.group(2), m.group(2))
        tid = pid if m.group(3) == m.group(2) else m.group(3)
        return m.group(1) + b":" + pid + b":" + tid + b" [" + m.group(4) + b"]"

    return PREFIX_RE.sub(sub, log)


def shape_restarts(out):
    names = ["default.log", "p2p_read.log", "cumem_off.log", "two_nodes.log", "subsys_all.log",
             "coll_heavy.log"]
    logs = [fixed_pids(read(n)) for n in names]
    a = 0
    while not out.full():
        log = logs[a % len(logs)]
        out.write(COMMID_RE.sub(lambda m: b"commId 0x%016x" % (int(m.group(1), 16) ^ (a + 1)), log))
        a += 1
    return a


def shape_ranks(path, size_mb):
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_job.py"), "--nodes", "128",
                    "--gpus-per-node", "8", "--size-mb", str(size_mb), "-o", path], check=True)


def shape_files(path, size_mb):
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_job.py"), "--nodes", "512",
                    "--gpus-per-node", "8", "--size-mb", str(size_mb), "--split", path],
                   check=True)


def rank_block(log, rank):
    """The lines PyTorch printed for `rank` in hang.log: its [rankN]: lines and the stack frames
    and blank line that follow one of them."""
    out, own = [], False
    tag = b"[rank%d]:" % rank
    for line in log.splitlines(keepends=True):
        if line.startswith(b"[rank"):
            own = line.startswith(tag)
        elif not (line.startswith(b"#") or line == b"\n"):
            own = False
        if own:
            out.append(line)
    return b"".join(out)


def shape_hung(path, size_mb):
    shape_files(path, size_mb)
    log = read("hang.log")
    timed_out, stuck = rank_block(log, 0), rank_block(log, 3)
    rank_re = re.compile(rb" rank (\d+) nranks (\d+) ")
    names = sorted(os.listdir(path))
    for name in names:
        with open(os.path.join(path, name), "rb+") as f:
            text = f.read()
            m = rank_re.search(text)
            r, nranks = int(m.group(1)), int(m.group(2))
            block, old = (stuck, 3) if r == nranks // 2 else (timed_out, 0)
            f.write(re.sub(rb"(\[rank|Rank )%d\b" % old, lambda m: m.group(1) + b"%d" % r, block))


def repeat_middle(out, log, is_middle):
    """The log with its lines for which is_middle() holds repeated until the size is reached,
    placed after the last of them (the teardown stays at the end)."""
    lines = log.splitlines(keepends=True)
    last = max(i for i, l in enumerate(lines) if is_middle(l))
    middle = b"".join(l for l in lines if is_middle(l))
    head, tail = b"".join(lines[:last + 1]), b"".join(lines[last + 1:])
    out.write(head)
    out.want -= len(tail)
    while not out.full():
        out.write(middle)
    out.write(tail)


def shape_coll(out):
    repeat_middle(out, read("coll_heavy.log"), lambda l: b": opCount " in l)


def shape_all(out):
    log = read("subsys_all.log")
    copies = [re.sub(rb"^vm:", b"node%03d:" % h, log, flags=re.M) for h in range(64)]
    c = 0
    while not out.full():
        out.write(copies[c % 64])
        c += 1


def long_lines(log, nranks, nchannels):
    """default.log with its ring-order lines over `nranks` ranks and Trees lines over
    `nchannels` channels, as NCCL prints them for a job of that size."""
    order = b" ".join(b"%d" % r for r in range(nranks))

    def ring(m):
        return m.group(1) + b" : " + order + b"\n"

    log = re.sub(rb"(Channel \d\d/\d\d) : [0-9 ]+\n", ring, log)

    def trees(m):
        one = m.group(2)
        return m.group(1) + b" ".join(b"[%d] %s" % (c, one) for c in range(nchannels)) + b"\n"

    return re.sub(rb"(NCCL INFO Trees )\[0\] (\S+)[^\n]*\n", trees, log)


def shape_long(out):
    log = read("default.log")
    variants = [long_lines(log, n, c) for n, c in ((2048, 64), (4096, 256), (16384, 1024))]
    r = 0
    while not out.full():
        out.write(rewrite_comms(variants[r % len(variants)], r))
        r += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shape", choices=["mixed", "comms", "restarts", "ranks", "coll", "all", "long",
                                      "files", "hung"])
    ap.add_argument("--size-mb", type=int, default=256, help="approximate size (not for comms)")
    ap.add_argument("--comms", type=int, default=10000, help="comms: communicators per process")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    if args.shape == "ranks":
        return shape_ranks(args.output, args.size_mb)
    if args.shape == "files":
        return shape_files(args.output, args.size_mb)
    if args.shape == "hung":
        return shape_hung(args.output, args.size_mb)
    out = Sink(args.output, args.size_mb)
    try:
        if args.shape == "mixed":
            shape_mixed(out)
        elif args.shape == "comms":
            shape_comms(out, args.comms)
        elif args.shape == "restarts":
            shape_restarts(out)
        elif args.shape == "coll":
            shape_coll(out)
        elif args.shape == "all":
            shape_all(out)
        elif args.shape == "long":
            shape_long(out)
    finally:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
