// Internal interface of the parsers for the lines that say how processes ended: launchers
// (torchelastic/torchrun, DeepSpeed, mpirun), schedulers (Slurm, Kubernetes), the kernel's OOM
// killer and the process itself (Python tracebacks and fatal signals, UCX's signal handler).
// One file per family; ParseFramework (framework_parser.cc) calls DispatchProcessEnd for lines
// that are not ProcessGroupNCCL lines.
#ifndef NCCLSCOPE_SRC_PARSE_PROCESS_END_PARSERS_H_
#define NCCLSCOPE_SRC_PARSE_PROCESS_END_PARSERS_H_

#include <string_view>

#include "ncclscope/parse/events.h"

namespace ncclscope::parse_internal {

/// torchelastic agent lines: "failed (exitcode: -9) local_rank: 1 (pid: 631) of binary: ...",
/// restart markers, the ChildFailedError table's headers. `msg` has the glog header removed.
bool ParseTorchelastic(std::string_view msg, EventData* data);
/// The ChildFailedError table's field lines ("  exitcode  : -9 (pid: 631)"); `line` is indented.
bool ParseTorchelasticField(std::string_view line, EventData* data);
/// DeepSpeed launcher: "[...] exits with return code = -9".
bool ParseDeepSpeed(std::string_view msg, EventData* data);
/// mpirun: "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed)."
/// and the "Primary job terminated normally" / "Process name:" / "Exit code:" report.
bool ParseMpirun(std::string_view line, EventData* data);
/// Slurm: "srun: error: node7: task 3: Killed", "slurmstepd: error: Detected 1 oom_kill event",
/// "*** JOB 12 ON node7 CANCELLED AT ... DUE TO TIME LIMIT ***".
bool ParseSlurm(std::string_view line, EventData* data);
/// `kubectl describe pod` state lines: "Reason: OOMKilled", "Exit Code: 137".
bool ParseKubernetes(std::string_view line, EventData* data);
/// Kernel OOM killer: "Out of memory: Killed process 1234 (python) ...", "oom-kill:...,pid=1234".
bool ParseKernelOom(std::string_view line, EventData* data);
/// Ray: "A worker died or was killed while executing a task by an unexpected system error",
/// "Ray killed this worker ... because ... memory usage threshold".
bool ParseRay(std::string_view line, EventData* data);
/// vLLM's multiprocess executor: "Worker proc VllmWorker-1 died unexpectedly, shutting down
/// executor." (behind vLLM's logger head): worker 1, its rank in the executor, ended.
bool ParseVllmWorkerDied(std::string_view line, EventData* data);
/// PyTorch's multiprocess test harness on how its test processes (process i = rank i) ended:
/// "Process 1 terminated or timed out after 100.1 seconds", "Process 1 exited with error code 10
/// and exception:", "Expect process 1 exit code to match Process 0 exit code of 0, but got -11",
/// "Expected zero exit code but got -11" (every process). `text` is an exception's message or a
/// line of a multi-line assertion message.
bool ParseTestHarness(std::string_view text, EventData* data);
/// A process's own fatal-signal handler in UCX's format: "[host:pid:0:tid] Caught signal 7 (Bus
/// error: nonexistent physical address)".
bool ParseCaughtSignal(std::string_view line, EventData* data);
/// The `host:pid` that opens a signal handler's bracket (`who` is the bracket's inside): a
/// process's own exit report (reporter python) with node and pid set; `*rest` gets what follows
/// the pid. False when `who` does not start that way.
bool ReadHandlerHostPid(std::string_view who, ProcessExit* e, std::string_view* rest);
/// Open MPI's fatal-signal handler: "[host:pid] *** Process received signal ***" and
/// "[host:pid] Signal: Segmentation fault (11)".
bool ParseOpalSignal(std::string_view line, EventData* data);
/// Python: "Traceback (most recent call last):", frames, the exception line, "Fatal Python
/// error: ...", "terminate called after throwing an instance of '...'".
bool ParsePythonLine(std::string_view line, bool indented, EventData* data);

/// A timestamp at the start of a line that carries no c10/glog header: "[2024-05-01
/// 10:00:00,123] ", "2024-05-01 10:00:00,123 ", syslog "Nov 22 10:00:01 ". Empty if none.
std::string_view LeadingTimestamp(std::string_view line);

/// Tries the families above on a line that is not a ProcessGroupNCCL message. `msg` is the
/// message after the c10/glog header when there was one (`header`), else the whole line;
/// `indented` when the line starts with blanks. Sets ctx->timestamp from a leading timestamp.
bool DispatchProcessEnd(std::string_view msg, bool header, bool indented, EventContext* ctx,
                        EventData* data);

}  // namespace ncclscope::parse_internal

#endif  // NCCLSCOPE_SRC_PARSE_PROCESS_END_PARSERS_H_
