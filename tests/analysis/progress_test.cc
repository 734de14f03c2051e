// ProgressMeter with a fake clock and a string stream: throttling, erasing, small inputs.
#include "ncclscope/analysis/progress.h"

#include <gtest/gtest.h>

#include <sstream>

namespace ncclscope {
namespace {

constexpr int64_t kTotal = 1000 * 1000 * 1000;

struct FakeClock {
  double t = 100.0;
  SecondsClock fn() {
    return [this] { return t; };
  }
};

TEST(Progress, LineShowsBarPercentSizeAndRate) {
  std::string line = ProgressLine("big.log", 500'000'000, kTotal, 2.0);
  EXPECT_NE(line.find("big.log [##########          ]  50%"), std::string::npos) << line;
  EXPECT_NE(line.find("500/1000 MB"), std::string::npos) << line;
  EXPECT_NE(line.find("250 MB/s"), std::string::npos) << line;
}

TEST(Progress, LongNamesKeepTheirTail) {
  std::string line = ProgressLine(std::string(100, 'd') + "/job.log", 0, kTotal, 0);
  EXPECT_EQ(line.rfind("...", 0), 0u) << line;
  EXPECT_NE(line.find("/job.log ["), std::string::npos) << line;
}

TEST(Progress, RedrawsAtMostOncePerInterval) {
  std::ostringstream out;
  FakeClock clock;
  ProgressMeter meter(&out, clock.fn(), 0.1, 0);
  meter.Update("a.log", 0, kTotal);  // starts the input, draws nothing
  EXPECT_EQ(meter.draws(), 0);
  for (int i = 1; i <= 100; ++i) {  // one second in 10 ms steps
    clock.t += 0.01;
    meter.Update("a.log", static_cast<uint64_t>(i) * 10'000'000, kTotal);
  }
  EXPECT_GE(meter.draws(), 9);
  EXPECT_LE(meter.draws(), 10);
  EXPECT_NE(meter.last_line().find("100%"), std::string::npos) << meter.last_line();
  EXPECT_EQ(out.str().front(), '\r');
}

TEST(Progress, FinishErasesTheLine) {
  std::ostringstream out;
  FakeClock clock;
  ProgressMeter meter(&out, clock.fn(), 0.1, 0);
  meter.Update("a.log", 0, kTotal);
  clock.t += 0.5;
  meter.Update("a.log", 1000, kTotal);
  ASSERT_EQ(meter.draws(), 1);
  const size_t drawn = out.str().size();
  meter.Finish();
  const std::string erase = out.str().substr(drawn);
  EXPECT_EQ(erase, "\r" + std::string(drawn - 1, ' ') + "\r");
  meter.Finish();  // idempotent
  EXPECT_EQ(out.str().size(), drawn + erase.size());
}

TEST(Progress, SmallOrUnknownInputsGetNoBar) {
  std::ostringstream out;
  FakeClock clock;
  ProgressMeter meter(&out, clock.fn(), 0.1, ProgressMeter::kDefaultMinTotal);
  meter.Update("small.log", 0, 1 << 20);
  clock.t += 5;
  meter.Update("small.log", 1 << 19, 1 << 20);
  meter.Update("-", 0, -1);
  clock.t += 5;
  meter.Update("-", 1 << 30, -1);
  meter.Finish();
  EXPECT_EQ(meter.draws(), 0);
  EXPECT_TRUE(out.str().empty());
}

TEST(Progress, ANewInputRestartsTheRate) {
  std::ostringstream out;
  FakeClock clock;
  ProgressMeter meter(&out, clock.fn(), 0.1, 0);
  meter.Update("a.log", 0, kTotal);
  clock.t += 10;
  meter.Update("b.log", 0, kTotal);
  clock.t += 1;
  meter.Update("b.log", 100'000'000, kTotal);
  EXPECT_NE(meter.last_line().find("100 MB/s"), std::string::npos) << meter.last_line();
}

}  // namespace
}  // namespace ncclscope
