// vLLM's multiprocess executor reports the worker that died ("Worker proc VllmWorker-1 died
// unexpectedly, shutting down executor."); the other workers then end because their parent
// did. The dead worker is the root cause (process-killed, medium confidence: no exit code or
// signal is printed). Lines quoted from a public thread (vllm-project/vllm#23582).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "parse/parse_test_util.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::OneCulprit;

constexpr std::string_view kWorker1Died =
    "(EngineCore_0 pid=271) ERROR 08-25 12:24:19 [multiproc_executor.py:146] Worker proc "
    "VllmWorker-1 died unexpectedly, shutting down executor.\n"
    "(VllmWorker TP0 pid=405) INFO 08-25 12:24:19 [multiproc_executor.py:520] Parent process "
    "exited, terminating worker\n"
    "(VllmWorker TP2 pid=407) INFO 08-25 12:24:19 [multiproc_executor.py:520] Parent process "
    "exited, terminating worker\n";

TEST(VllmWorkerDied, ExecutorLineIsTheWorkersEnd) {
  const auto e = testing::ParseAs<ProcessExit>(
      "ERROR 08-25 12:24:19 [multiproc_executor.py:146] Worker proc VllmWorker-3 died "
      "unexpectedly, shutting down executor.");
  EXPECT_EQ(e.reporter, ExitReporter::kVllm);
  EXPECT_EQ(e.rank, 3);
}

TEST(VllmWorkerDied, DeadWorkerIsTheRootCauseWithMediumConfidence) {
  const AnalysisResult r = AnalyzeText(std::string(kWorker1Died));
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "process-killed");
  EXPECT_EQ(ConfidenceName(c.confidence), "medium");
  EXPECT_TRUE(OneCulprit(r, 1));
}

TEST(VllmWorkerDied, OtherWorkerMessagesAreNoEnd) {
  const testing::Parsed p = testing::ParseOne(
      "ERROR 08-25 12:24:19 [multiproc_executor.py:146] Worker proc VllmWorker-x died "
      "unexpectedly, shutting down executor.");
  EXPECT_NE(EventTypeName(p.event.data), "process_exit");
}

}  // namespace
}  // namespace ncclscope
