// Rule tests over hand-built Job models (real corpus lines as evidence).
#include <gtest/gtest.h>

#include "job_fixtures.h"
#include "ncclscope/analysis/analyze.h"
#include "ncclscope/rules/registry.h"

namespace ncclscope::testing {
namespace {

bool HasRule(const std::vector<Finding>& f, const std::string& id) { return !Of(f, id).empty(); }

TEST(Registry, IdsUniqueAndFindable) {
  std::set<std::string> ids;
  for (const auto& r : AllRules()) {
    EXPECT_TRUE(ids.insert(std::string(r->id())).second) << r->id();
    EXPECT_EQ(FindRule(r->id()), r.get());
    EXPECT_FALSE(r->title().empty());
    EXPECT_FALSE(r->fix().empty());
  }
  EXPECT_GE(ids.size(), 24u);
  EXPECT_EQ(FindRule("no-such-rule"), nullptr);
}

TEST(Registry, SortsErrorsFirstThenRegistryOrder) {
  std::vector<Finding> f(3);
  f[0].rule = "p2p-read-mode";
  f[0].severity = Severity::kInfo;
  f[1].rule = "nccl-warn";
  f[1].severity = Severity::kError;
  f[2].rule = "socket-fallback";
  f[2].severity = Severity::kError;
  SortFindings(&f);
  EXPECT_EQ(f[0].rule, "socket-fallback");
  EXPECT_EQ(f[1].rule, "nccl-warn");
  EXPECT_EQ(f[2].rule, "p2p-read-mode");
}

TEST(Healthy, NoWarningsOrErrors) {
  JobFixture fx = HealthySingleNode();
  auto all = fx.Run();
  for (const Finding& f : all) {
    EXPECT_EQ(f.severity, Severity::kInfo) << f.rule << ": " << f.message;
  }
}

TEST(Healthy, BenignNoiseStaysQuiet) {
  JobFixture fx = HealthySingleNode();
  fx.AddPlugin(0, "NET", PluginAction::kNotFound, "libnccl-net.so",
               "vm:848:848 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so");
  fx.AddPlugin(0, "NET", PluginAction::kInitFailed, "IB",
               "vm:848:848 [0] NCCL INFO Failed to initialize NET plugin IB");
  fx.process(0).ib_no_device = true;
  fx.AddWarn(WarnCategory::kIb, "NET/IB : dlvsym failed on mlx5dv_get_data_direct_sysfs_path", 0);
  auto all = fx.Run();
  for (const Finding& f : all) {
    EXPECT_EQ(f.severity, Severity::kInfo) << f.rule << ": " << f.message;
  }
}

TEST(SocketFallback, ErrorWhenOfiFailed) {
  JobFixture fx;
  for (int r = 0; r < 4; ++r) fx.AddProcess("llama-3-8b-node-0-" + std::to_string(r), r);
  int c = fx.AddComm("0xbc42413ad5ab3a45", 4, 0, 4, 1);
  for (int r = 0; r < 4; ++r) {
    fx.AddLink(c, r, (r + 1) % 4, TransportClass::kNetSocket, "NET/Socket/0", false, false);
  }
  fx.AddOfi(0, OfiKind::kNoEligibleProviders, "",
            "llama-3-8b-node-0-0:152:386 [0] NCCL INFO NET/OFI No eligible providers were found");
  auto all = fx.Run();
  auto f = Of(all, "socket-fallback");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_NE(f[0].message.find("4 of 4 inter-node links of comm 0xbc42413ad5ab3a45"),
            std::string::npos)
      << f[0].message;
  EXPECT_NE(f[0].message.find("no eligible"), std::string::npos);
  EXPECT_FALSE(f[0].evidence.empty());
  EXPECT_EQ(f[0].ranks, (std::vector<int>{0, 1, 2, 3}));
  auto p = Of(all, "net-plugin-failed");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].severity, Severity::kError);
}

