#include "ncclscope/topo/topo_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "test_util.h"

namespace ncclscope {
namespace {

using ::ncclscope::testing::TestData;

std::string RunOrFail(const std::string& relative, const std::string& format) {
  std::ostringstream out;
  Status st = RunTopoCommand({TestData(relative), format}, out);
  EXPECT_TRUE(st.ok()) << st.message();
  return out.str();
}

TEST(RunTopoCommand, H200TextSaysNvlinkEverywhere) {
  std::string text = RunOrFail("corpus/topo/h200x4-topo-m.txt", "text");
  EXPECT_NE(text.find("4 GPUs, 0 NICs"), std::string::npos) << text;
  EXPECT_NE(text.find("NV18"), std::string::npos);
  EXPECT_NE(text.find("6 pairs: 0-1 0-2 0-3 1-2 1-3 2-3"), std::string::npos) << text;
  EXPECT_NE(text.find("possible between every GPU pair"), std::string::npos);
  EXPECT_NE(text.find("no NICs in the matrix"), std::string::npos);
}

TEST(RunTopoCommand, G6eTextSaysPcieOnly) {
  std::string text = RunOrFail("corpus/topo/seed002-g6e.12xlarge-topo-m.txt", "text");
  EXPECT_NE(text.find("NODE"), std::string::npos);
  EXPECT_NE(text.find("no GPU pair has NVLink"), std::string::npos) << text;
  EXPECT_NE(text.find("NCCL default SHM"), std::string::npos) << text;
}

TEST(RunTopoCommand, P4dJsonHasExpectedKeys) {
  std::string out = RunOrFail("corpus/topo/seed002-p4d.24xlarge-topo-m.txt", "json");
  nlohmann::json j = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(j.is_discarded()) << out;
  for (const char* key : {"source", "gpus", "nics", "pair_groups", "nvlink_all_pairs",
                          "pcie_only_pairs", "nic_affinity", "matrix"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["gpus"].size(), 8u);
  EXPECT_EQ(j["gpus"][4]["numa_affinity"], "1");
  EXPECT_TRUE(j["nvlink_all_pairs"].get<bool>());
  ASSERT_EQ(j["pair_groups"].size(), 1u);
  EXPECT_EQ(j["pair_groups"][0]["path"], "NV12");
  EXPECT_EQ(j["pair_groups"][0]["nccl_default_transport"], "NVL");
  EXPECT_EQ(j["pair_groups"][0]["pairs"].size(), 28u);
  EXPECT_EQ(j["matrix"]["paths"][0][1], "NV12");
}

TEST(SummarizeTopo, MixedMatrixGroupsPairsAndFindsNearestNics) {
  std::string text =
      "\tGPU0\tGPU1\tGPU2\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n"
      "GPU0\t X \tNV4\tSYS\tPIX\tSYS\t0-7\t0\n"
      "GPU1\tNV4\t X \tSYS\tPIX\tSYS\t0-7\t0\n"
      "GPU2\tSYS\tSYS\t X \tSYS\tPXB\t8-15\t1\n"
      "NIC0\tPIX\tPIX\tSYS\t X \tSYS\n"
      "NIC1\tSYS\tSYS\tPXB\tSYS\t X \n"
      "\nNIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n";
  TopoMatrix m;
  ASSERT_TRUE(ParseTopoMatrix(text, &m).ok());
  TopoSummary s = SummarizeTopo(m);
  ASSERT_EQ(s.groups.size(), 2u);
  EXPECT_EQ(s.groups[0].path, "NV4");
  EXPECT_EQ(s.groups[1].path, "SYS");
  EXPECT_EQ(s.groups[1].pairs.size(), 2u);
  EXPECT_FALSE(s.nvlink_all_pairs);
  ASSERT_EQ(s.pcie_only_pairs.size(), 2u);
  EXPECT_EQ(s.pcie_only_pairs[0], std::make_pair(0, 2));
  ASSERT_EQ(s.nic_affinity.size(), 3u);
  EXPECT_EQ(s.nic_affinity[0].path, "PIX");
  EXPECT_EQ(s.nic_affinity[0].nic_indices, std::vector<int>{3});
  EXPECT_EQ(s.nic_affinity[2].path, "PXB");
  EXPECT_EQ(s.nic_affinity[2].nic_indices, std::vector<int>{4});

  std::ostringstream out;
  RenderTopoText(m, "mixed", out);
  EXPECT_NE(out.str().find("not possible for 2 GPU pair(s), PCIe only: 0-2 1-2"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("NIC1 (mlx5_1) via PXB"), std::string::npos) << out.str();
}

TEST(DefaultNcclTransport, FollowsNcclP2pLevelDefaultPxb) {
  EXPECT_EQ(DefaultNcclTransport(TopoPathKind::kNvlink), TransportClass::kNVL);
  EXPECT_EQ(DefaultNcclTransport(TopoPathKind::kPix), TransportClass::kP2P);
  EXPECT_EQ(DefaultNcclTransport(TopoPathKind::kPxb), TransportClass::kP2P);
  EXPECT_EQ(DefaultNcclTransport(TopoPathKind::kPhb), TransportClass::kSHM);
  EXPECT_EQ(DefaultNcclTransport(TopoPathKind::kNode), TransportClass::kSHM);
  EXPECT_EQ(DefaultNcclTransport(TopoPathKind::kSys), TransportClass::kSHM);
}

TEST(RenderTopoJson, InvalidUtf8InNicLegendIsReplacedNotThrown) {
  std::string text = "\tGPU0\tNIC0\nGPU0\t X \tPIX\nNIC0\tPIX\t X \n\n  NIC0: mlx\x92\n";
  TopoMatrix m;
  ASSERT_TRUE(ParseTopoMatrix(text, &m).ok());
  std::ostringstream out;
  RenderTopoJson(m, "x", out);
  nlohmann::json j = nlohmann::json::parse(out.str(), nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["nics"].size(), 1u);
}

TEST(RunTopoCommand, UnknownFormatIsUsageError) {
  std::ostringstream out;
  Status st = RunTopoCommand({TestData("corpus/topo/h200x4-topo-m.txt"), "yaml"}, out);
  EXPECT_EQ(st.code(), Status::Code::kUsage);
}

TEST(RunTopoCommand, MissingFileIsNotFound) {
  std::ostringstream out;
  Status st = RunTopoCommand({TestData("corpus/topo/no-such-file.txt"), "text"}, out);
  EXPECT_EQ(st.code(), Status::Code::kNotFound);
  EXPECT_NE(st.message().find("no-such-file.txt"), std::string::npos);
}

TEST(RunTopoCommand, NonTopologyFileIsInvalidInputNamingThePath) {
  std::ostringstream out;
  std::string path = TestData("corpus/nccl-tests/h200x4-nccltests_allreduce.txt");
  Status st = RunTopoCommand({path, "text"}, out);
  EXPECT_EQ(st.code(), Status::Code::kInvalidInput);
  EXPECT_EQ(st.message().rfind(path, 0), 0u) << st.message();
}

}  // namespace
}  // namespace ncclscope
