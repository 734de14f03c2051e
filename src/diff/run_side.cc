// LoadRunSnapshot: recognise what a diff side is (report, summary, nccl-tests JSON, logs) by its
// content, analyse it if needed, and add the nccl-tests results found among its files.
#include "ncclscope/diff/run_side.h"

#include <sys/stat.h>

#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ncclscope/analysis/summary_file.h"
#include "ncclscope/base/whole_file.h"
#include "ncclscope/bench/bench_parser.h"
#include "ncclscope/input/input_set.h"

namespace ncclscope {
namespace {

using nlohmann::json;

/// Bytes read to recognise a file: enough for the nccl-tests header after a long NCCL init.
constexpr size_t kSniffBytes = 256 * 1024;

std::string Head(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string buf(kSniffBytes, '\0');
  in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
  buf.resize(static_cast<size_t>(in.gcount()));
  return buf;
}

bool StartsWithBrace(const std::string& head) {
  for (char c : head) {
    if (!std::isspace(static_cast<unsigned char>(c))) return c == '{';
  }
  return false;
}

/// nccl-tests text output: its header or its results table's header.
bool LooksLikeNcclTests(const std::string& head) {
  return head.find("# nThread ") != std::string::npos ||
         head.find("# Collective test starting") != std::string::npos;
}

enum class JsonKind { kNotOurs, kReport, kSummary, kBench };

JsonKind KindOf(const json& doc) {
  if (!doc.is_object()) return JsonKind::kNotOurs;
  if (doc.contains("ncclscope_summary")) return JsonKind::kSummary;
  if (doc.contains("schema_version") && doc.contains("tool")) return JsonKind::kReport;
  if (doc.contains("results") && doc.contains("config")) return JsonKind::kBench;
  return JsonKind::kNotOurs;
}

Status FromSummary(const std::string& path, const std::string& text, const RunSideOptions& o,
                   RunSnapshot* out) {
  CondensedSet set;
  Status s = ParseSummary(text, path, &set);
  if (!s.ok()) return s;
  AnalysisResult result;
  s = AnalyzeCondensed(std::move(set), o.analyze, &result);
  if (!s.ok()) return s;
  if (o.policy) ApplyPolicy(*o.policy, result.job, &result.findings);
  RunSnapshot snap = SnapshotOfAnalysis({result.job, result.findings, result.problems});
  snap.kind = "summary";
  *out = std::move(snap);
  return Status::Ok();
}

Status FromLogs(const std::string& path, const RunSideOptions& o, RunSnapshot* out) {
  AnalyzeOptions aopts = o.analyze;
  aopts.inputs = {path};
  AnalysisResult result;
  Status s = Analyze(aopts, &result);
  if (!s.ok()) return s;
  if (!result.problems.empty()) {
    std::string msg;
    for (const auto& p : result.problems)
      msg += (msg.empty() ? "" : "; ") + p.path + ": " + p.message;
    return Status::InvalidInput(msg);
  }
  if (o.policy) ApplyPolicy(*o.policy, result.job, &result.findings);
  RunSnapshot snap = SnapshotOfAnalysis({result.job, result.findings, result.problems});
  // nccl-tests output among the files (stdin is read once, by the analysis, and not sniffed).
  if (path != "-") {
    for (const InputPath& in : ExpandInputs({path}).inputs) {
      const std::string head = Head(in.path);
      const bool json_file = StartsWithBrace(head);
      if (!json_file && !LooksLikeNcclTests(head)) continue;
      std::string text;
      if (!ReadWholeFile(in.path, &text).ok()) continue;
      std::vector<BenchTest> tests;
      if (ParseBenchOutput(text, &tests).ok()) AddBenchSnapshots(tests, in.name, &snap);
    }
  }
  if (snap.nccl_lines == 0 && !snap.bench.empty()) snap.kind = "nccl-tests";
  if (snap.nccl_lines == 0 && snap.bench.empty()) {
    return Status::InvalidInput(path +
                                ": no NCCL debug lines (run the job with NCCL_DEBUG=INFO) and no "
                                "nccl-tests results: nothing to compare");
  }
  *out = std::move(snap);
  return Status::Ok();
}

}  // namespace

Status LoadRunSnapshot(const std::string& path, const RunSideOptions& options, RunSnapshot* out) {
  RunSnapshot snap;
  Status s;
  struct stat st {};
  if (path != "-" && ::stat(path.c_str(), &st) != 0) {
    return Status::NotFound(path + ": No such file or directory");
  }
  if (path != "-" && S_ISREG(st.st_mode) && StartsWithBrace(Head(path))) {
    std::string text;
    s = ReadWholeFile(path, &text);
    if (!s.ok()) return s;
    const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
    switch (doc.is_discarded() ? JsonKind::kNotOurs : KindOf(doc)) {
      case JsonKind::kReport:
        s = ParseReportSnapshot(text, path, &snap);
        snap.kind = "report";
        break;
      case JsonKind::kSummary:
        s = FromSummary(path, text, options, &snap);
        break;
      case JsonKind::kBench: {
        std::vector<BenchTest> tests;
        s = ParseBenchJson(text, &tests);
        snap.kind = "nccl-tests";
        if (s.ok()) AddBenchSnapshots(tests, path, &snap);
        if (s.ok() && snap.bench.empty())
          s = Status::InvalidInput(path + ": nccl-tests JSON without results rows");
        break;
      }
      case JsonKind::kNotOurs:
        s = FromLogs(path, options, &snap);  // JSON-shaped log lines (docker, fluentd, ...).
        break;
    }
  } else {
    s = FromLogs(path, options, &snap);
  }
  if (!s.ok()) return s;
  snap.label = path == "-" ? "<stdin>" : path;
  *out = std::move(snap);
  return Status::Ok();
}

}  // namespace ncclscope
