#include "ncclscope/base/flat_int_set.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

namespace ncclscope {
namespace {

TEST(FlatIntSet, BehavesLikeStdSetForAnyInsertionOrder) {
  const std::vector<int> inserts = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, -7, 63, 0, 0, 64, 8};
  FlatIntSet flat;
  std::set<int> ref;
  for (int v : inserts) {
    EXPECT_EQ(flat.insert(v), ref.insert(v).second) << v;
    EXPECT_EQ(flat.size(), ref.size());
  }
  EXPECT_EQ(std::vector<int>(flat.begin(), flat.end()), std::vector<int>(ref.begin(), ref.end()));
  for (int v = -10; v < 70; ++v) EXPECT_EQ(flat.count(v), ref.count(v)) << v;
}

TEST(FlatIntSet, InitializerListAndEquality) {
  FlatIntSet a = {2, 0, 1, 2};
  FlatIntSet b;
  for (int v = 0; v < 3; ++v) b.insert(v);
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(FlatIntSet{}.empty());
}

// The memberships that hold a comm pointer are a FlatIntSet: inserted and erased in any order,
// its contents and answers follow std::set's.
TEST(FlatIntSet, EraseBehavesLikeStdSet) {
  FlatIntSet flat;
  std::set<int> ref;
  uint32_t seed = 11;
  for (int i = 0; i < 5000; ++i) {
    seed = seed * 1103515245u + 12345u;
    const int v = static_cast<int>((seed >> 16) % 40);
    if ((seed >> 8) & 1) {
      EXPECT_EQ(flat.insert(v), ref.insert(v).second);
    } else {
      EXPECT_EQ(flat.erase(v), ref.erase(v) == 1);
    }
    ASSERT_EQ(std::vector<int>(flat.begin(), flat.end()), std::vector<int>(ref.begin(), ref.end()));
  }
}

}  // namespace
}  // namespace ncclscope
