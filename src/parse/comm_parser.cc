// Communicator lifecycle and layout (nccl-log-formats.md §3): Init START/COMPLETE in all version
// forms, Destroy/Abort/Revoke, the nRanks/nNodes summary, Trees, channel counts, "Connected all
// ...", bootstrap and init timings. Hand-parsed as key/value token streams.
#include <string_view>

#include "body_parsers.h"
#include "ncclscope/base/byte_words.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

// Strips one "(" / "," / ")" decoration from both ends of a token.
std::string_view Undecorate(std::string_view t) {
  while (!t.empty() && (t.front() == '(')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ',' || t.back() == ')')) t.remove_suffix(1);
  return t;
}

// Calls fn(key, value) for each "key value" token pair of `s`.
template <typename Fn>
void ForEachPair(std::string_view s, Fn fn) {
  TextCursor c(s);
  while (true) {
    c.SkipSpaces();
    if (c.done()) break;
    std::string_view key = Undecorate(c.ReadToken());
    c.SkipSpaces();
    std::string_view value = Undecorate(c.ReadToken());
    fn(key, value);
  }
}

double ToDouble(std::string_view v) {
  double d = 0;
  TextCursor c(v);
  c.ReadDouble(&d);
  return d;
}

// Fields shared by CommInit/CommEnd/CommTopology heads.
struct CommFields {
  std::string_view comm, bus_id, parent;
  int rank = -1, nranks = 0, cuda_dev = -1, nvml_dev = -1;
  int nnodes = 0, local_ranks = 0, local_rank = -1, mnnvl = 0;
  bool has_nnodes = false;
  std::optional<uint64_t> comm_id;
  std::optional<int64_t> color, key, split_count;
};

std::optional<int64_t> ToInt64(std::string_view v) {
  int64_t x = 0;
  if (ParseWhole(v, &x)) return x;
  return std::nullopt;
}

void ReadCommFields(std::string_view s, CommFields* f) {
  // Keys told apart by their length first: an init line has eight pairs, and a chain of fifteen
  // comparisons per pair was most of its cost.
  ForEachPair(s, [f](std::string_view k, std::string_view v) {
    switch (k.size()) {
      case 3:
        if (k == "key") f->key = ToInt64(v);
        break;
      case 4:
        if (k == "comm") {
          f->comm = v;
        } else if (k == "rank") {
          ParseWhole(v, &f->rank);
        }
        break;
      case 5:
        if (k == "busId") {
          f->bus_id = v;
        } else if (k == "color") {
          f->color = ToInt64(v);
        } else if (k == "MNNVL") {
          ParseWhole(v, &f->mnnvl);
        }
        break;
      case 6:
        if (k == "nranks" || k == "nRanks") {
          ParseWhole(v, &f->nranks);
        } else if (k == "commId") {
          uint64_t id = 0;
          TextCursor c(v);
          if (c.ReadHex(&id)) f->comm_id = id;
        } else if (k == "parent") {
          f->parent = v;
        } else if (k == "nNodes") {
          f->has_nnodes = ParseWhole(v, &f->nnodes);
        }
        break;
      case 7:
        if (k == "cudaDev") {
          ParseWhole(v, &f->cuda_dev);
        } else if (k == "nvmlDev") {
          ParseWhole(v, &f->nvml_dev);
        }
        break;
      case 9:
        if (k == "localRank") ParseWhole(v, &f->local_rank);
        break;
      case 10:
        if (k == "splitCount" || k == "childCount") {
          f->split_count = ToInt64(v);
        } else if (k == "localRanks") {
          ParseWhole(v, &f->local_ranks);
        }
        break;
      default:
        break;
    }
  });
}

