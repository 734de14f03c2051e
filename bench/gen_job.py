#!/usr/bin/env python3
"""Synthetic NCCL 2.28 INFO log of a large multi-node job, for scale and throughput tests.

Every line copies a format seen in the real logs of testdata/corpus (h200x4/*.log, seeds/):
version/env/bootstrap/NET/IB lines, ncclCommInitRankConfig Init START/COMPLETE of the world
communicator, the "comm ... nRanks nNodes localRanks localRank MNNVL" line, GRAPH "Pattern ...
type NVL/PIX" lines (which prove NVLink within a node), ring order lines of rank 0, connection
lines (P2P/CUMEM/read within a node; NET/IB/<nic>/GDRDMA [send] and its [receive] twin between
nodes), "Connected all rings", and two ncclCommSplit sub-communicators: TP (the GPUs of a node)
and DP (the same local GPU on every node). Optionally COLL lines ("AllReduce: opCount ...").

Output: one interleaved stream (as `kubectl logs` of a job shows it) on stdout or -o FILE, or one
file per rank (NCCL_DEBUG_FILE=nccl.%h.%p.log style) with --split DIR. Deterministic for a seed.

  python3 bench/gen_job.py --nodes 128 --gpus-per-node 8 -o /tmp/job1024.log
  python3 bench/gen_job.py --nodes 16 --gpus-per-node 8 --coll-lines 100 --split /tmp/ranks
  python3 bench/gen_job.py --nodes 4 --size-mb 500 -o /tmp/big.log   # throughput input
"""

import argparse
import os
import random
import sys

BUS_IDS = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db", "1b", "2b", "3b", "4b", "8b", "9b",
           "cb", "db0"]


