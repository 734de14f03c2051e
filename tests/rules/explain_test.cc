// `ncclscope explain`: a pasted message (with whatever prefix), a rule id, a message id, unknown
// text with suggestions; the library and the binary.
#include "ncclscope/rules/explain.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::Has;

TEST(Explain, PastedWarnLineWithPrefixesIsExplainedWithItsPeer) {
  // kubectl --timestamps + NCCL head + the 2.16+ message (nccl-tests#166).
  Explanation e = Explain(
      "2024-05-01T10:00:00.123456789Z ubuntu:39964:40044 [0] misc/socket.cc:49 NCCL WARN "
      "socketProgress: Connection closed by remote peer node1<57557>");
  ASSERT_EQ(e.kind, Explanation::Kind::kMessage);
  EXPECT_EQ(e.message->id, "conn-closed-by-peer");
  EXPECT_EQ(e.details.peer, "node1<57557>");
  ASSERT_NE(e.rule, nullptr);
  EXPECT_EQ(e.rule->id(), "connection-error");
  const std::string text = RenderExplanationText(e);
  EXPECT_TRUE(Has(text, "what it means:")) << text;
  EXPECT_TRUE(Has(text, "likely causes, most likely first:")) << text;
  EXPECT_TRUE(Has(text, "1. the peer process died first")) << text;
  EXPECT_TRUE(Has(text, "peer: node1<57557>")) << text;
  EXPECT_TRUE(Has(text, "fix:")) << text;
}

TEST(Explain, IbCompletionErrorDecodesTheStatusCode) {
  // nccl#1405.
  Explanation e = Explain(
      "kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer "
      "10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv)");
  ASSERT_EQ(e.kind, Explanation::Kind::kMessage);
  EXPECT_EQ(e.message->id, "ib-completion-error");
  const std::string text = RenderExplanationText(e);
  EXPECT_TRUE(Has(text, "IBV_WC_RETRY_EXC_ERR")) << text;
  EXPECT_TRUE(Has(text, "vendor error: 129 (0x81)")) << text;
}

TEST(Explain, RuleIdListsTheMessagesTheRuleReads) {
  Explanation e = Explain("ib-error");
  ASSERT_EQ(e.kind, Explanation::Kind::kRule);
  EXPECT_FALSE(e.rule_messages.empty());
  const std::string text = RenderExplanationText(e);
  EXPECT_TRUE(Has(text, "rule ib-error (error)")) << text;
  EXPECT_TRUE(Has(text, "ib-completion-error")) << text;
}

TEST(Explain, MessageIdIsExplainedWithoutALine) {
  Explanation e = Explain("ofi-no-provider");
  ASSERT_EQ(e.kind, Explanation::Kind::kMessage);
  EXPECT_EQ(e.message->rule, "net-plugin-failed");
}

TEST(Explain, UnknownTextSaysSoAndSuggestsClosestMessages) {
  Explanation e = Explain("NCCL WARN the /dev/shm segment could not be grown");
  ASSERT_EQ(e.kind, Explanation::Kind::kUnknown);
  ASSERT_FALSE(e.suggestions.empty());
  EXPECT_EQ(e.suggestions.front()->family, "shm");
  const std::string text = RenderExplanationText(e);
  EXPECT_TRUE(Has(text, "does not know this message")) << text;
  EXPECT_TRUE(Has(text, "closest known messages:")) << text;
}

TEST(Explain, PasteExplainsEachKnownMessageOnce) {
  // nccl-tests#188: the WARN and the proxy failure that follows it, twice.
  auto all = ExplainPaste(
      "user:16901:16967 [2] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3\n"
      "user:16901:16967 [2] NCCL INFO misc/socket.cc:561 -> 3\n"
      "user:16901:16967 [2] proxy.cc:1519 NCCL WARN [Proxy Service 2] Failed to execute operation "
      "Connect from rank 2, retcode 3\n"
      "user:16899:16961 [0] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3\n");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].message->id, "conn-wrong-type");
  EXPECT_EQ(all[1].message->id, "proxy-operation-failed");
}

TEST(Explain, JsonCarriesMeaningCausesAndFix) {
  auto j = nlohmann::json::parse(RenderExplanationJson(
      {Explain("Cuda failure 'out of memory'"), Explain("no such message at all xyzzy")}));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["kind"], "message");
  EXPECT_EQ(j[0]["message"]["id"], "cuda-oom");
  EXPECT_FALSE(j[0]["message"]["causes"].empty());
  EXPECT_EQ(j[0]["details"]["cuda_error"], "out of memory");
  EXPECT_EQ(j[1]["kind"], "unknown");
}

int RunExplainBinary(const std::string& args, std::string* out) {
  std::string cmd = testing::BinaryPath() + " explain " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out->append(buf, n);
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Explain, BinaryExitsZeroWhenKnownOneWhenUnknown) {
  std::string out;
  EXPECT_EQ(RunExplainBinary("'NET/OFI No eligible providers were found'", &out), 0);
  EXPECT_TRUE(Has(out, "aws-ofi-nccl found no usable libfabric provider")) << out;
  out.clear();
  EXPECT_EQ(RunExplainBinary("socket-fallback", &out), 0);
  EXPECT_TRUE(Has(out, "rule socket-fallback")) << out;
  out.clear();
  EXPECT_EQ(RunExplainBinary("completely unrelated words", &out), 1);
  out.clear();
  EXPECT_EQ(RunExplainBinary("-f json 'Cuda failure 2 out of memory' < /dev/null", &out), 0);
  EXPECT_TRUE(Has(out, "\"kind\": \"message\"")) << out;
  out.clear();
  EXPECT_EQ(RunExplainBinary("< /dev/null", &out), 2);
}

}  // namespace
}  // namespace ncclscope
