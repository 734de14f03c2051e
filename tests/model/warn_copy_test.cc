// PyTorch repeats an NCCL WARN after "Last error:" (and torchelastic's table repeats it again):
// one incident, not one per copy. Real lines: h200x1-failures/restartkill_c10d.log, whose second
// attempt's rank 1 warns "socketPollConnect: connect to 192.0.2.2<33495> returned Connection
// refused, exceeded error retry count after 35 attempts" (line 174), PyTorch copies it (line 206)
// and the failure table once more (line 268).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope {
namespace {

constexpr std::string_view kWarn = "exceeded error retry count after 35 attempts";

int WarnIncidents(const AnalysisResult& r) {
  int n = 0;
  for (const Incident& i : r.job.incidents.incidents) {
    n += i.kind == IncidentKind::kNcclWarn && i.message.find(kWarn) != std::string_view::npos;
  }
  return n;
}

std::string Log() {
  return testing::ReadFileOrDie(testing::TestData("corpus/h200x1-failures/restartkill_c10d.log"));
}

TEST(WarnCopies, PyTorchsLastErrorCopyOfAWarnIsNotASecondIncident) {
  const AnalysisResult r = AnalyzeText(Log());
  EXPECT_EQ(WarnIncidents(r), 1);
}

TEST(WarnCopies, ACopyWithoutItsWarnInTheInputIsTheIncident) {
  // The same log without NCCL's WARN line (an excerpt of PyTorch's output only): the copy
  // after "Last error:" is what there is, and is recorded.
  std::string text = Log();
  const size_t at = text.find("[2026-11-27 17:22:56] vm:927:927 [0] misc/socket.cc:583 NCCL WARN");
  ASSERT_NE(at, std::string::npos);
  text.erase(at, text.find('\n', at) - at + 1);
  const AnalysisResult r = AnalyzeText(text);
  EXPECT_EQ(WarnIncidents(r), 1);
}

}  // namespace
}  // namespace ncclscope
