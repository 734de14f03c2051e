// Job: the model of a whole distributed job assembled from the event stream of all inputs.
//
// hosts → processes (host, pid) → GPUs → ranks of communicators; the links between ranks with
// their transport class; and the records the rules need (warnings, plugins, environment,
// framework errors), each with a few lines of evidence. Memory is bounded by the job's size
// (processes × communicators × channels), not by the number of input lines: repeated records keep
// a count and their first few evidence lines.
#ifndef NCCLSCOPE_MODEL_JOB_H_
#define NCCLSCOPE_MODEL_JOB_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/base/chunked_vector.h"
#include "ncclscope/base/flat_int_set.h"
#include "ncclscope/base/shared_text.h"
#include "ncclscope/input/line.h"
#include "ncclscope/model/evidence.h"
#include "ncclscope/model/incident.h"
#include "ncclscope/model/ring_orders.h"
#include "ncclscope/model/transport_class.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

/// One input (a file, stdin, or one kubectl --prefix pod inside a stream).
struct SourceInfo {
  std::string name;
  std::string pod;  ///< kubectl --prefix pod/container this source was split from, if any.
  uint64_t lines = 0;
  uint64_t nccl_lines = 0;  ///< NCCL messages (NCCL's head or a `NCCL INFO|WARN|...` anchor
                            ///< anywhere in the line; the version line).
  uint64_t info_lines = 0;  ///< Of nccl_lines, those at INFO or TRACE level (NCCL_DEBUG=INFO).
  uint64_t events = 0;
  uint64_t unrecognized = 0;     ///< NCCL messages of no known format.
  uint64_t framework_lines = 0;  ///< Recognised PyTorch lines.
  /// Other lines that mention "NCCL" (PyTorch errors, launcher and user output), understood or
  /// not; unrecognized_mentions of them were not understood.
  uint64_t mention_lines = 0;
  uint64_t unrecognized_mentions = 0;
  uint64_t malformed_records = 0;  ///< Lines that looked like JSON log records but were not.
  uint64_t truncated_lines = 0;
  uint64_t nul_lines = 0;
  uint64_t invalid_utf8_lines = 0;
  /// A small input hard-wrapped at a fixed width (a pasted ticket): that width, and the physical
  /// lines joined back onto the line they continue (0, 0 when not wrapped).
  uint64_t wrap_width = 0;
  uint64_t rejoined_lines = 0;
  std::string problem;  ///< Non-empty if the input was damaged/unreadable (message names it).
};

/// An NCCL_* (or FI_*) setting echoed by one process.
struct Setting {
  std::string value;
  bool by_environment = false;
  Evidence evidence;
};

/// A notable plugin/network event of one process.
struct PluginNote {
  std::string kind;  ///< "NET", "TUNER", "PROFILER", "ENV", "COLL"
  PluginAction action = PluginAction::kNotFound;
  std::string name;
  Evidence evidence;
};

struct OfiNote {
  OfiKind kind = OfiKind::kOther;
  std::string value;
  std::string fabric;
  int nics = -1;
  Evidence evidence;
};

