// Event -> one JSON object line. Hand-written writer: no allocation beyond the output string.
#include "ncclscope/parse/event_json.h"

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "ncclscope/parse/collective_args.h"
#include "ncclscope/parse/ring_ranks.h"

namespace ncclscope {
namespace {

constexpr std::string_view kPluginActions[] = {
    "not_found", "load_error", "loaded",        "initialized",    "init_failed",
    "assigned",  "all_failed", "name_from_env", "using_internal", "symbol_missing"};
constexpr std::string_view kOfiKinds[] = {
    "initializing", "libfabric_version", "provider_selected", "no_eligible_providers",
    "init_failed",  "platform",          "provider_filter",   "protocol",
    "env_added",    "gdr_disabled",      "request_error",     "other"};
constexpr std::string_view kCommEndKinds[] = {"destroy", "abort", "abort_start", "revoke_start",
                                              "revoke"};
constexpr std::string_view kConnKinds[] = {"channel", "ring", "collnet"};
constexpr std::string_view kDirections[] = {"none", "send", "receive"};
constexpr std::string_view kTransports[] = {"P2P", "SHM", "NET", "COLLNET", "other"};
constexpr std::string_view kWarnCategories[] = {"shm",     "cuda",  "socket",  "bootstrap",
                                                "ib",      "proxy", "plugin",  "ofi",
                                                "syscall", "nvls",  "collnet", "other"};
constexpr std::string_view kFrameworkKinds[] = {
    "nccl_error_detail",    "heartbeat_timeout", "watchdog_terminated", "taking_down",
    "comm_aborted",         "init_timeout",      "dump_signal",         "process_signal",
    "child_failed",         "desync_stuck",      "desync_lagging",      "desync_never_joined",
    "exit_without_destroy", "collective_stack",  "collective_frame",    "stall_missing"};
constexpr std::string_view kExitReporters[] = {"torchrun",   "deepspeed",   "mpirun", "slurm",
                                               "kubernetes", "kernel",      "python", "ray",
                                               "vllm",       "test_harness"};
constexpr std::string_view kLauncherKinds[] = {
    "restart",       "failures_header", "root_cause_header", "table_entry", "table_field",
    "job_cancelled", "oom_event",       "mpi_abort",         "kill_sent"};
constexpr std::string_view kTracebackKinds[] = {"start",        "frame",         "exception",
                                                "fatal_signal", "cpp_terminate", "cpp_what"};

template <size_t N, typename E>
std::string_view EnumName(const std::string_view (&names)[N], E e) {
  size_t i = static_cast<size_t>(e);
  return i < N ? names[i] : std::string_view("unknown");
}

// Length of the valid UTF-8 sequence at s[i], or 0 if invalid.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  size_t n;
  uint32_t min;
  if (b0 < 0x80) return 1;
  if ((b0 & 0xE0) == 0xC0) {
    n = 2;
    min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3;
    min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  uint32_t cp = b0 & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// Writes `"key":value` pairs separated by commas into one object.
class ObjectWriter {
 public:
  explicit ObjectWriter(std::string* out) : out_(out) { out_->push_back('{'); }
  void Close() { out_->push_back('}'); }

  void Key(std::string_view k) {
    if (!first_) out_->push_back(',');
    first_ = false;
    out_->push_back('"');
    out_->append(k);
    out_->append("\":");
  }
  void Str(std::string_view k, std::string_view v) {
    Key(k);
    AppendJsonString(v, out_);
  }
  /// Only when non-empty.
  void OptStr(std::string_view k, std::string_view v) {
    if (!v.empty()) Str(k, v);
  }
  template <typename T>
  void Num(std::string_view k, T v) {
    Key(k);
    Raw(v);
  }
  template <typename T>
  void OptNum(std::string_view k, const std::optional<T>& v) {
    if (v) Num(k, *v);
  }
  void Bool(std::string_view k, bool v) {
    Key(k);
    out_->append(v ? "true" : "false");
  }
  template <typename T>
  void Raw(T v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof(buf), v);
    out_->append(buf, r.ptr);
  }
  std::string* out() { return out_; }

 private:
  std::string* out_;
  bool first_ = true;
};

void WriteInterfaces(ObjectWriter* w, std::string_view key, const std::vector<NetInterface>& v) {
  w->Key(key);
  std::string* out = w->out();
  out->push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out->push_back(',');
    ObjectWriter o(out);
    o.Num("index", v[i].index);
    o.Str("name", v[i].name);
    o.Str("address", v[i].address);
    o.OptStr("link_layer", v[i].link_layer);
    o.Close();
  }
  out->push_back(']');
}

void WriteTransport(ObjectWriter* w, const TransportSpec& t) {
  w->Str("transport", EnumName(kTransports, t.type));
  w->OptStr("mode", t.mode);
  w->Bool("read", t.read);
  w->Bool("ce", t.ce);
  if (t.via_rank >= 0) w->Num("via_rank", t.via_rank);
  w->OptStr("net", t.net);
  if (t.net_dev >= 0) w->Num("net_dev", t.net_dev);
  if (t.proxy_rank >= 0) w->Num("proxy_rank", t.proxy_rank);
  w->Bool("gdrdma", t.gdrdma);
  w->Bool("pci", t.pci);
  w->Bool("shared", t.shared);
}

// One overload per alternative writes its typed fields.
struct FieldWriter {
  ObjectWriter* w;

