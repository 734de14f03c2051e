// End-to-end tests of the ncclscope binary: exit codes, outputs, bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "input/input_test_helpers.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::BinaryPath;
using testing::TestData;

struct RunResult {
  int code = -1;
  std::string out;
};

/// Runs the binary through the shell; stderr is discarded unless `with_stderr`.
RunResult RunTool(const std::string& args, bool with_stderr = false) {
  std::string cmd = BinaryPath() + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  RunResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string Corpus(const std::string& rel) { return "'" + TestData("corpus/" + rel) + "'"; }

TEST(Cli, HealthyLogExitsZero) {
  auto r = RunTool(Corpus("h200x4/default.log"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("0xe9089ab3dce6b312"), std::string::npos);
}

TEST(Cli, BareFileArgumentMeansAnalyze) {
  auto a = RunTool(Corpus("h200x4/default.log") + " --format json");
  auto b = RunTool("analyze --format json " + Corpus("h200x4/default.log"));
  EXPECT_EQ(a.out, b.out);
}

TEST(Cli, StdinIsReadWhenNoPathIsGiven) {
  auto r = RunTool("--format json < " + Corpus("h200x4/two_nodes.log"));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["inputs"][0]["name"], "<stdin>");
  EXPECT_FALSE(j["links"].empty());
}

TEST(Cli, JsonReportHasTheDocumentedTopLevelKeys) {
  auto r = RunTool("--format json " + Corpus("h200x4/two_nodes.log"));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out.substr(0, 500);
  for (const char* key : {"schema_version", "tool", "inputs", "nccl_versions", "hosts",
                          "communicators", "links", "findings", "stats", "ranks"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["schema_version"], 1);
  for (const auto& l : j["links"]) {
    for (const char* key : {"comm", "src", "dst", "channels", "direction", "raw", "transport",
                            "path", "gdrdma", "intra_node"}) {
      EXPECT_TRUE(l.contains(key)) << key;
    }
  }
}

TEST(Cli, MissingPathExitsTwoNamingThePathAndStillAnalysesTheOthers) {
  auto r = RunTool("--format json /nonexistent/x.log " + Corpus("h200x4/default.log"), false);
  EXPECT_EQ(r.code, 2);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_FALSE(j["links"].empty());
  auto e = RunTool("/nonexistent/x.log", true);
  EXPECT_NE(e.out.find("/nonexistent/x.log"), std::string::npos) << e.out;
  EXPECT_EQ(e.code, 2);
}

TEST(Cli, InputWithoutNcclLinesExitsThree) {
  const ncclscope::testing::ScratchDir scratch;
  const std::filesystem::path dir = scratch.path();
  std::ofstream(dir / "app.log") << "epoch 1 loss 0.3\nepoch 2 loss 0.2\n";
  auto r = RunTool("'" + (dir / "app.log").string() + "'", true);
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find("NCCL_DEBUG=INFO"), std::string::npos);
}

TEST(Cli, FailedJobWithoutNcclLinesExitsOneWithItsRootCause) {
  // torchrun's own lines only (a SIGKILLed local rank 3): no NCCL line, but a failed job.
  auto r = RunTool("--color never '" + TestData("real-world/ganet-12-launch-sigkill-local-rank-3.log") +
                       "'",
                   true);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("Root cause: rank 3"), std::string::npos) << r.out.substr(0, 600);
  EXPECT_NE(r.out.find("no NCCL debug lines"), std::string::npos);
}

TEST(Cli, EmptyInputExitsThree) { EXPECT_EQ(RunTool("< /dev/null").code, 3); }

TEST(Cli, UnknownOptionIsAUsageError) { EXPECT_EQ(RunTool("--no-such-flag x").code, 2); }

TEST(Cli, UnknownFormatIsAUsageError) {
  EXPECT_EQ(RunTool("--format yaml " + Corpus("h200x4/default.log")).code, 2);
}

TEST(Cli, OutputFileReceivesTheReport) {
  const ncclscope::testing::ScratchDir scratch;
  const std::filesystem::path path = scratch.Path("out.json");
  auto r = RunTool("--format json -o '" + path.string() + "' " + Corpus("h200x4/default.log"));
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(r.out.empty());
  std::ifstream in(path);
  auto j = nlohmann::json::parse(in, nullptr, false);
  EXPECT_FALSE(j.is_discarded());
}