/// One OS process that printed NCCL lines (one rank per process in most jobs; one process may
/// drive several GPUs, e.g. nccl-tests -g 4).
struct Process {
  std::string hostname;  ///< As NCCL printed it.
  uint32_t pid = 0;
  std::string host_id;  ///< NCCL_HOSTID if echoed.
  std::string node;     ///< NCCL's notion of the node: host_id if set, else hostname.
  int host = -1;        ///< Index into Job::hosts (physical host).
  std::set<uint32_t> sources;
  std::string nccl_version;    ///< "2.28.9"
  std::string cuda_version;    ///< "13.0" from the version line
  int cuda_driver = -1;        ///< cudaDriverVersion
  std::string bootstrap_if;    ///< "eth0"
  std::string bootstrap_addr;  ///< "192.0.2.2" (port removed)
  Evidence bootstrap_evidence;
  std::map<std::string, Setting, std::less<>> env;  ///< NCCL_* name → value (first echo wins).
  std::map<std::string, std::string> comm_config;
  std::string network;  ///< Last "Using network X".
  Evidence network_evidence;
  std::vector<PluginNote> plugins;
  std::vector<OfiNote> ofi;
  bool ib_no_device = false;
  Evidence ib_no_device_evidence;
  std::vector<std::string> ib_devices;      ///< "mlx5_0:1/IB"
  /// The interface of NET/IB's out-of-band sockets ("; OOB ibp75s0:192.168.0.103<0>": "ibp75s0"),
  /// NCCL's socket interface when IB is used.
  std::string ib_oob_if;
  std::vector<std::string> socket_devices;  ///< "eth0:192.0.2.2<0>"
  Evidence socket_devices_evidence;         ///< The first "NET/Socket : Using" line.
  int gdr_enabled_nics = 0;                 ///< "GPU Direct RDMA Enabled for HCA" count
  int gdr_disabled_nics = 0;
  Evidence gdr_evidence;  ///< First GDR line.
  std::optional<BootstrapTimings> bootstrap_timings;
  Evidence bootstrap_timings_evidence;
  std::set<int> cuda_devs;  ///< cudaDev of the ranks this process drives.
  /// The `[dev]` of its lines' NCCL heads: two or more when one process drives several GPUs
  /// (ncclCommInitAll, a single-process multi-GPU framework), also where no Init line was logged.
  std::set<int> head_devs;
  /// "AllReduce RING/SIMPLE": the (operation, algorithm, protocol) choices this process's TUNING
  /// lines reported ("AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE ...").
  std::set<std::string> coll_algos;
  Evidence first_line;           ///< First NCCL line.
  Evidence last_line;            ///< Last NCCL line.
  Evidence last_framework_line;  ///< Last PyTorch line attributed to this process.
  int global_rank = -1;          ///< Rank in the first (world) communicator this process joined.
  /// Largest nNodes / localRanks of the "comm ... nNodes N localRanks L" lines of this process,
  /// also when the communicator's init lines are not in the log (an excerpt); -1 if none.
  int nccl_nnodes = -1, nccl_local_ranks = -1;
  /// Its NCCL lines had no `host:pid:tid` head: hostname and pid come from the prefixes (pdsh
  /// host, Ray pid/ip, pod), or hostname is "?" and the input's name when nothing told.
  bool headless = false;
};

/// A physical host: processes sharing a hostname, or sharing a bootstrap address.
struct Host {
  std::string name;     ///< hostname (first seen)
  std::string address;  ///< bootstrap IP, if seen
  std::vector<int> processes;
  std::set<std::string> nodes;  ///< NCCL node names (host ids) seen on this host
  /// Path types between its GPUs in NCCL's GRAPH path dump ("NVL", "PIX", "PHB", "SYS"); empty
  /// when the log has no dump.
  std::set<std::string> gpu_path_types;
};

/// A rank's last collective on a communicator, from NCCL's COLL lines (`AllReduce: opCount 3
/// sendbuff ... comm 0x..`, NCCL_DEBUG_SUBSYS=COLL): how far it got.
/// Kept only on communicators whose ranks did not all get as far (JobBuilder), the case a hang
/// analysis reads; CommRank::last_collective indexes Job::last_collectives.
struct LastCollective {
  uint64_t op_count = 0;
  /// The line when it is the process's last COLL line, quoted when this rank is behind the
  /// others or is the first that is not; empty (line 0) otherwise.
  Evidence line;
  /// It also logged point-to-point operations (Send, Recv) on this communicator: those count
  /// only on the ranks that call them, so the ranks' counts are not comparable.
  bool p2p = false;
};

/// One rank of a communicator.
struct CommRank {
  int rank = -1;
  int process = -1;  ///< Index into Job::processes.
  std::string comm_ptr;
  int cuda_dev = -1, nvml_dev = -1;
  std::string bus_id;
  bool started = false, completed = false, ended = false;
  int last_collective = -1;  ///< Index into Job::last_collectives, -1 when not kept.
  Evidence start_evidence, complete_evidence;
  std::optional<ChannelCounts> channel_counts;  ///< This rank's "N coll channels, ..." line.
  std::optional<InitTimings> init_timings;      ///< api view is cleared (not owned).
  int nnodes = -1, local_ranks = -1, local_rank = -1;
};

