// What the diff writers share: the format table, grouping, counts and run headlines.
#include "ncclscope/diff/diff_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace ncclscope {

const std::vector<DiffFormat>& DiffFormats() {
  static const std::vector<DiffFormat> kFormats = {
      {"text", WriteDiffText}, {"markdown", WriteDiffMarkdown}, {"json", WriteDiffJson}};
  return kFormats;
}

const DiffFormat* FindDiffFormat(std::string_view name) {
  for (const auto& f : DiffFormats()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::vector<DiffGroup> GroupDiffItems(const std::vector<DiffItem>& items, DiffTopic topic) {
  std::vector<DiffGroup> groups;
  auto key = [](const DiffItem& i) {
    return std::tie(i.verdict, i.aspect, i.before, i.after, i.note);
  };
  for (const DiffItem& item : items) {
    if (item.topic != topic) continue;
    DiffGroup* into = nullptr;
    // Only communicators share a line: other subjects (settings, rules) are names of their own.
    if (topic == DiffTopic::kCommunicators) {
      for (auto& g : groups) {
        if (key(*g.first) == key(item)) into = &g;
      }
    }
    if (!into) {
      groups.push_back(DiffGroup{&item, {}});
      into = &groups.back();
    }
    into->subjects.push_back(item.subject);
  }
  // Regressions first, then improvements, changes, info; found order within each.
  std::stable_sort(groups.begin(), groups.end(), [](const DiffGroup& x, const DiffGroup& y) {
    return x.first->verdict > y.first->verdict;
  });
  return groups;
}

std::string GroupSubject(const DiffGroup& g) {
  if (g.subjects.size() == 1) return g.subjects.front();
  std::string list;
  for (const auto& s : g.subjects) {
    std::string_view v = s;
    if (v.starts_with("ranks ")) v.remove_prefix(6);
    list += fmt::format("{}{}", list.empty() ? "" : "; ", v);
  }
  return fmt::format("{} communicators (ranks {})", g.subjects.size(), list);
}

std::string DiffCountsText(const RunDiff& diff) {
  struct Part {
    DiffVerdict verdict;
    const char* one;
    const char* many;
  };
  static constexpr Part kParts[] = {{DiffVerdict::kRegression, "regression", "regressions"},
                                    {DiffVerdict::kImprovement, "improvement", "improvements"},
                                    {DiffVerdict::kChange, "change", "changes"},
                                    {DiffVerdict::kInfo, "info", "info"}};
  std::string out;
  for (const Part& p : kParts) {
    const int n = diff.Count(p.verdict);
    if (n > 0) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, n == 1 ? p.one : p.many);
  }
  return out.empty() ? "no differences" : out;
}

std::string SnapshotHeadline(const RunSnapshot& s) {
  std::string versions;
  for (const auto& v : s.nccl_versions) versions += (versions.empty() ? "" : ", ") + v;
  std::string out = fmt::format("{} ({}", s.label, s.kind);
  if (s.kind == "report" && !s.tool_version.empty()) out += ", ncclscope " + s.tool_version;
  out += ")";
  if (s.nccl_lines > 0 || s.kind == "report") {
    out += fmt::format(": {} host{}, {} process{}, {} communicator{}, NCCL {}", s.hosts,
                       s.hosts == 1 ? "" : "s", s.processes, s.processes == 1 ? "" : "es",
                       s.comms.size(), s.comms.size() == 1 ? "" : "s",
                       versions.empty() ? "unknown" : versions);
  }
  if (!s.bench.empty())
    out += fmt::format("{} {} nccl-tests run{}", s.nccl_lines > 0 ? "," : ":", s.bench.size(),
                       s.bench.size() == 1 ? "" : "s");
  return out;
}

}  // namespace ncclscope