TEST(Cli, UnwritableOutputIsAUsageError) {
  EXPECT_EQ(RunTool("-o /nonexistent/dir/out.txt " + Corpus("h200x4/default.log")).code, 2);
}

TEST(Cli, ColorNeverHasNoEscapeCodesAndAlwaysHasThem) {
  auto never = RunTool("--color never " + Corpus("h200x4/two_nodes.log"));
  EXPECT_EQ(never.out.find('\x1b'), std::string::npos);
  auto always = RunTool("--color always " + Corpus("h200x4/two_nodes.log"));
  EXPECT_NE(always.out.find('\x1b'), std::string::npos);
}

TEST(Cli, EventsPrintsOneJsonObjectPerLineWithConnections) {
  auto r = RunTool("events " + Corpus("h200x4/two_nodes.log"));
  EXPECT_EQ(r.code, 0);
  size_t lines = 0, connections = 0;
  size_t start = 0;
  while (start < r.out.size()) {
    size_t nl = r.out.find('\n', start);
    auto j = nlohmann::json::parse(r.out.substr(start, nl - start), nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out.substr(start, nl - start);
    ++lines;
    if (j["type"] == "connection") {
      ++connections;
      EXPECT_TRUE(j.contains("raw"));
    }
    start = nl + 1;
  }
  EXPECT_GT(lines, 100u);
  EXPECT_EQ(connections, 148u);  // grep -c " via " two_nodes.log
}

TEST(Cli, RanksPrintsOneRowPerProcess) {
  auto r = RunTool("ranks --format json " + Corpus("h200x4/default.log"));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j.size(), 4u);
  EXPECT_EQ(j[0]["rank"], 0);
}

TEST(Cli, TopoCommandReadsAMatrix) {
  auto r = RunTool("topo " + Corpus("topo/h200x4-topo-m.txt"));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("NV18"), std::string::npos);
}

TEST(Cli, TopoOptionMakesDefaultLogAllNvl) {
  auto r = RunTool("--format json --topo " + Corpus("topo/h200x4-topo-m.txt") + " " +
                   Corpus("h200x4/default.log"));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_FALSE(j["links"].empty());
  for (const auto& l : j["links"]) EXPECT_EQ(l["transport"], "NVL");
}

TEST(Cli, TopoLetsP2pDisabledSayTheGpusHaveNvlink) {
  auto r = RunTool("--format json --topo " + Corpus("topo/h200x4-topo-m.txt") + " " +
                   Corpus("h200x4/p2p_disable.log"));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  bool said = false;
  for (const auto& f : j["findings"]) {
    if (f["rule"] == "p2p-disabled")
      said = f["message"].get<std::string>().find("have NVLink") != std::string::npos;
  }
  EXPECT_TRUE(said);
}

TEST(Cli, TimelinePutsTheRootCauseWarnFirstEvenWhenItIsAPluginEvent) {
  // force_ib.log: "NCCL WARN Failed to initialize any NET plugin" (line 21) precedes the error
  // trail and the DistBackendError cascade.
  auto r = RunTool("--format json " + Corpus("h200x4/force_ib.log"));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_FALSE(j["timeline"].empty());
  EXPECT_EQ(j["timeline"][0]["line"], 21);
  EXPECT_EQ(j["timeline"][0]["first_failure"], true);
}

TEST(Cli, HangLogNamesRankThreeAsTheWatchdogSuspect) {
  auto r = RunTool("--format json " + Corpus("h200x4/hang.log"));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_EQ(j["watchdog"].size(), 1u);
  EXPECT_EQ(j["watchdog"][0]["suspects"], nlohmann::json::array({3}));
  EXPECT_EQ(j["watchdog"][0]["timeout_seq"], 6);
  bool finding = false;
  for (const auto& f : j["findings"]) {
    if (f["rule"] == "watchdog-timeout") {
      finding = true;
      EXPECT_EQ(f["suspect_ranks"], nlohmann::json::array({3}));
      EXPECT_EQ(f["suspect_hosts"], nlohmann::json::array({"vm"}));
    }
  }
  EXPECT_TRUE(finding);
}

