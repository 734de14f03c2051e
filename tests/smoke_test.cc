#include <gtest/gtest.h>

#include "ncclscope/base/status.h"

namespace ncclscope {
namespace {

TEST(Status, DefaultIsOk) { EXPECT_TRUE(Status().ok()); }
TEST(Status, NotFoundCarriesMessage) {
  Status s = Status::NotFound("x.log: No such file or directory");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "x.log: No such file or directory");
}

}  // namespace
}  // namespace ncclscope
