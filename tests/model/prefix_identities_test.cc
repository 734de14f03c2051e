// PrefixIdentities (src/model/prefix_identities.h): whether a launcher's tag is a rank and a
// collector's pid the writer's, from the NCCL heads printed under them.
#include "model/prefix_identities.h"

#include <gtest/gtest.h>

namespace ncclscope {
namespace {

/// An NCCL line of (pid, dev) in input `source` behind `meta`.
EventContext Head(const LineMeta* meta, uint32_t pid, int dev, uint32_t source = 0) {
  EventContext ctx;
  ctx.source = source;
  ctx.host = "vm";
  ctx.pid = pid;
  ctx.dev = dev;
  ctx.meta = meta;
  return ctx;
}

LineMeta Tag(int task) {
  LineMeta m;
  m.launcher_rank = task;
  return m;
}

TEST(PrefixIdentities, TagOfOneProcessIsARank) {
  // `srun python train.py`: one task per rank.
  PrefixIdentities ids;
  const LineMeta t0 = Tag(0), t1 = Tag(1);
  for (int n = 0; n < 3; ++n) {
    ids.Note(0, Head(&t0, 848, 0));
    ids.Note(1, Head(&t1, 849, 1));
  }
  EXPECT_TRUE(ids.TagIsRank(0, 0));
  EXPECT_TRUE(ids.TagIsRank(0, 1));
  EXPECT_TRUE(ids.TagIsRank(0, 7));  // never seen: nothing says otherwise
}

TEST(PrefixIdentities, TagOfSeveralWorkersOnSeveralGpusIsANodesTask) {
  // `srun -l torchrun --nproc_per_node=4`: node 0's task tags all four workers.
  PrefixIdentities ids;
  const LineMeta t0 = Tag(0);
  for (int w = 0; w < 4; ++w) ids.Note(w, Head(&t0, 848 + w, w));
  EXPECT_FALSE(ids.TagIsRank(0, 0));
  EXPECT_TRUE(ids.TagIsRank(1, 0)) << "another input's tag 0 is its own";
}

TEST(PrefixIdentities, RestartedProcessOnTheSameGpuAndOneProcessOnSeveralGpusStayARank) {
  PrefixIdentities ids;
  const LineMeta t2 = Tag(2);
  ids.Note(0, Head(&t2, 900, 2));
  ids.Note(1, Head(&t2, 950, 2));  // an elastic restart: new pid, same GPU
  EXPECT_TRUE(ids.TagIsRank(0, 2));
  const LineMeta t3 = Tag(3);
  ids.Note(2, Head(&t3, 777, 0));
  ids.Note(2, Head(&t3, 777, 1));  // nccl-tests -g 2: one process drives two GPUs
  EXPECT_TRUE(ids.TagIsRank(0, 3));
}

TEST(PrefixIdentities, LauncherAgentUnderATagMakesItANodesTask) {
  // Only rank 0 printed NCCL lines before the job failed; torchrun's agent reports under the
  // same tag.
  PrefixIdentities ids;
  const LineMeta t3 = Tag(3);
  ids.Note(0, Head(&t3, 4040, 0));
  EXPECT_TRUE(ids.TagIsRank(0, 3));
  EventContext agent;
  agent.meta = &t3;
  ids.NoteAgent(agent);
  EXPECT_FALSE(ids.TagIsRank(0, 3));
}

TEST(PrefixIdentities, PytorchsOwnRankPrefixIsNeverJudged) {
  PrefixIdentities ids;
  LineMeta r0 = Tag(0);
  r0.launcher_rank_global = true;
  for (int w = 0; w < 2; ++w) ids.Note(w, Head(&r0, 848 + w, w));
  EventContext agent;
  agent.meta = &r0;
  ids.NoteAgent(agent);
  EXPECT_TRUE(ids.TagIsRank(0, 0));
}

TEST(PrefixIdentities, CollectorPidIsTheWriterOnlyWhenTheHeadsShareIt) {
  PrefixIdentities ids;
  LineMeta journald;
  journald.origin_pid = 4242;  // a service's main process (torchrun)
  ids.Note(0, Head(&journald, 848, 0));
  EXPECT_FALSE(ids.PidIsWriter(0, 4242));
  LineMeta ray;
  ray.origin_pid = 3985;  // Ray's `(RayWorkerWrapper pid=3985)`: the worker itself
  ids.Note(1, Head(&ray, 3985, 0));
  EXPECT_TRUE(ids.PidIsWriter(0, 3985));
  EXPECT_TRUE(ids.PidIsWriter(0, 1234)) << "a pid under no NCCL line is taken at its word";
}

}  // namespace
}  // namespace ncclscope
