#include "ncclscope/bench/bench_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ncclscope/base/whole_file.h"
#include "ncclscope/bench/bench_parser.h"

namespace ncclscope {
namespace {

// A peak at the largest size below this suggests the sweep stopped before saturation.
constexpr int64_t kSaturatedSweepBytes = int64_t{256} << 20;

std::string DeviceSummary(const BenchTest& t) {
  int ranks = t.Ranks();
  std::string s = fmt::format("{} rank{}", ranks, ranks == 1 ? "" : "s");
  if (!t.devices.empty()) {
    bool same = true;
    for (const BenchDevice& d : t.devices) same = same && d.name == t.devices[0].name;
    if (same && !t.devices[0].name.empty()) s += fmt::format(" ({})", t.devices[0].name);
  }
  return s;
}

std::string TestName(const BenchTest& t) { return t.name.empty() ? "unnamed test" : t.name; }

}  // namespace

std::string FormatBytes(int64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int unit = 0;
  while (v >= 1024 && unit < 4) {
    v /= 1024;
    ++unit;
  }
  return fmt::format("{:g} {}", v, kUnits[unit]);
}

BenchTestReport AnalyzeBenchTest(const BenchTest& test, std::optional<TransportClass> expected) {
  BenchTestReport r;
  r.test = test;
  r.metrics = ComputeBenchMetrics(test);
  const BenchMetrics& m = r.metrics;
  if (m.wrong_total > 0) {
    r.errors.push_back(
        fmt::format("data corruption: {:g} wrong elements (#wrong > 0)", m.wrong_total));
  }
  if (test.out_of_bounds.value_or(0) > 0) {
    r.errors.push_back(fmt::format("{} out-of-bounds values", *test.out_of_bounds));
  }
  for (const std::string& e : test.errors) r.errors.push_back("test failure: " + e);
  if (test.rows.empty()) r.notes.push_back("no results table");
  if (!test.concluded) {
    r.notes.push_back(
        "incomplete: no '# Out of bounds values' / '# Avg bus bandwidth' summary "
        "(the run did not finish)");
  }
  if (!test.rows.empty() && m.peak_size_bytes == m.max_size_bytes &&
      m.max_size_bytes < kSaturatedSweepBytes) {
    r.notes.push_back(fmt::format(
        "peak at the largest size measured ({}): bandwidth may not have saturated; sweep to "
        "-e 1G or more",
        FormatBytes(m.max_size_bytes)));
  }
  if (expected) r.verdict = CompareWithClass(m, *expected);
  r.failing = !r.errors.empty() || (r.verdict && r.verdict->failing);
  return r;
}

void RenderBenchText(const std::vector<BenchFileReport>& files, std::ostream& out) {
  for (const BenchFileReport& f : files) {
    out << f.path << "\n";
    for (const BenchTestReport& r : f.tests) {
      const BenchTest& t = r.test;
      const BenchMetrics& m = r.metrics;
      out << fmt::format("  {}  {}", TestName(t), DeviceSummary(t));
      if (!t.rows.empty()) {
        out << fmt::format("  sizes {} - {}", FormatBytes(t.rows.front().size_bytes),
                           FormatBytes(m.max_size_bytes));
      }
      out << "\n";
      if (!t.rows.empty()) {
        out << fmt::format("    peak busbw {:.2f} GB/s at {} ({})", m.peak_busbw_gbps,
                           FormatBytes(m.peak_size_bytes),
                           m.peak_in_place ? "in-place" : "out-of-place");
        if (m.saturation_size_bytes) {
          out << fmt::format(", >= 90 % of peak from {}", FormatBytes(*m.saturation_size_bytes));
        }
        out << "\n";
        out << fmt::format("    speed: {}\n", SpeedTier(m.peak_busbw_gbps));
      }
      std::string avg =
          t.avg_busbw_gbps ? fmt::format("{:g} GB/s", *t.avg_busbw_gbps) : std::string("-");
      std::string oob = t.out_of_bounds ? fmt::format("{}", *t.out_of_bounds) : std::string("-");
      out << fmt::format("    avg busbw {} (as reported), #wrong {:g}, out of bounds {}\n", avg,
                         m.wrong_total, oob);
      if (r.verdict) out << "    expect: " << r.verdict->message << "\n";
      for (const std::string& e : r.errors) out << "    ERROR: " << e << "\n";
      for (const std::string& n : r.notes) out << "    note: " << n << "\n";
    }
  }
}

void RenderBenchJson(const std::vector<BenchFileReport>& files, std::ostream& out) {
  using nlohmann::json;
  auto opt = [](const auto& v) { return v ? json(*v) : json(nullptr); };
  json j;
  j["files"] = json::array();
  bool failing = false;
  for (const BenchFileReport& f : files) {
    json jf;
    jf["path"] = f.path;
    jf["tests"] = json::array();
    for (const BenchTestReport& r : f.tests) {
      const BenchTest& t = r.test;
      const BenchMetrics& m = r.metrics;
      failing = failing || r.failing;
      json devices = json::array();
      for (const BenchDevice& d : t.devices) {
        devices.push_back({{"rank", d.rank},
                           {"host", d.host},
                           {"device", d.device},
                           {"bus_id", d.bus_id},
                           {"name", d.name}});
      }
      json jt = {{"name", t.name},
                 {"format", t.source_format},
                 {"first_line", t.first_line},
                 {"ranks", t.Ranks()},
                 {"devices", devices},
                 {"rows", t.rows.size()},
                 {"min_size_bytes", t.rows.empty() ? 0 : t.rows.front().size_bytes},
                 {"max_size_bytes", m.max_size_bytes},
                 {"peak_busbw_gbps", m.peak_busbw_gbps},
                 {"peak_size_bytes", m.peak_size_bytes},
                 {"peak_in_place", m.peak_in_place},
                 {"saturation_size_bytes", opt(m.saturation_size_bytes)},
                 {"avg_busbw_gbps", opt(t.avg_busbw_gbps)},
                 {"wrong_total", m.wrong_total},
                 {"out_of_bounds", opt(t.out_of_bounds)},
                 {"speed_tier", std::string(SpeedTier(m.peak_busbw_gbps))},
                 {"errors", r.errors},
                 {"notes", r.notes},
                 {"failing", r.failing}};
      if (r.verdict) {
        jt["verdict"] = {{"expected", std::string(TransportClassName(r.verdict->expected))},
                         {"level", std::string(BenchVerdictLevelName(r.verdict->level))},
                         {"failing", r.verdict->failing},
                         {"message", r.verdict->message}};
      } else {
        jt["verdict"] = nullptr;
      }
      jf["tests"].push_back(std::move(jt));
    }
    j["files"].push_back(std::move(jf));
  }
  j["failing"] = failing;
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

Status RunBenchCommand(const BenchCommandOptions& opts, std::ostream& out, int* exit_code) {
  *exit_code = 0;
  if (opts.format != "text" && opts.format != "json") {
    return Status::Usage(fmt::format("unknown format '{}' (expected text or json)", opts.format));
  }
  if (opts.paths.empty()) return Status::Usage("bench: no input file");
  std::optional<TransportClass> expected;
  if (!opts.expect.empty()) {
    expected = ParseTransportClass(opts.expect);
    if (!expected) {
      return Status::Usage(fmt::format(
          "unknown transport class '{}' for --expect (NVL, NVLS, P2P, SHM, NET/Socket, NET/IB, "
          "NET/Libfabric, NET/other, CollNet)",
          opts.expect));
    }
  }
  std::vector<BenchFileReport> files;
  for (const std::string& path : opts.paths) {
    std::string text;
    Status st = ReadWholeFile(path, &text);
    if (!st.ok()) return st;
    std::vector<BenchTest> tests;
    st = ParseBenchOutput(text, &tests);
    if (!st.ok()) return Status::InvalidInput(path + ": " + st.message());
    BenchFileReport f;
    f.path = path;
    for (const BenchTest& t : tests) {
      f.tests.push_back(AnalyzeBenchTest(t, expected));
      if (f.tests.back().failing) *exit_code = 1;
    }
    files.push_back(std::move(f));
  }
  if (opts.format == "json") {
    RenderBenchJson(files, out);
  } else {
    RenderBenchText(files, out);
  }
  return Status::Ok();
}

}  // namespace ncclscope
