// An application's own NCCL check that throws: "terminate called after throwing an instance of
// 'std::runtime_error'" and, a few lines on (processes that abort together interleave), its
// `what():  NCCL failure: unhandled cuda error in x.cu at line: 86 rank: 0`. The what() line is
// understood, gives its terminate the text and the rank, and the abort is that NCCL error's
// (nccl-error), not a crash. Lines quoted from a public thread (baidu-research/DeepBench#97).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "parse/parse_test_util.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::Has;

constexpr std::string_view kTwoRanksAbort =
    "terminate called after throwing an instance of 'std::runtime_error'\n"
    "terminate called after throwing an instance of 'std::runtime_error'\n"
    "  what():  NCCL failure: unhandled cuda error in nccl_mpi_all_reduce.cu at line: 86 rank: 0\n"
    "\n"
    "[jetson-3:29969] *** Process received signal ***\n"
    "[jetson-3:29969] Signal: Aborted (6)\n"
    "[jetson-3:29969] Signal code:  (-6)\n"
    "  what():  NCCL failure: unhandled cuda error in nccl_mpi_all_reduce.cu at line: 86 rank: 1\n"
    "\n"
    "[jetson-2:08669] *** Process received signal ***\n"
    "[jetson-2:08669] Signal: Aborted (6)\n";

TEST(CppWhat, WhatLineNamingNcclIsUnderstood) {
  const testing::Parsed p = testing::ParseOne(
      "  what():  NCCL failure: unhandled cuda error in nccl_mpi_all_reduce.cu at line: 86 "
      "rank: 0");
  ASSERT_EQ(EventTypeName(p.event.data), "traceback");
  const auto& tb = std::get<Traceback>(p.event.data);
  EXPECT_EQ(tb.kind, TracebackKind::kCppWhat);
  EXPECT_TRUE(tb.message.starts_with("NCCL failure: unhandled cuda error")) << tb.message;
}

TEST(CppWhat, WatchdogWhatLineStaysTheWatchdogs) {
  const testing::Parsed p = testing::ParseOne(
      "  what():  [PG ID 0 PG GUID 0(default_pg) Rank 0] Process group watchdog thread terminated "
      "with exception: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, "
      "OpType=ALLREDUCE, NumelIn=16, NumelOut=16, Timeout(ms)=20000) ran for 20095 milliseconds "
      "before timing out.");
  EXPECT_EQ(EventTypeName(p.event.data), "watchdog_timeout");
}

TEST(CppWhat, OwnNcclCheckAbortIsAnNcclErrorOfTheRanksItNames) {
  const AnalysisResult r = AnalyzeText(std::string(kTwoRanksAbort));
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "nccl-error");
  std::vector<int> ranks;
  for (const Culprit& k : c.culprits) ranks.push_back(k.rank);
  EXPECT_EQ(ranks, (std::vector<int>{0, 1}));
  EXPECT_TRUE(Has(c.what, "unhandled cuda error")) << c.what;
  EXPECT_EQ(r.job.stats.mention_lines - r.job.stats.unrecognized_mentions, 2u);
  const Finding* cuda = testing::FindingOf(r, "cuda-error");
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->severity, Severity::kError);
}

TEST(CppWhat, TerminateWithoutNcclTextStaysACrash) {
  const AnalysisResult r = AnalyzeText(
      "terminate called after throwing an instance of 'std::bad_alloc'\n"
      "  what():  std::bad_alloc\n");
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "crash-signal");
}

}  // namespace
}  // namespace ncclscope
