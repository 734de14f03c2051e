// Follow: findings reach the listener while the input is still open (pipe and chunked source),
// each finding once, stop flag, and JobBuilder::Snapshot against Finish.
#include "ncclscope/analysis/follow.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/model/job_builder.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::ReadFileOrDie;
using testing::TestData;

/// A hand-built rule: one finding per distinct /dev/shm warning of the job.
std::vector<Finding> ShmRule(const Job& job) {
  std::vector<Finding> out;
  for (const WarnRecord& w : job.warnings) {
    if (w.category != WarnCategory::kShm) continue;
    Finding f;
    f.rule = "test-shm";
    f.severity = Severity::kError;
    f.title = "shared memory warning";
    f.message = w.message;
    out.push_back(std::move(f));
  }
  return out;
}

/// Hands out a string in fixed chunks and counts what it delivered; may set a stop flag.
class ChunkedSource : public ByteSource {
 public:
  ChunkedSource(const std::string* data, size_t chunk, std::atomic<size_t>* delivered)
      : data_(data), chunk_(chunk), delivered_(delivered) {}
  Status Read(char* buf, size_t cap, size_t* n) override {
    const size_t pos = delivered_->load();
    *n = std::min({cap, chunk_, data_->size() - pos});
    std::memcpy(buf, data_->data() + pos, *n);
    delivered_->store(pos + *n);
    return Status::Ok();
  }

 private:
  const std::string* data_;
  size_t chunk_;
  std::atomic<size_t>* delivered_;
};

/// Records findings with the number of bytes the source had delivered when each arrived.
class RecordingListener : public FollowListener {
 public:
  explicit RecordingListener(const std::atomic<size_t>* delivered) : delivered_(delivered) {}
  void OnFinding(const Job& /*job*/, const Finding& f) override {
    messages.push_back(f.message);
    delivered_at.push_back(delivered_ ? delivered_->load() : 0);
    found.store(true);
  }
  void OnStatus(const FollowStatus& s) override {
    ++status_calls;
    last_status = s;
  }
  std::vector<std::string> messages;
  std::vector<size_t> delivered_at;
  std::atomic<bool> found{false};
  int status_calls = 0;
  FollowStatus last_status;

 private:
  const std::atomic<size_t>* delivered_;
};

FollowOptions TestFollowOptions() {
  FollowOptions o;
  o.rules = ShmRule;
  return o;
}

TEST(Follow, FindingArrivesBeforeTheEndOfAChunkedSource) {
  const std::string log = ReadFileOrDie(TestData("corpus/h200x4/shm_small.log"));
  std::atomic<size_t> delivered{0};
  RecordingListener listener(&delivered);
  AnalysisResult result;
  ASSERT_TRUE(FollowSource(std::make_unique<ChunkedSource>(&log, 1024, &delivered), "shm.log", {},
                           TestFollowOptions(), &listener, &result)
                  .ok());
  ASSERT_FALSE(listener.messages.empty());
  EXPECT_LT(listener.delivered_at.front(), log.size());
  EXPECT_NE(listener.messages.front().find("/dev/shm"), std::string::npos);
  // Each finding once, although the rule reports it again at every run.
  std::vector<std::string> sorted = listener.messages;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
  // The final result is the full analysis; every distinct finding of it was reported.
  std::vector<std::string> final_messages;
  for (const Finding& f : result.findings) final_messages.push_back(f.message);
  std::sort(final_messages.begin(), final_messages.end());
  final_messages.erase(std::unique(final_messages.begin(), final_messages.end()),
                       final_messages.end());
  EXPECT_EQ(final_messages, sorted);
  EXPECT_EQ(result.job.stats.bytes, log.size());
  EXPECT_GE(listener.status_calls, 1);
  EXPECT_EQ(listener.last_status.ranks, result.job.processes.size());
  EXPECT_EQ(listener.last_status.findings, listener.messages.size());
}

