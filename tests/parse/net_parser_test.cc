// Bootstrap, plugin loading, network selection, NIC discovery, GDR and aws-ofi-nccl (§3, §4, §6).
#include <gtest/gtest.h>

#include <string>

#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

using testing::ParseAs;

std::string Info(const std::string& body) { return "vm:1:1 [0] NCCL INFO " + body; }

TEST(Bootstrap, AllVersionForms) {
  auto a = ParseAs<BootstrapInterface>(Info("Bootstrap : Using [0]eth0:10.0.0.1<0>"));
  ASSERT_EQ(a.interfaces.size(), 1u);
  EXPECT_EQ(a.interfaces[0].index, 0);
  EXPECT_EQ(a.interfaces[0].name, "eth0");
  EXPECT_EQ(a.interfaces[0].address, "10.0.0.1<0>");
  auto b = ParseAs<BootstrapInterface>(Info("Bootstrap : Using eth0:10.0.0.1<0>"));
  EXPECT_EQ(b.interfaces[0].index, -1);
  auto c = ParseAs<BootstrapInterface>(Info("Bootstrap: Using eth0:192.0.2.2<0>"));
  EXPECT_EQ(c.interfaces[0].address, "192.0.2.2<0>");
}

TEST(Bootstrap, AliasInterfaceKeepsItsLabel) {
  // NVIDIA/nccl-tests#162: avahi-autoipd's alias; an IPv6 address's colons stay the address's.
  auto a = ParseAs<BootstrapInterface>(Info("Bootstrap : Using eno1:avahi:169.254.7.1<0>"));
  ASSERT_EQ(a.interfaces.size(), 1u);
  EXPECT_EQ(a.interfaces[0].name, "eno1:avahi");
  EXPECT_EQ(a.interfaces[0].address, "169.254.7.1<0>");
  auto b = ParseAs<BootstrapInterface>(Info("Bootstrap : Using eth0:1:10.0.0.5<0>"));
  EXPECT_EQ(b.interfaces[0].name, "eth0:1");
  auto c = ParseAs<BootstrapInterface>(
      Info("Bootstrap : Using [0]eno4:10.3.68.117<0> [1]vethe94aab9:fe80::a0b1:ff:fe00:1%vethe94aab9<0>"));
  ASSERT_EQ(c.interfaces.size(), 2u);
  EXPECT_EQ(c.interfaces[1].name, "vethe94aab9");
  EXPECT_EQ(c.interfaces[1].address, "fe80::a0b1:ff:fe00:1%vethe94aab9<0>");
  auto d = ParseAs<BootstrapInterface>(Info("Bootstrap : Using ib0:::ffff:10.1.2.3<0>"));
  EXPECT_EQ(d.interfaces[0].name, "ib0");
}

TEST(Net23, NoPluginAndIbDeviceCountLines) {
  // horovod/horovod#685 (NCCL 2.3.7): the plugin and IB lines of that release.
  auto p = ParseAs<PluginEvent>(Info("No network plugin found."));
  EXPECT_EQ(p.kind, "NET");
  EXPECT_EQ(p.action, PluginAction::kNotFound);
  auto none = ParseAs<IbDevices>(Info("Net/IB: call to devices() returned 0 devices."));
  EXPECT_TRUE(none.none_found);
  auto some = ParseAs<KnownNoise>(Info("Net/IB: call to devices() returned 2 devices."));
  EXPECT_EQ(some.family, "ib");
}

struct PluginCase {
  const char* body;
  const char* kind;
  PluginAction action;
  const char* name;
};

class PluginLines : public ::testing::TestWithParam<PluginCase> {};

TEST_P(PluginLines, KindActionAndName) {
  const PluginCase& c = GetParam();
  auto p = ParseAs<PluginEvent>(Info(c.body));
  EXPECT_EQ(p.kind, c.kind);
  EXPECT_EQ(p.action, c.action);
  EXPECT_EQ(p.name, c.name);
}

