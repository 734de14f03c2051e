// The exclusive-noise shortcut of the body dispatch must never change a verdict: every body that
// starts with one of its prefixes gets from the full dispatch (all family parsers, then the noise
// table) exactly the KnownNoise family the shortcut gives.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "parse/body_parsers.h"
#include "parse/corpus_lines.h"

namespace ncclscope {
namespace {

using parse_internal::DispatchInfo;
using parse_internal::ExclusiveNoiseFamily;

// Each prefix the shortcut knows: ExclusiveNoiseFamily in noise_table.cc (a prefix added there
// must be added here; the second test checks that each one here is taken).
const std::vector<std::string> kPrefixes = {
    "ncclPollProxyResponse Received new ", "proxyProgressAsync opId=",
    "proxyUDSRecvReq::ncclProxyMsgGetFd rank ", "Received and initiated operation=",
    "Allocated shareable buffer ",         "Imported shareable buffer ",
    "UDS proxyGetFd received handle ",     "UDS converted handle ",
    "UDS: ClientGetFd handle ",            "ProxyCall UDS comm ",
    "Connected to proxy localRank ",
};

// Suffixes that would turn a body into an event if the prefix did not decide it: an
// environment echo, a plugin name, COLL and error-trail shapes, comm lifecycle, connections.
const std::vector<std::string> kSuffixes = {
    "0x7f00aa001234 size 8388608 ipcDesc 0x55d5c8a0 rank 1 tpRank 0",
    "set to 1",
    "set by environment to 1.",
    "/Plugin: Loaded net plugin IB (v8)",
    ": opCount 1 sendbuff 0x1 recvbuff 0x2 count 4 datatype 7 op 0 root 0 comm 0x3 [nranks=4]",
    "1048576 Bytes -> Algo RING proto SIMPLE",
    "x.cc:12 -> 5",
    ":12 -> 5 [Async thread]",
    "comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0 - Init COMPLETE",
    "all rings, use ring PXN 0 GDR 1",
    "00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
    "GPU/0-60 :GPU/0-60 (0/5000.0/LOC)",
    "NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>",
    "Cuda failure 'out of memory'",
    "",
};

EventData Dispatch(std::string_view body, bool shortcut) {
  EventData data;
  DispatchInfo(body, Level::kInfo, &data, shortcut);
  return data;
}

TEST(ExclusiveNoise, EveryPrefixWithAnySuffixIsTheSameNoiseWithoutTheShortcut) {
  for (const std::string& prefix : kPrefixes) {
    for (const std::string& suffix : kSuffixes) {
      for (const std::string& glue : {std::string(), std::string(" ")}) {
        const std::string body = prefix + glue + suffix;
        const std::string_view family = ExclusiveNoiseFamily(body);
        const EventData full = Dispatch(body, /*shortcut=*/false);
        const auto* noise = std::get_if<KnownNoise>(&full);
        ASSERT_NE(noise, nullptr) << body << " -> " << EventTypeName(full);
        if (body.size() >= 24) {
          EXPECT_EQ(family, noise->family) << body;
        } else {
          EXPECT_TRUE(family.empty()) << body;
        }
      }
    }
  }
}

TEST(ExclusiveNoise, EveryListedPrefixIsTaken) {
  for (const std::string& prefix : kPrefixes) {
    EXPECT_EQ(ExclusiveNoiseFamily(prefix + "0x7f00aa001234 rank 1"), "proxy") << prefix;
  }
}

TEST(ExclusiveNoise, OtherBodiesAreLeftToTheParsers) {
  for (std::string_view body :
       {"Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
        "AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 4 datatype 7 op 0 root 0 comm 0x3",
        "ProxyCall set to 1 and something long enough", "UDS set by environment to 12345678",
        "Connected all rings, use ring PXN 0 GDR 1", "Received and initiated without the rest"}) {
    EXPECT_TRUE(ExclusiveNoiseFamily(body).empty()) << body;
  }
}

TEST(ExclusiveNoise, CorpusBodiesGetTheSameEventWithAndWithoutTheShortcut) {
  size_t taken = 0;
  for (const std::string& path : testing::CorpusLogPaths()) {
    for (const std::string& line : testing::ReadCorpusFile(path).storage) {
      const size_t at = line.find(" NCCL INFO ");
      if (at == std::string::npos) continue;
      const std::string_view body = std::string_view(line).substr(at + 11);
      if (!ExclusiveNoiseFamily(body).empty()) ++taken;
      const EventData a = Dispatch(body, true);
      const EventData b = Dispatch(body, false);
      ASSERT_EQ(a.index(), b.index()) << line;
      if (const auto* n = std::get_if<KnownNoise>(&a)) {
        EXPECT_EQ(n->family, std::get<KnownNoise>(b).family) << line;
      }
    }
  }
  EXPECT_GT(taken, 1000u);  // the shortcut is exercised by real proxy chatter
}

}  // namespace
}  // namespace ncclscope
