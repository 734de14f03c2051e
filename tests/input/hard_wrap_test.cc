// A paste hard-wrapped at a fixed width, found and joined again (hard_wrap.cc, LineStream), and
// the logs of one width that are not wrapped. The wrapped pastes are real-world excerpts
// (testdata/real-world): prime-rl#1098 at 63 columns, VLM-R1#257 padded to 116.
#include "ncclscope/input/hard_wrap.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ncclscope/input/byte_source.h"
#include "ncclscope/input/line_stream.h"
#include "test_util.h"

namespace ncclscope {
namespace {

struct Read {
  std::vector<std::string> text;
  std::vector<uint64_t> number;
  InputDiagnostics diag;
};

Read ReadAll(std::string_view content) {
  LineStream stream(MemoryByteSource(content.data(), content.size()), 0);
  Read r;
  Line line;
  while (stream.Next(&line)) {
    r.text.emplace_back(line.text);
    r.number.push_back(line.number);
  }
  r.diag = stream.diagnostics();
  return r;
}

TEST(HardWrap, PasteWrappedAt63ColumnsIsJoinedAgain) {
  const std::string log = testing::ReadFileOrDie(
      testing::TestData("real-world/prime-rl-1098-wrapped-63col-internal-error-watchdog.log"));
  EXPECT_EQ(HardWrapWidth(log), 63u);
  const Read r = ReadAll(log);
  EXPECT_EQ(r.diag.wrap_width, 63u);
  EXPECT_GT(r.diag.rejoined_lines, 10u);
  bool watchdog = false;
  for (size_t i = 0; i < r.text.size(); ++i) {
    if (r.text[i].find("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=420, "
                       "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
                       "600071 milliseconds before timing out.") != std::string::npos) {
      watchdog = true;
      EXPECT_EQ(r.number[i], 13u) << "numbered as its first piece";
    }
  }
  EXPECT_TRUE(watchdog);
}

TEST(HardWrap, PastePaddedToItsWidthStopsAtThePadding) {
  const std::string log = testing::ReadFileOrDie(
      testing::TestData("real-world/vlm-r1-257-wrapped-heartbeat-watchdog-stuck-rank6.log"));
  const Read r = ReadAll(log);
  EXPECT_EQ(r.diag.wrap_width, 116u);
  ASSERT_EQ(r.text.size(), 3u);
  EXPECT_NE(r.text[0].find("ProcessGroupNCCL's watchdog got stuck for 480 seconds"),
            std::string::npos);
  EXPECT_EQ(r.text[1].find("[rank6]"), std::string::npos);  // the prefix was stripped
  EXPECT_EQ(r.number, (std::vector<uint64_t>{1, 9, 11}));
}

TEST(HardWrap, FirstLineWithAGluedBacktickCountsAtTheWrapWidth) {
  // OpenRLHF#265: a terminal cut Ray's output at 149 columns; the writer's markdown backtick
  // makes the first line 150 wide. Ray's worker-died message (with the node's IP) spans five.
  const std::string log = testing::ReadFileOrDie(testing::TestData(
      "real-world/openrlhf-265-terminal-wrapped-raylet-worker-died-10-0-1-75.log"));
  EXPECT_EQ(HardWrapWidth(log), 149u);
  const Read r = ReadAll(log);
  ASSERT_EQ(r.text.size(), 2u);
  EXPECT_NE(r.text[0].find("connection error code 2"), std::string::npos) << r.text[0];
  EXPECT_NE(r.text[1].find("Worker IP address: 10.0.1.75 Worker port: 10230"), std::string::npos)
      << r.text[1];
  EXPECT_EQ(r.number, (std::vector<uint64_t>{1, 4}));
}

TEST(HardWrap, BacktickOnALaterLineDoesNotShortenIt) {
  EXPECT_EQ(PasteLineWidth("```NCCL INFO x", true), 11u);
  EXPECT_EQ(PasteLineWidth("```NCCL INFO x", false), 14u);
  EXPECT_EQ(PasteLineWidth("````x\r", true), 2u);  // at most a fence's three
  EXPECT_EQ(PasteLineWidth("``", true), 0u);
}

TEST(HardWrap, ChannelLinesOfOneLengthAreNotAWrap) {
  std::string log;
  for (int c = 0; c < 16; ++c) {
    log += "gpu1:22901:22901 [0] NCCL INFO Channel " + std::string(c < 10 ? "0" : "") +
           std::to_string(c) + "/0 : 0[0] -> 1[0] [send] via NET/IB/4\n";
  }
  // The same lines with the host lost in the paste (`:22901:22901 [0] NCCL INFO ...`).
  std::string headless;
  for (int c = 0; c < 16; ++c) {
    headless += ":22901:22901 [0] NCCL INFO Channel " + std::string(c < 10 ? "0" : "") +
                std::to_string(c) + "/0 : 0[0] -> 1[0] [send] via NET/IB/4\n";
  }
  EXPECT_EQ(HardWrapWidth(log), 0u);
  EXPECT_EQ(HardWrapWidth(headless), 0u);
  EXPECT_EQ(ReadAll(log).text.size(), 16u);
}

TEST(HardWrap, TablesTreesAndRepeatedRecordsAreNotAWrap) {
  const std::string padded_table =
      "  traceback : Signal 11 (SIGSEGV) received by PID 3304209                            \n"
      "  time      : 2025-12-23_05:17:58                                                    \n"
      "  rank      : 0 (local_rank: 0)                                                      \n"
      "  host      : yotta-B200-232                                                         \n";
  const std::string records =
      "Rank  0 Group  0 Pid 544816 on    dgx01 device  0 [0x1a] NVIDIA H100 80GB HBM3\n"
      "Rank  0 Group  0 Pid 332597 on    dgx02 device  0 [0x1a] NVIDIA H100 80GB HBM3\n"
      "Rank  0 Group  0 Pid 332599 on    dgx02 device  0 [0x1a] NVIDIA H100 80GB HBM3\n"
      "Rank  0 Group  0 Pid 544818 on    dgx01 device  0 [0x1a] NVIDIA H100 80GB HBM3\n";
  const std::string tree =
      "               + NET[25.0] - NET/0 (0/0/25.000000)\n"
      "+ PCI[24.0] - PCI/8000 (10b5879610b58796)\n"
      "               + NET[25.0] - NET/1 (1/0/25.000000)\n"
      "+ SYS[10.0] - CPU/1\n"
      "               + NET[25.0] - NET/2 (2/0/25.000000)\n"
      "+ PCI[24.0] - PCI/88000 (10b5879610b58796)\n";
  // Lines of one width that precede other sentences, not the rest of a word.
  const std::string sentences =
      "Downloading http://yann.lecun.com/exdb/mnist/train-images-idx3-ubyte.gz to x/a.gz\n"
      "Extracting ../data/MNIST/raw/train-images-idx3-ubyte.gz\n"
      "Downloading http://yann.lecun.com/exdb/mnist/train-labels-idx1-ubyte.gz to x/b.gz\n"
      "Extracting ../data/MNIST/raw/train-labels-idx1-ubyte.gz\n"
      "Downloading http://yann.lecun.com/exdb/mnist/t10k-images-idx3-ubyte.gz to x/c.gz\n"
      "Extracting ../data/MNIST/raw/t10k-images-idx3-ubyte.gz\n";
  for (const std::string& text : {padded_table, records, tree, sentences}) {
    EXPECT_EQ(HardWrapWidth(text), 0u) << text;
  }
}

TEST(HardWrap, LineStartsAndContinuations) {
  for (std::string_view start :
       {"", "[rank18]:[E1013 11:12:31.455734215 ProcessGroupNCCL.cpp:746] x",
        "host:12:34 [0] NCCL INFO x", "W1013 11:12:31.439000 2742992 torch/x.py:900] y",
        "2024-01-01 12:00:00 x", "12:00:00 x", "3: x", "Traceback (most recent call last):",
        "RuntimeError: NCCL error", "  File \"x.py\", line 1, in f", "frame #0: c10::Error",
        "ERROR 08-05 14:13:44 [x.py:1] y", " .. g0010 pid 888386: Test failure common.cu:891",
        "------------", "+ PCI[24.0] - GPU/5000 (1)", "node7: text"}) {
    EXPECT_TRUE(LooksLikeLineStart(start)) << start;
  }
  for (std::string_view rest :
       {"ank 18] Some NCCL operations have failed or timed out. Due to t", "TERM",
        ", NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600071 mil",
        "ocessing/api.py:900] Sending process 2750548 closing signal SIG",
        "3.12/site-packages/torch/lib/libc10.so)", " of aforementioned helps, feel free"}) {
    EXPECT_FALSE(LooksLikeLineStart(rest)) << rest;
  }
}

TEST(HardWrap, WordCutBeforeItsColonContinuesTheLine) {
  // vllm#7297: wrapped at 137 columns inside "CUDA error:"; the rest alone looks like a tag.
  EXPECT_TRUE(ContinuesLine(
      "[rank1]:[E809 03:03:43.068019177 ProcessGroupNCCL.cpp:1515] [PG 3 Rank 1] Process group "
      "watchdog thread terminated with exception: CUDA e",
      "rror: an illegal memory access was encountered"));
  EXPECT_TRUE(ContinuesLine("    raise torch.distributed.DistBackendErr",
                            "or: NCCL error in: ProcessGroupNCCL.cpp:1970"));
  // A rest that is a whole error name by itself starts a line: PyTorch prints the error's name
  // under its `NCCL version` (the widest lines of a small log, all followed by it), and a cut
  // before `Error` itself (`Runtim` `eError: `) cannot be told from it.
  EXPECT_FALSE(ContinuesLine(
      "torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:93, unhandled system "
      "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.28.9",
      "ncclSystemError: System call (e.g. socket, malloc) or external library call failed"));
  EXPECT_FALSE(ContinuesLine("ValueError: something went wrong and then Runtim",
                             "eError: NCCL communicator was aborted"));
  // A tag or a word of its own after a line that ends in a whole word or a blank: a new line.
  EXPECT_FALSE(ContinuesLine("the last line of something that ended at the width.",
                             "srun: error: task 3: Killed"));
  EXPECT_FALSE(
      ContinuesLine("a line cut inside a word that is not one of an error: foo ba", "r: baz"));
  EXPECT_FALSE(ContinuesLine("x ", "rror: y"));
}

TEST(HardWrap, PasteWrappedInsideAnErrorWordKeepsTheMessage) {
  // vllm#7297 (the watchdog's first line and the continuation, then a wrapped stack), as the
  // paste has it: the exception text is joined whole.
  const std::string log =
      "[rank1]:[E809 03:03:43.068019177 ProcessGroupNCCL.cpp:1515] [PG 3 Rank 1] Process group "
      "watchdog thread terminated with exception: CUDA e\n"
      "rror: an illegal memory access was encountered\n"
      "CUDA kernel errors might be asynchronously reported at some other API call, so the "
      "stacktrace below might be incorrect.\n"
      "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
      "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
      "\n"
      "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 "
      "(most recent call first):\n"
      "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f5eb36fcf86 in "
      "/usr/local/lib/python3.10/dist-packages/torch/lib\n"
      "/libc10.so)\n"
      "frame #1: c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string "
      "const&) + 0x64 (0x7f5eb36abd10 in /usr/local/li\n"
      "b/python3.10/dist-packages/torch/lib/libc10.so)\n"
      "frame #2: c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, "
      "bool) + 0x118 (0x7f5eb37d7f08 in /usr/local/lib/py\n"
      "thon3.10/dist-packages/torch/lib/libc10_cuda.so)\n";
  EXPECT_EQ(HardWrapWidth(log), 137u);
  const Read r = ReadAll(log);
  ASSERT_FALSE(r.text.empty());
  EXPECT_NE(r.text[0].find("exception: CUDA error: an illegal memory access was encountered"),
            std::string::npos)
      << r.text[0];
}

TEST(HardWrap, PipeOfUnknownSizeIsReadAsItIs) {
  // A source without a size (a pipe) is never buffered ahead: its lines stay as they are.
  class Pipe : public ByteSource {
   public:
    explicit Pipe(std::string s) : s_(std::move(s)) {}
    Status Read(char* buf, size_t cap, size_t* n) override {
      *n = std::min(cap, s_.size() - pos_);
      std::copy_n(s_.data() + pos_, *n, buf);
      pos_ += *n;
      return Status::Ok();
    }
    int64_t SizeHint() const override { return -1; }

   private:
    std::string s_;
    size_t pos_ = 0;
  };
  const std::string log = testing::ReadFileOrDie(
      testing::TestData("real-world/prime-rl-1098-wrapped-63col-internal-error-watchdog.log"));
  LineStream stream(std::make_unique<Pipe>(log), 0);
  Line line;
  size_t n = 0;
  while (stream.Next(&line)) ++n;
  EXPECT_EQ(n, 24u);
  EXPECT_EQ(stream.diagnostics().wrap_width, 0u);
}

}  // namespace
}  // namespace ncclscope