TEST(SocketFallback, WarningWithoutExpectation) {
  JobFixture fx;
  fx.AddProcess("a", 0);
  fx.AddProcess("b", 1);
  int c = fx.AddComm("0x1", 2, 0, 2, 1);
  fx.AddLink(c, 0, 1, TransportClass::kNetSocket, "NET/Socket/0", false, false);
  auto f = Of(fx.Run(), "socket-fallback");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
}

TEST(SocketFallback, QuietOnIbLinks) {
  JobFixture fx;
  fx.AddProcess("a", 0);
  fx.AddProcess("b", 1);
  int c = fx.AddComm("0x1", 2, 0, 2, 1);
  fx.AddLink(c, 0, 1, TransportClass::kNetIB, "NET/IB/0/GDRDMA", false, false).gdrdma = true;
  auto all = fx.Run();
  EXPECT_FALSE(HasRule(all, "socket-fallback"));
  EXPECT_FALSE(HasRule(all, "no-gdrdma"));
}

TEST(NetPluginFailed, RequestedPluginMissingIsError) {
  JobFixture fx;
  fx.AddProcess("vm", 0);
  fx.SetEnv(0, "NCCL_NET_PLUGIN", "aws-ofi-missing");
  fx.AddPlugin(0, "NET", PluginAction::kNotFound, "aws-ofi-missing libnccl-net-aws-ofi-missing.so",
               "vm:2729:2729 [0] NCCL INFO NET/Plugin: Could not find: aws-ofi-missing "
               "libnccl-net-aws-ofi-missing.so");
  fx.AddComm("0x1", 1, 0);
  auto f = Of(fx.Run(), "net-plugin-failed");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_NE(f[0].message.find("NCCL_NET_PLUGIN=aws-ofi-missing"), std::string::npos);
}

TEST(NetPluginFailed, ForcedIbWithoutDevice) {
  JobFixture fx;
  fx.AddProcess("vm", 0);
  fx.SetEnv(0, "NCCL_NET", "IB");
  fx.AddPlugin(0, "NET", PluginAction::kInitFailed, "IB",
               "vm:3988:3988 [0] NCCL INFO Failed to initialize NET plugin IB");
  fx.AddWarn(WarnCategory::kPlugin, "Failed to initialize any NET plugin", 0, "plugin/net.cc:379");
  auto all = fx.Run();
  auto f = Of(all, "net-plugin-failed");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_FALSE(HasRule(all, "nccl-warn"));  // explained
}

TEST(IntraNodeNet, SameHostOverNetwork) {
  JobFixture fx;
  for (int r = 0; r < 4; ++r) fx.AddProcess("vm", r);
  for (int r = 0; r < 4; ++r) fx.SetEnv(r, "NCCL_HOSTID", "simhost" + std::to_string(r));
  for (int r = 0; r < 4; ++r) fx.process(r).host_id = "simhost" + std::to_string(r);
  int c = fx.AddComm("0x2", 4, 0, 4, 1);
  for (int r = 0; r < 4; ++r) {
    fx.AddLink(c, r, (r + 1) % 4, TransportClass::kNetSocket, "NET/Socket/0", false, true);
  }
  auto all = fx.Run();
  auto f = Of(all, "intra-node-net");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("4 links in 1 communicator(s)"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("NCCL_HOSTID"), std::string::npos);
  EXPECT_EQ(f[0].hosts, (std::vector<std::string>{"vm"}));
  EXPECT_FALSE(HasRule(all, "env-mismatch"));  // NCCL_HOSTID differs legitimately
}