  void operator()(const NcclVersion& e) const {
    w->Str("version", e.version);
    w->OptStr("suffix", e.suffix);
    w->OptStr("cuda", e.cuda);
  }
  void operator()(const CudaDriverVersion& e) const { w->Num("version", e.version); }
  void operator()(const EnvSetting& e) const {
    w->Str("name", e.name);
    w->Str("value", e.value);
    w->Bool("by_environment", e.by_environment);
    if (e.command_line) w->Bool("command_line", true);
  }
  void operator()(const CommConfig& e) const {
    w->Str("name", e.name);
    w->Str("value", e.value);
  }
  void operator()(const BootstrapInterface& e) const {
    WriteInterfaces(w, "interfaces", e.interfaces);
  }
  void operator()(const BootstrapTimings& e) const {
    w->Num("total", e.total);
    w->Num("create", e.create);
    w->Num("send", e.send);
    w->Num("recv", e.recv);
    w->Num("ring", e.ring);
    w->Num("delay", e.delay);
  }
  void operator()(const InitTimings& e) const {
    w->OptStr("api", e.api);
    w->Num("rank", e.rank);
    w->Num("nranks", e.nranks);
    w->Num("total", e.total);
    w->Num("kernels", e.kernels);
    w->Num("alloc", e.alloc);
    w->Num("bootstrap", e.bootstrap);
    w->Num("allgathers", e.allgathers);
    w->Num("topo", e.topo);
    w->Num("graphs", e.graphs);
    w->Num("connections", e.connections);
    w->Num("rest", e.rest);
  }
  void operator()(const PluginEvent& e) const {
    w->Str("kind", e.kind);
    w->Str("action", EnumName(kPluginActions, e.action));
    w->OptStr("name", e.name);
  }
  void operator()(const UsingNetwork& e) const { w->Str("name", e.name); }
  void operator()(const IbDevices& e) const {
    w->Bool("none_found", e.none_found);
    WriteInterfaces(w, "devices", e.devices);
    w->OptStr("oob", e.oob);
  }
  void operator()(const SocketDevices& e) const { WriteInterfaces(w, "devices", e.devices); }
  void operator()(const GdrStatus& e) const {
    w->Bool("enabled", e.enabled);
    w->OptStr("net", e.net);
    if (e.hca >= 0) w->Num("hca", e.hca);
    w->OptStr("device", e.device);
    w->OptStr("gpu", e.gpu);
  }
  void operator()(const OfiEvent& e) const {
    w->Str("kind", EnumName(kOfiKinds, e.kind));
    w->Str("value", e.value);
    w->OptStr("fabric", e.fabric);
    if (e.nics >= 0) w->Num("nics", e.nics);
  }
  void operator()(const CommInit& e) const {
    w->Str("phase", e.phase == InitPhase::kStart ? "start" : "complete");
    w->OptStr("api", e.api);
    w->Str("comm", e.comm);
    w->Num("rank", e.rank);
    w->Num("nranks", e.nranks);
    w->Num("cuda_dev", e.cuda_dev);
    w->Num("nvml_dev", e.nvml_dev);
    w->OptStr("bus_id", e.bus_id);
    if (e.comm_id) {
      char buf[24] = "0x";
      auto r = std::to_chars(buf + 2, buf + sizeof(buf), *e.comm_id, 16);
      w->Str("comm_id", std::string_view(buf, static_cast<size_t>(r.ptr - buf)));
    }
    w->OptStr("parent", e.parent);
    w->OptNum("color", e.color);
    w->OptNum("key", e.key);
    w->OptNum("split_count", e.split_count);
  }
  void operator()(const CommEnd& e) const {
    w->Str("kind", EnumName(kCommEndKinds, e.kind));
    w->Str("comm", e.comm);
    w->Num("rank", e.rank);
    w->Num("nranks", e.nranks);
    w->Num("cuda_dev", e.cuda_dev);
    w->OptStr("bus_id", e.bus_id);
  }
  void operator()(const CommTopology& e) const {
    w->Str("comm", e.comm);
    w->Num("rank", e.rank);
    w->Num("nranks", e.nranks);
    w->Num("nnodes", e.nnodes);
    w->Num("local_ranks", e.local_ranks);
    w->Num("local_rank", e.local_rank);
    w->Num("mnnvl", e.mnnvl);
  }
  void operator()(const RingOrder& e) const {
    w->Num("channel", e.channel);
    w->Num("nchannels", e.nchannels);
    w->Key("ranks");
    std::string* out = w->out();
    out->push_back('[');
    const std::vector<int> ranks = DecodeRingRanks(e.ranks);
    for (size_t i = 0; i < ranks.size(); ++i) {
      if (i) out->push_back(',');
      w->Raw(ranks[i]);
    }
    out->push_back(']');
    w->Bool("cut", e.cut);
  }
  void operator()(const TreeTopology& e) const { w->Num("channels", e.channels); }
  void operator()(const GraphRing& e) const {
    w->Num("channel", e.channel);
    w->Num("prev", e.prev);
    w->Num("me", e.me);
    w->Num("next", e.next);
  }
  void operator()(const ChannelCounts& e) const {
    w->Num("coll", e.coll);
    w->Num("collnet", e.collnet);
    w->Num("nvls", e.nvls);
    w->Num("p2p", e.p2p);
    w->Num("p2p_per_peer", e.p2p_per_peer);
  }
  void operator()(const ConnectedAll& e) const {
    w->Str("what", e.what);
    if (e.pxn >= 0) w->Num("pxn", e.pxn);
    if (e.gdr >= 0) w->Num("gdr", e.gdr);
  }
  void operator()(const Connection& e) const {
    w->Str("kind", EnumName(kConnKinds, e.kind));
    w->Num("channel", e.channel);
    w->Num("conn_index", e.conn_index);
    w->Num("src_rank", e.src_rank);
    w->OptStr("src_dev", e.src_dev);
    w->Num("dst_rank", e.dst_rank);
    w->OptStr("dst_dev", e.dst_dev);
    w->Str("direction", EnumName(kDirections, e.direction));
    w->Str("raw", e.raw);
    WriteTransport(w, e.transport);
  }
  void operator()(const GraphPattern& e) const {
    w->Num("pattern", e.pattern);
    w->Num("cross_nic", e.cross_nic);
    w->Num("nchannels", e.nchannels);
    w->Num("bw_intra", e.bw_intra);
    w->Num("bw_inter", e.bw_inter);
    w->Str("type_intra", e.type_intra);
    w->Str("type_inter", e.type_inter);
    w->Num("same_channels", e.same_channels);
  }
  void operator()(const GraphPaths& e) const {
    w->Str("from", e.from);
    w->Key("to");
    std::string* out = w->out();
    out->push_back('[');
    for (size_t i = 0; i < e.to.size(); ++i) {
      if (i) out->push_back(',');
      ObjectWriter o(out);
      o.Str("node", e.to[i].node);
      o.Num("count", e.to[i].count);
      o.Num("bw", e.to[i].bw);
      o.Str("type", e.to[i].type);
      o.Close();
    }
    out->push_back(']');
  }
  void operator()(const P2pDisabled& e) const {
    w->Num("gpu_a", e.gpu_a);
    w->Num("gpu_b", e.gpu_b);
    w->Bool("nvlink", e.nvlink);
  }
  void operator()(const Collective& e) const {
    const CollectiveArgs a = DecodeCollectiveArgs(e.args);
    w->Str("op", e.op);
    w->Num("op_count", e.op_count);
    w->Num("count", a.count);
    w->Num("datatype", a.datatype);
    w->Num("red_op", a.red_op);
    w->Num("root", a.root);
    w->Num("nranks", a.nranks);
    w->Str("comm", e.comm);
  }
  void operator()(const CollAlgo& e) const {
    w->Str("op", e.op);
    w->Num("bytes", e.bytes);
    w->Str("algo", e.algo);
    w->Str("proto", e.proto);
  }
  void operator()(const Warning& e) const {
    w->Str("category", EnumName(kWarnCategories, e.category));
    w->Str("message", e.message);
  }
  void operator()(const Notice& e) const { w->Str("message", e.message); }
  void operator()(const ProxyPeerClosed& e) const { w->Num("local_rank", e.local_rank); }
  void operator()(const ErrorTrail& e) const {
    w->Str("location", e.location);
    w->Num("code", e.code);
    w->Bool("async", e.async);
  }
  void operator()(const WatchdogTimeout& e) const {
    w->Num("rank", e.rank);
    w->Num("seq", e.seq);
    w->Str("op_type", e.op_type);
    w->Num("numel_in", e.numel_in);
    w->Num("numel_out", e.numel_out);
    w->Num("timeout_ms", e.timeout_ms);
    w->Num("ran_ms", e.ran_ms);
  }
  void operator()(const WorkProgress& e) const {
    w->Num("rank", e.rank);
    w->Num("pg_id", e.pg_id);
    w->OptStr("pg_desc", e.pg_desc);
    w->Num("failed_seq", e.failed_seq);
    w->Num("last_enqueued", e.last_enqueued);
    w->Num("last_completed", e.last_completed);
  }
  void operator()(const FrameworkNcclError& e) const {
    w->OptStr("exception", e.exception);
    w->Str("where", e.where);
    w->Str("reason", e.reason);
    w->OptStr("nccl_version", e.nccl_version);
    w->OptStr("last_error", e.last_error);
  }
  void operator()(const FrameworkEvent& e) const {
    w->Str("kind", EnumName(kFrameworkKinds, e.kind));
    w->Num("rank", e.rank);
    w->OptStr("detail", e.detail);
    if (e.pid >= 0) w->Num("pid", e.pid);
    if (e.seq >= 0) w->Num("seq", e.seq);
  }
  void operator()(const ProcessExit& e) const {
    w->Str("reporter", EnumName(kExitReporters, e.reporter));
    if (e.rank >= 0) w->Num("rank", e.rank);
    if (e.local_rank >= 0) w->Num("local_rank", e.local_rank);
    if (e.pid >= 0) w->Num("pid", e.pid);
    if (e.exit_code) w->Num("exit_code", *e.exit_code);
    if (e.signal > 0) w->Num("signal", e.signal);
    w->OptStr("node", e.node);
    w->OptStr("reason", e.reason);
    w->OptStr("ranks", e.ranks);
    if (e.oom) w->Bool("oom", true);
    if (e.fatal_signal) w->Bool("fatal_signal", true);
    if (e.timed_out) w->Bool("timed_out", true);
  }
  void operator()(const LauncherEvent& e) const {
    w->Str("kind", EnumName(kLauncherKinds, e.kind));
    w->OptStr("key", e.key);
    w->OptStr("value", e.value);
  }
  void operator()(const Traceback& e) const {
    w->Str("kind", EnumName(kTracebackKinds, e.kind));
    // Not "type" and "line": those keys are the event's own (one object, unique keys).
    w->OptStr("exception", e.type);
    w->OptStr("message", e.message);
    w->OptStr("file", e.file);
    if (e.line >= 0) w->Num("frame_line", e.line);
    w->OptStr("function", e.function);
    if (e.indented) w->Bool("indented", true);
  }
  void operator()(const KnownNoise& e) const { w->Str("family", e.family); }
  void operator()(const Unrecognized& e) const {
    w->Str("message", e.message);
    if (e.mention) w->Bool("mention", true);
  }
};

}  // namespace

