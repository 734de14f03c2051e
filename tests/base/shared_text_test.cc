#include "ncclscope/base/shared_text.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ncclscope {
namespace {

TEST(SharedText, EmptyTextHasNoBufferAndReadsEmpty) {
  SharedText t;
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.view(), "");
  SharedText from_empty{std::string_view()};
  EXPECT_TRUE(from_empty.empty());
  EXPECT_FALSE(from_empty.SharesBufferWith(t));  // no buffer to share
}

TEST(SharedText, KeepsTheBytesOfItsSourceAfterTheSourceIsGone) {
  SharedText t;
  {
    std::string line = "node1:12:34 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM";
    t = line;
    line.assign(line.size(), 'x');
  }
  EXPECT_EQ(t, "node1:12:34 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM");
  // Bytes are kept as they are, NULs and non-ASCII included.
  const std::string odd("a\0b\xff", 4);
  SharedText o = odd;
  EXPECT_EQ(o.size(), 4u);
  EXPECT_EQ(o.view(), odd);
}

TEST(SharedText, CopiesShareOneBufferAndOutliveTheOriginal) {
  auto original = std::make_unique<SharedText>("Watchdog caught collective operation timeout");
  SharedText copy = *original;
  SharedText assigned;
  assigned = copy;
  EXPECT_TRUE(copy.SharesBufferWith(*original));
  EXPECT_TRUE(assigned.SharesBufferWith(*original));
  original.reset();  // the buffer lives while a copy does (ASan: no use after free)
  EXPECT_EQ(copy, "Watchdog caught collective operation timeout");
  EXPECT_EQ(assigned.view(), copy.view());
}

TEST(SharedText, MovedFromTextIsEmptyAndSelfAssignmentKeepsTheText) {
  SharedText a = "first";
  SharedText b = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_EQ(b, "first");
  SharedText& alias = b;
  b = alias;
  EXPECT_EQ(b, "first");
  b = std::move(alias);
  EXPECT_EQ(b, "first");
  b = SharedText("second");  // replacing the last copy frees the first buffer
  EXPECT_EQ(b, "second");
}

TEST(SharedText, ComparesByBytesNotByBuffer) {
  SharedText a = "NCCL WARN";
  SharedText b = std::string("NCCL WARN");
  EXPECT_FALSE(a.SharesBufferWith(b));
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, std::string_view("NCCL WARN"));
  EXPECT_FALSE(a == SharedText("NCCL INFO"));
  EXPECT_LT(SharedText("a"), SharedText("b"));
  EXPECT_EQ(SharedText() <=> SharedText(""), std::strong_ordering::equal);
}

TEST(SharedText, ConcatenatesWithStringsAndReadsPieces) {
  SharedText t = "socket.cc:123";
  EXPECT_EQ("(\"" + t + "\")", "(\"socket.cc:123\")");
  EXPECT_EQ(std::string("at ") + t, "at socket.cc:123");
  EXPECT_EQ(t.substr(0, 9), "socket.cc");
  EXPECT_EQ(t.find(":"), 9u);
  EXPECT_EQ(t.str(), "socket.cc:123");
}

TEST(SharedText, CopiesDroppedOnManyThreadsFreeTheBufferOnce) {
  // Run under ASan/UBSan in CI: a count that is not atomic frees twice or leaks here.
  SharedText shared = "a line quoted by every rank";
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([shared] {
      for (int i = 0; i < 10000; ++i) {
        SharedText copy = shared;
        SharedText other = copy;
        other = SharedText();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(shared, "a line quoted by every rank");
}

}  // namespace
}  // namespace ncclscope
