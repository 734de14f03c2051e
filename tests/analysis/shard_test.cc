// summarize --shard K/N: contiguous ranges that together hold every input once, in order.
#include "ncclscope/analysis/shard.h"

#include <gtest/gtest.h>

namespace ncclscope {
namespace {

std::vector<InputPath> Inputs(int n) {
  std::vector<InputPath> v;
  for (int i = 0; i < n; ++i) v.push_back({std::to_string(i), std::to_string(i)});
  return v;
}

TEST(ShardTest, ParsesKOfN) {
  Shard s;
  ASSERT_TRUE(ParseShard("3/16", &s).ok());
  EXPECT_EQ(s.index, 3u);
  EXPECT_EQ(s.count, 16u);
  for (const char* bad : {"16/16", "1/0", "-1/4", "1", "a/b", "1/2/3", "/4", "1/", " 1/4"})
    EXPECT_FALSE(ParseShard(bad, &s).ok()) << bad;
}

TEST(ShardTest, ShardsPartitionTheInputsInOrder) {
  for (int m : {0, 1, 5, 64, 100}) {
    for (unsigned n : {1u, 3u, 8u, 64u, 150u}) {
      std::vector<std::string> joined;
      size_t largest = 0, smallest = SIZE_MAX;
      for (unsigned k = 0; k < n; ++k) {
        const auto part = ShardInputs(Inputs(m), Shard{k, n});
        largest = std::max(largest, part.size());
        smallest = std::min(smallest, part.size());
        for (const auto& p : part) joined.push_back(p.path);
      }
      std::vector<std::string> want;
      for (const auto& p : Inputs(m)) want.push_back(p.path);
      EXPECT_EQ(joined, want) << m << " inputs, " << n << " shards";
      EXPECT_LE(largest - smallest, 1u) << m << " inputs, " << n << " shards";
    }
  }
}

}  // namespace
}  // namespace ncclscope
