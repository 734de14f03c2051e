// PyTorch's lines about how a process leaves and where its failed collective was called (real
// lines of testdata/corpus/h200x1-failures and h200x2-failures, PyTorch 2.11): the exit warning
// of ProcessGroupNCCL's destructor, and the flight recorder's Python stack of the failed work.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

using testing::ParseOne;

const FrameworkEvent* Framework(const testing::Parsed& p) {
  return std::get_if<FrameworkEvent>(&p.event.data);
}

TEST(ProcessLeaveLines, ExitWithoutDestroyWarningCarriesItsRankTag) {
  auto p = ParseOne(
      "[rank1]:[W1127 14:17:11.581369373 ProcessGroupNCCL.cpp:1575] Warning: WARNING: "
      "destroy_process_group() was not called before program exit, which can leak resources. "
      "For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown "
      "(function operator())");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  const FrameworkEvent* f = Framework(p);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->kind, FrameworkKind::kExitWithoutDestroy);
  EXPECT_EQ(p.event.ctx.torch_rank, 1);
  // Without the tag (a single-process log) it is still the exit warning.
  auto q = ParseOne(
      "[W1127 14:16:53.083789220 ProcessGroupNCCL.cpp:1575] Warning: WARNING: "
      "destroy_process_group() was not called before program exit, which can leak resources.");
  ASSERT_NE(Framework(q), nullptr);
  EXPECT_EQ(Framework(q)->kind, FrameworkKind::kExitWithoutDestroy);
}

TEST(ProcessLeaveLines, StackTraceHeaderOfTheFailedCollective) {
  auto p = ParseOne(
      "[rank1]:[E1127 14:33:52.644403571 ProcessGroupNCCL.cpp:733] Stack trace of the failed "
      "collective: ");
  ASSERT_NE(Framework(p), nullptr);
  EXPECT_EQ(Framework(p)->kind, FrameworkKind::kCollectiveStack);
  // The flight recorder disabled: no stack follows, only a dump message.
  auto q = ParseOne(
      "[rank5]:[E626 16:48:36.123456789 ProcessGroupNCCL.cpp:733] Stack trace of the failed "
      "collective not found, potentially because FlightRecorder is disabled. You can enable it "
      "by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.");
  ASSERT_NE(Framework(q), nullptr);
  EXPECT_EQ(Framework(q)->kind, FrameworkKind::kDumpSignal);
}

TEST(ProcessLeaveLines, FlightRecorderFramesAreReadWithTheirNumber) {
  auto p = ParseOne(
      "#0 barrier from /opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/"
      "distributed_c10d.py:5030");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  ASSERT_NE(Framework(p), nullptr);
  EXPECT_EQ(Framework(p)->kind, FrameworkKind::kCollectiveFrame);
  EXPECT_EQ(Framework(p)->seq, 0);
  EXPECT_EQ(Framework(p)->detail,
            "barrier from /opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/"
            "distributed_c10d.py:5030");
  auto q = ParseOne("#2 main from /work/main/gpu-logs/wl.py:139");
  ASSERT_NE(Framework(q), nullptr);
  EXPECT_EQ(Framework(q)->seq, 2);
  EXPECT_EQ(Framework(q)->detail, "main from /work/main/gpu-logs/wl.py:139");
  auto m = ParseOne("#5 <module> from /work/main/gpu-logs/wl.py:146");
  ASSERT_NE(Framework(m), nullptr);
  EXPECT_EQ(Framework(m)->kind, FrameworkKind::kCollectiveFrame);
}

TEST(ProcessLeaveLines, OtherNumberedLinesAreNoFrames) {
  // gdb's frames, a markdown heading, C++'s "frame #N:" and a frame without its line number.
  for (std::string_view line :
       {"#0  0x00007f3c2b8d1b2d in __GI___poll (fds=0x55, nfds=1, timeout=-1) at poll.c:29",
        "#1 0x00007f3c2b8d1b2d in ncclProxyService () from /usr/lib/libnccl.so.2", "# Results",
        "#3 main from /work/train.py", "#4 main from /work/train.py:12 extra"}) {
    auto p = ParseOne(line);
    const FrameworkEvent* f = Framework(p);
    EXPECT_TRUE(f == nullptr || f->kind != FrameworkKind::kCollectiveFrame) << line;
  }
}

}  // namespace
}  // namespace ncclscope
