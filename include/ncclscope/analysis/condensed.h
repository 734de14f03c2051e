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

#include "ncclscope/analysis/input_pieces.h"
#include "ncclscope/base/text_arena.h"
#include "ncclscope/input/byte_source.h"
#include "ncclscope/input/input_set.h"
#include "ncclscope/model/job.h"
#include "ncclscope/model/job_builder.h"

namespace ncclscope {

/// One kept line: where it was and what the parser and the model read from it. Its texts are
/// views into the arena of the CondensedInput that holds it (or static text).
struct CondensedLine {
  uint32_t source = 0;     ///< Index into CondensedInput::sources (0 = the input itself).
  uint64_t line = 0;       ///< 1-based physical line number within the input.
  std::string_view text;   ///< The line after prefix stripping.
  int launcher_rank = -1;  ///< LineMeta::launcher_rank.
  std::string_view timestamp;  ///< LineMeta::timestamp (kubectl --timestamps, CloudWatch).
  std::string_view origin_host;  ///< LineMeta::origin_host (pdsh, Ray, syslog): headless lines.
  uint32_t origin_pid = 0;  ///< LineMeta::origin_pid.
  MultiNodePrefix multi_node = MultiNodePrefix::kNone;  ///< LineMeta::multi_node.
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
  TextArena arena;                     ///< The texts of `lines` (move-only: views into it).
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

/// Condenses one piece of an input (input_pieces.h): the whole input, or a byte range of it
/// whose line numbers count from 1.
CondensedInput CondenseInput(const InputPath& input, const InputPiece& piece);

/// Condenses `inputs` on up to `jobs` worker threads (0 = hardware concurrency) and hands each
/// result to `consume` on the calling thread in input order, as soon as it and every earlier one
/// are ready, so at most a few condensed inputs are held at once.
void CondenseInParallel(const std::vector<InputPath>& inputs, unsigned jobs,
                        const std::function<void(CondensedInput&&)>& consume);
/// Same over pieces (PlanPieces): `consume` gets each piece's index and its condensed form.
void CondenseInParallel(const std::vector<InputPath>& inputs,
                        const std::vector<InputPiece>& pieces, unsigned jobs,
                        const std::function<void(size_t, CondensedInput&&)>& consume);

/// Replays condensed inputs into a model: for each input, appends its sources to *job, replays
/// its lines through one LineParser into *builder (which must build *job) and adds its counters
/// and problems: the same effect as EventPipeline::Run over the original input. An input may
/// come in several pieces (Add each, in order, then Finish the input): the pieces' line numbers
/// are shifted by the lines before them and their pods merged into one source per pod, so the
/// model is the one a single read of the input gives. A piece that reports a damaged stream
/// ends its input (a single read stops there too).
class CondensedReplay {
 public:
  CondensedReplay(Job* job, JobBuilder* builder, std::vector<InputProblem>* problems);
  ~CondensedReplay();
  CondensedReplay(const CondensedReplay&) = delete;
  CondensedReplay& operator=(const CondensedReplay&) = delete;

  /// The next piece of the current input (the first piece starts one).
  void Add(const CondensedInput& piece);
  /// Ends the current input: the next Add starts another.
  void FinishInput();

 private:
  struct State;
  Job* job_;
  JobBuilder* builder_;
  std::vector<InputProblem>* problems_;
  std::unique_ptr<State> state_;
};

/// One whole condensed input: CondensedReplay's Add and FinishInput.
void ReplayCondensed(const CondensedInput& input, Job* job, JobBuilder* builder,
                     std::vector<InputProblem>* problems);

/// Approximate heap bytes held by a condensed input (docs and tests).
size_t CondensedBytes(const CondensedInput& input);

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_CONDENSED_H_
