// TextArena: copies that stay where they are while the arena grows and when it is moved.
#include "ncclscope/base/text_arena.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace ncclscope {
namespace {

TEST(TextArenaTest, CopiesStayValidWhileTheArenaGrowsAndAfterItIsMoved) {
  TextArena arena;
  std::vector<std::string> want;
  std::vector<std::string_view> got;
  for (int i = 0; i < 20000; ++i) {  // several 64 KiB blocks
    want.push_back("vm:1998:1998 [0] NCCL INFO Channel " + std::to_string(i) + " via P2P/CUMEM");
    got.push_back(arena.Add(want.back()));
  }
  const std::string long_line(100000, 'x');  // longer than a block: a block of its own
  want.push_back(long_line);
  got.push_back(arena.Add(long_line));
  want.push_back("after the long line");
  got.push_back(arena.Add(want.back()));
  TextArena moved = std::move(arena);
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << i;
  EXPECT_GE(moved.bytes(), long_line.size() + 20000 * 40);
}

TEST(TextArenaTest, EmptyStringsTakeNoSpace) {
  TextArena arena;
  EXPECT_TRUE(arena.Add("").empty());
  EXPECT_EQ(arena.bytes(), 0u);
}

}  // namespace
}  // namespace ncclscope