INSTANTIATE_TEST_SUITE_P(
    AllVersions, PluginLines,
    ::testing::Values(
        PluginCase{"NET/Plugin : No plugin found (libnccl-net.so).", "NET", PluginAction::kNotFound,
                   "libnccl-net.so"},
        PluginCase{"NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
                   "NET", PluginAction::kNotFound, "libnccl-net.so"},
        PluginCase{"NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file No plugin "
                   "found (libnccl-net.so), using internal implementation",
                   "NET", PluginAction::kNotFound, "libnccl-net.so"},
        PluginCase{"NET/Plugin: Could not find: libnccl-net.so", "NET", PluginAction::kNotFound,
                   "libnccl-net.so"},
        PluginCase{"NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.",
                   "NET", PluginAction::kNotFound, "libnccl-net.so"},
        PluginCase{"TUNER/Plugin: Could not find: libnccl-tuner.so. Using internal tuner plugin.",
                   "TUNER", PluginAction::kNotFound, "libnccl-tuner.so"},
        PluginCase{"PROFILER/Plugin: Could not find: libnccl-profiler.so.", "PROFILER",
                   PluginAction::kNotFound, "libnccl-profiler.so"},
        PluginCase{"ENV/Plugin: Could not find: libnccl-env.so", "ENV", PluginAction::kNotFound,
                   "libnccl-env.so"},
        PluginCase{"NET/Plugin: Could not find: aws-ofi-missing libnccl-net-aws-ofi-missing.so",
                   "NET", PluginAction::kNotFound,
                   "aws-ofi-missing libnccl-net-aws-ofi-missing.so"},
        PluginCase{"NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open.", "NET",
                   PluginAction::kLoadError,
                   "Plugin load returned 2 : libnccl-net.so: cannot open."},
        PluginCase{"NET/Plugin: Loaded net plugin Libfabric (v8)", "NET", PluginAction::kLoaded,
                   "Libfabric (v8)"},
        PluginCase{"NET/Plugin: Loaded coll plugin SHARP (v8)", "COLL", PluginAction::kLoaded,
                   "SHARP (v8)"},
        PluginCase{"Successfully loaded external plugin libnccl-net.so", "NET",
                   PluginAction::kLoaded, "libnccl-net.so"},
        PluginCase{"Initialized NET plugin Socket", "NET", PluginAction::kInitialized, "Socket"},
        PluginCase{"Failed to initialize NET plugin IB", "NET", PluginAction::kInitFailed, "IB"},
        PluginCase{"Assigned NET plugin Socket to comm", "NET", PluginAction::kAssigned, "Socket"},
        PluginCase{"NET/Plugin: Plugin name set by env to libnccl-net.so", "NET",
                   PluginAction::kNameFromEnv, "libnccl-net.so"},
        PluginCase{"NET/Plugin: Using internal network plugin.", "NET",
                   PluginAction::kUsingInternal, ""},
        PluginCase{"NET/Plugin: Failed to find ncclCollNetPlugin_v9 symbol.", "NET",
                   PluginAction::kSymbolMissing, "ncclCollNetPlugin_v9"},
        PluginCase{"TUNER/Plugin: Using tuner plugin nccl_ofi_tuner", "TUNER",
                   PluginAction::kLoaded, "nccl_ofi_tuner"},
        // Google's FastSocket plugin says so itself (NVIDIA/nccl#651).
        PluginCase{"NET/FastSocket plugin initialized", "NET", PluginAction::kInitialized,
                   "FastSocket"}));

TEST(PluginLines, FailedToInitializeAnyIsAllFailedAtWarnLevel) {
  auto p = testing::ParseOne(
      "[2026-11-21 13:40:35] vm:3988:3988 [0] plugin/net.cc:379 NCCL WARN Failed to initialize "
      "any NET plugin");
  auto e = std::get<PluginEvent>(p.event.data);
  EXPECT_EQ(e.action, PluginAction::kAllFailed);
  EXPECT_EQ(e.kind, "NET");
  EXPECT_EQ(p.event.ctx.level, Level::kWarn);
}

