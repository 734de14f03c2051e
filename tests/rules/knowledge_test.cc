// The knowledge table: every entry is explained by its own examples, names a real rule, and the
// details a message states (peer, device, IB status in every NCCL spelling) are pulled out.
#include "ncclscope/rules/knowledge.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ncclscope/rules/registry.h"

namespace ncclscope {
namespace {

const std::set<std::string> kFamilies = {
    "connection", "socket-fallback", "bootstrap-interface", "ib",     "gdr",
    "p2p",        "nvls-collnet",    "net-plugin",          "config", "cuda",
    "shm",        "version-mismatch", "other",              ""};

TEST(Knowledge, IdsAreUniqueAndRulesExist) {
  std::set<std::string_view> ids;
  for (const KnownMessage& m : KnowledgeBase()) {
    EXPECT_TRUE(ids.insert(m.id).second) << "duplicate id " << m.id;
    if (m.rule != kBenignRule) {
      EXPECT_NE(FindRule(m.rule), nullptr) << m.id << " -> " << m.rule;
    }
    EXPECT_TRUE(kFamilies.count(std::string(m.family))) << m.id << " family " << m.family;
    EXPECT_FALSE(m.title.empty()) << m.id;
    EXPECT_FALSE(m.meaning.empty()) << m.id;
    EXPECT_FALSE(m.fix.empty()) << m.id;
    EXPECT_FALSE(m.causes[0].empty()) << m.id << " lists no likely cause";
  }
  EXPECT_GT(ids.size(), 40u);
}

TEST(Knowledge, EveryExampleIsExplainedByItsOwnEntry) {
  for (const KnownMessage& m : KnowledgeBase()) {
    int examples = 0;
    for (std::string_view e : m.examples) {
      if (e.empty()) continue;
      ++examples;
      const KnownMessage* got = MatchMessage(e);
      ASSERT_NE(got, nullptr) << m.id << ": no entry explains \"" << e << "\"";
      EXPECT_EQ(got->id, m.id) << "\"" << e << "\" is explained by " << got->id;
    }
    EXPECT_GT(examples, 0) << m.id << " has no example line";
  }
}

TEST(Knowledge, PatternsAreSpecificEnoughToMatchOnlyTheirFamily) {
  // A short pattern would claim unrelated lines; every literal part carries some words.
  for (const KnownMessage& m : KnowledgeBase()) {
    for (std::string_view p : m.patterns) {
      if (p.empty()) continue;
      EXPECT_GE(PatternScore(p, p), 8u) << m.id << ": pattern \"" << p << "\" is too short";
    }
  }
}

TEST(Knowledge, PatternScoreMatchesFragmentsInOrderIgnoringCase) {
  EXPECT_EQ(PatternScore("connect to * failed", "socketStartConnect: Connect to 10.0.0.1<5> "
                                                "failed : Connection refused"),
            std::string("connect to").size() + std::string("failed").size());
  EXPECT_EQ(PatternScore("failed * connect to", "Connect to x failed"), 0u);
  EXPECT_EQ(PatternScore("", "anything"), 0u);
}

TEST(Knowledge, LocationDecidesBetweenTheSameTextInDifferentFiles) {
  // nccl-1672: the CUDA error comes from NVLS setup.
  const KnownMessage* nvls = MatchMessage("Cuda failure 1 'invalid argument'", "transport/nvls.cc:598");
  ASSERT_NE(nvls, nullptr);
  EXPECT_EQ(nvls->id, "nvls-cuda-failure");
  const KnownMessage* plain = MatchMessage("Cuda failure 1 'invalid argument'", "enqueue.cc:12");
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->id, "cuda-failure");
  // A more specific text wins over the location (nccl-1838: peer access in shm.cc).
  const KnownMessage* peer = MatchMessage(
      "Cuda failure 217 'peer access is not supported between these two devices'",
      "transport/shm.cc:590");
  ASSERT_NE(peer, nullptr);
  EXPECT_EQ(peer->id, "p2p-peer-access-unsupported");
}

TEST(Knowledge, ConnectionMessagesTellWhichSideFailed) {
  auto side = [](std::string_view text) {
    const KnownMessage* m = MatchMessage(text);
    return m == nullptr ? FailureSide::kNone : m->side;
  };
  // Real lines: nccl-tests#166, nccl#1612, horovod#584, nccl-tests#188.
  EXPECT_EQ(side("socketProgress: Connection closed by remote peer node1<57557>"),
            FailureSide::kPeerDied);
  EXPECT_EQ(side("Call to connect timeout : Connection refused"), FailureSide::kNetworkPath);
  EXPECT_EQ(side("socketFinalizeAccept: wrong type 4 != 3"), FailureSide::kSidesDisagree);
  EXPECT_EQ(side("Net : Call to recv from 10.200.84.247<58355> failed : Broken pipe"),
            FailureSide::kPeerDied);
}

TEST(Knowledge, OfiRuntimeProtocolErrorsOfEveryPluginVersionAreNetErrors) {
  // aws-ofi-nccl's RDMA protocol messages across 1.7-1.21 (its NCCL_OFI_WARN adds "NET/OFI ").
  for (std::string_view text :
       {"NET/OFI Unexpected status (0) for message 246",
        "NET/OFI Unexpected type (2) for message 17",
        "NET/OFI Write complete from unexpected request type!",
        "NET/OFI Read complete from unexpected request type!",
        "NET/OFI Send completion from unexpected request type",
        "NET/OFI CQ completion (flags 0x0000000000000400) from unexpected request type 3",
        "NET/OFI Recv completion with unexpected type",
        "NET/OFI Message 12 has invalid status. res = 1 and stat = 0"}) {
    const KnownMessage* m = MatchMessage(text);
    ASSERT_NE(m, nullptr) << text;
    EXPECT_EQ(m->id, "ofi-protocol-state") << text;
    EXPECT_EQ(m->rule, "net-error") << text;
  }
  const KnownMessage* cq =
      MatchMessage("NET/OFI Unable to retrieve completion queue entries. RC: -5, ERROR: Input/output error");
  ASSERT_NE(cq, nullptr);
  EXPECT_EQ(cq->id, "ofi-cq-read-failed");
}

TEST(Knowledge, OfiRuntimeEntriesStayQuietOnHealthyPluginLines) {
  // Lines of a working aws-ofi-nccl (testdata/real-world/training-on-eks-g6e48x-4pod-1proc-libfabric-no-gdr.log): none is a runtime error.
  for (std::string_view text :
       {"NET/OFI Selected provider is efa, fabric is efa (found 4 nics)",
        "NET/OFI Using transport protocol SENDRECV",
        "NET/OFI Adding FI_EFA_FORK_SAFE=1 to environment"}) {
    const KnownMessage* m = MatchMessage(text);
    EXPECT_TRUE(m == nullptr || m->rule != "net-error") << text << " -> " << m->id;
  }
}

TEST(Knowledge, ExtractsThePeerAndTheErrorText) {
  MessageDetails d = ExtractDetails(
      "socketProgress: Connection closed by remote peer "
      "ip-172-31-45-209.eu-north-1.compute.internal<32926>");
  EXPECT_EQ(d.peer, "ip-172-31-45-209.eu-north-1.compute.internal<32926>");
  EXPECT_EQ(d.peer_host, "ip-172-31-45-209.eu-north-1.compute.internal");
  d = ExtractDetails("socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused "
                     "connection abort");
  EXPECT_EQ(d.peer_host, "10.0.0.2");
  EXPECT_EQ(d.os_error, "Software caused connection abort");
}

TEST(Knowledge, DecodesIbCompletionStatusInEveryNcclSpelling) {
  // 2.4-2.9 (nccl#426), 2.10-2.28 (nccl#1405), 2.29+ symbolic form (catalog).
  MessageDetails old = ExtractDetails(
      "NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129");
  EXPECT_EQ(old.ib_status, 12);
  EXPECT_EQ(old.vendor_error, 129);
  MessageDetails mid = ExtractDetails(
      "NET/IB : Got completion from peer 10.216.210.236<49892> with status=12 opcode=32616 "
      "len=0 vendor err 129 (Recv) localGid fd00:1148:9000:5000:4:200:3:ff22");
  EXPECT_EQ(mid.ib_status, 12);
  EXPECT_EQ(mid.peer_host, "10.216.210.236");
  MessageDetails sym = ExtractDetails(
      "NET/IB: Got completion from peer 10.0.0.7<4711> with status=IBV_WC_RETRY_EXC_ERR(12) "
      "opcode=IBV_WC_SEND(0) vendor_err=129 hca mlx5_3");
  EXPECT_EQ(sym.ib_status, 12);
  EXPECT_EQ(sym.vendor_error, 129);
  EXPECT_EQ(sym.device, "mlx5_3");
  EXPECT_EQ(IbvStatusName(12), "IBV_WC_RETRY_EXC_ERR");
  EXPECT_EQ(IbvStatusName(5), "IBV_WC_WR_FLUSH_ERR");
  EXPECT_NE(IbvStatusMeaning(12).find("never acknowledged"), std::string_view::npos);
  EXPECT_EQ(IbvStatusName(99), "");
}

TEST(Knowledge, ExtractsDeviceAndCudaErrorText) {
  MessageDetails d = ExtractDetails(
      "NET/IB : mlx5_0:1 Got async event : local access violation work queue error");
  EXPECT_EQ(d.device, "mlx5_0:1");
  d = ExtractDetails("Cuda failure 401 'the operation cannot be performed in the present state'");
  EXPECT_EQ(d.cuda_error, "the operation cannot be performed in the present state");
  d = ExtractDetails("Error: failed to extend /dev/shm/nccl-WU88OE to 9637892 bytes, error: No "
                     "space left on device (28)");
  EXPECT_EQ(d.device, "/dev/shm/nccl-WU88OE");
  EXPECT_EQ(d.os_error, "No space left on device (28)");
}

TEST(Knowledge, MultiMessageLinesGiveOneEntryPerRule) {
  // stanford_alpaca#207: a watchdog line that quotes NCCL's last WARN.
  auto all = MatchAllMessages(
      "NCCL error: remote process exited or there was a network error, NCCL version 2.18.1 "
      "ncclRemoteError: A call failed possibly due to a network error or a remote process "
      "exiting prematurely. Last error: NET/IB : Got completion from peer 11.214.147.122<39138> "
      "with error 12, opcode 32765, len 0, vendor err 129 (Recv)");
  std::set<std::string_view> rules;
  for (const KnownMessage* m : all) EXPECT_TRUE(rules.insert(m->rule).second) << m->rule;
  EXPECT_TRUE(rules.count("ib-error"));
  EXPECT_TRUE(rules.count("connection-error"));
}

TEST(Knowledge, UnknownTextGetsTheClosestKnownMessages) {
  auto close = ClosestKnownMessages("my job says connection refused by the remote peer", 3);
  ASSERT_FALSE(close.empty());
  bool connection = false;
  for (const KnownMessage* m : close) connection = connection || m->family == "connection";
  EXPECT_TRUE(connection);
  EXPECT_TRUE(ClosestKnownMessages("zzz qqq", 3).empty());
}

}  // namespace
}  // namespace ncclscope
