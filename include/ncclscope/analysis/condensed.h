// Condensed inputs: the subset of an input's lines that the job model needs, plus the input's
// counters. Replaying a condensed input through a fresh LineParser and the job's JobBuilder gives
// the same Job as parsing the whole input (docs/performance.md "Condensed inputs" says why each
// dropped line cannot change the model).
//
// Dropped ("folded") lines: KnownNoise events, CollAlgo events that repeat an (operation,
// algorithm, protocol) choice the process already reported, and COLL lines (Collective) that are
// not the last touch of their communicator within a run of COLL lines of the same process (a
// COLL line only moves its communicator to the front of the process's activity order). Each
// folded event is counted per source and type, so event statistics stay exact. Kept anyway: the
// first and the last event line of every process in every source (process order, first/last
// line evidence), and PyTorch's "Last error:" line before the warning body it introduces. So the
// kept lines of a process are bounded by its setup lines plus (communicators × kept events), not
// by the number of collectives.
#ifndef NCCLSCOPE_ANALYSIS_CONDENSED_H_
#define NCCLSCOPE_ANALYSIS_CONDENSED_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ncclscope/input/byte_source.h"
#include "ncclscope/input/input_set.h"
#include "ncclscope/model/job.h"
#include "ncclscope/model/job_builder.h"

namespace ncclscope {

/// One kept line: where it was and what the parser and the model read from it.
struct CondensedLine {
  uint32_t source = 0;     ///< Index into CondensedInput::sources (0 = the input itself).
  uint64_t line = 0;       ///< 1-based physical line number within the input.
  std::string text;        ///< The line after prefix stripping.
  int launcher_rank = -1;  ///< LineMeta::launcher_rank.
  std::string timestamp;   ///< LineMeta::timestamp (kubectl --timestamps, CloudWatch).
  std::string origin_host;  ///< LineMeta::origin_host (pdsh, Ray, syslog): headless lines.
  uint32_t origin_pid = 0;  ///< LineMeta::origin_pid.
};

/// One source of a condensed input: the input itself, then one per kubectl --prefix pod.
struct CondensedSource {
  /// Name, pod and the counters of the original input (lines, nccl_lines, framework_lines,
  /// events, unrecognized, truncated/nul/invalid UTF-8 lines, problem).
  SourceInfo info;
  /// Events folded away, by EventTypeName ("collective", "known_noise", "coll_algo").
  std::map<std::string, uint64_t> folded;
};

/// The condensed form of one input.
struct CondensedInput {
  std::string path;    ///< As expanded ("-" for stdin): for InputProblem.
  std::string name;    ///< Display name (evidence).
  uint64_t bytes = 0;  ///< Bytes read (decompressed).
  std::vector<CondensedSource> sources;
  std::vector<CondensedLine> lines;    ///< In input order.
  std::vector<InputProblem> problems;  ///< Open failure or damaged stream.
};

/// Several condensed inputs in input order, with the problems of expanding the input arguments.
struct CondensedSet {
  std::vector<InputProblem> problems;
  std::vector<CondensedInput> inputs;
};

/// Reads one input to its end and condenses it. Never fails: problems are recorded in it.
CondensedInput CondenseInput(const InputPath& input);
/// Same over an already opened byte source (tests, in-memory text).
CondensedInput CondenseInput(std::unique_ptr<ByteSource> bytes, const InputPath& input);

/// Condenses `inputs` on up to `jobs` worker threads (0 = hardware concurrency) and hands each
/// result to `consume` on the calling thread in input order, as soon as it and every earlier one
/// are ready, so at most a few condensed inputs are held at once.
void CondenseInParallel(const std::vector<InputPath>& inputs, unsigned jobs,
                        const std::function<void(CondensedInput&&)>& consume);

/// Appends the input's sources to *job, replays its lines through a fresh LineParser into
/// *builder (which must build *job) and adds its counters and problems: the same effect as
/// EventPipeline::Run over the original input.
void ReplayCondensed(const CondensedInput& input, Job* job, JobBuilder* builder,
                     std::vector<InputProblem>* problems);

/// Approximate heap bytes held by a condensed input (docs and tests).
size_t CondensedBytes(const CondensedInput& input);

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_CONDENSED_H_
