// Known NCCL message families that carry nothing the analysis uses. A static prefix table scanned
// with a first-byte check, plus two shape rules (location-led allocation lines and the GRAPH
// "%2d :" channel listings). No regex.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "body_parsers.h"
#include "ncclscope/base/byte_words.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

struct NoisePrefix {
  std::string_view prefix;
  std::string_view family;
};

// Ordered roughly by frequency within each family; every entry is a literal body prefix.
constexpr NoisePrefix kNoise[] = {
    // Proxy threads, UDS file-descriptor passing, shareable buffers.
    {"ProxyCall ", "proxy"},
    {"ncclPollProxyResponse", "proxy"},
    {"resp.opId=", "proxy"},
    {"proxyProgressAsync", "proxy"},
    {"Received and initiated operation", "proxy"},
    {"Connected to proxy", "proxy"},
    {"New proxy ", "proxy"},
    {"proxyUDSRecvReq", "proxy"},
    {"UDS", "proxy"},
    {"Imported shareable", "proxy"},
    {"Allocated shareable", "proxy"},
    {"[Proxy ", "proxy"},
    {"[Service thread]", "proxy"},
    {"Proxy ", "proxy"},
    {"proxy", "proxy"},
    // RAS (reliability/availability service, 2.24+).
    {"RAS ", "ras"},
    // Allocation tracing.
    {"Mem Realloc", "alloc"},
    {"Cuda Alloc", "alloc"},
    {"Cuda Host Alloc", "alloc"},
    {"memory stack hunk", "alloc"},
    {"MemManager", "alloc"},
    // Tuning tables and thresholds.
    {"Algorithm |", "tuning"},
    {"Algorithm    |", "tuning"},
    {"Protocol |", "tuning"},
    {"Protocol   |", "tuning"},
    {"Max NThreads |", "tuning"},
    {"threadThresholds", "tuning"},
    {"Enabled NCCL Func/Proto/Algo Matrix", "tuning"},
    {"Tuner: ", "tuning"},
    {"Latency/AlgBw", "tuning"},
    // Topology detection and the GRAPH system dump.
    {"Topology detection", "topology"},
    {"TOPO/NET", "topology"},
    {"ncclTopoPopulateNics", "topology"},
    {"ncclTopoGetCpuAffinity", "topology"},
    {"ncclTopo", "topology"},
    {"Attribute ", "topology"},  // XML topology: "Attribute coll of node net not found"
    {"Could not get speed from", "topology"},
    {"Could not find real path", "topology"},
    {"Could not find node", "topology"},
    {"Setting affinity for GPU", "topology"},
    {"CPU/", "topology"},
    {"NET/0", "topology"},
    {"NET/1", "topology"},
    {"NET/2", "topology"},
    {"NET/3", "topology"},
    {"NET/4", "topology"},
    {"NET/5", "topology"},
    {"NET/6", "topology"},
    {"NET/7", "topology"},
    {"NET/8", "topology"},
    {"NET/9", "topology"},
    {"NIC/", "topology"},
    {"NVS/", "topology"},
    {"PCI/", "topology"},
    {"=== System", "topology"},
    {"====", "topology"},
    {"+ ", "topology"},
    {"MNNVL busId", "topology"},
    {"MNNVL ", "topology"},
    {"DMA-BUF is available", "topology"},
    {"NVLS multicast support", "nvls"},
    {"NVLS comm", "nvls"},
    {"NVLS ", "nvls"},
    {"Tree ", "graph"},
    {"Search ", "graph"},
    {"Could not find a path", "graph"},
    // Init details.
    {"CC Off", "init"},
    {"CC On", "init"},
    {"Check P2P Type", "init"},
    {"P2P Chunksize", "init"},
    {"ncclP2pSchedule", "init"},
    {"Rank ", "init"},
    {"NCCL git version", "version"},
    {"dlvsym failed", "ib"},
    {"NET/IB : ", "ib"},
    {"NET/IB: ", "ib"},
    {"ENV/Plugin: Closing", "plugin"},
    {"Using non-device net plugin", "plugin"},
    {"Using ", "init"},
    {"Init config", "init"},
    {"ncclCommInitRank", "init"},
    {"Launch mode", "init"},
    {"Bootstrap: env ", "init"},  // 2.29: the NCCL_COMM_ID root address "Bootstrap: env IP:PORT"
    {"NCCL_", "env"},
    // Shared memory, host memory and buffer registration bookkeeping.
    {"Allocated ", "alloc"},
    {"CUMEM ", "alloc"},
    {"MMAP ", "alloc"},
    {"Mem Alloc", "alloc"},
    {"Ib Alloc", "alloc"},
    {"Cleanup buffer", "alloc"},
    {"Created shared memory", "alloc"},
    {"Created ", "alloc"},
    {"Last reference to shared memory", "alloc"},
    {"Unlinking shared memory", "alloc"},
    {"SHM legacy", "alloc"},
    {"register comm", "registration"},
    {"Register ptr", "registration"},
    {"Skipping registration", "registration"},
    {"Skipping graph registration", "registration"},
    {"Skipping bind multicast", "registration"},
    {"Binding multicast", "registration"},
    {"Number of segments exceeded", "registration"},
    {"Inserted window", "registration"},
    {"Intrusive map", "registration"},
    {"SymCheck", "registration"},
    {"Symmetric ", "registration"},
    {"Failed to get DMA-BUF handle", "registration"},
    // Older (2.3-2.8) and debug-level init chatter.
    {"nranks ", "init"},
    {"Min Comp Cap", "init"},
    {"Threads per block", "init"},
    {"bootstrapSplit", "init"},
    {"timings: rank", "init"},
    {"CUDA Graph helper", "init"},
    {"CommRevokeAsync", "init"},
    {"Compute Capability", "init"},
    {"DEBUG file is", "init"},
    {"Disabling work fifo", "init"},
    {"GDRCOPY ", "init"},
    {"Init CE", "init"},
    {"Initialized state", "init"},
    {"Retrieving state", "init"},
    {"Loaded NVML", "init"},
    {"Stack size limit", "init"},
    {"Skipping ", "init"},
    {"devCommCreate", "init"},
    {"ncclComm", "init"},
    {"stream is being captured", "init"},
    {"NCCL did not shutdown nvml", "init"},
    {"CC ", "init"},
    {"Cross-clique", "init"},
    {"LSA extended", "init"},
    {"GIN ", "init"},
    // Topology detection, old and new.
    {"CUDA Dev ", "topology"},
    {"Intel CPU", "topology"},
    {"AMD CPU", "topology"},
    {"ARM CPU", "topology"},
    {"/sys/devices", "topology"},
    {"Loading ", "topology"},
    {"Assuming NVLink", "topology"},
    {"NVLink target", "topology"},
    {"No NVML device handle", "topology"},
    {"Device ", "topology"},
    {"Paths from", "topology"},
    {"Widening links", "topology"},
    {"Marking physical devices", "topology"},
    {"Ignoring element", "topology"},
    {"XML Parse", "topology"},
    {"Unable to open ", "topology"},
    {"Could not get device class", "topology"},
    {"Could not get speed for interface", "topology"},
    {"Could not find PCI device", "topology"},
    {"Count not open", "topology"},
    {"CPUs with mixed", "topology"},
    {"Found ", "topology"},
    {"Did not find child net device", "topology"},
    {"Failed to read refresh", "topology"},
    {"latencyinter not found", "graph"},
    {"nvmlDevice", "topology"},
    {"ncclOs", "topology"},
    {"ncclNvml", "topology"},
    // Networks: interface counts, retries inside a connection, device counts.
    {"NET/Socket : ", "net"},
    {"NET/MLX5", "ib"},
    {"Failed to open libmlx5", "ib"},
    {"Socket handshake magic", "net"},
    {"Socket progress: abort", "net"},
    {"Recv : got retcode", "net"},
    {"Send : got retcode", "net"},
    {"Got ", "net"},
    {"Detected mixed local", "net"},
    {"Detected a mix of", "net"},
    {"Local CollNet device counts", "net"},
    {"Local Net device counts", "net"},
    {"socketFinalizeAccept: didn't receive", "net"},
    {"Unexpected error from ncclSocketReady", "net"},
    // Plugins (net, tuner, profiler, env, SHARP).
    {"Plugin Path", "plugin"},
    {"P2P plugin", "plugin"},
    {"Sharp rank", "plugin"},
    {"SHARP rank", "plugin"},
    {"NET/Plugin: Closing", "plugin"},
    {"TUNER/Plugin: Closing", "plugin"},
    {"PROFILER/Plugin: Closing", "plugin"},
    {"Profiler ", "plugin"},
    {"Unloading plugin", "plugin"},
    {"Disabling external plugins", "plugin"},
    {"Successfully loaded external", "plugin"},
    {"dlsym failed", "plugin"},
    // Google's FastSocket net plugin (net_fastsocket.cc): its queues and connection retries.
    {"NET/FastSocket : ", "plugin"},
    {"accept qid: ", "plugin"},
    {"connect qid: ", "plugin"},
    {"accept incoming cpu: ", "plugin"},
    {"connect incoming cpu: ", "plugin"},
    // CollNet chains and collective planning.
    {"CollNet ", "collnet"},
    {"Collnet ", "collnet"},
    {"Connected Collnet", "collnet"},
    {"Connected collnet", "collnet"},
    {"Host enqueue", "tuning"},
    {"Tuning P2P", "tuning"},
    {"Duplicating rings", "env"},
    {"Limiting to ", "env"},
    {"User asked for a m", "env"},
    // Settings NCCL read, rejected or capped.
    {"Comm config ", "env"},
    {"PARAM: ", "env"},
    {"Parsed environment variable", "env"},
    {"ENV: ", "env"},
    {"KV Convert", "env"},
    {"Warning: ENV ", "env"},
    {"Invalid ", "env"},
    {"No valid ", "env"},
    {"Unable to recognize NCCL_", "env"},
    {"collnetEnable ", "env"},
    {"splitShare ", "env"},
    {"nvlsCTAs ", "env"},
    {"maxCTAs ", "env"},
    {"minCTAs ", "env"},
    {"ginForceEnable", "env"},
    {"failed to decode NCCL_", "env"},
    {"Max P2P Peers", "env"},
    // Proxy and RMA planning (2.28+).
    {"Queuing opId", "proxy"},
    {"recvConnect ", "proxy"},
    {"sendConnect ", "proxy"},
    {"recvOpId", "proxy"},
    {"scheduleRmaTasks", "proxy"},
    {"ncclRmaProxy", "proxy"},
    {"Continuing in spite of a RAS", "ras"},
    {"Connection to proxy", "proxy"},
    {"PXN Disabled as plugin", "plugin"},
    {"Plugin name set by env", "plugin"},
    {"Disabling LL", "tuning"},
    {"Peer ", "registration"},
    {"CTAPolicy ", "env"},
    {"Communicator has ", "collnet"},
    // RCCL (AMD's fork, same log format): its version block and topology dump.
    {"RCCL version ", "rccl"},
    {"ROCr version ", "rccl"},
    {"Hipruntime version: ", "rccl"},
    {"Kernel version: ", "rccl"},
    {"Dmabuf feature disabled without NCCL_DMABUF_ENABLE", "rccl"},
    {"[node_id = ", "rccl"},
};

