// Internal interface between the line dispatcher (line_parser.cc) and the per-family parsers.
//
// Each Parse* function looks at one message body (the text after `NCCL INFO ` etc.) and, when the
// body is of its family, fills *data and returns true. They never allocate except for the few
// events that carry a std::vector (interface lists, ring orders, graph paths).
#ifndef NCCLSCOPE_SRC_PARSE_BODY_PARSERS_H_
#define NCCLSCOPE_SRC_PARSE_BODY_PARSERS_H_

#include <string_view>

#include "ncclscope/parse/events.h"

namespace ncclscope::parse_internal {

/// Parses NCCL's line prefix; on success fills the prefix fields of *ctx (host, pid, tid, dev,
/// level, timestamp, location, function, body).
bool ParseNcclPrefix(std::string_view text, EventContext* ctx);
/// What follows NCCL's `host:pid:tid `: `[dev] NCCL INFO `, `[dev] location NCCL WARN `, ...,
/// `NCCL CALL `; also the whole head of a headless message (`[1] NCCL INFO `, `NCCL INFO `).
/// Sets level, dev, location, function and body. False if `rest` does not start that way.
/// `legacy_levels` (after a full head only) also accepts NCCL <= 2.2's `[dev] INFO ` and
/// `[dev] file:line WARN ` without the word "NCCL".
bool ParseDevAndLevel(std::string_view rest, EventContext* ctx, bool legacy_levels = false);

/// `NCCL version 2.28.9+cuda13.0` (body or bare line).
bool ParseVersion(std::string_view body, EventData* data);

/// Connection lines `Channel/Ring/CollNet/Coll NN[/I] : ... via ...` (hot path).
bool ParseConnection(std::string_view body, EventData* data);
/// NCCL < 2.3's "7 -> 8 via NET/Socket/0" (the receiving rank's line, no ring number).
bool ParseBareNetConnection(std::string_view body, EventData* data);
/// `Channel 00/24 :  0 1 2 3` ring order.
bool ParseRingOrder(std::string_view body, EventData* data);
/// GRAPH `Ring 00 : 3 -> 0 -> 1`.
bool ParseGraphRing(std::string_view body, EventData* data);

/// `<Op>: opCount ...` and `<Op>: N Bytes -> Algo ...` (hot path).
bool ParseCollective(std::string_view body, EventData* data);
/// NCCL 2.7-2.19's TUNING line without the operation: "805306368 Bytes -> Algo 1 proto 2 time
/// 3970.683594", the algorithm and protocol as enum numbers (named in the event).
bool ParseNumericTuning(std::string_view body, EventData* data);

/// Communicator lifecycle, topology summary, trees, channel counts, timings, env and config echo.
bool ParseComm(std::string_view body, EventData* data);
/// `X set by environment to V.`, `X set to V`, `Comm config X set to V`, `cudaDriverVersion N`.
bool ParseEnv(std::string_view body, EventData* data);

/// Bootstrap interface, plugin loading, `Using network`, NET/IB, NET/Socket, GDR, NET/OFI.
bool ParseNet(std::string_view body, EventData* data);
/// NET/OFI (aws-ofi-nccl) bodies; `body` starts with "NET/OFI ".
bool ParseOfi(std::string_view body, EventData* data);

/// GRAPH pattern, path lines and `P2P is disabled between ...`.
bool ParseGraph(std::string_view body, EventData* data);

/// `file.cc:123 -> 5`, `... -> 5 (strerror)`, `... -> 5 [Async thread]`, 2.30 `file:N (fn) -> 5`.
bool ParseErrorTrail(std::string_view body, EventData* data);
/// Whether `token` is a source location as NCCL prints it: `transport/nvls.cc:251`,
/// `ib_plugin.c:1105`, `include/net.h:25` (a path ending in a C/C++/CUDA file, ':', a number).
bool IsSourceLocation(std::string_view token);
/// An error-trail line pasted without NCCL's head and level (`transport/nvls.cc:401 -> 1`,
/// `group.cc:75 -> 1 [Async thread]`): a source location, then ` -> ` and a code, nothing else.
bool IsBareErrorTrail(std::string_view text);
/// The WarnCategory of a warning text.
WarnCategory ClassifyWarning(std::string_view message);
/// INFO bodies that are NOWARN-downgraded failures (shm, cuda, syscall): true if `body` is one.
bool IsDowngradedFailure(std::string_view body);

/// INFO bodies that report a degradation or a rejected setting (events.h Notice).
bool ParseNotice(std::string_view body, EventData* data);

/// "[Service thread] Connection closed by localRank N" (events.h ProxyPeerClosed).
bool ParseProxyPeerClosed(std::string_view body, EventData* data);

/// Lines that are no NCCL message (framework_line_shapes.cc).
/// A frame of a c10 exception's C++ backtrace (`frame #1: ... (0x7fc7 in libtorch_cuda.so)`).
bool IsCppFrameLine(std::string_view text);
/// IPython's marker of a traceback frame's current line: `---> 11 rank, ... = setup()`,
/// `--> 101     raise RuntimeError("Failed to initialize NCCL")` (code, not a message).
bool IsIpythonCurrentLine(std::string_view trimmed);
/// A PyTorch c10 or glog line, a c10 exception's `Exception raised from ...` or a backtrace
/// frame, after an optional `[rankN]:`: framework output whose message no parser reads.
bool IsTorchLogLine(std::string_view text);
/// PyTorch's "Last error:" line, alone or behind a logger's head ending in "] " (vLLM's `ERROR
/// 04-07 00:57:46 ray_utils.py:45] Last error:`): *head is that head.
bool IsLastErrorLine(std::string_view trimmed, std::string_view* head);
/// vLLM's NCCL sanity-check prints ("PyTorch NCCL is successful!", also glued).
bool IsSanityCheckOutput(std::string_view text);
/// A line of PyTorch's ProcessGroupNCCL option dump ("NCCL_ASYNC_ERROR_HANDLING: 0",
/// "TORCH_NCCL_BLOCKING_WAIT: 0", printed under "ProcessGroupNCCL initialized with following
/// options:"): framework output that carries nothing.
bool IsTorchOptionLine(std::string_view trimmed);
/// A test runner's own line (GoogleTest's "[ RUN      ] ProcessGroupNCCLTest.testAllreduce",
/// CTest's "152/152 Test #151: ProcessGroupNCCLTest ... Passed 60.53 sec"): CI output.
bool IsTestRunnerLine(std::string_view trimmed);
/// A framework's known, harmless notice that names NCCL (DeepSpeed's "NCCL backend in DeepSpeed
/// not yet implemented": it runs on torch.distributed's NCCL backend instead).
bool IsFrameworkNotice(std::string_view trimmed);
/// DeepSpeed's launcher listing the environment it passes to its workers, its logger head
/// already stripped: `0 NCCL_IB_DISABLE 1` (older), `0 NCCL_SOCKET_IFNAME=eth0`,
/// `0 NV_LIBNCCL_PACKAGE=libnccl2=2.13.4-1+cuda11.7` (the node rank, a variable whose name holds
/// NCCL, its value). *name and *value are set; false for any other text.
bool IsLauncherEnvLine(std::string_view trimmed, std::string_view* name, std::string_view* value);
/// The text of an uncaught C++ exception's `what():` line (under "terminate called after throwing
/// an instance of ..."): `  what():  NCCL failure: unhandled cuda error in x.cu at line: 86 rank:
/// 0` gives "NCCL failure: ...". Empty for any other line.
std::string_view CppWhatText(std::string_view trimmed);

/// Known uninteresting message families; returns the family name or empty.
std::string_view NoiseFamily(std::string_view body);
/// The family of the hottest noise bodies (proxy-thread chatter) whose prefix alone decides the
/// dispatch: no family parser accepts any body that starts with one of them (each prefix covers
/// every byte the parsers' first checks look at; tests/parse/exclusive_noise_test.cc runs the
/// full dispatch over them with many suffixes). Empty for every other body.
std::string_view ExclusiveNoiseFamily(std::string_view body);
/// An INFO/TRACE/CALL body into *data: the family parsers in order, then known noise, else
/// Unrecognized. `exclusive_noise` = false skips the ExclusiveNoiseFamily shortcut (tests).
void DispatchInfo(std::string_view body, Level level, EventData* data, bool exclusive_noise = true);

/// PyTorch / torchelastic lines. `text` is the whole line. Fills ctx (level kTorch, torch_rank,
/// timestamp, location, body) and *data; false if the line is not a recognised framework line.
bool ParseFramework(std::string_view text, EventContext* ctx, EventData* data);

/// An NCCL call's failure as Horovod, TensorFlow, vLLM's pynccl, CuPy, PaddlePaddle or Caffe
/// raise it, quoting NCCL's result string ("HorovodInternalError: ncclAllReduce failed: unhandled
/// cuda error"): a FrameworkNcclError. `msg` is the message without a log header.
bool ParseNcclResultError(std::string_view msg, EventData* data);
/// The text of a C++ `what():` line that is an NCCL error ("NCCL error: unhandled system error,
/// NCCL version 2.10.3", "NCCL Error 1: unhandled cuda error"): a FrameworkNcclError whose
/// exception is `std::runtime_error`.
bool ParseNcclWhat(std::string_view what, EventData* data);
/// PyTorch's "NCCL error in: FILE:LINE, REASON[, NCCL version X]" (any text before it is the
/// exception's name) and "... async exception: NCCL error: REASON".
bool ParseNcclErrorIn(std::string_view msg, EventData* data);
/// Removes the ", NCCL version X" PyTorch ends its NCCL error texts with from *text; X, or
/// empty when there is none.
std::string_view CutNcclVersion(std::string_view* text);

/// libfabric's own log line (`libfabric:PID:...:FUNC():LINE<LEVEL> message`). `text` is the
/// whole line. Fills ctx (pid, level, location, function, body) and *data: a Notice for
/// `<warn>`, KnownNoise for the other levels; false if the line is not one.
bool ParseLibfabricLog(std::string_view text, EventContext* ctx, EventData* data);
/// libibverbs' own warning (`libibverbs: Warning: no userspace device-specific driver found for
/// /sys/class/infiniband_verbs/uverbs0`): a Notice at Level::kVerbs.
bool ParseVerbsWarning(std::string_view text, EventContext* ctx, EventData* data);

}  // namespace ncclscope::parse_internal

#endif  // NCCLSCOPE_SRC_PARSE_BODY_PARSERS_H_