class Rank:
    """One process driving one GPU."""

    def __init__(self, r, args, rng):
        g = args.gpus_per_node
        self.rank = r
        self.node = r // g
        self.local = r % g
        self.host = "node%03d" % self.node
        self.pid = 4000 + self.local
        self.prefix = "%s:%d:%d [%d] NCCL INFO " % (self.host, self.pid, self.pid, self.local)
        self.bus = BUS_IDS[self.local % len(BUS_IDS)]
        self.addr = "10.0.%d.%d" % (self.node // 250, self.node % 250 + 2)
        self.world_ptr = "0x%x" % (0x30000000 + rng.randrange(0x1000000) * 16)
        self.tp_ptr = "0x%x" % (0x50000000 + rng.randrange(0x1000000) * 16)
        self.dp_ptr = "0x%x" % (0x70000000 + rng.randrange(0x1000000) * 16)

    def info(self, body):
        return self.prefix + body


def comm_init(me, api, ptr, rank, nranks, extra, phase):
    return me.info("%s comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s %s- Init %s" %
                   (api, ptr, rank, nranks, me.local, me.local, me.bus, extra, phase))


def connections(me, members, index, nchannels, ranks):
    """Connection lines printed by member `index` of a ring over `members` (global ranks)."""
    out = []
    n = len(members)
    if n < 2:
        return out
    nxt = ranks[members[(index + 1) % n]]
    prv = ranks[members[(index - 1) % n]]
    for c in range(nchannels):
        if nxt.node == me.node:
            out.append(me.info("Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read" %
                               (c, index, me.local, (index + 1) % n, nxt.local)))
        else:
            out.append(me.info("Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA" %
                               (c, index, me.local, (index + 1) % n, nxt.local, me.local)))
        if prv.node != me.node:
            out.append(me.info("Channel %02d/0 : %d[%d] -> %d[%d] [receive] via NET/IB/%d/GDRDMA"
                               % (c, (index - 1) % n, prv.local, index, me.local, me.local)))
    return out


def comm_setup(me, ptr, rank, nranks, nnodes, local_ranks, local_rank, nchannels, api, extra,
               members, ranks, index):
    """Init START ... Init COMPLETE and the connection lines of one communicator."""
    lines = [comm_init(me, api, ptr, rank, nranks, extra, "START")]
    lines.append(me.info("MNNVL busId 0x%s fabric UUID 0.0 cliqueId 0x0 state 3 healthMask 0x0" %
                         me.bus))
    lines.append(me.info("comm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0" %
                         (ptr, rank, nranks, nnodes, local_ranks, local_rank)))
    lines.append(me.info("Pattern 4, crossNic 0, nChannels %d, bw 40.000000/40.000000, type "
                         "NVL/PIX, sameChannels 1" % nchannels))
    if rank == 0:
        order = " ".join(str(i) for i in range(nranks))
        for c in range(nchannels):
            lines.append(me.info("Channel %02d/%02d : %s" % (c, nchannels, order)))
    nxt = (rank + 1) if rank + 1 < nranks else -1
    prv = rank - 1
    lines.append(me.info("Trees " + " ".join("[%d] %d/-1/-1->%d->%d" % (c, nxt, rank, prv)
                                             for c in range(nchannels))))
    lines.append(me.info("P2P Chunksize set to 131072"))
    lines.append(me.info("%d coll channels, %d collnet channels, 0 nvls channels, %d p2p "
                         "channels, 2 p2p channels per peer" % (nchannels, nchannels, nchannels)))
    lines.append(me.info("CC Off, workFifoBytes 1048576"))
    lines.append(comm_init(me, api, ptr, rank, nranks, extra, "COMPLETE"))
    lines.append(me.info("Init timings - %s: rank %d nranks %d total 1.13 (kernels 0.39, alloc "
                         "0.04, bootstrap 0.68, allgathers 0.00, topo 0.02, graphs 0.00, "
                         "connections 0.00, rest 0.00)" % (api, rank, nranks)))
    lines.extend(connections(me, members, index, nchannels, ranks))
    lines.append(me.info("Connected all rings, use ring PXN 0 GDR 1"))
    return lines


def rank_phases(me, args, ranks, comm_id):
    """The lines of one rank, as a list of phases (a phase ends where ranks synchronise)."""
    g, nodes = args.gpus_per_node, args.nodes
    n = g * nodes
    nics = " ".join("[%d]mlx5_%d:1/IB" % (i, i) for i in range(g))
    setup = [
        me.info("ENV/Plugin: Could not find: libnccl-env.so"),
        me.info("Bootstrap: Using eth0:%s<0>" % me.addr),
        me.info("cudaDriverVersion 13000"),
        me.info("NCCL version 2.28.9+cuda13.0"),
        me.info("Comm config Blocking set to 1"),
        me.info("NET/Plugin: Could not find: libnccl-net.so"),
        me.info("NET/IB : Using %s [RO]; OOB eth0:%s<0>" % (nics, me.addr)),
        me.info("Initialized NET plugin IB"),
        me.info("Assigned NET plugin IB to comm"),
        me.info("Using network IB"),
    ]
    world = setup + [
        me.info("NET/IB : GPU Direct RDMA Enabled for HCA %d 'mlx5_%d'" % (me.local, me.local)),
        me.info("Bootstrap timings total 0.679460 (create 0.000034, send 0.000098, recv 0.678968,"
                " ring 0.000106, delay 0.000001)"),
    ] + comm_setup(me, me.world_ptr, me.rank, n, nodes, g, me.local, args.channels,
                   "ncclCommInitRankConfig", "commId 0x%016x " % comm_id, list(range(n)), ranks,
                   me.rank)
    tp_members = [me.node * g + i for i in range(g)]
    tp = comm_setup(me, me.tp_ptr, me.local, g, 1, g, me.local, args.channels, "ncclCommSplit",
                    "parent %s splitCount 1 color %d key %d" % (me.world_ptr, me.node, me.local),
                    tp_members, ranks, me.local)
    dp_members = [i * g + me.local for i in range(nodes)]
    dp = comm_setup(me, me.dp_ptr, me.node, nodes, nodes, 1, 0, args.channels, "ncclCommSplit",
                    "parent %s splitCount 2 color %d key %d" % (me.world_ptr, me.local, me.node),
                    dp_members, ranks, me.node)
    return [world, tp, dp]


def coll_line(me, op_count, comm, nranks):
    return me.info("AllReduce: opCount %x sendbuff 0x7f198ae00000 recvbuff 0x7f198ae00000 count "
                   "16777216 datatype 7 op 0 root 0 comm %s [nranks=%d] stream (nil)" %
                   (op_count, comm, nranks))


def interleave(rng, per_rank, out):
    """Writes the ranks' lines mixed as concurrent processes print them: short runs of one rank
    at a time, each rank's own order kept."""
    pos = [0] * len(per_rank)
    live = [i for i, lines in enumerate(per_rank) if lines]
    while live:
        k = rng.randrange(len(live))
        i = live[k]
        run = rng.randint(1, 4)
        lines = per_rank[i]
        end = min(pos[i] + run, len(lines))
        out.write("\n".join(lines[pos[i]:end]))
        out.write("\n")
        pos[i] = end
        if end == len(lines):
            live[k] = live[-1]
            live.pop()


def coll_rounds(args, ranks, approx_setup_bytes):
    """How many COLL lines per rank: --coll-lines, or enough to reach --size-mb."""
    if not args.size_mb:
        return args.coll_lines
    per_round = sum(len(coll_line(r, 0, r.world_ptr, 1)) + 8 for r in ranks)
    target = args.size_mb * 1024 * 1024 - approx_setup_bytes
    return max(args.coll_lines, target // per_round + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=128)
    ap.add_argument("--gpus-per-node", type=int, default=8)
    ap.add_argument("--channels", type=int, default=4, help="channels per communicator")
    ap.add_argument("--coll-lines", type=int, default=0, help="COLL lines per rank")
    ap.add_argument("--size-mb", type=int, default=0,
                    help="add COLL lines until the output is about this large")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", help="output file (default stdout)")
    ap.add_argument("--split", metavar="DIR", help="one file per rank in DIR")
    args = ap.parse_args()
    if args.nodes < 1 or args.gpus_per_node < 1 or args.gpus_per_node > len(BUS_IDS):
        ap.error("need --nodes >= 1 and 1 <= --gpus-per-node <= %d" % len(BUS_IDS))

    rng = random.Random(args.seed)
    n = args.nodes * args.gpus_per_node
    ranks = [Rank(r, args, rng) for r in range(n)]
    comm_id = rng.getrandbits(64)
    phases = [rank_phases(me, args, ranks, comm_id) for me in ranks]
    setup_bytes = sum(len(l) + 1 for p in phases for ph in p for l in ph)
    rounds = coll_rounds(args, ranks, setup_bytes)

    def colls(me, start, count):
        comms = [(me.world_ptr, n)] * 6 + [(me.tp_ptr, args.gpus_per_node),
                                           (me.dp_ptr, args.nodes)]
        return [coll_line(me, k, *comms[k % len(comms)]) for k in range(start, start + count)]

    if args.split:
        os.makedirs(args.split, exist_ok=True)
        for me, p in zip(ranks, phases):
            path = os.path.join(args.split, "nccl.%s.%d.log" % (me.host, me.pid))
            with open(path, "w") as f:
                for ph in p:
                    f.write("\n".join(ph) + "\n")
                for start in range(0, rounds, 1000):
                    f.write("\n".join(colls(me, start, min(1000, rounds - start))) + "\n")
        return 0

    out = open(args.output, "w") if args.output else sys.stdout
    try:
        for k in range(3):
            interleave(rng, [p[k] for p in phases], out)
        batch = 64
        for start in range(0, rounds, batch):
            count = min(batch, rounds - start)
            interleave(rng, [colls(me, start, count) for me in ranks], out)
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