TEST(UsingNetwork, NameMayContainSpace) {
  EXPECT_EQ(ParseAs<UsingNetwork>(Info("Using network AWS Libfabric")).name, "AWS Libfabric");
  EXPECT_EQ(ParseAs<UsingNetwork>(Info("Using network Socket")).name, "Socket");
}

TEST(IbDevices, UsingListNoneAndOob) {
  auto d = ParseAs<IbDevices>(
      Info("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>"));
  ASSERT_EQ(d.devices.size(), 2u);
  EXPECT_EQ(d.devices[1].name, "mlx5_1");
  EXPECT_EQ(d.devices[1].address, "1");
  EXPECT_EQ(d.devices[1].link_layer, "RoCE");
  EXPECT_EQ(d.oob, "eth0:10.0.0.1<0>");
  auto old = ParseAs<IbDevices>(Info("NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.1.0.1<0>"));
  EXPECT_EQ(old.devices.size(), 1u);
  auto empty = ParseAs<IbDevices>(Info("NET/IB : Using [RO]; OOB eth0:192.0.2.2<0>"));
  EXPECT_TRUE(empty.devices.empty());
  EXPECT_TRUE(ParseAs<IbDevices>(Info("NET/IB : No device found.")).none_found);
}

TEST(SocketDevices, UsingList) {
  auto d =
      ParseAs<SocketDevices>(Info("NET/Socket : Using [0]eth0:192.0.2.2<0> [1]eth1:10.1.1.1<0>"));
  ASSERT_EQ(d.devices.size(), 2u);
  EXPECT_EQ(d.devices[1].name, "eth1");
}

TEST(Gdr, PerNicAndPerGpuForms) {
  auto a = ParseAs<GdrStatus>(Info("NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'"));
  EXPECT_TRUE(a.enabled);
  EXPECT_EQ(a.net, "IB");
  EXPECT_EQ(a.hca, 0);
  EXPECT_EQ(a.device, "mlx5_0");
  auto b = ParseAs<GdrStatus>(
      Info("NET/AWS Libfabric : GPU Direct RDMA Enabled for HCA 3 'rdmap16s27'"));
  EXPECT_EQ(b.net, "AWS Libfabric");
  EXPECT_EQ(b.hca, 3);
  auto c = ParseAs<GdrStatus>(
      Info("NET/IB : GPU Direct RDMA Disabled for GPU 0[0] / HCA 1 'mlx5_1' (no module or not "
           "supported by GPU)"));
  EXPECT_FALSE(c.enabled);
  EXPECT_EQ(c.gpu, "0[0]");
  EXPECT_EQ(c.hca, 1);
  auto d = ParseAs<GdrStatus>(
      Info("GPU Direct RDMA Enabled for GPU 1b000 / HCA 0 (distance 4 <= 5), read 1"));
  EXPECT_TRUE(d.net.empty());
  EXPECT_EQ(d.gpu, "1b000");
  EXPECT_EQ(d.hca, 0);
  auto e = ParseAs<GdrStatus>(Info("GPU Direct RDMA Disabled for GPU 2 / HCA 1 (distance 6 > 5)"));
  EXPECT_EQ(e.gpu, "2");
  auto f = ParseAs<GdrStatus>(Info(
      "GPU Direct RDMA Enabled for GPU/0-1b000 (rank 0) - NET/0-0 (distance 3 <= 4, read 1, mode "
      "0)"));
  EXPECT_EQ(f.gpu, "GPU/0-1b000");
}

struct OfiCase {
  const char* body;
  OfiKind kind;
  const char* value;
};

class OfiLines : public ::testing::TestWithParam<OfiCase> {};