struct Communicator {
  std::string id;  ///< "0xe9089ab3dce6b312", or for split children "<parent id>/split<N>/color<C>"
  std::optional<uint64_t> comm_id;
  std::string parent_id;  ///< Parent's id for split/shrink children.
  std::string api;        ///< ncclCommInitRankConfig, ncclCommSplit, ...
  int nranks = 0;
  int nnodes = -1;                        ///< From the "comm ... nNodes" line.
  int local_ranks = -1;                   ///< Max localRanks reported.
  std::map<int, CommRank> ranks;          ///< Ranks seen in the logs.
  RingOrders rings;                       ///< Channel → ring order (printed by rank 0).
  int nchannels = -1;
  std::optional<ChannelCounts> channel_counts;
  std::string graph_intra_type;  ///< GRAPH "Pattern ... type NVL/PIX": "NVL"
  std::string graph_inter_type;  ///< "PIX"
  /// Later communicators folded into this one (JobBuilder, once a job holds thousands): each had
  /// ended on every rank and repeated this one's shape (ranks, processes, devices, channels,
  /// rings and links); only its id, pointers, init timings and evidence lines differed. The
  /// links' line counts include theirs; their ids are not kept.
  uint64_t repeats = 0;
};

enum class Attribution : uint8_t {
  kCertain,   ///< Only one communicator of the printing process fits the line.
  kInferred,  ///< Several fit; chosen by the most recent init/activity of the process.
  kUnknown,   ///< No init line of this process fits (partial log): comm is -1.
};
enum class P2pPath : uint8_t { kNotApplicable, kNvlink, kPcie, kUnknown };

/// All connection lines of one (communicator, src, dst, raw transport).
struct Link {
  int comm = -1;  ///< Index into Job::comms; -1 when attribution is unknown.
  Attribution attribution = Attribution::kUnknown;
  int reporter = -1;       ///< Process that printed the (first) line.
  int src = -1, dst = -1;  ///< Communicator-local ranks.
  /// The texts below come from a small vocabulary: the builder interns them (TextPool).
  SharedText src_dev, dst_dev;
  SharedText raw;                                ///< Text after "via", trimmed.
  bool send_side = false, receive_side = false;  ///< NET [send]/[receive]; P2P/SHM count as send.
  TransportClass cls = TransportClass::kUnknown;
  P2pPath path = P2pPath::kNotApplicable;
  std::string path_evidence;  ///< Why NVL/PCIe: "GRAPH path (2/370.8/NVL)", "--topo NV18", ...
  /// What connects the two GPUs in hardware, also for SHM/NET links within one physical host
  /// (from GRAPH path lines or --topo): an SHM link with kNvlink here wastes NVLink.
  P2pPath hardware_path = P2pPath::kNotApplicable;
  SharedText mode;  ///< P2P/SHM mode ("CUMEM", "IPC", "direct/direct", ...)
  SharedText net;   ///< NET name ("Socket", "IB", "AWS Libfabric")
  int net_dev = -1, proxy_rank = -1, via_rank = -1;
  bool gdrdma = false, shared = false, read = false, ce = false, pci = false;
  bool collnet = false;
  std::optional<bool> intra_node;  ///< Same node (NCCL's view); nullopt when a side is unknown.
  std::optional<bool> same_physical_host;
  FlatIntSet channels;
  FlatIntSet conn_indexes;
  uint64_t lines = 0;
  Evidence first;
};

/// A WARN (or known failure text) of one process, deduplicated by message.
struct WarnRecord {
  WarnCategory category = WarnCategory::kOther;
  std::string message;
  std::string location;
  std::set<int> processes;
  uint64_t count = 0;
  std::vector<Evidence> evidence;  ///< First few occurrences.
  std::string first_timestamp;
};

