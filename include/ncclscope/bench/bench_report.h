// Bench report: what `ncclscope bench FILE... [--expect CLASS] [--format json]` prints about
// nccl-tests outputs.
#ifndef NCCLSCOPE_BENCH_BENCH_REPORT_H_
#define NCCLSCOPE_BENCH_BENCH_REPORT_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ncclscope/base/status.h"
#include "ncclscope/bench/bench_expectation.h"
#include "ncclscope/bench/bench_result.h"
#include "ncclscope/model/transport_class.h"

namespace ncclscope {

/// One run with its metrics, verdict and findings.
struct BenchTestReport {
  BenchTest test;
  BenchMetrics metrics;
  std::optional<BenchVerdict> verdict;  ///< Present when a class was expected.
  std::vector<std::string> errors;      ///< Data corruption, out-of-bounds values, test failures.
  std::vector<std::string> notes;       ///< Incomplete run, bandwidth not saturated, ...
  bool failing = false;                 ///< Any error, or a failing verdict.
};

/// All runs of one input file.
struct BenchFileReport {
  std::string path;
  std::vector<BenchTestReport> tests;
};

/// Computes metrics, verdict (when `expected` is set) and findings for one run.
BenchTestReport AnalyzeBenchTest(const BenchTest& test, std::optional<TransportClass> expected);
/// "8 B", "128 MiB", "2 GiB", "1.5 KiB".
std::string FormatBytes(int64_t bytes);
/// Human-readable report of all files.
void RenderBenchText(const std::vector<BenchFileReport>& files, std::ostream& out);
/// JSON report: {"files": [{"path", "tests": [...]}], "failing": bool}.
void RenderBenchJson(const std::vector<BenchFileReport>& files, std::ostream& out);

/// Options of `ncclscope bench`.
struct BenchCommandOptions {
  std::vector<std::string> paths;  ///< nccl-tests outputs (text or -J JSON); "-" for stdin.
  std::string expect;  ///< Transport class name for --expect ("NVL", "SHM", ...); empty: none.
  std::string format = "text";  ///< "text" or "json".
};

/// Reads, parses and reports every file. *exit_code: 1 when any run has #wrong > 0, out-of-bounds
/// values, a test failure, or a peak far below the expected class; else 0. Usage error for an
/// unknown class or format or no files; the read/parse error (naming the file) otherwise.
Status RunBenchCommand(const BenchCommandOptions& opts, std::ostream& out, int* exit_code);

}  // namespace ncclscope

#endif  // NCCLSCOPE_BENCH_BENCH_REPORT_H_
