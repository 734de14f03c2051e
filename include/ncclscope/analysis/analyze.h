// Analyze: the whole pipeline in one call. inputs → lines → events → job model → link
// classification → rules → findings. Every command that needs the model goes through here.
#ifndef NCCLSCOPE_ANALYSIS_ANALYZE_H_
#define NCCLSCOPE_ANALYSIS_ANALYZE_H_

#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/analysis/condensed.h"
#include "ncclscope/analysis/input_pieces.h"
#include "ncclscope/analysis/progress.h"
#include "ncclscope/base/status.h"
#include "ncclscope/input/input_set.h"
#include "ncclscope/model/job.h"
#include "ncclscope/model/job_builder.h"
#include "ncclscope/rules/finding.h"
#include "ncclscope/rules/rule_options.h"
#include "ncclscope/triage/root_cause.h"

namespace ncclscope {

struct AnalyzeOptions {
  std::vector<std::string> inputs;  ///< Paths; empty or "-" = stdin.
  std::string topo_path;            ///< nvidia-smi topo -m output (optional).
  RuleOptions rules;
  bool run_rules = true;
  /// Threads that condense several inputs in parallel (0 = hardware concurrency). With 1, or a
  /// single input, inputs are streamed straight into the model.
  unsigned jobs = 0;
  /// With jobs != 1, regular files of at least twice this size are cut into pieces of about this
  /// size, condensed in parallel (input_pieces.h). Tests make it small.
  uint64_t piece_bytes = kPieceBytes;
  /// Inputs cut into pieces are first judged on a condensed sample of the middle piece
  /// (CondensingPays): when condensing would keep most lines they are streamed instead. Tests
  /// that compare the pieces with a serial read turn this off.
  bool sample_pieces = true;
  /// With jobs != 1, inputs streamed into the model (not cut into pieces) of at least this size
  /// in all, or of unknown size (a pipe), are parsed on one thread and modelled on another
  /// (EventRelay). Tests make it 0.
  uint64_t relay_min_bytes = 8ull << 20;
  /// Tests: the relay's consumer waits until each input was parsed to its end (see
  /// EventRelay::Tuning::hold_until_drain).
  bool relay_hold = false;
  /// Optional: reading progress per input (progress bar). Only the streaming path (one input, or
  /// --jobs 1) reports progress.
  ProgressHook progress;
  /// Keep every communicator: no folding of ended ones that repeat an earlier shape (memory then
  /// grows with the communicators of the log; BuilderTuning::fold_from).
  bool keep_all_comms = false;
};

/// The builder tuning `options` ask for.
BuilderTuning TuningOf(const AnalyzeOptions& options);

struct AnalysisResult {
  Job job;
  std::vector<Finding> findings;
  std::vector<InputProblem> problems;  ///< Unreadable/missing/damaged inputs (exit code 2).
  RootCauseReport root_cause;          ///< Which rank failed first and why (docs/triage.md).
};

/// Runs the pipeline over files. Problems with single inputs are collected in
/// result->problems and the other inputs are still analysed; a non-ok Status means nothing could
/// be analysed at all (e.g. an unreadable --topo file).
Status Analyze(const AnalyzeOptions& options, AnalysisResult* result);

/// Runs the model and rules over already condensed inputs (`ncclscope merge`): the same result
/// as Analyze over the original inputs. `options.inputs` is ignored.
Status AnalyzeCondensed(CondensedSet condensed, const AnalyzeOptions& options,
                        AnalysisResult* result);

/// Runs the pipeline over in-memory text (tests, fuzzing). `name` is the source's display name.
AnalysisResult AnalyzeText(std::string_view text, std::string_view name = "test.log",
                           const AnalyzeOptions& options = {});

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_ANALYZE_H_