struct ErrorTrailRecord {
  int process = -1;
  std::string location;
  int code = 0;
  Evidence evidence;
};

/// PyTorch watchdog/progress state of one (process group, rank).
struct TorchRankState {
  int rank = -1;
  int pg_id = -1;
  std::string pg_desc;
  bool timed_out = false;
  int64_t timeout_seq = -1;
  std::string op_type;
  int64_t timeout_ms = -1, ran_ms = -1, numel = -1;
  int64_t last_enqueued = -1, last_completed = -1;
  std::vector<Evidence> evidence;
};

struct FrameworkRecord {
  enum class Kind : uint8_t { kNcclError, kEvent } kind = Kind::kEvent;
  FrameworkKind event = FrameworkKind::kNcclErrorDetail;
  int rank = -1;
  std::string where, reason, nccl_version, exception, detail;
  Evidence evidence;
  std::string timestamp;
};

/// What launchers' and collectors' line prefixes (LineMeta) say about the nodes of the job.
struct LaunchFacts {
  static constexpr size_t kMaxOriginHosts = 64;
  /// Distinct origin hosts of the lines (pdsh hosts, Ray/SkyPilot `ip=`, syslog hosts), with the
  /// first line of each; at most kMaxOriginHosts.
  std::vector<std::string> origin_hosts;
  std::vector<Evidence> origin_host_evidence;
  /// The first line whose prefix only multi-node launches write (LineMeta::multi_node), and
  /// which prefix it was.
  MultiNodePrefix multi_node = MultiNodePrefix::kNone;
  Evidence multi_node_evidence;
  /// Ranks that launcher prefixes (`[rank3]:`, `[default3]:`) put on PyTorch's own lines
  /// (tracebacks, exceptions, watchdog), distinct, in order of appearance; at most
  /// kMaxTorchRanks (one more means "more").
  static constexpr size_t kMaxTorchRanks = 64;
  std::vector<int> torch_ranks;
};

struct JobStats {
  uint64_t lines = 0, nccl_lines = 0, events = 0, unrecognized = 0, connection_lines = 0,
           framework_lines = 0, bytes = 0, mention_lines = 0, unrecognized_mentions = 0,
           info_lines = 0;  ///< NCCL messages at INFO or TRACE level
  /// Communicators folded into an earlier one of the same shape (the sum of their repeats).
  uint64_t folded_comms = 0;
  std::map<std::string, uint64_t> events_by_type;
};

struct Job {
  std::vector<SourceInfo> sources;
  std::vector<Host> hosts;
  std::vector<Process> processes;
  std::vector<LastCollective> last_collectives;  ///< CommRank::last_collective.
  ChunkedVector<Communicator> comms;  ///< Chunked: tens of thousands in long jobs.
  ChunkedVector<Link> links;
  std::vector<WarnRecord> warnings;
  /// INFO lines that report a degradation or a rejected setting (Notice, P2P disabled between
  /// connected GPUs), deduplicated like the warnings; category kOther.
  std::vector<WarnRecord> notices;
  std::vector<ErrorTrailRecord> error_trails;  ///< First few per process.
  std::vector<TorchRankState> torch_ranks;
  std::vector<FrameworkRecord> framework;      ///< Errors and notable framework lines (capped).
  std::vector<Evidence> unrecognized_samples;  ///< First few Unrecognized lines.
  IncidentLog incidents;  ///< How processes ended, in order: the root-cause analysis reads it.
  std::set<std::string> nccl_versions;
  LaunchFacts launch;
  JobStats stats;
  bool topo_given = false;  ///< An nvidia-smi topo matrix was supplied (--topo).

  /// Communicators of the job: those kept and those folded into them (Communicator::repeats).
  uint64_t CommunicatorCount() const { return comms.size() + stats.folded_comms; }

  /// Display name of a source index, or `missing` when the index is out of range (evidence of
  /// an empty job).
  std::string_view SourceName(uint32_t source, std::string_view missing = "?") const {
    return source < sources.size() ? std::string_view(sources[source].name) : missing;
  }
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_JOB_H_
