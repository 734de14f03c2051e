// The families the eighth held-out round of public logs exposed (docs/triage.md): lines verbatim
// from the threads named, each with the case where the rule must stay quiet.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;

TEST(FieldRound8, KernelsThatNeedMoreSharedMemoryThanTheGpuHasAreACudaError) {
  // NVIDIA/nccl#1637: NCCL 2.25.1 on two GeForce RTX 5090 (INFO level in 2.25).
  AnalysisResult r = AnalyzeText(
      "localhost:11344:11344 [1] NCCL INFO NCCL version 2.25.1+cuda12.2\n"
      "localhost:11344:11344 [1] NCCL INFO ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem "
      "79856\n");
  EXPECT_EQ(r.job.stats.unrecognized, 0u);
  const Finding* f = FindingOf(r, "cuda-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->title.find("shared memory"), std::string::npos) << f->title;
  // Later NCCL and RCCL put the architecture in front, at WARN.
  AnalysisResult warn = AnalyzeText(
      "ctr-12:293414:293414 [4] enqueue.cc:129 NCCL WARN cudaArch 940 ncclMaxSharedMem 32832 "
      "exceeds device/fn maxSharedMem 32768\n");
  ASSERT_NE(FindingOf(warn, "cuda-error"), nullptr);
}

TEST(FieldRound8, ASocketOfAnUnsupportedAddressFamilyIsAConnectionError) {
  // NVIDIA/nccl#224, under mpirun's tags.
  AnalysisResult r = AnalyzeText(
      "[1,4]<stdout>:gpu7:4105:4372 [0] include/socket.h:318 NCCL WARN Net : Socket creation "
      "failed : Address family not supported by protocol\n"
      "[1,4]<stdout>:gpu7:4105:4372 [0] NCCL INFO transport/net_ib.cu:407 -> 2\n");
  const Finding* f = FindingOf(r, "connection-error");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->fix.find("NCCL_SOCKET_IFNAME"), std::string::npos);
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNetwork);
}

TEST(FieldRound8, AnInfoLineAboutSharedMemorySizesWithoutTheFailureStaysQuiet) {
  AnalysisResult r = AnalyzeText(
      "localhost:11344:11344 [1] NCCL INFO ncclMaxSharedMem 82240 within device maxSharedMem "
      "99000\n");
  EXPECT_EQ(FindingOf(r, "cuda-error"), nullptr);
}

}  // namespace
}  // namespace ncclscope
