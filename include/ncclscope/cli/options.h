// Plain option structs, one per subcommand, filled by the argument parser (cli/main.cc) and
// read by the command runners. No logic here.
#ifndef NCCLSCOPE_CLI_OPTIONS_H_
#define NCCLSCOPE_CLI_OPTIONS_H_

#include <string>
#include <vector>

namespace ncclscope::cli {

/// Process exit codes (README "Exit codes").
enum ExitCode : int {
  kExitOk = 0,
  kExitFindings = 1,  ///< Findings at or above --fail-on.
  kExitUsage = 2,     ///< Usage error, or an input could not be read.
  kExitNoNccl = 3,    ///< No NCCL debug lines at all, and no failed job.
};

struct AnalyzeCommandOptions {
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string output;             ///< -o FILE; empty = stdout.
  std::string color = "auto";     ///< auto|always|never
  std::string fail_on = "error";  ///< error|warning|info|never
  std::string policy;
  std::string topo;
  bool quiet = false;
  bool stats = false;
  bool verbose = false;
  bool follow = false;
  bool keep_all_comms = false;  ///< --keep-all-comms
  double slow_init_seconds = 10.0;
  unsigned jobs = 0;  ///< --jobs: threads condensing several inputs; 0 = one per core.
};

/// `summarize`: condensed form of the inputs as a summary file.
struct SummarizeCommandOptions {
  std::vector<std::string> inputs;
  std::string output;  ///< -o FILE; empty or "-" = stdout.
  unsigned jobs = 0;
  std::string shard;  ///< "K/N": only the K-th of N contiguous ranges of the inputs.
};

/// `diff BEFORE AFTER`: two runs compared (docs/diff.md).
struct DiffCommandOptions {
  std::string before;
  std::string after;
  std::string format = "text";         ///< text|markdown|json
  std::string output;                  ///< -o FILE; empty = stdout.
  std::string color = "auto";          ///< auto|always|never
  std::string fail_on = "regression";  ///< regression|change|any|never
  double busbw_tolerance_percent = 10.0;
  std::string policy;  ///< Applied to both runs' analysed logs.
  std::string topo;    ///< `nvidia-smi topo -m` of the nodes, for both runs.
  double slow_init_seconds = 10.0;
  unsigned jobs = 0;
  bool quiet = false;
};

/// `kube-status PODS_JSON [EVENTS_JSON...]`: pod state as log lines (docs/kubernetes.md).
struct KubeStatusCommandOptions {
  std::string pods;                 ///< `kubectl get pods -o json` output
  std::vector<std::string> events;  ///< `kubectl get events -o json` outputs
  std::string container;            ///< Only this container of each pod.
  std::string target;               ///< KIND/NAME of the workload ("job/train"): its events too.
  std::string output;               ///< -o FILE; empty = stdout.
  std::string split_dir;            ///< One file per container (POD.CONTAINER.status).
  bool list = false;                ///< Print "POD<TAB>CONTAINER" per container instead.
  std::string selector_of;          ///< Print the pod selector of this workload JSON instead.
};

struct EventsCommandOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string type;  ///< Only events of this type (comma-separated list).
  bool stats = false;
  /// --unrecognized: instead of the events, the lines that mention NCCL and that nothing
  /// understood, grouped by shape (`format` text or json).
  bool unrecognized = false;
  std::string format = "text";
};

struct RanksCommandOptions {
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string output;
};

struct TimelineCommandOptions {
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string output;
};

struct RulesCommandOptions {
  std::string format = "text";
};

/// `explain TEXT...|RULE`: the words are joined with spaces; none = read stdin.
struct ExplainCommandOptions {
  std::vector<std::string> text;
  std::string format = "text";
};

struct TopoCommandOptionsCli {
  std::string path;
  std::string format = "text";
};

struct BenchCommandOptionsCli {
  std::vector<std::string> inputs;
  std::string expect;
  std::string log;  ///< NCCL log of the same run, to take the expected class from.
  std::string format = "text";
};

}  // namespace ncclscope::cli

#endif  // NCCLSCOPE_CLI_OPTIONS_H_
