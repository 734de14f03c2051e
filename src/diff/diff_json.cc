// The diff as JSON (docs/diff.md): both runs' headlines, every item ungrouped, the counts and
// the exit code.
#include <nlohmann/json.hpp>

#include "ncclscope/diff/diff_report.h"

namespace ncclscope {
namespace {

using nlohmann::json;

json OrNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json RunJson(const RunSnapshot& s) {
  json bench = json::array();
  for (const auto& b : s.bench) {
    bench.push_back({{"name", OrNull(b.name)},
                     {"source", b.source},
                     {"ranks", b.ranks},
                     {"peak_busbw_gbps", b.peak_busbw_gbps},
                     {"avg_busbw_gbps", b.avg_busbw_gbps ? json(*b.avg_busbw_gbps) : json()}});
  }
  return {{"label", s.label},
          {"kind", s.kind},
          {"tool_version", OrNull(s.tool_version)},
          {"nccl_lines", s.nccl_lines},
          {"hosts", s.hosts},
          {"processes", s.processes},
          {"communicators", s.comms.size()},
          {"world_size", s.WorldSize()},
          {"nccl_versions", s.nccl_versions},
          {"findings", s.findings.size()},
          {"nccl_tests", std::move(bench)}};
}

}  // namespace

void WriteDiffJson(const DiffReportInput& in, const DiffReportOptions&, std::ostream& out) {
  json items = json::array();
  for (const DiffItem& i : in.diff.items) {
    items.push_back({{"topic", DiffTopicName(i.topic)},
                     {"verdict", DiffVerdictName(i.verdict)},
                     {"subject", i.subject},
                     {"aspect", OrNull(i.aspect)},
                     {"before", OrNull(i.before)},
                     {"after", OrNull(i.after)},
                     {"note", OrNull(i.note)},
                     {"before_ref", OrNull(i.before_ref)},
                     {"after_ref", OrNull(i.after_ref)}});
  }
  const bool fails = DiffFails(in.diff, in.fail_on);
  json doc{{"diff_schema_version", kDiffSchemaVersion},
           {"tool", {{"name", "ncclscope"}, {"version", NCCLSCOPE_VERSION}}},
           {"before", RunJson(in.before)},
           {"after", RunJson(in.after)},
           {"counts",
            {{"regression", in.diff.Count(DiffVerdict::kRegression)},
             {"improvement", in.diff.Count(DiffVerdict::kImprovement)},
             {"change", in.diff.Count(DiffVerdict::kChange)},
             {"info", in.diff.Count(DiffVerdict::kInfo)}}},
           {"fail_on", DiffFailOnName(in.fail_on)},
           {"exit_code", fails ? 1 : 0},
           {"items", std::move(items)}};
  out << doc.dump(2) << "\n";
}

}  // namespace ncclscope
