// Connection lines (nccl-log-formats.md §2), ring orders and GRAPH ring lines. Hand-parsed, no
// regex and no heap allocation on the connection path.
#include <string_view>

#include "body_parsers.h"
#include "ncclscope/parse/line_parser.h"
#include "ncclscope/parse/ring_ranks.h"
#include "text_cursor.h"

namespace ncclscope {
namespace parse_internal {
namespace {

// "rank" or "rank[dev]".
bool ReadRankDev(TextCursor* c, int* rank, std::string_view* dev) {
  if (!IsDigit(c->Peek()) || !c->ReadInt(rank)) return false;
  if (c->Eat('[')) {
    std::string_view d = c->ReadUntil(']');
    if (!c->Eat(']')) return false;
    *dev = d;
  }
  return true;
}

// "Channel NN/I : " / "Ring NN : " / "CollNet NN/I : " / "Coll NN : " header.
bool ReadConnHeader(TextCursor* c, ConnKind* kind, int* channel, int* index) {
  if (c->Eat("Channel ")) {
    *kind = ConnKind::kChannel;
  } else if (c->Eat("Ring ")) {
    *kind = ConnKind::kRing;
  } else if (c->Eat("CollNet ") || c->Eat("Coll ")) {
    *kind = ConnKind::kCollNet;
  } else {
    return false;
  }
  if (!IsDigit(c->Peek()) || !c->ReadInt(channel)) return false;
  if (c->Eat('/')) {
    if (!IsDigit(c->Peek()) || !c->ReadInt(index)) return false;
  }
  return c->Eat(" : ");
}

}  // namespace

bool ParseConnection(std::string_view body, EventData* data) {
  TextCursor c(body);
  Connection conn;
  if (!ReadConnHeader(&c, &conn.kind, &conn.channel, &conn.conn_index)) return false;
  if (!ReadRankDev(&c, &conn.src_rank, &conn.src_dev)) return false;
  if (c.Eat(" -> ")) {
    if (!ReadRankDev(&c, &conn.dst_rank, &conn.dst_dev)) return false;
  } else if (conn.kind != ConnKind::kCollNet) {
    return false;
  }
  if (c.Eat(" [send]")) {
    conn.direction = ConnDirection::kSend;
  } else if (c.Eat(" [receive]")) {
    conn.direction = ConnDirection::kReceive;
  }
  if (!c.Eat(" via ")) return false;
  conn.raw = Trim(c.rest());
  conn.transport = ParseTransport(conn.raw);
  *data = conn;
  return true;
}

bool ParseBareNetConnection(std::string_view body, EventData* data) {
  // NCCL before 2.3, once per ring, without the ring's number: "7 -> 8 via NET/Socket/0"
  // (netRecvSetup, printed by the receiving rank, the second) and, printed by the sending rank,
  // "0[5223] -> 1[5224] via direct shared memory" (the pids in brackets) or "0[0] -> 1[1] via
  // P2P/IPC" (the devices). The bracketed numbers are not kept: they are not always devices.
  TextCursor c(body);
  Connection conn;
  auto skip_bracket = [&c] {
    if (!c.Eat('[')) return true;
    int ignored = 0;
    return c.ReadInt(&ignored) && c.Eat(']');
  };
  if (!IsDigit(c.Peek()) || !c.ReadInt(&conn.src_rank) || !skip_bracket() || !c.Eat(" -> ") ||
      !IsDigit(c.Peek()) || !c.ReadInt(&conn.dst_rank) || !skip_bracket() || !c.Eat(" via ")) {
    return false;
  }
  conn.kind = ConnKind::kRing;
  conn.raw = Trim(c.rest());
  if (conn.raw.empty()) return false;
  conn.direction = StartsWith(conn.raw, "NET/") ? ConnDirection::kReceive : ConnDirection::kSend;
  conn.transport = ParseTransport(conn.raw);
  *data = conn;
  return true;
}

bool ParseRingOrder(std::string_view body, EventData* data) {
  TextCursor c(body);
  RingOrder ring;
  // "Channel 00/24 : 0 1 2 3"; NCCL <= 2.6 printed "Ring 00 :    0   1".
  if ((!c.Eat("Channel ") && !c.Eat("Ring ")) || !IsDigit(c.Peek()) || !c.ReadInt(&ring.channel))
    return false;
  if (c.Eat('/') && !c.ReadInt(&ring.nchannels)) return false;
  if (!c.Eat(" :")) return false;
  // Rings of thousands of ranks (one line per channel at init): checked and counted a word at a
  // time; the numbers are decoded only on request (DecodeRingRanks).
  RingRankCount count;
  if (!ScanRingRanks(c.rest(), &count)) return false;
  ring.ranks = Trim(c.rest());
  ring.nranks = count.count;
  ring.cut = count.cut;
  *data = ring;
  return true;
}

bool ParseGraphRing(std::string_view body, EventData* data) {
  TextCursor c(body);
  GraphRing g;
  if (!c.Eat("Ring ") || !c.ReadInt(&g.channel) || !c.Eat(" : ")) return false;
  if (!c.ReadInt(&g.prev) || !c.Eat(" -> ") || !c.ReadInt(&g.me) || !c.Eat(" -> ") ||
      !c.ReadInt(&g.next)) {
    return false;
  }
  if (!Trim(c.rest()).empty()) return false;
  *data = g;
  return true;
}

}  // namespace parse_internal

namespace {

using parse_internal::IsDigit;
using parse_internal::StartsWith;
using parse_internal::TextCursor;

// Suffix segments after the mode: "read", "CE", "GDRDMA", "GDRDMA(PCI)", "Shared".
void ApplySuffix(std::string_view seg, TransportSpec* t) {
  if (seg == "read") {
    t->read = true;
  } else if (seg == "CE") {
    t->ce = true;
  } else if (StartsWith(seg, "GDRDMA")) {
    t->gdrdma = true;
    if (seg.find("(PCI)") != std::string_view::npos) t->pci = true;
  } else if (seg == "(PCI)") {
    t->pci = true;
  } else if (seg == "Shared") {
    t->shared = true;
  }
}

// Applies "/seg/seg..." (leading '/' optional).
void ApplySuffixes(std::string_view rest, TransportSpec* t) {
  while (!rest.empty()) {
    if (rest.front() == '/') rest.remove_prefix(1);
    size_t slash = rest.find('/');
    std::string_view seg = rest.substr(0, slash);
    ApplySuffix(seg, t);
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash);
  }
}

void ParseP2p(std::string_view rest, TransportSpec* t) {
  t->type = TransportType::kP2P;
  static constexpr std::string_view kModes[] = {"direct pointer", "common device", "indirect",
                                                "CUMEM",          "IPC",           "MNNVL"};
  for (std::string_view m : kModes) {
    if (StartsWith(rest, m) && (rest.size() == m.size() || rest[m.size()] == '/')) {
      t->mode = rest.substr(0, m.size());
      rest.remove_prefix(m.size());
      break;
    }
  }
  if (t->mode.empty()) {  // unknown mode: keep the first segment
    size_t slash = rest.find('/');
    t->mode = rest.substr(0, slash);
    rest.remove_prefix(slash == std::string_view::npos ? rest.size() : slash);
  }
  if (t->mode == "indirect" && StartsWith(rest, "/")) {
    TextCursor c(rest.substr(1));
    int via = -1;
    if (IsDigit(c.Peek()) && c.ReadInt(&via)) {
      t->via_rank = via;
      if (c.Eat('[')) {
        c.ReadUntil(']');
        c.Eat(']');
      }
      rest = c.rest();
    }
  }
  ApplySuffixes(rest, t);
}

// "NAME/DEV[(PROXY)][/GDRDMA][(PCI)][/Shared]" after "NET/" or "COLLNET/".
void ParseNetParts(std::string_view rest, TransportSpec* t) {
  // The name may contain spaces ("AWS Libfabric") but not '/'; the device index follows it.
  size_t slash = rest.find('/');
  t->net = rest.substr(0, slash);
  if (slash == std::string_view::npos) return;
  TextCursor c(rest.substr(slash + 1));
  int dev = -1;
  if (IsDigit(c.Peek()) && c.ReadInt(&dev)) {
    t->net_dev = dev;
    if (c.Eat('(')) {
      int proxy = -1;
      if (c.ReadInt(&proxy)) t->proxy_rank = proxy;
      c.ReadUntil(')');
      c.Eat(')');
    }
  }
  std::string_view suffix = c.rest();
  if (StartsWith(suffix, "(PCI)")) {
    t->pci = true;
    suffix.remove_prefix(5);
  }
  ApplySuffixes(suffix, t);
}

}  // namespace

TransportSpec ParseTransport(std::string_view raw) {
  TransportSpec t;
  raw = parse_internal::Trim(raw);
  if (StartsWith(raw, "P2P/")) {
    ParseP2p(raw.substr(4), &t);
  } else if (StartsWith(raw, "SHM/")) {
    t.type = TransportType::kSHM;
    t.mode = raw.substr(4);
    t.ce = t.mode.find("CE") != std::string_view::npos;
  } else if (raw == "direct shared memory") {
    t.type = TransportType::kSHM;
    t.mode = raw;
  } else if (StartsWith(raw, "NET/")) {
    t.type = TransportType::kNET;
    ParseNetParts(raw.substr(4), &t);
  } else if (StartsWith(raw, "COLLNET/")) {
    t.type = TransportType::kCOLLNET;
    ParseNetParts(raw.substr(8), &t);
  }
  return t;
}

}  // namespace ncclscope
