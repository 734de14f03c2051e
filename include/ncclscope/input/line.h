// One line of input after launcher/collector prefixes were stripped.
//
// Lifetime: every std::string_view in Line and LineMeta points into the reader's buffer and is
// valid only until the next line is read. Consumers copy what they keep.
#ifndef NCCLSCOPE_INPUT_LINE_H_
#define NCCLSCOPE_INPUT_LINE_H_

#include <cstdint>
#include <string_view>

namespace ncclscope {

/// A line prefix that launchers write only when they start processes on several nodes.
enum class MultiNodePrefix : uint8_t {
  kNone,
  /// pdsh's `host: ` (DeepSpeed's runner uses pdsh only for a multi-node hostfile).
  kPdsh,
  /// SkyPilot's node prefix `(head, rank=0, pid=N)` / `(worker1, rank=1, pid=N, ip=A)` (a
  /// single-node SkyPilot cluster prints `(task, pid=N)`).
  kSkyPilotNode,
};

/// What the stripped prefixes said about a line. Empty views / -1 mean "no such prefix".
struct LineMeta {
  /// kubectl --timestamps, CRI / docker json-file record time, CloudWatch export time, CI job log
  /// time, syslog time: the outermost (the collector's) wins.
  std::string_view timestamp;
  /// kubectl --prefix `[pod/NAME/CONTAINER]`: "NAME/CONTAINER"; a JSON record's Kubernetes pod;
  /// a Loki `pod="..."` label.
  std::string_view pod;
  std::string_view service;  ///< docker compose `svc-1  | `.
  /// torchrun --tee `[default3]:`, `[rank3]:`, mpirun `[1,3]`, horovod `[3]<stdout>:`, srun
  /// `3: `, SkyPilot `rank=3`.
  int launcher_rank = -1;
  /// launcher_rank is the global rank for certain: PyTorch's own `[rankN]:` (torchrun's
  /// `[default3]:` may be a local rank).
  bool launcher_rank_global = false;
  /// Who printed the line, as the prefixes closest to the text say (the innermost wins): a pdsh /
  /// DeepSpeed host (`10.0.87.143: `), a Ray or SkyPilot worker's `ip=`, a syslog / journald host.
  std::string_view origin_host;
  uint32_t origin_pid = 0;       ///< Ray `pid=N`, syslog `ident[N]:`; 0 when unknown.
  std::string_view origin_name;  ///< Ray actor (`RayWorkerWrapper`), syslog ident (`python3`).
  bool had_ansi = false;         ///< ANSI colour codes were removed (also ESC-less `[36m` remnants).
  /// The prefix is one that launchers write only when they start processes on several nodes.
  MultiNodePrefix multi_node = MultiNodePrefix::kNone;

  /// Back to the defaults field by field (GCC copies a whole `LineMeta{}` through a stack
  /// temporary, which costs a store-forwarding stall on every line).
  void Clear() {
    timestamp = {};
    pod = {};
    service = {};
    launcher_rank = -1;
    launcher_rank_global = false;
    origin_host = {};
    origin_pid = 0;
    origin_name = {};
    had_ansi = false;
    multi_node = MultiNodePrefix::kNone;
  }
};

/// A physical input line, prefixes removed. `number` is 1-based within its source.
struct Line {
  std::string_view text;  ///< The line without prefixes, CR/LF and ANSI codes.
  uint64_t number = 0;
  uint32_t source = 0;  ///< Index into the table of inputs (see input/source.h).
  LineMeta meta;
  bool truncated = false;  ///< The physical line was longer than the reader's limit and was cut.
  /// The text holds the bytes "NC" at most once, so at most one NCCL message (false: unknown).
  /// Lets the parser skip its search for messages glued after the first.
  bool nc_at_most_once = false;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_LINE_H_