TEST(Cli, BadTopoFileIsAUsageError) {
  EXPECT_EQ(
      RunTool("--topo " + Corpus("h200x4/default.log") + " " + Corpus("h200x4/default.log")).code,
      2);
}

TEST(Cli, BenchJudgesSocketSpeedAgainstNvlinkExpectation) {
  auto r = RunTool("bench --expect NVL " + Corpus("nccl-tests/h200x4-nccltests_allreduce_net.txt"));
  EXPECT_EQ(r.code, 1) << r.out;
  auto ok = RunTool("bench --expect NVL " + Corpus("nccl-tests/h200x4-nccltests_allreduce.txt"));
  EXPECT_EQ(ok.code, 0) << ok.out;
}

TEST(Cli, BinaryGarbageNeverCrashes) {
  const ncclscope::testing::ScratchDir scratch;
  const std::filesystem::path dir = scratch.path();
  {
    std::ofstream f(dir / "g.bin", std::ios::binary);
    uint32_t x = 12345;
    for (int i = 0; i < 200000; ++i) {
      x = x * 1103515245u + 12345u;
      f.put(static_cast<char>(x >> 24));
    }
  }
  auto r = RunTool("'" + (dir / "g.bin").string() + "'");
  EXPECT_EQ(r.code, 3);
}

/// Writes `text` to `name` in `dir`; returns the path quoted for the shell.
std::string WriteTemp(const ncclscope::testing::ScratchDir& dir, const std::string& name,
                      const std::string& text) {
  const std::string path = dir.Path(name);
  std::ofstream(path) << text;
  return "'" + path + "'";
}

TEST(Cli, PolicyViolationFailsTheGate) {
  const ncclscope::testing::ScratchDir dir;
  std::string policy =
      WriteTemp(dir, "policy_ib.json", R"({"transports": {"inter_node": ["NET/IB"]}})");
  auto r = RunTool("--format json --fail-on error --policy " + policy + " " +
                   Corpus("h200x4/two_nodes.log"));
  EXPECT_EQ(r.code, 1);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  bool violation = false;
  for (const auto& f : j["findings"]) violation |= f["rule"] == "policy-violation";
  EXPECT_TRUE(violation);
}

TEST(Cli, PolicyWithUnknownKeyIsAUsageErrorNamingTheKey) {
  const ncclscope::testing::ScratchDir dir;
  std::string policy = WriteTemp(dir, "policy_bad.json", R"({"transport": {}})");
  auto r = RunTool("--policy " + policy + " " + Corpus("h200x4/default.log"), true);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("transport"), std::string::npos) << r.out;
}

TEST(Cli, PolicyCanIgnoreTheRuleThatFailed) {
  const ncclscope::testing::ScratchDir dir;
  std::string policy = WriteTemp(dir, "policy_ignore.json", R"({"ignore": ["socket-fallback"]})");
  EXPECT_EQ(RunTool("--policy " + policy + " " + Corpus("h200x4/pod_per_gpu.log")).code, 0);
}

TEST(Cli, FailOnControlsTheExitCode) {
  EXPECT_EQ(RunTool("--fail-on error " + Corpus("h200x4/p2p_disable.log")).code, 0);
  EXPECT_EQ(RunTool("--fail-on warning " + Corpus("h200x4/p2p_disable.log")).code, 1);
  EXPECT_EQ(RunTool("--fail-on info " + Corpus("h200x4/default.log")).code, 1);
  EXPECT_EQ(
      RunTool("--fail-on never " + Corpus("seeds/seed004-g6e-ofi-init-failed-socket.log")).code, 0);
  EXPECT_EQ(RunTool(Corpus("seeds/seed004-g6e-ofi-init-failed-socket.log")).code, 1);
}

TEST(Cli, RulesListsEveryRuleAsJson) {
  auto r = RunTool("rules --format json");
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_GE(j.size(), 24u);
  for (const auto& rule : j) {
    EXPECT_TRUE(rule.contains("id"));
    EXPECT_TRUE(rule.contains("severity"));
    EXPECT_TRUE(rule.contains("title"));
  }
}

TEST(Cli, HelpMentionsExitCodes) {
  auto r = RunTool("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Exit codes"), std::string::npos);
}

}  // namespace
}  // namespace ncclscope