// "channel.cc:42 Cuda Alloc ..." / "misc/utils.cc:234 memory stack hunk ...": skips the
// "file:line " lead when present.
std::string_view AfterLocation(std::string_view body) {
  size_t sp = body.find(' ');
  if (sp == std::string_view::npos || sp == 0) return {};
  std::string_view tok = body.substr(0, sp);
  size_t colon = tok.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == tok.size()) return {};
  for (size_t i = colon + 1; i < tok.size(); ++i) {
    if (!IsDigit(tok[i])) return {};
  }
  return body.substr(sp + 1);
}

// GRAPH channel listing "%2d :" followed by " GPU/..." / " NET/..." items.
bool IsGraphChannelList(std::string_view body) {
  TextCursor c(body);
  c.SkipSpaces();
  int n = 0;
  return IsDigit(c.Peek()) && c.ReadInt(&n) && c.Eat(" :");
}

// kNoise's entries grouped by first byte, in table order within a group (a stable counting
// sort, done at compile time): a lookup tries only the entries that can match.
constexpr size_t kNoiseCount = std::size(kNoise);
static_assert(kNoiseCount < 256, "NoiseIndex stores entry numbers in a byte");

struct NoiseIndex {
  uint8_t begin[257] = {};        ///< Entries of first byte b: order[begin[b] .. begin[b + 1]).
  uint8_t order[kNoiseCount] = {};
  /// Per entry (table order): its first 8 bytes as a little-endian word and the mask of the
  /// bytes it has, so a body's first word is checked against an entry in one compare.
  uint64_t head[kNoiseCount] = {};
  uint64_t head_mask[kNoiseCount] = {};
  uint64_t head2[kNoiseCount] = {};  ///< Bytes 8-15, for prefixes longer than 8.
  uint64_t head2_mask[kNoiseCount] = {};
};