// "[Rank N] api comm 0x... - Init START" and friends.
bool ParseCommLifecycle(std::string_view body, EventData* data) {
  TextCursor c(body);
  if (c.Eat("[Rank ")) {
    c.ReadUntil(']');
    if (!c.Eat("] ")) return false;
  }
  std::string_view api;
  if (!StartsWith(c.rest(), "comm ")) {
    api = c.ReadToken();
    if (!StartsWith(api, "nccl") || !c.Eat(' ') || !StartsWith(c.rest(), "comm ")) return false;
  }
  std::string_view rest = c.rest();
  size_t dash = rest.rfind("- ");
  if (dash == std::string_view::npos) {
    // "comm 0x.. rank 1 nRanks 4 nNodes 1 localRanks 4 localRank 1 MNNVL 0"
    CommFields f;
    ReadCommFields(rest, &f);
    if (!f.has_nnodes) {
      // NCCL <= 2.4 ended init with "comm 0x.. rank 0 nranks 2 [cudaDev 0 nvmlDev 0]". A line of a
      // newer version that lost its " - Init ..." tail to a terminal wrap names a busId or
      // commId: not taken as complete (the parser joins it with its continuation).
      if (f.comm.empty() || f.rank < 0 || f.nranks <= 0 || !f.bus_id.empty() || f.comm_id)
        return false;
      CommInit init;
      init.phase = InitPhase::kComplete;
      init.comm = f.comm;
      init.rank = f.rank;
      init.nranks = f.nranks;
      init.cuda_dev = f.cuda_dev;
      init.nvml_dev = f.nvml_dev;
      *data = init;
      return true;
    }
    CommTopology t;
    t.comm = f.comm;
    t.rank = f.rank;
    t.nranks = f.nranks;
    t.nnodes = f.nnodes;
    t.local_ranks = f.local_ranks;
    t.local_rank = f.local_rank;
    t.mnnvl = f.mnnvl;
    *data = t;
    return true;
  }
  std::string_view tail = rest.substr(dash + 2);
  CommFields f;
  ReadCommFields(rest.substr(0, dash), &f);
  if (StartsWith(tail, "Init ") || tail == "COMPLETE") {  // 2.3: "comm 0x.. rank 0 nranks 2 - COMPLETE"
    CommInit init;
    if (tail == "Init START") {
      init.phase = InitPhase::kStart;
    } else if (tail == "Init COMPLETE" || tail == "COMPLETE") {
      init.phase = InitPhase::kComplete;
    } else {
      return false;
    }
    init.api = api;
    init.comm = f.comm;
    init.rank = f.rank;
    init.nranks = f.nranks;
    init.cuda_dev = f.cuda_dev;
    init.nvml_dev = f.nvml_dev;
    init.bus_id = f.bus_id;
    init.comm_id = f.comm_id;
    init.parent = f.parent;
    init.color = f.color;
    init.key = f.key;
    init.split_count = f.split_count;
    *data = init;
    return true;
  }
  CommEnd end;
  if (tail == "Destroy COMPLETE") {
    end.kind = CommEndKind::kDestroy;
  } else if (tail == "Abort COMPLETE") {
    end.kind = CommEndKind::kAbort;
  } else if (tail == "Abort START") {
    end.kind = CommEndKind::kAbortStart;
  } else if (tail == "Revoke START") {
    end.kind = CommEndKind::kRevokeStart;
  } else if (StartsWith(tail, "Revoke COMPLETE")) {
    end.kind = CommEndKind::kRevoke;
  } else {
    return false;
  }
  end.comm = f.comm;
  end.rank = f.rank;
  end.nranks = f.nranks;
  end.cuda_dev = f.cuda_dev;
  end.bus_id = f.bus_id;
  *data = end;
  return true;
}

bool ParseTrees(std::string_view body, EventData* data) {
  if (!StartsWith(body, "Trees")) return false;
  std::string_view rest = body.substr(5);
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '[') return false;
  TreeTopology t;
  for (char ch : rest) {
    if (ch == '[') ++t.channels;
  }
  *data = t;
  return true;
}

// "24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per
// peer"
bool ParseChannelCounts(std::string_view body, EventData* data) {
  ChannelCounts cc;
  bool any = false;
  while (!body.empty()) {
    size_t comma = body.find(", ");
    std::string_view item = body.substr(0, comma);
    TextCursor c(item);
    int n = -1;
    if (!IsDigit(c.Peek()) || !c.ReadInt(&n) || !c.Eat(' ')) return false;
    std::string_view label = c.rest();
    if (label == "coll channels") {
      cc.coll = n;
    } else if (label == "collnet channels") {
      cc.collnet = n;
    } else if (label == "nvls channels") {
      cc.nvls = n;
    } else if (label == "p2p channels") {
      cc.p2p = n;
    } else if (label == "p2p channels per peer") {
      cc.p2p_per_peer = n;
    } else {
      return false;
    }
    any = true;
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 2);
  }
  if (!any) return false;
  *data = cc;
  return true;
}

