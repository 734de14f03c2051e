// GRAPH subsystem lines that carry topology evidence (nccl-log-formats.md §4 "Graph"):
// search patterns, GPU path lines and "P2P is disabled between ... GPUs".
#include <string_view>

#include "body_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

// "Pattern 4, crossNic 0, nChannels 24, bw 40.0/40.0, type NVL/PIX, sameChannels 1"
// (older: "speed 20.000000/20.000000", 2.5: "speed 20/20, nvlink 1, type 2").
bool ParsePattern(std::string_view body, EventData* data) {
  GraphPattern g;
  while (!body.empty()) {
    size_t comma = body.find(", ");
    TextCursor item(body.substr(0, comma));
    std::string_view key = item.ReadToken();
    item.SkipSpaces();
    std::string_view value = item.rest();
    if (key == "Pattern") {
      if (!ParseWhole(value, &g.pattern)) return false;
    } else if (key == "crossNic") {
      ParseWhole(value, &g.cross_nic);
    } else if (key == "nChannels") {
      ParseWhole(value, &g.nchannels);
    } else if (key == "sameChannels") {
      ParseWhole(value, &g.same_channels);
    } else if (key == "bw" || key == "speed") {
      TextCursor v(value);
      v.ReadDouble(&g.bw_intra);
      if (v.Eat('/')) v.ReadDouble(&g.bw_inter);
    } else if (key == "type") {
      size_t slash = value.find('/');
      g.type_intra = value.substr(0, slash);
      if (slash != std::string_view::npos) g.type_inter = value.substr(slash + 1);
    }
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 2);
  }
  if (g.pattern < 0) return false;
  *data = g;
  return true;
}

// "GPU/0-60 :GPU/0-60 (0/5000.0/LOC) GPU/0-70 (2/370.8/NVL) ..."
bool ParsePaths(std::string_view body, EventData* data) {
  size_t sep = body.find(" :");
  if (sep == std::string_view::npos) return false;
  GraphPaths p;
  p.from = body.substr(0, sep);
  if (p.from.find(' ') != std::string_view::npos) return false;
  TextCursor c(body.substr(sep + 2));
  while (true) {
    c.SkipSpaces();
    if (c.done()) break;
    GraphPathHop hop;
    hop.node = c.ReadToken();
    c.SkipSpaces();
    if (!c.Eat('(')) return false;
    if (!c.ReadInt(&hop.count) || !c.Eat('/') || !c.ReadDouble(&hop.bw) || !c.Eat('/')) {
      return false;
    }
    hop.type = c.ReadUntil(')');
    if (!c.Eat(')')) return false;
    p.to.push_back(hop);
  }
  *data = std::move(p);
  return true;
}

// "P2P is disabled between [NVLINK ]connected GPUs 0 and 1. ..."
bool ParseP2pDisabled(std::string_view body, EventData* data) {
  TextCursor c(body);
  if (!c.Eat("P2P is disabled between ")) return false;
  P2pDisabled p;
  if (c.Eat("NVLINK ")) p.nvlink = true;
  if (!c.Eat("connected GPUs ")) return false;
  if (!c.ReadInt(&p.gpu_a) || !c.Eat(" and ") || !c.ReadInt(&p.gpu_b)) return false;
  *data = p;
  return true;
}

}  // namespace

bool ParseGraph(std::string_view body, EventData* data) {
  if (body.empty()) return false;
  switch (body.front()) {
    case 'P':
      if (StartsWith(body, "Pattern ")) return ParsePattern(body, data);
      if (StartsWith(body, "P2P is disabled")) return ParseP2pDisabled(body, data);
      return false;
    case 'G':
      return StartsWith(body, "GPU/") && ParsePaths(body, data);
    default:
      return false;
  }
}

}  // namespace ncclscope::parse_internal
