// `ncclscope events`: every parsed event as one JSON object per line.
#include <fmt/format.h>

#include <set>
#include <string>

#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/analysis/unrecognized_shapes.h"
#include "ncclscope/model/line_coverage.h"
#include "ncclscope/report/unrecognized_report.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/output.h"
#include "ncclscope/parse/event_json.h"

namespace ncclscope::cli {

int RunEvents(const EventsCommandOptions& opts, std::ostream& out, std::ostream& err) {
  Output output(opts.output, out);
  if (!output.status().ok()) {
    err << "ncclscope: " << output.status().message() << "\n";
    return kExitUsage;
  }
  std::set<std::string, std::less<>> types;
  for (size_t start = 0; start < opts.type.size();) {
    size_t comma = opts.type.find(',', start);
    if (comma == std::string::npos) comma = opts.type.size();
    if (comma > start) types.insert(opts.type.substr(start, comma - start));
    start = comma + 1;
  }
  ExpandedInputs inputs = ExpandInputs(opts.inputs);
  std::vector<InputProblem> problems = inputs.problems;
  std::vector<SourceInfo> sources;
  JobStats stats;
  EventPipeline pipeline(&sources, &stats);
  std::string buf;
  std::ostream& os = output.stream();
  uint64_t events = 0;
  UnrecognizedShapes unrecognized;
  auto sink = [&](const Event& e) {
    if (opts.unrecognized) {
      unrecognized.Add(e);
      if (const auto* u = std::get_if<Unrecognized>(&e.data))
        ++(u->mention ? stats.unrecognized_mentions : stats.unrecognized);
      return;
    }
    if (!types.empty() && !types.count(EventTypeName(e.data))) return;
    ++events;
    buf.clear();
    AppendEventJson(e, sources[e.ctx.source].name, &buf);
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  };
  for (const auto& input : inputs.inputs) {
    pipeline.Run(input, sink, &problems);
    os.flush();
  }
  if (opts.unrecognized) {
    const auto groups = unrecognized.Groups();
    if (opts.format == "json") {
      WriteUnrecognizedJson(groups, CoverageOf(stats), sources, os);
    } else {
      WriteUnrecognizedText(groups, CoverageOf(stats), sources, os);
    }
    os.flush();
  }
  for (const auto& p : problems) err << "ncclscope: " << p.path << ": " << p.message << "\n";
  if (opts.stats) {
    err << fmt::format(
        "ncclscope: {} lines, {} NCCL lines, {} framework lines, {} events written\n", stats.lines,
        stats.nccl_lines, stats.framework_lines, events);
  }
  if (!problems.empty()) return kExitUsage;
  return stats.nccl_lines == 0 ? kExitNoNccl : kExitOk;
}

}  // namespace ncclscope::cli
