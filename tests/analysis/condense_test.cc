// Condensed inputs: replaying the kept lines gives the same report as parsing the whole input,
// over every real log of the corpus, through a summary file and in parallel.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/analysis/condensed.h"
#include "ncclscope/analysis/summary_file.h"
#include "ncclscope/report/json_report.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::TestData;

std::string ReportJson(const AnalysisResult& r) {
  return JsonReport(ReportInput{r.job, r.findings, r.problems})
      .dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// The report of a plain streaming (or parallel, jobs != 1) run over `args`.
std::string AnalyzeJson(const std::vector<std::string>& args, unsigned jobs = 1) {
  AnalyzeOptions o;
  o.inputs = args;
  o.jobs = jobs;
  AnalysisResult r;
  EXPECT_TRUE(Analyze(o, &r).ok());
  return ReportJson(r);
}

CondensedSet CondenseAll(const std::vector<std::string>& args) {
  ExpandedInputs inputs = ExpandInputs(args);
  CondensedSet set;
  set.problems = inputs.problems;
  for (const auto& in : inputs.inputs) set.inputs.push_back(CondenseInput(in));
  return set;
}

std::string CondensedJson(CondensedSet set) {
  AnalysisResult r;
  EXPECT_TRUE(AnalyzeCondensed(std::move(set), AnalyzeOptions{}, &r).ok());
  return ReportJson(r);
}

/// Condensed → summary text → parsed back.
CondensedSet RoundTrip(const CondensedSet& set) {
  std::ostringstream out;
  WriteSummary(set, out);
  CondensedSet back;
  Status s = ParseSummary(out.str(), "summary.json", &back);
  EXPECT_TRUE(s.ok()) << s.message();
  return back;
}

std::vector<std::string> CorpusInputs() {
  std::vector<std::string> v;
  for (const char* dir : {"corpus/h200x4", "corpus/seeds"}) {
    for (const auto& e : std::filesystem::directory_iterator(TestData(dir))) {
      if (e.is_regular_file()) v.push_back(e.path().string());
    }
  }
  v.push_back(TestData("corpus/h200x4/debug_file"));
  v.push_back(TestData("corpus/nccl-tests/h200x4-nccltests_allreduce_info.log"));
  std::sort(v.begin(), v.end());
  return v;
}

TEST(CondenseTest, ReplayEqualsParsingOnEveryCorpusLog) {
  const auto inputs = CorpusInputs();
  ASSERT_GE(inputs.size(), 20u);
  for (const auto& path : inputs) {
    SCOPED_TRACE(path);
    const std::string want = AnalyzeJson({path});
    CondensedSet set = CondenseAll({path});
    EXPECT_EQ(CondensedJson(RoundTrip(set)), want);
    EXPECT_EQ(CondensedJson(std::move(set)), want);
  }
}

TEST(CondenseTest, DropsTheCollFloodAndCountsIt) {
  CondensedSet set = CondenseAll({TestData("corpus/h200x4/coll_heavy.log")});
  ASSERT_EQ(set.inputs.size(), 1u);
  const CondensedInput& in = set.inputs[0];
  ASSERT_FALSE(in.sources.empty());
  const uint64_t lines = in.sources[0].info.lines;
  EXPECT_GT(lines, 12000u);
  EXPECT_LT(in.lines.size() * 5, static_cast<size_t>(lines)) << "kept " << in.lines.size();
  auto it = in.sources[0].folded.find("collective");
  ASSERT_NE(it, in.sources[0].folded.end());
  EXPECT_GT(it->second, 11000u);
}

TEST(CondenseTest, ParallelDirectoryEqualsSerial) {
  const std::string dir = TestData("corpus/h200x4/debug_file");
  const std::string serial = AnalyzeJson({dir}, 1);
  EXPECT_EQ(AnalyzeJson({dir}, 4), serial);
  EXPECT_EQ(AnalyzeJson({dir}, 2), serial);
  // Several files, one missing: problems in the same order too.
  const std::vector<std::string> mixed = {TestData("corpus/h200x4/default.log"), "/nonexistent.log",
                                          TestData("corpus/h200x4/coll_heavy.log"),
                                          TestData("corpus/h200x4/hang.log")};
  EXPECT_EQ(AnalyzeJson(mixed, 3), AnalyzeJson(mixed, 1));
}

TEST(CondenseTest, SummariesOfEachFileMergeToTheDirectoryReport) {
  const std::string dir = TestData("corpus/h200x4/debug_file");
  CondensedSet merged;
  for (const auto& e : ExpandInputs({dir}).inputs) {
    CondensedSet one = RoundTrip(CondenseAll({e.path}));
    for (auto& in : one.inputs) merged.inputs.push_back(std::move(in));
  }
  EXPECT_EQ(CondensedJson(std::move(merged)), AnalyzeJson({dir}));
}

// Pods, launcher ranks, timestamps, invalid UTF-8, PyTorch "Last error:" continuation, noise and
// a COLL line whose communicator changes between two identical ones.
TEST(CondenseTest, InMemoryEdgeCases) {
  const std::string text =
      "2025-01-01T00:00:00.000000001Z [pod/a-0/main] h1:10:10 [0] NCCL INFO cudaDriverVersion "
      "13000\n"
      "2025-01-01T00:00:00.000000002Z [pod/b-0/main] h2:20:20 [0] NCCL INFO cudaDriverVersion "
      "13000\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO ncclCommInitRankConfig comm 0xa rank 0 nranks 2 "
      "cudaDev 0 nvmlDev 0 busId 1000 commId 0x1 - Init START\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO ncclCommInitRankConfig comm 0xb rank 0 nranks 2 "
      "cudaDev 0 nvmlDev 0 busId 1000 commId 0x2 - Init START\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count "
      "1 datatype 7 op 0 root 0 comm 0xa [nranks=2] stream 0x1\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x1 count "
      "1 datatype 7 op 0 root 0 comm 0xa [nranks=2] stream 0x1\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO comm 0xb rank 0 nRanks 2 nNodes 2 localRanks 1 "
      "localRank 0 MNNVL 0\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO AllReduce: opCount 2 sendbuff 0x1 recvbuff 0x1 count "
      "1 datatype 7 op 0 root 0 comm 0xa [nranks=2] stream 0x1\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count "
      "1 datatype 7 op 0 root 0 comm 0xb [nranks=2] stream 0x1\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO P2P Chunksize set to 131072\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x1 recvbuff 0x1 count "
      "1 datatype 7 op 0 root 0 comm 0xa [nranks=2] stream 0x1\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x1 recvbuff 0x1 count "
      "1 datatype 7 op 0 root 0 comm 0xa [nranks=2] stream 0x1\n"
      "[pod/b-0/main] [rank1]: Last error:\n"
      "[pod/b-0/main] [rank1]: socketProgress: Connection closed by remote peer\n"
      "[pod/a-0/main] bad \xff\xfe utf8 h1:10:10 [0] NCCL INFO x\n"
      "[pod/a-0/main] h1:10:10 [0] NCCL INFO AllReduce: opCount 4 sendbuff 0x1 recvbuff 0x1 count "
      "1 datatype 7 op 0 root 0 comm 0xa [nranks=2] stream 0x1\n";
  const std::string want = ReportJson(AnalyzeText(text, "mem.log"));
  CondensedSet set;
  set.inputs.push_back(
      CondenseInput(MemoryByteSource(text.data(), text.size()), InputPath{"", "mem.log"}));
  EXPECT_LT(set.inputs[0].lines.size(), 15u);
  EXPECT_EQ(CondensedJson(RoundTrip(set)), want);
  EXPECT_EQ(CondensedJson(std::move(set)), want);
}

// What the launchers' prefixes say (pdsh, SkyPilot's node prefix, two Ray hosts), settings of a
// pasted command line and libfabric's lines survive condensing and the summary file: replay gives
// the same report (and so the same socket-fallback severity) as parsing.
TEST(CondenseTest, ReplayKeepsLaunchFactsCommandLinesAndLibfabricLines) {
  for (const char* name : {"deepspeed-2632-pdsh-same-host-socket.log",
                           "skypilot-4448-a-skypilot-torchrun-prefix-socket.log",
                           "awsome-distributed-ai-386-b-ray-fragmented-lines.log",
                           "nccl-1773-shell-prompt-p2p-direct-pointer.log",
                           "aws-ofi-nccl-889-cloudwatch-efa-empty-list.log",
                           "llamafactory-6111-quoted-glued-ib-no-device.log"}) {
    SCOPED_TRACE(name);
    const std::string path = TestData(std::string("real-world/") + name);
    const std::string want = AnalyzeJson({path});
    CondensedSet set = CondenseAll({path});
    EXPECT_EQ(CondensedJson(RoundTrip(set)), want);
    EXPECT_EQ(CondensedJson(std::move(set)), want);
  }
}

// Horovod's stall report: a rank line that only its header makes one ("1: [allreduce.x]" after
// "Missing ranks:", blank lines between) is replayed with a header before it, so condensed and
// summarised inputs name the stalled rank as parsing does; and the two real pastes of the family.
TEST(CondenseTest, ReplayKeepsHorovodStallReports) {
  const std::string text =
      "h1:10:10 [0] NCCL INFO cudaDriverVersion 13000\n"
      "[2021-02-02 21:19:07.345988: W horovod/common/stall_inspector.cc:105] One or more tensors "
      "were submitted to be reduced, gathered or broadcasted by subset of ranks\n"
      "Missing ranks:\n"
      "\n"
      "1: [allreduce.layer1.weight, allreduce.layer1.bias]\n"
      "h1:10:10 [0] NCCL INFO P2P Chunksize set to 131072\n";
  const std::string want = ReportJson(AnalyzeText(text, "mem.log"));
  EXPECT_NE(want.find("stuck-rank"), std::string::npos);
  CondensedSet set;
  set.inputs.push_back(
      CondenseInput(MemoryByteSource(text.data(), text.size()), InputPath{"", "mem.log"}));
  EXPECT_EQ(CondensedJson(RoundTrip(set)), want);
  EXPECT_EQ(CondensedJson(std::move(set)), want);
  for (const char* name : {"horovod-1012-mpirun-tag-glued-missing-ranks-1-broadcast-stall.log",
                           "polyaxon-657-b-collector-prefix-glued-stderr-tags-stall-inspector-"
                           "rank0.log"}) {
    SCOPED_TRACE(name);
    const std::string path = TestData(std::string("real-world/") + name);
    const std::string want_file = AnalyzeJson({path});
    EXPECT_NE(want_file.find("stuck-rank"), std::string::npos);
    CondensedSet file_set = CondenseAll({path});
    EXPECT_EQ(CondensedJson(RoundTrip(file_set)), want_file);
    EXPECT_EQ(CondensedJson(std::move(file_set)), want_file);
  }
}

TEST(SummaryFileTest, RejectsWhatIsNotASummary) {
  CondensedSet set;
  EXPECT_FALSE(ParseSummary("", "x", &set).ok());
  EXPECT_FALSE(ParseSummary("{\"schema_version\": 1}", "x", &set).ok());
  EXPECT_FALSE(ParseSummary("{\"ncclscope_summary\": 99, \"inputs\": [], \"sources\": [], "
                            "\"lines\": []}",
                            "x", &set)
                   .ok());
  EXPECT_FALSE(ParseSummary("{\"ncclscope_summary\": 1, \"inputs\": [], \"sources\": [], "
                            "\"lines\": [[5, 1, \"x\"]]}",
                            "x", &set)
                   .ok());
  Status s = ParseSummary("[1,2", "file.json", &set);
  EXPECT_NE(s.message().find("file.json"), std::string::npos);
  EXPECT_TRUE(ParseSummary("{\"ncclscope_summary\": 1, \"inputs\": [], \"sources\": [], "
                           "\"lines\": []}",
                           "x", &set)
                  .ok());
}

}  // namespace
}  // namespace ncclscope
