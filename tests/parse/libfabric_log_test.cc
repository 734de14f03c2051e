// libfabric's own log lines next to NCCL's (aws-ofi-nccl runs on libfabric): warnings become
// notices the knowledge table may explain, the other levels are known noise, and lines that only
// look like them stay what they were.
#include <gtest/gtest.h>

#include <string>

#include "parse_test_util.h"

namespace ncclscope {
namespace {

using testing::ParseAs;
using testing::ParseOne;

TEST(LibfabricLog, AWarningIsANoticeWithItsFunctionAndPid) {
  // aws-ofi-nccl#889 (libfabric 2.x: time and an empty log prefix after the pid).
  testing::Parsed p = ParseOne(
      "libfabric:85:1747438790::core:core:fi_getinfo_():1392<warn> fi_getinfo: provider efa "
      "output empty list");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  const auto* n = std::get_if<Notice>(&p.event.data);
  ASSERT_NE(n, nullptr) << EventTypeName(p.event.data);
  EXPECT_EQ(n->message, "fi_getinfo: provider efa output empty list");
  EXPECT_EQ(p.event.ctx.level, Level::kLibfabric);
  EXPECT_EQ(p.event.ctx.pid, 85u);
  EXPECT_EQ(p.event.ctx.location, "fi_getinfo_():1392");
  EXPECT_TRUE(p.event.ctx.host.empty());
  EXPECT_FALSE(p.event.ctx.headless);  // no NCCL process printed it
}

TEST(LibfabricLog, AConsoleCopyWithTheRecordTwiceKeepsTheFirst) {
  Notice n = ParseAs<Notice>(
      "libfabric:85:1747438790::core:core:fi_getinfo_():1392<warn> fi_getinfo: provider efa "
      "output empty list | libfabric:85:1747438790::core:core:fi_getinfo_():1392<warn> fi_getinfo: "
      "provider efa output empty list");
  EXPECT_EQ(n.message, "fi_getinfo: provider efa output empty list");
}

TEST(LibfabricLog, InfoAndDebugLinesAreKnownNoise) {
  // libfabric#5787 (libfabric 1.9: no time field).
  KnownNoise k = ParseAs<KnownNoise>(
      "libfabric:47889:core:core:fi_getinfo_():964<info> fi_getinfo: provider shm returned -61 "
      "(No data available)");
  EXPECT_EQ(k.family, "libfabric");
  EXPECT_EQ(ParseAs<KnownNoise>("libfabric:23671:1753871169::efa:core:fi_param_get_():372<debug> "
                                "variable runt_size=<not set>")
                .family,
            "libfabric");
}

TEST(LibfabricLog, LinesThatOnlyLookLikeItAreNotRead) {
  for (std::string_view line : {"libfabric: 1.22.0", "libfabric:abc:core:x():1<warn> y",
                                "libfabric:12:core:core:f():12<fatal> y",
                                "libfabric:12:core:core:f():<warn> no line number"}) {
    testing::Parsed p = ParseOne(line);
    EXPECT_TRUE(p.outcome == ParseOutcome::kNotNccl ||
                !std::holds_alternative<Notice>(p.event.data))
        << line;
  }
}

TEST(VerbsWarning, LibibverbsWarningIsANotice) {
  // NVIDIA/nccl-tests#41: libibverbs in a Singularity image without the mlx5 provider.
  testing::Parsed p = ParseOne(
      "libibverbs: Warning: no userspace device-specific driver found for "
      "/sys/class/infiniband_verbs/uverbs0");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  const auto* n = std::get_if<Notice>(&p.event.data);
  ASSERT_NE(n, nullptr) << EventTypeName(p.event.data);
  EXPECT_EQ(n->message,
            "no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0");
  EXPECT_EQ(p.event.ctx.level, Level::kVerbs);
  // Anything else that starts with the library's name is not its warning.
  testing::Parsed q = ParseOne("libibverbs: version 1.14");
  EXPECT_NE(q.outcome, ParseOutcome::kEvent);
}

}  // namespace
}  // namespace ncclscope
