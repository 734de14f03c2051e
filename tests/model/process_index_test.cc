// ProcessIndex: a finished job's processes by global rank and by hostname:pid.
#include "ncclscope/model/process_index.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace ncclscope {
namespace {

Process Proc(std::string host, uint32_t pid, int rank) {
  Process p;
  p.hostname = std::move(host);
  p.pid = pid;
  p.global_rank = rank;
  return p;
}

TEST(ProcessIndex, RankNamesTheFirstProcessWithIt) {
  Job job;
  job.processes = {Proc("node-a", 11, 0), Proc("node-a", 12, 1), Proc("node-b", 13, 1),
                   Proc("node-b", 14, -1)};
  const ProcessIndex index(job);
  EXPECT_EQ(index.OfRank(0), 0);
  EXPECT_EQ(index.OfRank(1), 1);  // a restarted rank 1 on node-b comes later
  EXPECT_EQ(index.OfRank(2), -1);
  EXPECT_EQ(index.OfRank(-1), -1);
}

TEST(ProcessIndex, SamePidOnEveryHostIsToldApartByHostname) {
  // Containers: every rank is pid 1 of its own pod.
  Job job;
  job.processes = {Proc("pod-0", 1, 0), Proc("pod-1", 1, 1), Proc("pod-2", 1, 2)};
  const ProcessIndex index(job);
  EXPECT_EQ(index.OfHostPid("pod-1", 1), 1);
  EXPECT_EQ(index.OfHostPid("pod-2", 1), 2);
  EXPECT_EQ(index.OfHostPid("pod-3", 1), -1);
  EXPECT_EQ(index.OfHostPid("pod-1", 2), -1);
  EXPECT_EQ(index.OfHostPid("pod", 11), -1);  // not "pod-1" + "1"
}

}  // namespace
}  // namespace ncclscope