TEST(Follow, FindingArrivesWhileAPipeIsStillOpen) {
  const std::string log = ReadFileOrDie(TestData("corpus/h200x4/shm_small.log"));
  // Cut after the last shm warning line; the rest is written only once the finding was seen.
  const size_t warn = log.rfind("NCCL WARN Error while creating shared memory");
  ASSERT_NE(warn, std::string::npos);
  const size_t cut = log.find('\n', warn) + 1;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  RecordingListener listener(nullptr);
  std::atomic<bool> seen_before_eof{false};
  std::thread writer([&] {
    (void)!write(fds[1], log.data(), cut);
    for (int i = 0; i < 1000 && !listener.found.load(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    seen_before_eof.store(listener.found.load());
    (void)!write(fds[1], log.data() + cut, log.size() - cut);
    close(fds[1]);
  });
  Status err;
  auto source = OpenByteSource("/dev/fd/" + std::to_string(fds[0]), &err);
  ASSERT_NE(source, nullptr) << err.message();
  AnalysisResult result;
  EXPECT_TRUE(
      FollowSource(std::move(source), "pipe", {}, TestFollowOptions(), &listener, &result).ok());
  writer.join();
  close(fds[0]);
  EXPECT_TRUE(seen_before_eof.load());
  EXPECT_EQ(result.job.stats.bytes, log.size());
}

TEST(Follow, StopFlagEndsTheInputAndTheResultIsStillComplete) {
  const std::string log = ReadFileOrDie(TestData("corpus/h200x4/default.log"));
  std::atomic<size_t> delivered{0};
  std::atomic<bool> stop{false};
  class StoppingListener : public RecordingListener {
   public:
    StoppingListener(const std::atomic<size_t>* d, std::atomic<bool>* stop)
        : RecordingListener(d), d_(d), stop_(stop) {}
    void OnStatus(const FollowStatus& s) override {
      RecordingListener::OnStatus(s);
      if (d_->load() >= 8192) stop_->store(true);
    }

   private:
    const std::atomic<size_t>* d_;
    std::atomic<bool>* stop_;
  } listener(&delivered, &stop);
  FollowOptions o = TestFollowOptions();
  o.stop = &stop;
  o.status_interval = std::chrono::milliseconds(0);
  AnalysisResult result;
  ASSERT_TRUE(FollowSource(std::make_unique<ChunkedSource>(&log, 4096, &delivered), "d.log", {}, o,
                           &listener, &result)
                  .ok());
  EXPECT_TRUE(stop.load());
  EXPECT_LT(delivered.load(), log.size());
  EXPECT_EQ(result.job.stats.bytes, delivered.load());
  EXPECT_GT(result.job.stats.nccl_lines, 0u);
}

TEST(Follow, MissingInputIsAProblemAndOthersAreFollowed) {
  AnalyzeOptions a;
  a.inputs = {"/nonexistent/x.log", TestData("corpus/h200x4/shm_small.log")};
  RecordingListener listener(nullptr);
  AnalysisResult result;
  ASSERT_TRUE(Follow(a, TestFollowOptions(), &listener, &result).ok());
  EXPECT_EQ(result.problems.size(), 1u);
  EXPECT_FALSE(listener.messages.empty());
}

TEST(Follow, UnreadableTopoFileIsAnError) {
  AnalyzeOptions a;
  a.topo_path = "/nonexistent/topo.txt";
  RecordingListener listener(nullptr);
  AnalysisResult result;
  EXPECT_FALSE(Follow(a, TestFollowOptions(), &listener, &result).ok());
}

/// Feeds a corpus file through a pipeline into `builder`, stopping after `max_lines` lines.
void Feed(const std::string& text, JobBuilder* builder, Job* job) {
  EventPipeline pipeline(&job->sources, &job->stats);
  std::vector<InputProblem> problems;
  pipeline.Run(
      MemoryByteSource(text.data(), text.size()), InputPath{"", "x.log"},
      [builder](const Event& e) { builder->Add(e); }, &problems);
}

TEST(JobBuilderSnapshot, MatchesFinishAndLeavesTheBuilderAccumulating) {
  const std::string log = ReadFileOrDie(TestData("corpus/h200x4/subsys_all.log"));
  const size_t half = log.find('\n', log.size() / 2) + 1;
  Job job;
  JobBuilder builder(&job);
  Feed(log.substr(0, half), &builder, &job);
  const Job early = builder.Snapshot({});
  Feed(log.substr(half), &builder, &job);
  const Job late = builder.Snapshot({});
  builder.Finish({});
  // The late snapshot is what Finish produced; the early one saw less.
  EXPECT_EQ(late.links.size(), job.links.size());
  EXPECT_EQ(late.comms.size(), job.comms.size());
  EXPECT_EQ(late.hosts.size(), job.hosts.size());
  EXPECT_EQ(late.stats.events_by_type, job.stats.events_by_type);
  for (size_t i = 0; i < job.links.size(); ++i) {
    EXPECT_EQ(late.links[i].cls, job.links[i].cls);
    EXPECT_EQ(late.links[i].path, job.links[i].path);
    EXPECT_EQ(late.links[i].lines, job.links[i].lines);
  }
  EXPECT_LT(early.stats.lines, job.stats.lines);
  EXPECT_LE(early.links.size(), job.links.size());
  EXPECT_FALSE(early.hosts.empty());  // Finish ran on the snapshot
}

}  // namespace
}  // namespace ncclscope
