#include "ncclscope/topo/topo_matrix.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace ncclscope {
namespace {

using ::ncclscope::testing::ReadFileOrDie;
using ::ncclscope::testing::TestData;

TopoMatrix ParseFileOrFail(const char* relative) {
  TopoMatrix m;
  Status st = ParseTopoMatrix(ReadFileOrDie(TestData(relative)), &m);
  EXPECT_TRUE(st.ok()) << st.message();
  return m;
}

// Constructed in the format of nvidia-smi 535+ on a host with NICs (tabs, ANSI header, NIC rows
// without affinity columns, NIC legend); no such real file is in the corpus.
constexpr char kTwoGpuTwoNic[] =
    "\t\x1b[4mGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n"
    "GPU0\t X \tNV12\tPXB\tSYS\t0-23,48-71\t0\t\tN/A\n"
    "GPU1\tNV12\t X \tSYS\tPIX\t24-47,72-95\t1\t\tN/A\n"
    "NIC0\tPXB\tSYS\t X \tSYS\t\t\t\t\n"
    "NIC1\tSYS\tPIX\tSYS\t X \t\t\t\t\n"
    "\n"
    "Legend:\n\n"
    "  X    = Self\n"
    "  NV#  = Connection traversing a bonded set of # NVLinks\n\n"
    "NIC Legend:\n\n"
    "  NIC0: mlx5_0\n"
    "  NIC1: mlx5_1\n";

TEST(ParseTopoMatrix, H200x4HasFourGpusAllNv18) {
  TopoMatrix m = ParseFileOrFail("corpus/topo/h200x4-topo-m.txt");
  EXPECT_EQ(m.GpuCount(), 4);
  EXPECT_EQ(m.NicCount(), 0);
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      if (a == b) {
        EXPECT_EQ(m.PathString(a, b), "X");
        EXPECT_FALSE(m.HasNvlink(a, b));
      } else {
        EXPECT_EQ(m.PathString(a, b), "NV18");
        EXPECT_EQ(m.NvlinkCount(a, b), 18);
      }
    }
  }
  EXPECT_EQ(m.devices[0].cpu_affinity, "0-63");
  EXPECT_EQ(m.devices[0].numa_affinity, "0");
  EXPECT_EQ(m.devices[0].gpu_numa_id, "N/A");
}

TEST(ParseTopoMatrix, P4dHasEightGpusNv12AndTwoNumaNodes) {
  TopoMatrix m = ParseFileOrFail("corpus/topo/seed002-p4d.24xlarge-topo-m.txt");
  EXPECT_EQ(m.GpuCount(), 8);
  EXPECT_EQ(m.NvlinkCount(0, 7), 12);
  EXPECT_EQ(m.NvlinkCount(5, 2), 12);
  EXPECT_EQ(m.devices[3].cpu_affinity, "0-23,48-71");
  EXPECT_EQ(m.devices[4].cpu_affinity, "24-47,72-95");
  EXPECT_EQ(m.devices[4].numa_affinity, "1");
}

TEST(ParseTopoMatrix, P5HasEightGpusNv18) {
  TopoMatrix m = ParseFileOrFail("corpus/topo/seed002-p5.48xlarge-topo-m.txt");
  EXPECT_EQ(m.GpuCount(), 8);
  EXPECT_EQ(m.NvlinkCount(1, 6), 18);
  EXPECT_EQ(m.devices[7].cpu_affinity, "48-95,144-191");
}

TEST(ParseTopoMatrix, G6eIsPcieOnlyNode) {
  TopoMatrix m = ParseFileOrFail("corpus/topo/seed002-g6e.12xlarge-topo-m.txt");
  EXPECT_EQ(m.GpuCount(), 4);
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      EXPECT_FALSE(m.HasNvlink(a, b));
      EXPECT_EQ(m.NvlinkCount(a, b), std::nullopt);
      if (a != b) {
        EXPECT_EQ(m.GpuPath(a, b)->kind, TopoPathKind::kNode);
      }
    }
  }
}

TEST(ParseTopoMatrix, AnsiTabsAndNicLegendAreParsed) {
  TopoMatrix m;
  ASSERT_TRUE(ParseTopoMatrix(kTwoGpuTwoNic, &m).ok());
  ASSERT_EQ(m.devices.size(), 4u);
  EXPECT_EQ(m.GpuCount(), 2);
  EXPECT_EQ(m.NicCount(), 2);
  EXPECT_EQ(m.NvlinkCount(0, 1), 12);
  EXPECT_EQ(m.devices[2].nic_name, "mlx5_0");
  EXPECT_EQ(m.devices[3].nic_name, "mlx5_1");
  EXPECT_EQ(m.paths[0][2].kind, TopoPathKind::kPxb);
  EXPECT_EQ(m.paths[1][3].kind, TopoPathKind::kPix);
  EXPECT_EQ(m.devices[1].cpu_affinity, "24-47,72-95");
  EXPECT_EQ(m.devices[1].numa_affinity, "1");
  EXPECT_EQ(m.devices[1].gpu_numa_id, "N/A");
  EXPECT_TRUE(m.devices[2].cpu_affinity.empty());
}

TEST(ParseTopoMatrix, MissingNicRowsAreFilledFromGpuRows) {
  std::string text =
      "        GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity\n"
      "GPU0     X      PHB     PIX     0-7     0\n"
      "GPU1    PHB      X      SYS     8-15    1\n";
  TopoMatrix m;
  Status st = ParseTopoMatrix(text, &m);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.paths[2][0].text, "PIX");
  EXPECT_EQ(m.paths[2][1].text, "SYS");
  EXPECT_EQ(m.paths[2][2].text, "X");
  EXPECT_EQ(m.PathString(0, 1), "PHB");
}

