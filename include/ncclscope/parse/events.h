// The closed set of typed events the parser turns log lines into.
//
// Every event is an EventContext (where the line came from and what NCCL's own prefix said) plus
// one alternative of EventData. docs/events.md documents every type and field; the `events`
// subcommand prints them as JSON Lines with the names used there.
//
// Lifetime: string_view fields point into the current input line and are valid only during the
// callback that receives the event. Consumers that keep data copy it.
#ifndef NCCLSCOPE_PARSE_EVENTS_H_
#define NCCLSCOPE_PARSE_EVENTS_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "ncclscope/input/line.h"

namespace ncclscope {

/// kTorch: PyTorch / torchelastic lines; kLibfabric: libfabric's own log lines (aws-ofi-nccl's
/// fabric library); kVerbs: libibverbs' own warnings (the RDMA user-space library NCCL's IB
/// transport loads).
enum class Level : uint8_t {
  kNone, kVersion, kInfo, kWarn, kTrace, kCall, kTorch, kLibfabric, kVerbs
};

/// Where an event came from. host/pid/tid/dev are empty/0/-1 for lines without NCCL's prefix.
/// A NCCL message without NCCL's `host:pid:tid` head (`[1] NCCL INFO ...`, a bare `NCCL INFO
/// ...`) is `headless`: its host is empty and who printed it is what the line's prefixes say
/// (`meta`: pod, pdsh host, Ray pid/ip, launcher rank) and its device.
struct EventContext {
  uint32_t source = 0;
  uint64_t line = 0;
  std::string_view host;
  uint32_t pid = 0;
  uint32_t tid = 0;
  int dev = -1;  ///< NCCL's `[cudaDev]` of the printing thread.
  Level level = Level::kNone;
  std::string_view timestamp;  ///< NCCL `[timestamp]` (2.26+), else the prefix timestamp.
  std::string_view location;   ///< WARN/TRACE `file:line` (plugins: pretty function:line).
  std::string_view function;   ///< 2.30.7 WARN `(function)`.
  std::string_view body;       ///< Message text after `NCCL INFO ` etc. (whole text if none).
  std::string_view text;       ///< The whole line after prefix stripping (for evidence).
  const LineMeta* meta = nullptr;
  int torch_rank = -1;  ///< Rank from `[rankN]:`/`[Rank N]` on framework lines, else -1.
  /// Nonzero: names this line's NCCL prefix bytes ("host:pid:tid [dev] NCCL INFO "). Within one
  /// source, lines with the same prefix_id have the same host, pid, tid and dev, so consumers may
  /// key per-line lookups on (source, prefix_id). 0 when the line's prefix was not remembered.
  uint32_t prefix_id = 0;
  bool headless = false;
  bool attention = false;  ///< 2.32's `NCCL ATTN` level (parsed as INFO).
  /// `text` stays valid after this event, until the sink is told that the texts it was given
  /// expire (EventPipeline::set_text_keeper): a consumer may keep the view instead of a copy.
  bool text_kept = false;
};

// ---- Versions and environment ------------------------------------------------------------------

struct NcclVersion {         // "NCCL version 2.28.9+cuda13.0" (bare or INFO)
  std::string_view version;  // "2.28.9"
  std::string_view suffix;   // "" or e.g. "a0" between patch and "+cuda"
  std::string_view cuda;     // "13.0", may be empty
};
struct CudaDriverVersion {  // "cudaDriverVersion 13000"
  int version = 0;
};
struct EnvSetting {  // "NCCL_P2P_DISABLE set by environment to 1." / "NCCL_IB_HCA set to mlx5"
  std::string_view name;
  std::string_view value;  // trailing '.' of numeric echoes removed
  bool by_environment = false;
  /// An assignment on a pasted shell command line or environment dump (`NCCL_P2P_LEVEL=SYS
  /// ./build/all_reduce_perf -g 8`, `export NCCL_IB_HCA=mlx5`): no NCCL process printed it.
  bool command_line = false;
};
struct CommConfig {  // "Comm config Blocking set to 1"
  std::string_view name;
  std::string_view value;
};

// ---- Bootstrap, plugins, networks --------------------------------------------------------------

struct NetInterface {
  int index = -1;               // [i] where printed
  std::string_view name;        // "eth0", "mlx5_0"
  std::string_view address;     // "192.0.2.2<0>" (IB: port number as text)
  std::string_view link_layer;  // IB: "IB"/"RoCE"
};
struct BootstrapInterface {  // "Bootstrap: Using eth0:192.0.2.2<0>"
  std::vector<NetInterface> interfaces;
};
struct BootstrapTimings {  // "Bootstrap timings total 0.13 (create ..., send, recv, ring, delay)"
  double total = 0, create = 0, send = 0, recv = 0, ring = 0, delay = 0;
};
struct InitTimings {  // "Init timings - ncclCommInitRankConfig: rank 1 nranks 4 total 0.57 (...)"
  std::string_view api;
  int rank = -1, nranks = 0;
  double total = 0, kernels = 0, alloc = 0, bootstrap = 0, allgathers = 0, topo = 0, graphs = 0,
         connections = 0, rest = 0;
};

enum class PluginAction : uint8_t {
  kNotFound,   // "NET/Plugin: Could not find: libnccl-net.so", "No plugin found (...)"
  kLoadError,  // "NET/Plugin: Plugin load returned ..." / "%s: dlerror"
  kLoaded,  // "NET/Plugin: Loaded net plugin Libfabric (v8)", "Successfully loaded external plugin"
  kInitialized,    // "Initialized NET plugin Socket"
  kInitFailed,     // "Failed to initialize NET plugin IB"
  kAssigned,       // "Assigned NET plugin Socket to comm"
  kAllFailed,      // WARN "Failed to initialize any NET plugin"
  kNameFromEnv,    // "NET/Plugin: Plugin name set by env to ..."
  kUsingInternal,  // "Using internal network plugin."
  kSymbolMissing,  // "Failed to find ncclCollNetPlugin_v9 symbol."
};
struct PluginEvent {
  std::string_view kind;  // "NET", "TUNER", "PROFILER", "ENV", "COLL"
  PluginAction action = PluginAction::kNotFound;
  std::string_view name;  // plugin/library name(s) as printed
};
struct UsingNetwork {  // "Using network Socket" / "Using network AWS Libfabric"
  std::string_view name;
};
struct IbDevices {  // "NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:..." or "NET/IB : No device
                    // found."
  bool none_found = false;
  std::vector<NetInterface> devices;
  std::string_view oob;
};
struct SocketDevices {  // "NET/Socket : Using [0]eth0:192.0.2.2<0>"
  std::vector<NetInterface> devices;
};
struct GdrStatus {  // "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'" and per-GPU variants
  bool enabled = false;
  std::string_view net;  // "IB", "Socket", plugin name; empty for per-GPU lines
  int hca = -1;
  std::string_view device;  // 'mlx5_0'
  std::string_view gpu;     // per-GPU form: GPU id as printed
};
enum class OfiKind : uint8_t {
  kInitializing,         // "NET/OFI Initializing aws-ofi-nccl 1.13.0-aws"
  kLibfabricVersion,     // "NET/OFI Using Libfabric version 1.22"
  kProviderSelected,     // "Selected provider is efa, fabric is efa (found 4 nics)"
  kNoEligibleProviders,  // "No eligible providers were found"
  kInitFailed,           // "Initializing plugin failed", "aws-ofi-nccl initialization failed",
                         // "Unable to find a protocol that worked", "fi_getinfo() call failed"
  kPlatform,             // "Running on p4d.24xlarge platform, topology file ..."
  kProviderFilter,       // "Setting provider_filter to efa"
  kProtocol,             // "Using transport protocol SENDRECV (platform set)"
  kEnvAdded,             // "Adding NCCL_PROTO=simple to environment"
  kGdrDisabled,          // "GDR disabled on GDR-supported instance type ...", "disabling GDR"
  kRequestError,         // "Request 0x... completed with error"
  kOther,                // any other NET/OFI line
};
struct OfiEvent {
  OfiKind kind = OfiKind::kOther;
  std::string_view value;  // version, provider, platform, protocol, "NAME=VALUE", ...
  std::string_view fabric;
  int nics = -1;
};

// ---- Communicators -----------------------------------------------------------------------------

enum class InitPhase : uint8_t { kStart, kComplete };
struct CommInit {  // "ncclCommInitRankConfig comm 0x.. rank 0 nranks 4 ... - Init START/COMPLETE"
  InitPhase phase = InitPhase::kStart;
  std::string_view api;   // may be empty (old versions)
  std::string_view comm;  // "0x35468120"
  int rank = -1, nranks = 0, cuda_dev = -1, nvml_dev = -1;
  std::string_view bus_id;  // as printed ("60", "1b000")
  std::optional<uint64_t> comm_id;
  std::string_view parent;  // split/shrink parent comm pointer
  std::optional<int64_t> color, key, split_count;
};
enum class CommEndKind : uint8_t { kDestroy, kAbort, kAbortStart, kRevokeStart, kRevoke };
struct CommEnd {  // "comm 0x.. rank 0 nranks 4 cudaDev 0 busId 60 - Destroy COMPLETE"
  CommEndKind kind = CommEndKind::kDestroy;
  std::string_view comm;
  int rank = -1, nranks = 0, cuda_dev = -1;
  std::string_view bus_id;
};
struct CommTopology {  // "comm 0x.. rank 1 nRanks 4 nNodes 1 localRanks 4 localRank 1 MNNVL 0"
  std::string_view comm;
  int rank = -1, nranks = 0, nnodes = 0, local_ranks = 0, local_rank = -1, mnnvl = 0;
};
struct RingOrder {  // "Channel 00/24 : 0 1 2 3" (printed by rank 0 only)
  int channel = -1, nchannels = 0;
  std::string_view ranks;  ///< The rank list as printed: DecodeRingRanks (ring_ranks.h) reads it.
  int nranks = 0;          ///< Ranks in the list (before a "...").
  bool cut = false;        // ended in "..."
};
struct TreeTopology {  // "Trees [0] 2/-1/-1->1->0 [1] ..."
  int channels = 0;    // number of [i] items
};
struct GraphRing {  // GRAPH "Ring 00 : 3 -> 0 -> 1"
  int channel = -1, prev = -1, me = -1, next = -1;
};
struct ChannelCounts {  // "24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p ..."
  int coll = -1, collnet = -1, nvls = -1, p2p = -1, p2p_per_peer = -1;
};
struct ConnectedAll {     // "Connected all rings, use ring PXN 0 GDR 1" / "Connected all trees"
  std::string_view what;  // "rings", "trees", "NVLS tree", "CollNet", "binomial trees"
  int pxn = -1, gdr = -1;
};

// ---- Connections (the hot lines) ---------------------------------------------------------------

enum class ConnKind : uint8_t { kChannel, kRing, kCollNet };
enum class ConnDirection : uint8_t { kNone, kSend, kReceive };
enum class TransportType : uint8_t { kP2P, kSHM, kNET, kCOLLNET, kOther };

/// The text after ` via `, split into its parts (see nccl-log-formats.md §2).
struct TransportSpec {
  TransportType type = TransportType::kOther;
  std::string_view mode;  // P2P: CUMEM/IPC/direct pointer/MNNVL/common device/indirect;
                          // SHM: "direct/direct", "CE/direct", "direct shared memory"
  bool read = false;      // P2P "/read"
  bool ce = false;        // copy engine "/CE" (P2P) or CE on either SHM side
  int via_rank = -1;      // P2P/indirect/R[D]
  std::string_view net;   // NET/COLLNET name: "IB", "Socket", "AWS Libfabric", "IBext_v8", "SHARP"
  int net_dev = -1;       // NET device index
  int proxy_rank = -1;    // PXN "(N)"
  bool gdrdma = false;
  bool pci = false;     // "(PCI)"
  bool shared = false;  // "/Shared"
};
struct Connection {  // "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM"
  ConnKind kind = ConnKind::kChannel;
  int channel = -1;
  int conn_index = -1;  // "/I", -1 when absent (SHM, old versions)
  int src_rank = -1;
  std::string_view src_dev;  // inside [..]: nvmlDev or busId hex; empty if absent
  int dst_rank = -1;
  std::string_view dst_dev;
  ConnDirection direction = ConnDirection::kNone;
  std::string_view raw;  // text after " via ", whitespace-trimmed
  TransportSpec transport;
};

// ---- Graph/topology search (subsys GRAPH) ------------------------------------------------------

struct GraphPattern {  // "Pattern 4, crossNic 0, nChannels 24, bw 40.0/40.0, type NVL/PIX,
                       // sameChannels 1"
  int pattern = -1, cross_nic = -1, nchannels = 0, same_channels = -1;
  double bw_intra = 0, bw_inter = 0;
  std::string_view type_intra;  // "NVL", "PIX", "SYS", ...
  std::string_view type_inter;
};
struct GraphPathHop {
  std::string_view node;  // "GPU/0-70"
  int count = 0;
  double bw = 0;
  std::string_view type;  // "NVL", "PHB", "LOC", ...
};
struct GraphPaths {       // "GPU/0-60 :GPU/0-70 (2/370.8/NVL) NVS/0-0 (1/370.8/NVL) ..."
  std::string_view from;  // "GPU/0-60"
  std::vector<GraphPathHop> to;
};
struct P2pDisabled {  // "P2P is disabled between [NVLINK ]connected GPUs 0 and 1."
  int gpu_a = -1, gpu_b = -1;
  bool nvlink = false;
};

// ---- Collectives -------------------------------------------------------------------------------

struct Collective {  // "AllReduce: opCount 5 sendbuff ... count N datatype 7 op 0 root 0 comm 0x..
                     // [nranks=4] stream .."
  std::string_view op;
  uint64_t op_count = 0;
  std::string_view comm;  ///< The token after " comm " in args.
  std::string_view args;  ///< The text after the opCount: DecodeCollectiveArgs decodes it.
};
struct CollAlgo {  // "AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..23}"
  std::string_view op;
  uint64_t bytes = 0;
  std::string_view algo, proto;
};

// ---- Warnings and errors -----------------------------------------------------------------------

enum class WarnCategory : uint8_t {
  kShm,
  kCuda,
  kSocket,
  kBootstrap,
  kIb,
  kProxy,
  kPlugin,
  kOfi,
  kSyscall,
  kNvls,
  kCollNet,
  kOther
};
struct Warning {  // any "NCCL WARN" line (and NOWARN-downgraded known failure text)
  WarnCategory category = WarnCategory::kOther;
  std::string_view message;  // == ctx.body
};
/// An INFO line that reports a degradation or a rejected setting NCCL works around ("Check P2P
/// Type intraNodeP2pSupport 0", "Could not open XML topology file", "Failed to bind NVLink SHARP",
/// "Invalid value X for NCCL_Y, using default"): the rules explain it from the knowledge table.
struct Notice {
  std::string_view message;  // == ctx.body
};
/// "[Service thread] Connection closed by localRank 7" (proxy.cc, INFO): the printing process's
/// proxy service saw the connection of the process with that local rank on its host close. That
/// process destroyed or aborted its communicator, or ended: the local ranks that the others see
/// leave, and the order they see it in, tell which process went first.
struct ProxyPeerClosed {
  int local_rank = -1;
};
struct ErrorTrail {  // "init.cc:421 -> 5" / "group.cc:76 -> 5 [Async thread]"
  std::string_view location;
  int code = 0;
  bool async = false;
};

// ---- Framework (PyTorch ProcessGroupNCCL) lines -------------------------------------------------

struct WatchdogTimeout {  // "[Rank 0] Watchdog caught collective operation timeout:
                          // WorkNCCL(SeqNum=6, ...)"
  int rank = -1;
  int64_t seq = -1;
  std::string_view op_type;
  int64_t numel_in = -1, numel_out = -1, timeout_ms = -1, ran_ms = -1;
};
struct WorkProgress {  // "... last enqueued work: 6, last completed work: 1" (and older spellings)
  int rank = -1;
  int pg_id = -1;
  std::string_view pg_desc;  // "default_pg"
  int64_t failed_seq = -1, last_enqueued = -1, last_completed = -1;
  /// PyTorch 2.5+'s "Timeout at NCCL work: N, ...": the watchdog timed out at work N (also when
  /// the excerpt lacks its "Watchdog caught collective operation timeout" line).
  bool timeout = false;
};
struct FrameworkNcclError {  // "NCCL error in: file:93, unhandled system error (...), NCCL
                             // version 2.28.9"
  std::string_view where;
  std::string_view reason;
  std::string_view nccl_version;
  std::string_view exception;  // "torch.distributed.DistBackendError" or empty
  std::string_view last_error;  // nccl-tests' "'<error> / <last error>'": the last error
};
/// FrameworkNcclError::exception of nccl-tests' failed CUDA check ("HOST: Test CUDA failure
/// common.cu:732 'invalid device ordinal'"): `reason` is CUDA's error string, no NCCL error.
inline constexpr std::string_view kNcclTestsCudaCheck = "nccl-tests CUDA check";
enum class FrameworkKind : uint8_t {
  kNcclErrorDetail,     // "ncclSystemError: ..." etc.
  kHeartbeatTimeout,    // "Heartbeat monitor timed out!"
  kWatchdogTerminated,  // "watchdog thread terminated with exception"
  kTakingDown,          // "To avoid data inconsistency, we are taking the entire process down."
  kCommAborted,         // "NCCL communicator was aborted on rank N"
  kInitTimeout,         // "NCCL timeout in communicator initialization."
  kDumpSignal,          // flight recorder dump messages
  kProcessSignal,       // torchelastic "Sending process N closing signal SIGTERM", "Signal 15"
  kChildFailed,         // "ChildFailedError", "... FAILED"
  // PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG), the ranks it blames; detail = the ranks
  // as printed ("7", "0, 1, 2"):
  kDesyncStuck,        // "[47] joined but didn't finish collective #41207 (count from 1)"
  kDesyncLagging,      // "[7] finished collective #182, but didn't join collective #183 ..."
  kDesyncNeverJoined,  // "ranks [3] are the lagging ranks ... They never joined any collectives"
  // "WARNING: destroy_process_group() was not called before program exit, which can leak
  // resources": ProcessGroupNCCL's destructor as the Python process exits (PyTorch 2.4+).
  kExitWithoutDestroy,
  // "Stack trace of the failed collective:" (PyTorch 2.5+, the flight recorder's record of the
  // work that failed; not "... not found, potentially because FlightRecorder is disabled").
  kCollectiveStack,
  // A frame of that stack, on its own line: "#0 barrier from .../distributed_c10d.py:5030",
  // "#2 main from /work/train.py:139"; detail = "barrier from .../distributed_c10d.py:5030",
  // seq = the frame's number.
  kCollectiveFrame,
  // Horovod's stall inspector: ranks that did not submit a tensor every other rank submitted
  // ("HorovodBroadcast_dense_0 [missing ranks: 1]"; "Stalled ranks:" then "1: [...]");
  // detail = the ranks as printed ("1", "1, 3").
  kStallMissing,
};
struct FrameworkEvent {
  FrameworkKind kind = FrameworkKind::kNcclErrorDetail;
  int rank = -1;
  std::string_view detail;  // signal name, error class, ...
  int64_t pid = -1;         // kProcessSignal: the process the launcher signals
  int64_t seq = -1;         // kDesync*: the collective the ranks did not finish or join
};

// ---- Launchers, schedulers, the kernel, Python (docs/events.md "Process ends") ---------------

/// Who reported a process's end.
enum class ExitReporter : uint8_t {
  kTorchrun,     // "failed (exitcode: -9) local_rank: 1 (pid: 631) of binary: ..."
  kDeepSpeed,    // "[...] exits with return code = -9"
  kMpirun,       // "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9"
  kSlurm,        // "srun: error: node7: task 3: Killed" / "...: Exited with exit code 1"
  kKubernetes,   // kubectl describe "Reason: OOMKilled", "Exit Code: 137"
  kKernel,       // "Out of memory: Killed process 1234 (python)"
  kPython,       // "Fatal Python error: Segmentation fault" (the dying process itself), also
                 // UCX's handler "[host:pid:0:tid] Caught signal 7 (Bus error: ...)"
  kRay,          // "(raylet) A worker died or was killed while executing a task by an unexpected
                 // system error. ... Worker IP address: 172.19.24.110"
  kVllm,         // vLLM's executor: "Worker proc VllmWorker-1 died unexpectedly, shutting down
                 // executor."
  kTestHarness,  // PyTorch's multiprocess test harness: "Process 1 terminated or timed out after
                 // 100.1 seconds", "Expected zero exit code but got -11"
};
/// ProcessExit::reason of the test harness's "Process N exited with error code 10 and
/// exception:": the child's traceback follows on the next lines.
inline constexpr std::string_view kHarnessRaisedReason = "raised an exception in the test";

/// A process ended (or was killed), as a launcher, scheduler, the kernel or the process said.
struct ProcessExit {
  ExitReporter reporter = ExitReporter::kTorchrun;
  int rank = -1;        ///< Global rank when the line names one (mpirun, Slurm task), else -1.
  int local_rank = -1;  ///< torchrun/DeepSpeed local rank, else -1.
  int64_t pid = -1;     ///< -1 when not printed (mpirun prints 0 in containers: kept as 0).
  std::optional<int> exit_code;  ///< As printed: -9 (torchrun: killed by signal 9), 1, 137.
  int signal = 0;                ///< Decoded signal number, 0 when none (a plain exit code).
  std::string_view node;         ///< Node/host the reporter names, may be empty.
  std::string_view reason;       ///< "Killed", "OOMKilled", "Segmentation fault", ...
  std::string_view ranks;        ///< Slurm "tasks 0-3": the rank list as printed.
  bool oom = false;              ///< The reporter says the memory limit killed it.
  /// The process's own signal handler said a fatal signal arrived (Open MPI's "*** Process
  /// received signal ***"); `signal` is 0 when the line did not say which.
  bool fatal_signal = false;
  /// The reporter's time limit ran out while the process still ran (PyTorch's test harness
  /// then terminates it): a process that did not finish, not one that died of its own.
  bool timed_out = false;
};

enum class LauncherKind : uint8_t {
  kRestart,          // "Restarting workers", "[default] Worker group FAILED. 1/1 attempts left"
  kFailuresHeader,   // torchelastic ChildFailedError table: "Failures:"
  kRootCauseHeader,  // "Root Cause (first observed failure):"
  kTableEntry,       // "[0]:" (value: the entry index)
  kTableField,       // "  exitcode  : -9 (pid: 631)" (key, value); mpirun "  Process name: ..."
  kJobCancelled,     // Slurm "*** JOB 12 ON node1 CANCELLED AT ... DUE TO TIME LIMIT ***"
  kOomEvent,         // "slurmstepd: error: Detected 1 oom_kill event in StepId=..."
  kMpiAbort,         // "Primary job  terminated normally, but 1 process returned"
  kKillSent,         // DeepSpeed "Killing subprocess 1234" (value: the pid)
};
struct LauncherEvent {
  LauncherKind kind = LauncherKind::kRestart;
  std::string_view key;    ///< Table field name ("exitcode"), or empty.
  std::string_view value;  ///< Field value, cancellation reason, error text, ...
};

enum class TracebackKind : uint8_t {
  kStart,         // "Traceback (most recent call last):"
  kFrame,         // '  File "train.py", line 49, in train_step'
  kException,     // "ValueError: loss became NaN at step 3" after a traceback
  kFatalSignal,   // "Fatal Python error: Segmentation fault" / "Aborted" / "Floating point exception"
  kCppTerminate,  // "terminate called after throwing an instance of 'c10::DistBackendError'"
  kCppWhat,       // "  what():  NCCL failure: unhandled cuda error in x.cu at line: 86 rank: 0"
};
struct Traceback {
  TracebackKind kind = TracebackKind::kStart;
  std::string_view type;     ///< Exception type, fatal error text or C++ exception type.
  std::string_view message;  ///< Exception message (may be empty).
  std::string_view file;     ///< Frame file.
  int line = -1;             ///< Frame line.
  std::string_view function; ///< Frame function.
  bool indented = false;     ///< Printed indented (inside a launcher's error table).
};

// ---- Catch-alls --------------------------------------------------------------------------------

/// A known NCCL message that carries nothing the analysis uses (proxy, RAS, allocation, tuning
/// tables, ...). `family` names the message family, e.g. "proxy", "ras", "alloc", "tuning".
struct KnownNoise {
  std::string_view family;
};
/// A NCCL message (any line with a `NCCL INFO|WARN|...` anchor) whose text matches no known
/// format, or (`mention`) another line that mentions NCCL and that no parser understood. Never
/// dropped silently: counted per input and listed by `ncclscope events --unrecognized`.
struct Unrecognized {
  std::string_view message;
  bool mention = false;
};

using EventData =
    std::variant<NcclVersion, CudaDriverVersion, EnvSetting, CommConfig, BootstrapInterface,
                 BootstrapTimings, InitTimings, PluginEvent, UsingNetwork, IbDevices, SocketDevices,
                 GdrStatus, OfiEvent, CommInit, CommEnd, CommTopology, RingOrder, TreeTopology,
                 GraphRing, ChannelCounts, ConnectedAll, Connection, GraphPattern, GraphPaths,
                 P2pDisabled, Collective, CollAlgo, Warning, Notice, ProxyPeerClosed, ErrorTrail,
                 WatchdogTimeout,
                 WorkProgress, FrameworkNcclError, FrameworkEvent, ProcessExit, LauncherEvent,
                 Traceback, KnownNoise, Unrecognized>;

struct Event {
  EventContext ctx;
  EventData data;
};

/// The JSON `type` name of an event alternative, e.g. "connection", "comm_init".
std::string_view EventTypeName(const EventData& data);

}  // namespace ncclscope

#endif  // NCCLSCOPE_PARSE_EVENTS_H_