TEST(IntraNodeNet, SingleGpuPodsOnMultiGpuPlatform) {
  JobFixture fx;
  fx.AddProcess("llama-3-8b-node-0-0", 0);
  fx.AddOfi(0, OfiKind::kPlatform, "p4d.24xlarge",
            "NCCL INFO NET/OFI Running on p4d.24xlarge platform, topology file x.xml");
  fx.AddOfi(0, OfiKind::kProviderSelected, "efa",
            "NCCL INFO NET/OFI Selected provider is efa, fabric is efa (found 1 nics)", 1);
  int c = fx.AddComm("0x3", 1, 0, 4, 1);
  fx.comm(c).nranks = 4;
  fx.AddLink(c, 0, 1, TransportClass::kNetLibfabric, "NET/Libfabric/0/GDRDMA", false).gdrdma = true;
  auto f = Of(fx.Run(), "intra-node-net");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("p4d.24xlarge"), std::string::npos);
}

TEST(IntraNodeNet, QuietAcrossHosts) {
  JobFixture fx;
  fx.AddProcess("a", 0);
  fx.AddProcess("b", 1);
  int c = fx.AddComm("0x1", 2, 0, 2, 1);
  fx.AddLink(c, 0, 1, TransportClass::kNetIB, "NET/IB/0/GDRDMA", false, false).gdrdma = true;
  EXPECT_FALSE(HasRule(fx.Run(), "intra-node-net"));
}

TEST(P2pDisabled, ShmLinksWithEnv) {
  JobFixture fx = HealthySingleNode();
  fx.job().links.clear();
  for (int r = 0; r < 4; ++r) fx.SetEnv(r, "NCCL_P2P_DISABLE", "1");
  for (int r = 0; r < 4; ++r) {
    fx.AddLink(0, r, (r + 1) % 4, TransportClass::kSHM, "SHM/direct/direct", true, true);
  }
  auto all = fx.Run();
  auto f = Of(all, "p2p-disabled");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("4 intra-node links"), std::string::npos);
  EXPECT_NE(f[0].message.find("NCCL_P2P_DISABLE=1"), std::string::npos);
  auto e = Of(all, "env-override");
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].severity, Severity::kWarning);
}

TEST(P2pReadMode, InfoOnReadLinks) {
  JobFixture fx = HealthySingleNode();
  for (Link& l : fx.job().links) l.read = true;
  auto f = Of(fx.Run(), "p2p-read-mode");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kInfo);
  EXPECT_NE(f[0].message.find("4 of 4"), std::string::npos);
  EXPECT_FALSE(HasRule(HealthySingleNode().Run(), "p2p-read-mode"));
}

TEST(P2pPathUnknown, InfoUnlessTopoGiven) {
  JobFixture fx = HealthySingleNode();
  for (Link& l : fx.job().links) l.path = P2pPath::kUnknown;
  EXPECT_TRUE(HasRule(fx.Run(), "p2p-path-unknown"));
  fx.job().topo_given = true;
  EXPECT_FALSE(HasRule(fx.Run(), "p2p-path-unknown"));
}

TEST(NoGdrdma, IbWithoutGdr) {
  JobFixture fx;
  fx.AddProcess("a", 0);
  fx.AddProcess("b", 1);
  int c = fx.AddComm("0x1", 2, 0, 2, 1);
  fx.AddLink(c, 0, 1, TransportClass::kNetIB, "NET/IB/0", false, false);
  fx.AddLink(c, 1, 0, TransportClass::kNetSocket, "NET/Socket/0", false, false);
  auto f = Of(fx.Run(), "no-gdrdma");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("1 of 1 NET/IB links"), std::string::npos) << f[0].message;
}