std::string_view LevelName(Level level) {
  static constexpr std::string_view kNames[] = {"none", "version", "info",  "warn",
                                                "trace", "call",   "torch", "libfabric", "libibverbs"};
  return EnumName(kNames, level);
}

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t n = Utf8Length(s, i);
      if (n == 0) {
        out->append("\\ufffd");
        ++i;
      } else {
        out->append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 0xF]);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

void AppendEventJson(const Event& event, std::string_view source_name, std::string* out) {
  const EventContext& ctx = event.ctx;
  ObjectWriter w(out);
  w.Str("source", source_name);
  w.Num("line", ctx.line);
  w.Str("host", ctx.host);
  w.Num("pid", ctx.pid);
  w.Num("tid", ctx.tid);
  w.Num("dev", ctx.dev);
  w.Str("level", LevelName(ctx.level));
  w.Str("type", EventTypeName(event.data));
  w.OptStr("timestamp", ctx.timestamp);
  w.OptStr("location", ctx.location);
  w.OptStr("function", ctx.function);
  if (ctx.torch_rank >= 0) w.Num("torch_rank", ctx.torch_rank);
  if (ctx.headless) w.Bool("headless", true);
  if (ctx.attention) w.Bool("attention", true);
  std::visit(FieldWriter{&w}, event.data);
  w.Close();
  out->push_back('\n');
}

}  // namespace ncclscope
