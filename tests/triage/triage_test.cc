// Triage across ranks: watchdog suspects, stuck init, cross-rank mismatches, inputs → ranks, and
// the error timeline, over real logs and multi-file cases built from the debug_file/ logs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/model/source_owners.h"
#include "ncclscope/model/timeline.h"
#include "ncclscope/model/watchdog_table.h"
#include "ncclscope/report/json_report.h"
#include "ncclscope/report/text_report.h"
#include "ncclscope/rules/warn_filter.h"
#include "test_util.h"

namespace ncclscope::testing {
namespace {

namespace fs = std::filesystem;

AnalysisResult AnalyzeCorpus(const std::string& rel) {
  return AnalyzeText(ReadFileOrDie(TestData("corpus/" + rel)), rel);
}

AnalysisResult AnalyzePath(const std::string& path) {
  AnalyzeOptions options;
  options.inputs = {path};
  AnalysisResult result;
  EXPECT_TRUE(Analyze(options, &result).ok());
  return result;
}

const Finding* First(const std::vector<Finding>& all, const std::string& rule) {
  for (const Finding& f : all) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

std::string TextReport(const AnalysisResult& r) {
  std::ostringstream out;
  WriteTextReport(ReportInput{r.job, r.findings, r.problems}, ReportOptions{}, out);
  return out.str();
}

/// A temp dir holding copies of the debug_file/ logs (one process each: ranks 0-3).
class DebugFileCopy {
 public:
  explicit DebugFileCopy(const std::string& name)
      : dir_(fs::temp_directory_path() /
             ("ncclscope_triage_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    for (const auto& e : fs::directory_iterator(TestData("corpus/h200x4/debug_file"))) {
      fs::copy_file(e.path(), dir_ / e.path().filename());
    }
  }
  ~DebugFileCopy() { fs::remove_all(dir_); }
  std::string path() const { return dir_.string(); }
  /// The log of rank 3 (pid 3695).
  fs::path Rank3() const { return dir_ / "nccl.vm.3695.log"; }
  /// Rewrites a file line by line: `edit` returns the lines that replace each line.
  template <typename Edit>
  void Rewrite(const fs::path& file, Edit edit) const {
    std::string text = ReadFileOrDie(file.string());
    std::istringstream in(text);
    std::ostringstream out;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) out << edit(++n, line);
    std::ofstream(file, std::ios::trunc) << out.str();
  }

 private:
  fs::path dir_;
};

TEST(Triage, HangSuspectsRank3) {
  AnalysisResult r = AnalyzeCorpus("h200x4/hang.log");
  const Finding* f = First(r.findings, "watchdog-timeout");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->suspect_ranks, std::vector<int>{3});
  EXPECT_EQ(f->suspect_hosts, std::vector<std::string>{"vm"});
  EXPECT_NE(f->message.find("rank 3 (vm pid 3889) reported no timeout; its last enqueued work is "
                            "1 while ranks 0-2 enqueued 6: it stopped calling collectives"),
            std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("its last NCCL line"), std::string::npos);
  nlohmann::json j = JsonFinding(r.job, *f);
  EXPECT_EQ(j["suspect_ranks"], nlohmann::json::array({3}));
  EXPECT_EQ(j["suspect_hosts"], nlohmann::json::array({"vm"}));
}

TEST(Triage, HangWatchdogTableMergesTimeoutsIntoPg0) {
  AnalysisResult r = AnalyzeCorpus("h200x4/hang.log");
  std::vector<WatchdogGroup> groups = BuildWatchdogGroups(r.job);
  ASSERT_EQ(groups.size(), 1u);
  const WatchdogGroup& g = groups[0];
  EXPECT_EQ(g.pg_id, 0);
  EXPECT_EQ(g.pg_desc, "default_pg");
  EXPECT_EQ(g.timed_out, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(g.suspects, std::vector<int>{3});
  EXPECT_EQ(g.timeout_seq, 6);
  EXPECT_EQ(g.op_type, "ALLREDUCE");
  ASSERT_EQ(g.rows.size(), 4u);
  EXPECT_EQ(g.rows[0].last_enqueued, 6);
  EXPECT_EQ(g.rows[3].last_enqueued, 1);
  std::string text = TextReport(r);
  EXPECT_NE(text.find("\nTriage\n"), std::string::npos);
  EXPECT_NE(text.find("SUSPECT: reported no timeout"), std::string::npos) << text;
}

TEST(Triage, P2pCeHungSilently) {
  AnalysisResult r = AnalyzeCorpus("h200x4/p2p_ce.log");
  EXPECT_NE(First(r.findings, "hang-suspected"), nullptr);
  EXPECT_EQ(First(r.findings, "watchdog-timeout"), nullptr);
}

TEST(Triage, DebugFileInputsMapToHostsAndRanks) {
  AnalysisResult r = AnalyzePath(TestData("corpus/h200x4/debug_file"));
  ASSERT_EQ(r.job.sources.size(), 4u);
  std::vector<SourceOwners> owners = OwnersOfSources(r.job);
  std::vector<int> ranks;
  for (size_t i = 0; i < owners.size(); ++i) {
    EXPECT_EQ(owners[i].hosts, std::vector<std::string>{"vm"});
    ASSERT_EQ(owners[i].ranks.size(), 1u) << r.job.sources[i].name;
    ranks.push_back(owners[i].ranks[0]);
    std::string pid = std::to_string(r.job.processes[owners[i].processes[0]].pid);
    EXPECT_NE(r.job.sources[i].name.find(pid), std::string::npos);
  }
  std::sort(ranks.begin(), ranks.end());
  EXPECT_EQ(ranks, (std::vector<int>{0, 1, 2, 3}));
  nlohmann::json j = JsonReport(ReportInput{r.job, r.findings, r.problems});
  EXPECT_EQ(j["inputs"][0]["hosts"], nlohmann::json::array({"vm"}));
  EXPECT_EQ(j["inputs"][0]["ranks"].size(), 1u);
  EXPECT_NE(TextReport(r).find("nccl.vm.3695.log: 112 lines, 112 NCCL, 0 not understood — host vm, "
                               "rank 3"),
            std::string::npos);
}

TEST(Triage, ShmSmallInitIncompleteAndShmWarnsFirst) {
  AnalysisResult r = AnalyzeCorpus("h200x4/shm_small.log");
  const Finding* f = First(r.findings, "init-incomplete");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->suspect_ranks, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(f->suspect_hosts, std::vector<std::string>{"vm"});
  EXPECT_NE(f->message.find("reached Init START but not Init COMPLETE"), std::string::npos);
  EXPECT_NE(f->message.find("last NCCL line of rank 0 (vm pid 848)"), std::string::npos)
      << f->message;
  std::vector<TimelineEntry> tl = BuildTimeline(r.job, &IsErrorWarning);
  ASSERT_GE(tl.size(), 5u);
  int first = FirstFailure(tl);
  ASSERT_EQ(first, 0);
  EXPECT_EQ(tl[0].kind, "nccl-warn");
  EXPECT_NE(tl[0].text.find("/dev/shm"), std::string::npos);
  EXPECT_EQ(tl[0].time, "2026-11-21 13:43:25");
  EXPECT_EQ(tl[0].host, "vm");
  EXPECT_EQ(tl[0].rank, 3);
  bool framework_after = false;
  for (size_t i = 1; i < tl.size(); ++i) framework_after |= tl[i].kind == "framework-error";
  EXPECT_TRUE(framework_after);
  nlohmann::json j = JsonReport(ReportInput{r.job, r.findings, r.problems});
  ASSERT_FALSE(j["timeline"].empty());
  EXPECT_EQ(j["timeline"][0]["first_failure"], true);
  EXPECT_EQ(j["timeline"][0]["kind"], "nccl-warn");
  EXPECT_NE(TextReport(r).find("first failure"), std::string::npos);
}

TEST(Triage, TimeKeysCompareAcrossFormats) {
  auto nccl = ParseTimeKey("2026-11-21 13:43:25");
  auto c10 = ParseTimeKey("1121 13:39:41.727410739");
  auto kubectl = ParseTimeKey("2026-11-21T13:43:25.500000000Z");
  ASSERT_TRUE(nccl && c10 && kubectl);
  EXPECT_LT(*c10, *nccl);
  EXPECT_LT(*nccl, *kubectl);
  EXPECT_EQ(*kubectl - *nccl, 500000000);
  EXPECT_FALSE(ParseTimeKey("Thu Nov 21"));
  EXPECT_FALSE(ParseTimeKey(""));
  EXPECT_TRUE(IsCascadeMessage(
      "socket.cc:50 NCCL WARN ... remote process exited or there was a network error"));
  EXPECT_FALSE(IsCascadeMessage("Error while creating shared memory segment"));
}

TEST(Triage, CascadeSortsAfterRootCauseAtSameTime) {
  std::string log =
      "[2026-11-21 13:43:25] hostb:20:21 [0] misc/socket.cc:50 NCCL WARN socket.cc:50 -> "
      "Connection closed by remote peer hosta<1234>\n"
      "[2026-11-21 13:43:25] hosta:10:11 [0] transport/net_ib.cc:1 NCCL WARN NET/IB : Got "
      "completion from peer with error 12\n";
  AnalysisResult r = AnalyzeText(log);
  std::vector<TimelineEntry> tl = BuildTimeline(r.job, &IsErrorWarning);
  ASSERT_EQ(tl.size(), 2u);
  EXPECT_EQ(tl[0].host, "hosta");
  EXPECT_TRUE(tl[1].cascade);
  EXPECT_EQ(FirstFailure(tl), 0);
}

TEST(Triage, ConstructedNcclVersionMismatch) {
  DebugFileCopy copy("version");
  copy.Rewrite(copy.Rank3(), [](int, const std::string& line) {
    std::string l = line;
    size_t at = l.find("NCCL version 2.28.9");
    if (at != std::string::npos) l.replace(at, 19, "NCCL version 2.27.3");
    return l + "\n";
  });
  AnalysisResult r = AnalyzePath(copy.path());
  const Finding* f = First(r.findings, "nccl-version-mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->suspect_ranks, std::vector<int>{3});
  EXPECT_NE(f->message.find("2.27.3 on 1 process(es) (ranks 3)"), std::string::npos) << f->message;
}

TEST(Triage, ConstructedEnvMismatch) {
  DebugFileCopy copy("env");
  copy.Rewrite(copy.Rank3(), [](int n, const std::string& line) {
    std::string extra =
        n == 15 ? "vm:3695:3695 [3] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n" : "";
    return line + "\n" + extra;
  });
  AnalysisResult r = AnalyzePath(copy.path());
  const Finding* f = First(r.findings, "env-mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->suspect_ranks, std::vector<int>{3});
  EXPECT_NE(f->message.find("NCCL_IB_DISABLE=1"), std::string::npos) << f->message;
}

TEST(Triage, ConstructedInitIncomplete) {
  DebugFileCopy copy("init");
  copy.Rewrite(copy.Rank3(),
               [](int n, const std::string& line) { return n < 31 ? line + "\n" : std::string(); });
  AnalysisResult r = AnalyzePath(copy.path());
  const Finding* f = First(r.findings, "init-incomplete");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(f->suspect_ranks, std::vector<int>{3});
  EXPECT_EQ(f->suspect_hosts, std::vector<std::string>{"vm"});
  EXPECT_NE(f->message.find("rank(s) 3 of 4 reached Init START but not Init COMPLETE"),
            std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("2 coll channels, 2 collnet channels"), std::string::npos)
      << f->message;
}

TEST(Triage, SlowBootstrapFlaggedNotFastInit) {
  AnalysisResult slow = AnalyzeCorpus("seeds/seed004-g6e-ofi-init-failed-socket.log");
  const Finding* f = First(slow.findings, "slow-init");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("59.8 s"), std::string::npos) << f->message;
  EXPECT_EQ(First(AnalyzeCorpus("h200x4/default.log").findings, "slow-init"), nullptr);
  EXPECT_NE(TextReport(slow).find("bootstrap: slowest rank"), std::string::npos);
}

TEST(Triage, RankInconsistencyQuietOnHealthyJob) {
  EXPECT_EQ(First(AnalyzePath(TestData("corpus/h200x4/debug_file")).findings, "rank-inconsistency"),
            nullptr);
}

TEST(Triage, ConstructedChannelAndNetworkMismatch) {
  DebugFileCopy copy("channels");
  copy.Rewrite(copy.Rank3(), [](int n, const std::string& line) {
    std::string l = line;
    if (n == 30)
      l = "vm:3695:3695 [3] NCCL INFO 1 coll channels, 1 collnet channels, 0 nvls "
          "channels, 1 p2p channels, 1 p2p channels per peer";
    if (l.ends_with("Using network Socket")) l = "vm:3695:3695 [3] NCCL INFO Using network IB";
    return l + "\n";
  });
  AnalysisResult r = AnalyzePath(copy.path());
  const Finding* f = First(r.findings, "rank-inconsistency");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->suspect_ranks, std::vector<int>{3});
  EXPECT_NE(f->message.find("network differs"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("channels of comm 0x37dffa26e9eaf2bf differs"), std::string::npos)
      << f->message;
}

}  // namespace
}  // namespace ncclscope::testing