TEST(ParseTopoMatrix, OldStyleNicLabelsAndSocAreAccepted) {
  std::string text =
      "\tGPU0\tGPU1\tmlx5_0\tCPU Affinity\n"
      "GPU0\t X \tSOC\tPHB\t0-11\n"
      "GPU1\tSOC\t X \tSOC\t12-23\n"
      "mlx5_0\tPHB\tSOC\t X \t\n";
  TopoMatrix m;
  ASSERT_TRUE(ParseTopoMatrix(text, &m).ok());
  EXPECT_EQ(m.NicCount(), 1);
  EXPECT_EQ(m.devices[2].nic_name, "mlx5_0");
  EXPECT_EQ(m.GpuPath(0, 1)->kind, TopoPathKind::kSys);
  EXPECT_EQ(m.GpuPath(0, 1)->text, "SOC");
}

TEST(ParseTopoMatrix, CrlfLineEndingsAreAccepted) {
  std::string text = "\tGPU0\tGPU1\r\nGPU0\t X \tNV4\r\nGPU1\tNV4\t X \r\n";
  TopoMatrix m;
  ASSERT_TRUE(ParseTopoMatrix(text, &m).ok());
  EXPECT_EQ(m.NvlinkCount(1, 0), 4);
}

TEST(ParseTopoMatrix, GarbageIsInvalidInput) {
  TopoMatrix m;
  Status st = ParseTopoMatrix("hello world\nthis is not a topology\n", &m);
  EXPECT_EQ(st.code(), Status::Code::kInvalidInput);
  EXPECT_NE(st.message().find("GPU0"), std::string::npos);
  EXPECT_FALSE(ParseTopoMatrix("", &m).ok());
  EXPECT_FALSE(ParseTopoMatrix(std::string("\x1b[", 2), &m).ok());
  EXPECT_FALSE(ParseTopoMatrix(std::string("\0\0GPU0\0", 7), &m).ok());
}

TEST(ParseTopoMatrix, BadCellIsInvalidInputNamingTheCell) {
  std::string text = "\tGPU0\tGPU1\nGPU0\t X \tNVX\nGPU1\tNV4\t X \n";
  TopoMatrix m;
  Status st = ParseTopoMatrix(text, &m);
  EXPECT_EQ(st.code(), Status::Code::kInvalidInput);
  EXPECT_NE(st.message().find("'NVX'"), std::string::npos) << st.message();
}

TEST(ParseTopoMatrix, ShortRowIsInvalidInput) {
  std::string text = "\tGPU0\tGPU1\nGPU0\t X\nGPU1\tNV4\t X \n";
  TopoMatrix m;
  Status st = ParseTopoMatrix(text, &m);
  EXPECT_EQ(st.code(), Status::Code::kInvalidInput);
  EXPECT_NE(st.message().find("row GPU0 has 1 cells"), std::string::npos) << st.message();
}

TEST(ParseTopoMatrix, MissingGpuRowIsInvalidInput) {
  std::string text = "\tGPU0\tGPU1\nGPU0\t X \tNV4\n";
  TopoMatrix m;
  Status st = ParseTopoMatrix(text, &m);
  EXPECT_EQ(st.code(), Status::Code::kInvalidInput);
  EXPECT_NE(st.message().find("GPU1 is missing"), std::string::npos) << st.message();
}

TEST(TopoMatrixHelpers, OutOfRangeGpusAreNotNvlink) {
  TopoMatrix m = ParseFileOrFail("corpus/topo/h200x4-topo-m.txt");
  EXPECT_FALSE(m.HasNvlink(0, 4));
  EXPECT_FALSE(m.HasNvlink(-1, 0));
  EXPECT_EQ(m.NvlinkCount(0, 9), std::nullopt);
  EXPECT_EQ(m.PathString(7, 0), "");
}

TEST(PathMeaning, NamesEveryPathKind) {
  EXPECT_NE(PathMeaning("NV18").find("NVLink"), std::string_view::npos);
  EXPECT_NE(PathMeaning("PIX").find("one PCIe switch"), std::string_view::npos);
  EXPECT_NE(PathMeaning("PXB").find("several PCIe switches"), std::string_view::npos);
  EXPECT_NE(PathMeaning("PHB").find("host bridge"), std::string_view::npos);
  EXPECT_NE(PathMeaning("NODE").find("NUMA node"), std::string_view::npos);
  EXPECT_NE(PathMeaning("SYS").find("NUMA nodes"), std::string_view::npos);
  EXPECT_EQ(PathMeaning("SOC"), PathMeaning("SYS"));
  EXPECT_EQ(PathMeaning("bogus"), "unknown path");
}

TEST(ParseTopoPath, RejectsMalformedNvlinkCells) {
  EXPECT_FALSE(ParseTopoPath("NV").has_value());
  EXPECT_FALSE(ParseTopoPath("NV0").has_value());
  EXPECT_FALSE(ParseTopoPath("NV-2").has_value());
  EXPECT_FALSE(ParseTopoPath("NV2x").has_value());
  EXPECT_EQ(ParseTopoPath("NV2")->nvlinks, 2);
}

}  // namespace
}  // namespace ncclscope
