// Lines that mention NCCL without being an NCCL message, from CI and framework output: PyTorch's
// ProcessGroupNCCL option dump and test runners' lines are understood (known, carrying nothing),
// and look-alikes are not swallowed. Lines quoted from a public thread (pytorch/pytorch#76103).
#include <gtest/gtest.h>

#include <string>

#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

std::string_view FamilyOf(std::string_view line) {
  static testing::Parsed p;
  p = testing::ParseOne(line);
  if (const auto* n = std::get_if<KnownNoise>(&p.event.data)) return n->family;
  return EventTypeName(p.event.data);
}

TEST(FrameworkLineShapes, TorchOptionDumpIsKnownTorchOutput) {
  EXPECT_EQ(FamilyOf("NCCL_ASYNC_ERROR_HANDLING: 0"), "torch");
  EXPECT_EQ(FamilyOf("NCCL_DESYNC_DEBUG: 0"), "torch");
  EXPECT_EQ(FamilyOf("TORCH_NCCL_BLOCKING_WAIT: 1"), "torch");
}

TEST(FrameworkLineShapes, TestRunnerLinesAreKnownTestOutput) {
  EXPECT_EQ(FamilyOf("[ RUN      ] ProcessGroupNCCLTest.testAllreduce"), "test");
  EXPECT_EQ(FamilyOf("[----------] 11 tests from ProcessGroupNCCLTest"), "test");
  EXPECT_EQ(FamilyOf("152/152 Test #151: ProcessGroupNCCLTest ..............Bus "
                     "error***Exception:  60.53 sec"),
            "test");
}

TEST(FrameworkLineShapes, LookAlikesAreNotSwallowed) {
  // A sentence, not an option: still a line that mentions NCCL and is not understood.
  EXPECT_EQ(FamilyOf("NCCL_SOCKET_IFNAME: set it to the interface that routes between nodes"),
            "unrecognized");
  EXPECT_EQ(FamilyOf("[ RUN ] my NCCL check"), "unrecognized");
  // NCCL's own echo of a setting stays an env event.
  EXPECT_EQ(FamilyOf("vm:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0"),
            "env_setting");
}

}  // namespace
}  // namespace ncclscope
