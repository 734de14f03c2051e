#include "ncclscope/base/text_pool.h"

#include <gtest/gtest.h>

#include <string>

namespace ncclscope {
namespace {

TEST(TextPool, EqualStringsShareOneBuffer) {
  TextPool pool;
  std::string a = "P2P/CUMEM/read";
  const SharedText first = pool.Intern(a);
  a = "P2P/CUMEM/read";  // another buffer with the same bytes
  const SharedText second = pool.Intern(a);
  EXPECT_TRUE(first.SharesBufferWith(second));
  EXPECT_EQ(second, "P2P/CUMEM/read");
  EXPECT_EQ(pool.size(), 1u);
}

TEST(TextPool, DifferentStringsAndEmptyOnes) {
  TextPool pool;
  const SharedText ib = pool.Intern("NET/IB/0/GDRDMA");
  const SharedText socket = pool.Intern("NET/Socket/0");
  EXPECT_FALSE(ib.SharesBufferWith(socket));
  EXPECT_EQ(ib, "NET/IB/0/GDRDMA");
  EXPECT_EQ(socket, "NET/Socket/0");
  EXPECT_TRUE(pool.Intern("").empty());
  EXPECT_EQ(pool.size(), 2u);
}

TEST(TextPool, InternedTextsOutliveThePool) {
  SharedText kept;
  {
    TextPool pool;
    kept = pool.Intern("0000:1b:00.0");
  }
  EXPECT_EQ(kept, "0000:1b:00.0");  // ASan: the pool's copy is released, the record's is not
}

}  // namespace
}  // namespace ncclscope
