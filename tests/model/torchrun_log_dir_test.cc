// ParseTorchrunLogDirPath (src/model/torchrun_log_dir.h): torchrun --log-dir's per-attempt,
// per-rank files (testdata/corpus/h200x1-failures/restart_*_logdir.d).
#include "model/torchrun_log_dir.h"

#include <gtest/gtest.h>

namespace ncclscope {
namespace {

TEST(TorchrunLogDir, AttemptAndLocalRankOfAWorkersFile) {
  const TorchrunLogDirFile f =
      ParseTorchrunLogDirPath("/tmp/ld/none_mdt1snlt/attempt_1/0/stderr.log");
  EXPECT_EQ(f.attempt, 1);
  EXPECT_EQ(f.local_rank, 0);
  const TorchrunLogDirFile g = ParseTorchrunLogDirPath("attempt_12/7/stdout.log");
  EXPECT_EQ(g.attempt, 12);
  EXPECT_EQ(g.local_rank, 7);
  EXPECT_EQ(ParseTorchrunLogDirPath("x/attempt_0/3/error.json").local_rank, 3);
}

TEST(TorchrunLogDir, OtherPathsSayNothing) {
  for (const char* path : {"nccl.vm.470.log", "logs/attempt_1/train.log",
                           "logs/attempt_x/0/stdout.log", "logs/my_attempt_1/0/stdout.log",
                           "attempt_1/0/more/stdout.log", "attempt_1/rank0/stdout.log"}) {
    const TorchrunLogDirFile f = ParseTorchrunLogDirPath(path);
    EXPECT_EQ(f.attempt, -1) << path;
    EXPECT_EQ(f.local_rank, -1) << path;
  }
}

}  // namespace
}  // namespace ncclscope
