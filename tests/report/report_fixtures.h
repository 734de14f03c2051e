// Inputs for the report-writer tests: a small hand-built job with findings, a large generated
// job, the real corpus through Analyze, and the text of a writer's output.
#ifndef NCCLSCOPE_TESTS_REPORT_REPORT_FIXTURES_H_
#define NCCLSCOPE_TESTS_REPORT_REPORT_FIXTURES_H_

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/report/report.h"
#include "test_util.h"

namespace ncclscope::testing {

/// A job with its findings, owning what a ReportInput refers to.
struct ReportCase {
  Job job;
  std::vector<Finding> findings;
  std::vector<InputProblem> problems;
  ReportInput input() const { return ReportInput{job, findings, problems}; }
};

/// Text that tries to break every output format.
inline constexpr std::string_view kHostileText =
    "<script>alert(\"x\")</script> & 100% done, a:b | `tick` 'q' \\ #1";

inline Link MakeLink(int comm, int src, int dst, TransportClass cls, bool intra) {
  Link l;
  l.comm = comm;
  l.src = src;
  l.dst = dst;
  l.cls = cls;
  l.send_side = true;
  l.intra_node = intra;
  l.conn_indexes = {0};
  l.raw = std::string(TransportClassName(cls));
  return l;
}

/// `hosts` NCCL nodes of `per_host` ranks each, one world communicator, a ring inside each host
/// over `intra` and between hosts over `inter`.
inline Job MakeRingJob(int hosts, int per_host, TransportClass intra, TransportClass inter) {
  Job job;
  SourceInfo source;
  source.name = "train.log";
  source.lines = 100;
  source.nccl_lines = 90;
  job.sources.push_back(source);
  job.nccl_versions.insert("2.21.5");
  Communicator world;
  world.id = "0xabc";
  world.api = "ncclCommInitRank";
  world.nranks = hosts * per_host;
  world.nnodes = hosts;
  for (int h = 0; h < hosts; ++h) {
    Host host;
    host.name = "node-" + std::to_string(h);
    host.nodes.insert(host.name);
    for (int i = 0; i < per_host; ++i) {
      int rank = h * per_host + i;
      Process p;
      p.hostname = host.name;
      p.node = host.name;
      p.pid = 1000 + rank;
      p.host = h;
      p.global_rank = rank;
      p.cuda_devs.insert(i);
      host.processes.push_back(static_cast<int>(job.processes.size()));
      CommRank cr;
      cr.rank = rank;
      cr.process = static_cast<int>(job.processes.size());
      cr.cuda_dev = i;
      cr.bus_id = "0000:" + std::to_string(10 + i) + ":00.0";
      cr.started = cr.completed = true;
      world.ranks[rank] = cr;
      job.processes.push_back(std::move(p));
    }
    job.hosts.push_back(std::move(host));
  }
  job.comms.push_back(std::move(world));
  int n = hosts * per_host;
  for (int r = 0; r < n; ++r) {
    int next = (r + 1) % n;
    if (next == r) continue;
    bool same = r / per_host == next / per_host;
    job.links.push_back(MakeLink(0, r, next, same ? intra : inter, same));
  }
  return job;
}

/// Two hosts of two ranks (NVL inside, NET/IB between) and three findings: an error whose
/// evidence carries hostile text, a warning, and an info; one more rule has no finding.
inline ReportCase SmallCase() {
  ReportCase c;
  c.job = MakeRingJob(2, 2, TransportClass::kNVL, TransportClass::kNetIB);
  Finding err;
  err.rule = "socket-fallback";
  err.severity = Severity::kError;
  err.title = "Inter-node traffic falls back to TCP sockets";
  err.message = "6 links between node-0 and node-1 use NET/Socket";
  err.fix = "set NCCL_IB_HCA or install the IB plugin";
  err.evidence = {Evidence{0, 12, std::string(kHostileText), {}},
                  Evidence{0, 13, "second line", {}}};
  Finding warn;
  warn.rule = "slow-init";
  warn.severity = Severity::kWarning;
  warn.title = "Init took 42 s";
  warn.message = "rank 3 took 42 s";
  warn.evidence = {Evidence{0, 40, "NCCL INFO Init COMPLETE", {}}};
  Finding info;
  info.rule = "nccl-version";
  info.severity = Severity::kInfo;
  info.title = "NCCL 2.21.5";
  info.message = "all ranks run NCCL 2.21.5";
  info.evidence = {Evidence{0, 1, "NCCL version 2.21.5", {}}};
  c.findings = {err, warn, info};
  return c;
}

/// The analysed corpus log (rules off: findings are added by the tests that need them).
inline ReportCase CorpusCase(const std::string& relative) {
  ReportCase c;
  AnalyzeOptions opts;
  opts.inputs = {TestData(relative)};
  opts.run_rules = false;
  AnalysisResult r;
  EXPECT_TRUE(Analyze(opts, &r).ok());
  c.job = std::move(r.job);
  c.problems = std::move(r.problems);
  return c;
}

/// The whole output of a writer.
template <typename Writer>
std::string Render(Writer write, const ReportCase& c, const ReportOptions& opts = {}) {
  std::ostringstream out;
  write(c.input(), opts, out);
  return out.str();
}

/// Output split into lines (without the newline).
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// Occurrences of `needle` in `text`.
inline int Count(std::string_view text, std::string_view needle) {
  int n = 0;
  for (size_t pos = text.find(needle); pos != std::string_view::npos;
       pos = text.find(needle, pos + needle.size()))
    ++n;
  return n;
}

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_REPORT_REPORT_FIXTURES_H_