TEST(ShmFailure, FiresOnShmWarnings) {
  JobFixture fx = HealthySingleNode();
  fx.AddWarn(WarnCategory::kShm,
             "Error: failed to extend /dev/shm/nccl-cjyKEg to 9637892 bytes, error: No space "
             "left on device (28)",
             3, "misc/shmutils.cc:87");
  fx.AddWarn(WarnCategory::kShm,
             "Error while creating shared memory segment /dev/shm/nccl-cjyKEg (size 9637888), "
             "error: No space left on device (28)",
             3, "misc/shmutils.cc:132");
  auto all = fx.Run();
  auto f = Of(all, "shm-failure");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_NE(f[0].message.find("2 lines on 1 process"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("ENOSPC"), std::string::npos) << f[0].message;
  EXPECT_EQ(f[0].evidence.size(), 2u);
  EXPECT_FALSE(HasRule(all, "nccl-warn"));
}

TEST(BootstrapInterface, NoInterfaceIsError) {
  JobFixture fx;
  fx.AddProcess("vm", 0);
  fx.SetEnv(0, "NCCL_SOCKET_IFNAME", "nosuchif0");
  fx.AddWarn(WarnCategory::kBootstrap, "Bootstrap : no socket interface found", 0,
             "bootstrap.cc:114");
  auto all = fx.Run();
  auto f = Of(all, "bootstrap-interface");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_NE(f[0].message.find("nosuchif0"), std::string::npos);
  EXPECT_FALSE(HasRule(all, "connection-error"));
  EXPECT_FALSE(HasRule(all, "nccl-warn"));
}

TEST(BootstrapInterface, LoopbackAcrossNodes) {
  JobFixture fx;
  fx.AddProcess("a", 0);
  fx.AddProcess("b", 1);
  fx.process(0).bootstrap_if = "lo";
  fx.process(0).bootstrap_addr = "127.0.0.1";
  fx.process(0).bootstrap_evidence =
      JobFixture::Ev("a:1:1 [0] NCCL INFO Bootstrap: Using lo:127.0.0.1<0>");
  fx.process(1).bootstrap_if = "eth0";
  fx.process(1).bootstrap_addr = "10.0.0.2";
  fx.AddComm("0x1", 2, 0, 2, 1);
  auto f = Of(fx.Run(), "bootstrap-interface");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].ranks, std::vector<int>{0});
}

TEST(SlowInit, FiresAboveThreshold) {
  JobFixture fx;
  fx.AddProcess("llama-3-8b-node-0-0", 0);
  fx.process(0).bootstrap_timings =
      BootstrapTimings{59.827020, 0.000078, 0.000189, 59.819732, 0.005660, 0.000001};
  fx.process(0).bootstrap_timings_evidence = JobFixture::Ev(
      "NCCL INFO Bootstrap timings total 59.827020 (create 0.000078, send 0.000189, recv "
      "59.819732, ring 0.005660, delay 0.000001)");
  fx.AddComm("0x1", 1, 0);
  auto f = Of(fx.Run(), "slow-init");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("59.8 s"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("recv"), std::string::npos);
  RuleOptions lenient;
  lenient.slow_init_seconds = 100;
  EXPECT_TRUE(Of(fx.Run(lenient), "slow-init").empty());
}

TEST(SlowInit, OutlierAndQuietWhenFast) {
  JobFixture fx = HealthySingleNode();
  for (int r = 0; r < 4; ++r)
    fx.process(r).bootstrap_timings = BootstrapTimings{0.13, 0, 0, 0.1, 0, 0};
  EXPECT_FALSE(HasRule(fx.Run(), "slow-init"));
  fx.process(2).bootstrap_timings = BootstrapTimings{6.0, 0, 0, 5.9, 0, 0};
  auto f = Of(fx.Run(), "slow-init");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].ranks, std::vector<int>{2});
}

TEST(SlowInit, OutlierAgainstTheMedianOfTheOthersWithEvenCountsAndTies) {
  // Six processes: the median of the five others of the slow one is 0.2 s; the slow one and a
  // tie of two 0.1 s processes must not disturb the others' medians.
  JobFixture fx;
  const double secs[] = {0.1, 0.1, 0.2, 0.3, 0.4, 8.0};
  for (int r = 0; r < 6; ++r) {
    // Not `"h" + std::to_string(r)`: GCC 12 at -O3 reports a false -Wrestrict in the inlined
    // string insert (GCC bug 105329).
    fx.AddProcess(std::string("h").append(std::to_string(r)), r);
    fx.process(r).bootstrap_timings = BootstrapTimings{secs[r], 0, 0, 0, 0, 0};
  }
  fx.AddComm("0x1", 6, 0);
  auto f = Of(fx.Run(), "slow-init");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].ranks, std::vector<int>{5});
  EXPECT_NE(f[0].message.find("median 0.2 s"), std::string::npos) << f[0].message;
}

