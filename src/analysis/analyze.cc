#include "ncclscope/analysis/analyze.h"

#include <algorithm>
#include <filesystem>
#include <thread>

#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/analysis/piece_sampling.h"
#include "ncclscope/analysis/topo_paths.h"
#include "ncclscope/model/job_builder.h"
#include "ncclscope/rules/registry.h"
#include "ncclscope/triage/fallout.h"

namespace ncclscope {
namespace {

void Finish(const AnalyzeOptions& options, const TopoPaths* topo, JobBuilder* builder,
            AnalysisResult* result) {
  BuildOptions build;
  build.topo = topo;
  builder->Finish(build);
  if (options.run_rules) result->findings = RunRules(result->job, options.rules);
  result->root_cause = AnalyzeRootCause(result->job);
  MarkFallout(result->root_cause, &result->findings);
}

/// Sets up the two-thread relay of a streaming pipeline where the options allow it and the
/// inputs (`bytes` in all, -1: a pipe or an unknown size) are large enough to pay.
void SetRelay(const AnalyzeOptions& options, unsigned jobs, int64_t bytes,
              EventPipeline* pipeline) {
  if (jobs == 1 || (bytes >= 0 && static_cast<uint64_t>(bytes) < options.relay_min_bytes)) return;
  EventRelay::Tuning tuning;
  tuning.hold_until_drain = options.relay_hold;
  pipeline->set_relay(tuning);
}

/// The bytes of all inputs, or -1 when one is stdin or of unknown size.
int64_t InputBytes(const std::vector<InputPath>& inputs) {
  int64_t total = 0;
  for (const InputPath& in : inputs) {
    if (in.path.empty() || in.path == "-") return -1;
    std::error_code ec;
    const auto size = std::filesystem::file_size(in.path, ec);
    if (ec) continue;  // unreadable: reported when it is opened
    total += static_cast<int64_t>(size);
  }
  return total;
}

unsigned JobsOf(const AnalyzeOptions& options) {
  return options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

BuilderTuning TuningOf(const AnalyzeOptions& options) {
  BuilderTuning tuning;
  if (options.keep_all_comms) tuning.fold_from = 0;
  return tuning;
}

Status Analyze(const AnalyzeOptions& options, AnalysisResult* result) {
  TopoPaths topo;
  if (!options.topo_path.empty()) {
    Status s = LoadTopoPaths(options.topo_path, &topo);
    if (!s.ok()) return s;
  }
  ExpandedInputs inputs = ExpandInputs(options.inputs);
  result->problems = inputs.problems;
  JobBuilder builder(&result->job, TuningOf(options));
  const unsigned jobs = JobsOf(options);
  // Several inputs, or one large file cut into pieces: condense the pieces in parallel, replay
  // them in input order: the same events in the same order.
  const std::vector<InputPiece> pieces = PlanPieces(inputs.inputs, jobs, options.piece_bytes);
  // Inputs whose condensed form would keep most of their lines (a sample of the middle piece
  // says): the replay would parse them a second time on one thread; a stream is faster.
  const bool stream = pieces.size() > 1 && options.sample_pieces &&
                      !CondensingPays(inputs.inputs[pieces[pieces.size() / 2].input], pieces);
  if (jobs != 1 && pieces.size() > 1 && !stream) {
    CondensedReplay replay(&result->job, &builder, &result->problems);
    uint64_t done = 0;
    CondenseInParallel(inputs.inputs, pieces, jobs, [&](size_t i, CondensedInput&& c) {
      if (pieces[i].first) {
        replay.FinishInput();
        done = 0;
      }
      replay.Add(c);
      done += c.bytes;
      if (options.progress) options.progress(c.name, done, -1);
    });
  } else {
    EventPipeline pipeline(&result->job.sources, &result->job.stats);
    pipeline.set_progress(options.progress);
    SetRelay(options, jobs, InputBytes(inputs.inputs), &pipeline);
    pipeline.set_text_keeper([&builder] { builder.KeepLineTexts(); });
    auto sink = [&builder](const Event& e) { builder.Add(e); };
    for (const auto& input : inputs.inputs) pipeline.Run(input, sink, &result->problems);
  }
  Finish(options, options.topo_path.empty() ? nullptr : &topo, &builder, result);
  return Status::Ok();
}

Status AnalyzeCondensed(CondensedSet condensed, const AnalyzeOptions& options,
                        AnalysisResult* result) {
  TopoPaths topo;
  if (!options.topo_path.empty()) {
    Status s = LoadTopoPaths(options.topo_path, &topo);
    if (!s.ok()) return s;
  }
  result->problems = std::move(condensed.problems);
  JobBuilder builder(&result->job, TuningOf(options));
  for (auto& input : condensed.inputs) {
    ReplayCondensed(input, &result->job, &builder, &result->problems);
    input = CondensedInput{};  // Free as we go.
  }
  Finish(options, options.topo_path.empty() ? nullptr : &topo, &builder, result);
  return Status::Ok();
}

AnalysisResult AnalyzeText(std::string_view text, std::string_view name,
                           const AnalyzeOptions& options) {
  AnalysisResult result;
  JobBuilder builder(&result.job, TuningOf(options));
  EventPipeline pipeline(&result.job.sources, &result.job.stats);
  SetRelay(options, JobsOf(options), static_cast<int64_t>(text.size()), &pipeline);
  pipeline.set_text_keeper([&builder] { builder.KeepLineTexts(); });
  auto sink = [&builder](const Event& e) { builder.Add(e); };
  pipeline.Run(MemoryByteSource(text.data(), text.size()), InputPath{"", std::string(name)}, sink,
               &result.problems);
  TopoPaths topo;
  bool have_topo = !options.topo_path.empty() && LoadTopoPaths(options.topo_path, &topo).ok();
  Finish(options, have_topo ? &topo : nullptr, &builder, &result);
  return result;
}

}  // namespace ncclscope
