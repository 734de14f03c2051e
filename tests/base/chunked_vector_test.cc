#include "ncclscope/base/chunked_vector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace ncclscope {
namespace {

// A record the size of the model's (a few hundred bytes) with heap-owning members, so ASan sees
// every construction, move and destruction.
struct Record {
  int id = 0;
  std::string text;
  std::vector<int> values;
  char pad[200] = {};
};

Record MakeRecord(int i) {
  Record r;
  r.id = i;
  r.text = "record number " + std::to_string(i) + " with a text longer than the SSO buffer";
  r.values.assign(static_cast<size_t>(i % 7), i);
  return r;
}

TEST(ChunkedVector, HoldsWhatAVectorHoldsAcrossManyChunks) {
  ChunkedVector<Record> chunked;
  std::vector<Record> ref;
  const int n = static_cast<int>(ChunkedVector<Record>::chunk_size() * 3 + 5);
  for (int i = 0; i < n; ++i) {
    chunked.push_back(MakeRecord(i));
    ref.push_back(MakeRecord(i));
  }
  ASSERT_EQ(chunked.size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ(chunked[i].id, ref[i].id);
    EXPECT_EQ(chunked[i].text, ref[i].text);
    EXPECT_EQ(chunked[i].values, ref[i].values);
  }
  EXPECT_EQ(chunked.front().id, 0);
  EXPECT_EQ(chunked.back().id, n - 1);
  int expected = 0;
  for (const Record& r : chunked) EXPECT_EQ(r.id, expected++);
  EXPECT_EQ(expected, n);
}

TEST(ChunkedVector, ReferencesStayValidWhileItGrows) {
  ChunkedVector<Record> chunked;
  Record& first = chunked.emplace_back(MakeRecord(7));
  const Record* address = &first;
  for (int i = 0; i < static_cast<int>(ChunkedVector<Record>::chunk_size()) * 4; ++i)
    chunked.push_back(MakeRecord(i));
  EXPECT_EQ(&chunked[0], address);
  EXPECT_EQ(first.id, 7);
}

TEST(ChunkedVector, IteratorsWorkWithStandardAlgorithms) {
  ChunkedVector<int> chunked;
  for (int i = 0; i < 1000; ++i) chunked.push_back(999 - i);
  EXPECT_EQ(chunked.end() - chunked.begin(), 1000);
  EXPECT_TRUE(std::any_of(chunked.begin(), chunked.end(), [](int v) { return v == 500; }));
  EXPECT_EQ(*std::find(chunked.begin(), chunked.end(), 10), 10);
  std::sort(chunked.begin(), chunked.end());
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(chunked[i], i);
  const ChunkedVector<int>& view = chunked;
  ChunkedVector<int>::const_iterator it = view.begin();
  it += 3;
  EXPECT_EQ(*it, 3);
  EXPECT_EQ(it[2], 5);
}

TEST(ChunkedVector, InsertAtTheFrontShiftsEveryElement) {
  ChunkedVector<Record> chunked;
  const int n = static_cast<int>(ChunkedVector<Record>::chunk_size()) + 3;
  for (int i = 1; i <= n; ++i) chunked.push_back(MakeRecord(i));
  chunked.insert(chunked.begin(), MakeRecord(0));
  ASSERT_EQ(chunked.size(), static_cast<size_t>(n + 1));
  for (int i = 0; i <= n; ++i) {
    EXPECT_EQ(chunked[i].id, i);
    EXPECT_EQ(chunked[i].text, MakeRecord(i).text);
  }
}

TEST(ChunkedVector, CopiesAreDeepAndMovesLeaveTheSourceEmpty) {
  ChunkedVector<Record> a;
  for (int i = 0; i < 100; ++i) a.push_back(MakeRecord(i));
  ChunkedVector<Record> copy = a;
  copy[5].text = "changed";
  EXPECT_EQ(a[5].text, MakeRecord(5).text);
  ChunkedVector<Record> moved = std::move(a);
  EXPECT_EQ(moved.size(), 100u);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  copy = moved;
  EXPECT_EQ(copy[5].text, MakeRecord(5).text);
  copy.clear();
  EXPECT_TRUE(copy.empty());
  copy.push_back(MakeRecord(42));
  EXPECT_EQ(copy.back().id, 42);
}

TEST(ChunkedVector, ChunksStayNearSixtyFourKibibytes) {
  EXPECT_EQ(ChunkedVector<int>::chunk_size() * sizeof(int), 64u * 1024);
  EXPECT_LE(ChunkedVector<Record>::chunk_size() * sizeof(Record), 64u * 1024);
  EXPECT_GT(ChunkedVector<Record>::chunk_size() * 2 * sizeof(Record), 64u * 1024);
  struct Huge {
    char bytes[16 * 1024];
  };
  EXPECT_EQ(ChunkedVector<Huge>::chunk_size(), 16u);  // at least 16 per chunk
}

TEST(ChunkedVectorTest, SmallChunksHoldFewElementsEachAndIndexTheSame) {
  ChunkedVector<int, 256> v;  // 64 ints a chunk
  static_assert(ChunkedVector<int, 256>::chunk_size() == 64);
  for (int i = 0; i < 1000; ++i) v.push_back(i * 3);
  ASSERT_EQ(v.size(), 1000u);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(v[static_cast<size_t>(i)], i * 3);
  EXPECT_EQ(v.back(), 999 * 3);
}

}  // namespace
}  // namespace ncclscope