TEST(EnvOverride, InfoListsSettingsAndOfiAdded) {
  JobFixture fx = HealthySingleNode();
  fx.SetEnv(0, "NCCL_PROTO", "simple");
  fx.AddOfi(0, OfiKind::kEnvAdded, "NCCL_PROTO=simple",
            "NCCL INFO NET/OFI Adding NCCL_PROTO=simple to environment");
  fx.SetEnv(0, "NCCL_CUMEM_ENABLE", "0");
  auto f = Of(fx.Run(), "env-override");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kInfo);
  EXPECT_NE(f[0].message.find("NCCL_PROTO=simple"), std::string::npos);
  EXPECT_NE(f[0].message.find("added by aws-ofi-nccl"), std::string::npos);
  EXPECT_NE(f[0].message.find("NCCL_CUMEM_ENABLE=0"), std::string::npos);
}

TEST(EnvMismatch, MinorityIsSuspect) {
  JobFixture fx = HealthySingleNode();
  for (int r = 0; r < 4; ++r) fx.SetEnv(r, "NCCL_ALGO", r == 2 ? "Tree" : "Ring");
  auto f = Of(fx.Run(), "env-mismatch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].suspect_ranks, std::vector<int>{2});
  EXPECT_FALSE(HasRule(HealthySingleNode().Run(), "env-mismatch"));
}

TEST(VersionMismatch, MinorityIsSuspect) {
  JobFixture fx = HealthySingleNode();
  fx.process(3).nccl_version = "2.27.3";
  auto f = Of(fx.Run(), "nccl-version-mismatch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].suspect_ranks, std::vector<int>{3});
}

TEST(InitIncomplete, StuckRanksAndMissingRanks) {
  JobFixture fx;
  fx.AddProcess("vm", 0);
  fx.AddProcess("vm", 1);
  int c = fx.AddComm("0x5", 2, 0);
  fx.comm(c).ranks[1].completed = false;
  fx.comm(c).nranks = 4;
  auto all = fx.Run();
  auto f = Of(all, "init-incomplete");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].suspect_ranks, std::vector<int>{1});
  EXPECT_NE(f[0].message.find("last NCCL line"), std::string::npos);
  EXPECT_EQ(f[1].severity, Severity::kWarning);
  EXPECT_NE(f[1].message.find("Partial logs?"), std::string::npos);
  EXPECT_EQ(f[1].suspect_ranks, (std::vector<int>{2, 3}));
}

TEST(WatchdogTimeout, StragglerIsSuspect) {
  JobFixture fx = HealthySingleNode();
  for (int r = 0; r < 3; ++r) {
    TorchRankState s;
    s.rank = r;
    s.pg_id = 0;
    s.pg_desc = "default_pg";
    s.timed_out = true;
    s.timeout_seq = 6;
    s.op_type = "ALLREDUCE";
    s.timeout_ms = 25000;
    s.last_enqueued = 6;
    s.last_completed = 1;
    s.evidence.push_back(JobFixture::Ev(
        "[rank0]:[E1121 13:39:41.727410739 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=6, OpType=ALLREDUCE, ...)"));
    fx.job().torch_ranks.push_back(s);
  }
  auto all = fx.Run();
  auto f = Of(all, "watchdog-timeout");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].suspect_ranks, std::vector<int>{3});
  EXPECT_NE(f[0].message.find("SeqNum 6 ALLREDUCE"), std::string::npos) << f[0].message;
  EXPECT_FALSE(HasRule(all, "hang-suspected"));
}