constexpr NoiseIndex BuildNoiseIndex() {
  NoiseIndex index;
  size_t count[256] = {};
  for (const NoisePrefix& p : kNoise) ++count[static_cast<uint8_t>(p.prefix.front())];
  size_t next[256] = {};
  size_t sum = 0;
  for (size_t b = 0; b < 256; ++b) {
    index.begin[b] = static_cast<uint8_t>(sum);
    next[b] = sum;
    sum += count[b];
  }
  index.begin[256] = static_cast<uint8_t>(sum);
  for (size_t i = 0; i < kNoiseCount; ++i) {
    const auto b = static_cast<uint8_t>(kNoise[i].prefix.front());
    index.order[next[b]++] = static_cast<uint8_t>(i);
    const std::string_view prefix = kNoise[i].prefix;
    for (size_t k = 0; k < prefix.size() && k < 8; ++k) {
      index.head[i] |= uint64_t{static_cast<uint8_t>(prefix[k])} << (8 * k);
      index.head_mask[i] |= uint64_t{0xFF} << (8 * k);
    }
    for (size_t k = 8; k < prefix.size() && k < 16; ++k) {
      index.head2[i] |= uint64_t{static_cast<uint8_t>(prefix[k])} << (8 * (k - 8));
      index.head2_mask[i] |= uint64_t{0xFF} << (8 * (k - 8));
    }
  }
  return index;
}

