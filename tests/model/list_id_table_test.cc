// ListIdTable (src/model/list_id_table.h): MembershipIndex's recency lists by key.
#include "model/list_id_table.h"

#include <gtest/gtest.h>

namespace ncclscope {
namespace {

TEST(ListIdTable, EmptyTableFindsNothing) {
  ListIdTable t;
  EXPECT_EQ(t.Find(ListKey{0, 0, 0, 0}), -1);
  EXPECT_EQ(t.size(), 0u);
}

TEST(ListIdTable, AKeyAddedOnceKeepsItsFirstId) {
  ListIdTable t;
  bool added = false;
  EXPECT_EQ(t.FindOrAdd(ListKey{3, 1, 7, 16}, 0, &added), 0);
  EXPECT_TRUE(added);
  EXPECT_EQ(t.FindOrAdd(ListKey{3, 1, 7, 16}, 1, &added), 0);  // present: the fresh id is unused
  EXPECT_FALSE(added);
  EXPECT_EQ(t.Find(ListKey{3, 1, 7, 16}), 0);
  EXPECT_EQ(t.size(), 1u);
}

TEST(ListIdTable, KeysThatDifferInOneFieldAreDifferentLists) {
  ListIdTable t;
  bool added = false;
  const ListKey keys[] = {{3, 1, 7, 16}, {4, 1, 7, 16},  {3, 2, 7, 16}, {3, 1, 8, 16},
                          {3, 1, 7, 0},  {3, 1, -1, 16}, {0, 0, 0, 0}};
  int id = 0;
  for (const ListKey& k : keys) {
    EXPECT_EQ(t.FindOrAdd(k, id, &added), id);
    EXPECT_TRUE(added);
    ++id;
  }
  id = 0;
  for (const ListKey& k : keys) EXPECT_EQ(t.Find(k), id++);
}

TEST(ListIdTable, GrowingKeepsEveryIdOfAFourThousandRankJob) {
  // 4,096 processes with three communicators each and four kinds of list: the bench's hung job.
  ListIdTable t;
  bool added = false;
  int next = 0;
  for (int proc = 0; proc < 4096; ++proc) {
    for (int kind = 0; kind < 4; ++kind) {
      for (int comm = 0; comm < 3; ++comm)
        t.FindOrAdd(ListKey{proc, kind, proc % 512, 8 << comm}, next++, &added);
    }
  }
  EXPECT_EQ(t.size(), static_cast<size_t>(next));
  int expected = 0;
  for (int proc = 0; proc < 4096; ++proc) {
    for (int kind = 0; kind < 4; ++kind) {
      for (int comm = 0; comm < 3; ++comm) {
        ASSERT_EQ(t.Find(ListKey{proc, kind, proc % 512, 8 << comm}), expected++);
      }
    }
  }
  EXPECT_EQ(t.Find(ListKey{4096, 0, 0, 8}), -1);
}

}  // namespace
}  // namespace ncclscope