TEST(HangSuspected, SignalAfterHealthyInit) {
  JobFixture fx = HealthySingleNode();
  for (auto& [r, cr] : fx.comm(0).ranks) cr.ended = false;
  EXPECT_FALSE(HasRule(fx.Run(), "hang-suspected"));  // log just ends: stay quiet
  FrameworkRecord sig;
  sig.kind = FrameworkRecord::Kind::kEvent;
  sig.event = FrameworkKind::kProcessSignal;
  sig.detail = "SIGTERM";
  sig.evidence = JobFixture::Ev("Sending process 3886 closing signal SIGTERM");
  fx.job().framework.push_back(sig);
  auto f = Of(fx.Run(), "hang-suspected");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
}

TEST(HangSuspected, QuietWhenDestroyed) {
  JobFixture fx = HealthySingleNode();  // ranks ended (Destroy COMPLETE)
  FrameworkRecord sig;
  sig.kind = FrameworkRecord::Kind::kEvent;
  sig.event = FrameworkKind::kProcessSignal;
  fx.job().framework.push_back(sig);
  EXPECT_FALSE(HasRule(fx.Run(), "hang-suspected"));
}

TEST(NcclError, GroupsByReason) {
  JobFixture fx = HealthySingleNode();
  for (int r = 0; r < 3; ++r) {
    FrameworkRecord e;
    e.kind = FrameworkRecord::Kind::kNcclError;
    e.rank = r;
    e.where = "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93";
    e.reason = "invalid usage (run with NCCL_DEBUG=WARN for details)";
    e.nccl_version = "2.28.9";
    e.evidence = JobFixture::Ev(
        "torch.distributed.DistBackendError: NCCL error in: "
        "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, invalid usage (run with "
        "NCCL_DEBUG=WARN for details), NCCL version 2.28.9",
        44 + r);
    fx.job().framework.push_back(e);
  }
  auto f = Of(fx.Run(), "nccl-error");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].ranks, (std::vector<int>{0, 1, 2}));
  EXPECT_NE(f[0].message.find("3 framework error(s)"), std::string::npos);
}

TEST(IbError, CompletionErrorIsDecoded) {
  JobFixture fx = HealthySingleNode();
  fx.AddWarn(WarnCategory::kIb,
             "NET/IB: Got completion from peer 10.0.0.2<1234> with status=12 opcode=0 len=0 "
             "vendor err 129 (Send)",
             1, "transport/net_ib.cc:1700");
  auto all = fx.Run();
  EXPECT_FALSE(HasRule(all, "net-error"));  // InfiniBand is ib-error's, EFA/OFI net-error's
  auto f = Of(all, "ib-error");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("IBV_WC_RETRY_EXC_ERR"), std::string::npos) << f[0].message;
  EXPECT_FALSE(HasRule(all, "nccl-warn"));
}

TEST(ConnectionError, ClosedByPeer) {
  JobFixture fx = HealthySingleNode();
  fx.AddWarn(WarnCategory::kSocket, "socketProgress: Connection closed by remote peer vm<45678>", 2,
             "misc/socket.cc:50");
  auto f = Of(fx.Run(), "connection-error");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].ranks, std::vector<int>{2});
}

TEST(CudaError, FabricManagerHint) {
  JobFixture fx = HealthySingleNode();
  fx.AddWarn(WarnCategory::kCuda, "Cuda failure 'system not yet initialized'", 0, "init.cc:100");
  auto f = Of(fx.Run(), "cuda-error");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("nvidia-fabricmanager"), std::string::npos);
}