constexpr NoiseIndex kNoiseIndex = BuildNoiseIndex();

std::string_view LookupPrefix(std::string_view body) {
  if (body.empty()) return {};
  const auto first = static_cast<uint8_t>(body.front());
  const size_t begin = kNoiseIndex.begin[first];
  const size_t end = kNoiseIndex.begin[first + 1];
  if (body.size() >= 16) {
    // Prefixes of up to 16 bytes are compared as two masked words, longer ones then in full.
    const uint64_t w = byte_words::Load8(body.data());
    const uint64_t w2 = byte_words::Load8(body.data() + 8);
    for (size_t k = begin; k < end; ++k) {
      const size_t i = kNoiseIndex.order[k];
      if ((w & kNoiseIndex.head_mask[i]) != kNoiseIndex.head[i] ||
          (w2 & kNoiseIndex.head2_mask[i]) != kNoiseIndex.head2[i])
        continue;
      const std::string_view prefix = kNoise[i].prefix;
      if (prefix.size() <= 16 || StartsWith(body, prefix)) return kNoise[i].family;
    }
    return {};
  }
  for (size_t k = begin; k < end; ++k) {
    const NoisePrefix& p = kNoise[kNoiseIndex.order[k]];
    if (StartsWith(body, p.prefix)) return p.family;
  }
  return {};
}

}  // namespace