TEST_P(OfiLines, KindAndValue) {
  auto e = ParseAs<OfiEvent>(Info(GetParam().body));
  EXPECT_EQ(e.kind, GetParam().kind);
  EXPECT_EQ(e.value, GetParam().value);
}

INSTANTIATE_TEST_SUITE_P(
    AwsOfiNccl, OfiLines,
    ::testing::Values(
        OfiCase{"NET/OFI Initializing aws-ofi-nccl 1.13.0-aws", OfiKind::kInitializing,
                "1.13.0-aws"},
        OfiCase{"NET/OFI Using Libfabric version 1.22", OfiKind::kLibfabricVersion, "1.22"},
        OfiCase{"NET/OFI Selected Provider is efa", OfiKind::kProviderSelected, "efa"},
        OfiCase{"NET/OFI No eligible providers were found", OfiKind::kNoEligibleProviders,
                "No eligible providers were found"},
        OfiCase{"NET/OFI Initializing plugin failed", OfiKind::kInitFailed,
                "Initializing plugin failed"},
        OfiCase{"NET/OFI Running on p4d.24xlarge platform, topology file /opt/x.xml",
                OfiKind::kPlatform, "p4d.24xlarge"},
        OfiCase{"NET/OFI Setting provider_filter to efa", OfiKind::kProviderFilter, "efa"},
        OfiCase{"NET/OFI Using transport protocol SENDRECV (platform set)", OfiKind::kProtocol,
                "SENDRECV"},
        OfiCase{"NET/OFI Adding NCCL_PROTO=simple to environment", OfiKind::kEnvAdded,
                "NCCL_PROTO=simple"},
        OfiCase{"NET/OFI Could not disable CUDA API usage for HMEM, disabling GDR",
                OfiKind::kGdrDisabled, "Could not disable CUDA API usage for HMEM, disabling GDR"},
        OfiCase{"NET/OFI Configuring AWS-specific options", OfiKind::kOther,
                "Configuring AWS-specific options"}));

TEST(OfiLines, ProviderWithFabricAndNics) {
  auto e =
      ParseAs<OfiEvent>(Info("NET/OFI Selected provider is efa, fabric is efa (found 4 nics)"));
  EXPECT_EQ(e.value, "efa");
  EXPECT_EQ(e.fabric, "efa");
  EXPECT_EQ(e.nics, 4);
  auto old = ParseAs<OfiEvent>(Info("NET/OFI Selected Provider is efa (found 1 nics)"));
  EXPECT_EQ(old.nics, 1);
}

TEST(OfiLines, WarnLevelInitFailuresAndRequestErrors) {
  auto a = testing::ParseOne(
      "h:1:1 [0] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):259 NCCL WARN NET/OFI "
      "Unable to find a protocol that worked.  Failing initialization.");
  EXPECT_EQ(std::get<OfiEvent>(a.event.data).kind, OfiKind::kInitFailed);
  auto b = testing::ParseOne(
      "h:1:1 [0] nccl_net_ofi_rdma.cpp:1 NCCL WARN NET/OFI Request 0x7f (send) completed with "
      "error: err: 113, flags: 0, prov_errno: 4, strerror: No route to host, len: 0");
  EXPECT_EQ(std::get<OfiEvent>(b.event.data).kind, OfiKind::kRequestError);
  auto c = testing::ParseOne(
      "h:1:1 [0] f:1 NCCL WARN NET/OFI GDR disabled on GDR-supported "
      "instance type p4d.24xlarge");
  EXPECT_EQ(std::get<OfiEvent>(c.event.data).value, "p4d.24xlarge");
  auto d = testing::ParseOne("h:1:1 [0] f:1 NCCL WARN NET/OFI something new went wrong");
  EXPECT_EQ(std::get<Warning>(d.event.data).category, WarnCategory::kOfi);
}

}  // namespace
}  // namespace ncclscope