TEST(NvlsCollNet, Failures) {
  JobFixture fx = HealthySingleNode();
  fx.AddWarn(WarnCategory::kNvls, "NVLS multicast setup failed", 0);
  fx.AddWarn(WarnCategory::kCollNet, "CollNet setup failed", 0);
  auto all = fx.Run();
  EXPECT_TRUE(HasRule(all, "nvls-failure"));
  EXPECT_TRUE(HasRule(all, "collnet-failure"));
  EXPECT_FALSE(HasRule(all, "nccl-warn"));
}

TEST(DuplicateGpu, SameBusIdOnOneHost) {
  JobFixture fx = HealthySingleNode();
  fx.comm(0).ranks[1].bus_id = fx.comm(0).ranks[0].bus_id;
  auto f = Of(fx.Run(), "duplicate-gpu");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].suspect_ranks, (std::vector<int>{0, 1}));
  EXPECT_FALSE(HasRule(HealthySingleNode().Run(), "duplicate-gpu"));
}

TEST(DuplicateGpu, HostlessLinesSayNothing) {
  // aws-ofi-nccl#801 (held-out round 23): a paste that kept only `[0] NCCL INFO`; the two ranks
  // are on two nodes ("nNodes 2 localRanks 1") with the same GPU slot.
  const AnalysisResult r = AnalyzeText(
      "[0] NCCL INFO comm 0xaaaaf6b29030 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 2901000 commId "
      "0x8e6ef3d51f699a17 - Init START\n"
      "[0] NCCL INFO comm 0xaaaaf6798e60 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 2901000 commId "
      "0x8e6ef3d51f699a17 - Init START\n");
  EXPECT_FALSE(HasRule(r.findings, "duplicate-gpu"));
  // The same lines with NCCL's head on one host are a duplicate.
  const AnalysisResult one = AnalyzeText(
      "h:1:1 [0] NCCL INFO comm 0xaaaaf6b29030 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 2901000 "
      "commId 0x8e6ef3d51f699a17 - Init START\n"
      "h:2:2 [0] NCCL INFO comm 0xaaaaf6798e60 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 2901000 "
      "commId 0x8e6ef3d51f699a17 - Init START\n");
  EXPECT_TRUE(HasRule(one.findings, "duplicate-gpu"));
}

TEST(DebugInfoMissing, NoNcclLines) {
  JobFixture fx;
  fx.job().stats.nccl_lines = 0;
  auto f = Of(fx.Run(), "debug-info-missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_FALSE(HasRule(HealthySingleNode().Run(), "debug-info-missing"));
}

TEST(DebugInfoMissing, WarnLinesOnlyFireAndInfoLinesTheModelKeepsNothingOfDoNot) {
  JobFixture fx;
  fx.job().stats.nccl_lines = 14;  // e.g. WARN lines only
  EXPECT_EQ(Of(fx.Run(), "debug-info-missing").size(), 1u);
  // Proxy chatter or "[Service thread] Connection closed" lines: INFO was on.
  fx.job().stats.info_lines = 14;
  EXPECT_FALSE(HasRule(fx.Run(), "debug-info-missing"));
}

TEST(NcclWarn, UnexplainedWarningReported) {
  JobFixture fx = HealthySingleNode();
  // Azure/AML-Kubernetes#58: a warning no entry of the catalog explains.
  fx.AddWarn(WarnCategory::kOther, "Invalid rank requested : 2/2", 0, "init.cc:981");
  auto f = Of(fx.Run(), "nccl-warn");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("Invalid rank requested"), std::string::npos);
  EXPECT_EQ(f[0].evidence.size(), 1u);
}

TEST(NcclWarn, KnownMessageGoesToItsRule) {
  JobFixture fx = HealthySingleNode();
  fx.AddWarn(WarnCategory::kOther, "Error : ring 0 does not loop back to start (3 != 0)", 0,
             "graph/rings.cc:40");
  auto all = fx.Run();
  EXPECT_FALSE(HasRule(all, "nccl-warn"));
  auto f = Of(all, "costly-setting");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("does not loop back"), std::string::npos);
}

}  // namespace
}  // namespace ncclscope::testing