std::string_view ExclusiveNoiseFamily(std::string_view body) {
  // A prefix added here must also be added to tests/parse/exclusive_noise_test.cc, which runs the
  // full dispatch over it with suffixes that would otherwise make an event.
  // Every prefix here holds its first token and at least five bytes after it (what the
  // environment echo looks at: " set "), and is 19 bytes or more (the 20 bytes searched for
  // "/Plugin" then lie within it: a "/Plugin" starting at byte 13 or later would not fit).
  if (body.size() < 24) return {};
  constexpr std::string_view kProxy = "proxy";
  switch (body.front()) {
    case 'n':
      if (StartsWith(body, "ncclPollProxyResponse Received new ")) return kProxy;
      break;
    case 'p':
      if (StartsWith(body, "proxyProgressAsync opId=") ||
          StartsWith(body, "proxyUDSRecvReq::ncclProxyMsgGetFd rank ")) {
        return kProxy;
      }
      break;
    case 'R':
      if (StartsWith(body, "Received and initiated operation=")) return kProxy;
      break;
    case 'A':
      if (StartsWith(body, "Allocated shareable buffer ")) return kProxy;
      break;
    case 'I':
      if (StartsWith(body, "Imported shareable buffer ")) return kProxy;
      break;
    case 'U':
      if (StartsWith(body, "UDS proxyGetFd received handle ") ||
          StartsWith(body, "UDS converted handle ") ||
          StartsWith(body, "UDS: ClientGetFd handle ")) {
        return kProxy;
      }
      break;
    case 'P':
      if (StartsWith(body, "ProxyCall UDS comm ")) return kProxy;
      break;
    case 'C':
      if (StartsWith(body, "Connected to proxy localRank ")) return kProxy;
      break;
    default:
      break;
  }
  return {};
}

namespace {

/// `rank N - IPC register ...`, `rank N failed to NET register ...`, `rank N successfully ...`,
/// `rank N reuse ...`: buffer registration (2.19+), and `rank N nranks N` (2.3).
std::string_view RankLedFamily(std::string_view body) {
  TextCursor c(body);
  int rank = 0;
  if (!c.Eat("rank ") || !IsDigit(c.Peek()) || !c.ReadInt(&rank) || !c.Eat(' ')) return {};
  const std::string_view r = c.rest();
  if (StartsWith(r, "- ") || StartsWith(r, "failed to ") || StartsWith(r, "successfully ") ||
      StartsWith(r, "reuse ")) {
    return "registration";
  }
  if (StartsWith(r, "nranks ")) return "init";
  return {};
}

/// `[N] Created a QP ...`, `[N] Registered MR ...`: the per-device QP and memory-region chatter
/// of the IB GIN path (2.28+).
bool IsDeviceLedQp(std::string_view body) {
  TextCursor c(body);
  int dev = 0;
  if (!c.Eat('[') || !IsDigit(c.Peek()) || !c.ReadInt(&dev) || !c.Eat("] ")) return false;
  const std::string_view r = c.rest();
  return StartsWith(r, "Created a ") || StartsWith(r, "Connected ") ||
         StartsWith(r, "Registered MR") || StartsWith(r, "Unregistering MR") ||
         StartsWith(r, "Segment ");
}

}  // namespace

std::string_view NoiseFamily(std::string_view body) {
  while (!body.empty() && body.front() == ' ') body.remove_prefix(1);
  std::string_view f = LookupPrefix(body);
  if (!f.empty()) return f;
  if (IsGraphChannelList(body)) return "graph";
  f = RankLedFamily(body);
  if (!f.empty()) return f;
  if (IsDeviceLedQp(body)) return "ib";
  std::string_view after = AfterLocation(body);
  if (!after.empty()) {
    f = LookupPrefix(after);
    if (f == "alloc") return f;
  }
  // "<Op> | ..." rows of the tuning tables.
  size_t bar = body.find(" |");
  if (bar != std::string_view::npos && bar > 0 && bar < 24) {
    std::string_view op = Trim(body.substr(0, bar));
    bool word = !op.empty();
    for (char ch : op) word = word && (IsAlpha(ch) || ch == ' ');
    if (word) return "tuning";
  }
  return {};
}

}  // namespace ncclscope::parse_internal