bool ParseConnectedAll(std::string_view body, EventData* data) {
  ConnectedAll ca;
  TextCursor c(body);
  if (c.Eat("rank ")) {  // "rank %d Connected CollNet"
    int r = -1;
    if (!c.ReadInt(&r) || !c.Eat(' ')) return false;
  }
  if (!c.Eat("Connected ")) return false;
  std::string_view rest = c.rest();
  if (StartsWith(rest, "all ")) {
    rest.remove_prefix(4);
    size_t comma = rest.find(',');
    ca.what = rest.substr(0, comma);
    if (comma != std::string_view::npos) {
      ForEachPair(rest.substr(comma + 1), [&ca](std::string_view k, std::string_view v) {
        if (k == "PXN") ParseWhole(v, &ca.pxn);
        if (k == "GDR") ParseWhole(v, &ca.gdr);
      });
      // "use ring PXN 0 GDR 1" pairs as (use,ring) (PXN,0) (GDR,1).
    }
  } else if (rest == "NVLS tree" || rest == "binomial trees" || rest == "CollNet" ||
             rest == "NVLS" || StartsWith(rest, "NVLS tree")) {
    ca.what = rest;
  } else {
    return false;
  }
  *data = ca;
  return true;
}

bool ParseTimings(std::string_view body, EventData* data) {
  TextCursor c(body);
  if (c.Eat("Bootstrap timings ")) {
    BootstrapTimings t;
    ForEachPair(c.rest(), [&t](std::string_view k, std::string_view v) {
      double d = ToDouble(v);
      if (k == "total") t.total = d;
      if (k == "create") t.create = d;
      if (k == "send") t.send = d;
      if (k == "recv") t.recv = d;
      if (k == "ring") t.ring = d;
      if (k == "delay") t.delay = d;
    });
    *data = t;
    return true;
  }
  if (!c.Eat("Init timings")) return false;
  InitTimings t;
  if (c.Eat(" - ")) {
    t.api = c.ReadUntil(':');
  }
  if (!c.Eat(": ")) return false;
  ForEachPair(c.rest(), [&t](std::string_view k, std::string_view v) {
    if (k == "rank") {
      ParseWhole(v, &t.rank);
      return;
    }
    if (k == "nranks") {
      ParseWhole(v, &t.nranks);
      return;
    }
    double d = ToDouble(v);
    if (k == "total") t.total = d;
    if (k == "kernels") t.kernels = d;
    if (k == "alloc") t.alloc = d;
    if (k == "bootstrap") t.bootstrap = d;
    if (k == "allgathers") t.allgathers = d;
    if (k == "topo") t.topo = d;
    if (k == "graphs") t.graphs = d;
    if (k == "connections") t.connections = d;
    if (k == "rest") t.rest = d;
  });
  *data = t;
  return true;
}

}  // namespace

namespace {

/// NCCL before 2.12's end of ncclCommDestroy: "Destroyed comm 0x7f24c4001af0 rank 4".
bool ParseDestroyedComm(std::string_view body, EventData* data) {
  constexpr std::string_view kHead = "Destroyed comm ";
  if (!StartsWith(body, kHead)) return false;
  TextCursor c(body.substr(kHead.size()));
  CommEnd end;
  end.kind = CommEndKind::kDestroy;
  end.comm = c.ReadToken();
  if (!StartsWith(end.comm, "0x") || end.comm.size() < 3) return false;
  c.SkipSpaces();
  if (!c.Eat("rank ") || !c.ReadInt(&end.rank) || end.rank < 0) return false;
  c.SkipSpaces();
  if (!c.done()) return false;
  *data = end;
  return true;
}

}  // namespace

bool ParseComm(std::string_view body, EventData* data) {
  if (body.empty()) return false;
  switch (body.front()) {
    // The lifecycle forms: "comm ...", "ncclApi comm ...", "[Rank N] ..." (checked here first:
    // many noise bodies start with 'n', "ncclPollProxyResponse ...", or '[', "[Proxy ...").
    case 'c':
      return StartsWith(body, "comm ") && ParseCommLifecycle(body, data);
    case 'n': {
      if (!StartsWith(body, "nccl")) return false;
      const size_t sp = byte_words::FindByte(body.data(), body.size(), ' ');
      return StartsWith(body.substr(sp), " comm ") && ParseCommLifecycle(body, data);
    }
    case '[':
      return StartsWith(body, "[Rank ") && ParseCommLifecycle(body, data);
    case 'T':
      return ParseTrees(body, data);
    case 'D':
      return ParseDestroyedComm(body, data);
    case 'C':
    case 'r':
      return ParseConnectedAll(body, data);
    case 'B':
    case 'I':
      return ParseTimings(body, data);
    default:
      if (IsDigit(body.front())) return ParseChannelCounts(body, data);
      return false;
  }
}

}  // namespace ncclscope::parse_internal
