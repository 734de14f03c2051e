// PrefixIdentities: what a launcher's tag or a collector's pid before a line says of who printed
// it, checked against the NCCL heads printed under them.
//
// A launcher's tag (srun's `3: `, mpirun's `[1,3]<stderr>:`, torchrun's `[default3]:`) names
// the task that printed; it is a rank only when each task is one process. `srun -l torchrun`
// and mpirun starting one torchrun per node tag every worker of a node with the node's task
// number: NCCL lines of several processes, on several GPUs, under one tag. Such a tag says
// nothing of the rank of a line without NCCL's head (a traceback, a watchdog line).
//
// A collector's pid (syslog's and journald's `python3[4242]:`, a journal record's _PID) is the
// process the collector read the stream from: for a service that runs a launcher, the launcher,
// not the worker that wrote the line. It names the writer only if the NCCL heads under it carry
// the same pid (Ray's and vLLM's `pid=N` do).
#ifndef NCCLSCOPE_SRC_MODEL_PREFIX_IDENTITIES_H_
#define NCCLSCOPE_SRC_MODEL_PREFIX_IDENTITIES_H_

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ncclscope/parse/events.h"

namespace ncclscope {

class PrefixIdentities {
 public:
  /// An NCCL line with its head (ctx.pid, ctx.dev) of the builder's process `proc`, printed
  /// under ctx.meta's prefixes. Cheap when the process's prefixes did not change.
  void Note(int proc, const EventContext& ctx) {
    if (ctx.meta == nullptr) return;
    const LineMeta& m = *ctx.meta;
    // Most lines carry neither (a plain log): one test for them.
    if ((m.launcher_rank < 0 && m.origin_pid == 0) || proc < 0 || ctx.pid == 0) return;
    const int tag = m.launcher_rank_global ? -1 : m.launcher_rank;
    if (static_cast<size_t>(proc) >= seen_.size()) seen_.resize(static_cast<size_t>(proc) + 1);
    Seen& s = seen_[static_cast<size_t>(proc)];
    if (s.noted && s.tag == tag && s.origin_pid == m.origin_pid && s.source == ctx.source) return;
    s = Seen{true, ctx.source, tag, m.origin_pid};
    NoteChange(ctx, tag, m.origin_pid);
  }

  /// A launcher agent's line (torchrun's "Sending process N closing signal", its exit report,
  /// its ChildFailedError table) under ctx.meta's tag: the tag is the task that runs the agent,
  /// not one rank.
  void NoteAgent(const EventContext& ctx) {
    if (ctx.meta == nullptr || ctx.meta->launcher_rank < 0 || ctx.meta->launcher_rank_global)
      return;
    tags_[Key(ctx.source, static_cast<uint32_t>(ctx.meta->launcher_rank))].several = true;
  }

  /// False when the launcher's tag `tag` of input `source` was printed before NCCL lines of
  /// several processes on several GPUs, or before a launcher agent's lines (a node's launcher
  /// task, not a rank).
  bool TagIsRank(uint32_t source, int tag) const {
    const auto it = tags_.find(Key(source, static_cast<uint32_t>(tag)));
    return it == tags_.end() || !it->second.several;
  }
  /// False when NCCL lines under the collector's pid `pid` of input `source` carry another pid.
  bool PidIsWriter(uint32_t source, uint32_t pid) const {
    return foreign_pids_.count(Key(source, pid)) == 0;
  }

 private:
  struct Seen {
    bool noted = false;
    uint32_t source = 0;
    int tag = -1;
    uint32_t origin_pid = 0;
  };
  /// The first process seen under a tag, and whether another one on another GPU followed.
  struct Cover {
    uint32_t pid = 0;
    int dev = -1;
    bool several = false;
  };
  static uint64_t Key(uint32_t source, uint32_t value) { return (uint64_t{source} << 32) | value; }
  void NoteChange(const EventContext& ctx, int tag, uint32_t origin_pid);

  std::vector<Seen> seen_;  ///< By the builder's process index.
  std::unordered_map<uint64_t, Cover> tags_;
  std::unordered_set<uint64_t> foreign_pids_;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_SRC_MODEL_PREFIX_IDENTITIES_H_
