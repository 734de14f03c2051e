// EventRelay: the events a second thread models are the events of a serial read, in order.
#include "ncclscope/analysis/event_relay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "input/input_test_helpers.h"
#include "ncclscope/analysis/analyze.h"
#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/input/byte_source.h"
#include "ncclscope/parse/event_json.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::ReadFileOrDie;
using testing::ScratchDir;
using testing::TestData;
using testing::WriteFile;

/// Every event as JSON, with what the line's prefixes said (the sink reads ctx.meta too), then
/// the per-source counters.
std::string EventsOf(const std::string& text, const std::optional<EventRelay::Tuning>& tuning) {
  std::vector<SourceInfo> sources;
  JobStats stats;
  EventPipeline pipeline(&sources, &stats);
  if (tuning) pipeline.set_relay(*tuning);
  std::vector<InputProblem> problems;
  std::string out;
  pipeline.Run(
      MemoryByteSource(text.data(), text.size()), InputPath{"", "relay.log"},
      [&](const Event& e) {
        AppendEventJson(e, sources[e.ctx.source].name, &out);
        if (const LineMeta* m = e.ctx.meta) {
          out += "meta ";
          for (std::string_view v :
               {m->timestamp, m->pod, m->service, m->origin_host, m->origin_name}) {
            AppendJsonString(v, &out);
          }
          for (long n : {long{m->launcher_rank}, long{m->origin_pid}, long{m->had_ansi}}) {
            out += ' ';
            out += std::to_string(n);
          }
          out += '\n';
        }
      },
      &problems);
  for (const SourceInfo& s : sources) {
    out += s.name;
    for (uint64_t n : {s.lines, s.nccl_lines, s.info_lines, s.framework_lines, s.mention_lines}) {
      out += ' ';
      out += std::to_string(n);
    }
    out += '\n';
  }
  return out;
}

std::vector<std::string> AllLogs() {
  std::vector<std::string> logs;
  for (const auto& e : std::filesystem::recursive_directory_iterator(TestData(""))) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".log" || ext == ".txt")) logs.push_back(e.path());
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

TEST(EventRelayTest, EveryTestLogGivesTheSerialEventsWhenTheConsumerRunsLast) {
  // The consumer starts only once the whole input was parsed: an event that kept a view into
  // the parser's state (rather than into its staged line) would show that state's last value.
  EventRelay::Tuning held;
  held.batch_lines = 5;
  held.batch_bytes = 700;
  held.hold_until_drain = true;
  const std::vector<std::string> logs = AllLogs();
  ASSERT_GE(logs.size(), 400u);
  for (const std::string& log : logs) {
    SCOPED_TRACE(log);
    const std::string text = ReadFileOrDie(log);
    const std::string serial = EventsOf(text, std::nullopt);
    ASSERT_EQ(EventsOf(text, held), serial);
  }
}

TEST(EventRelayTest, SmallBatchesOnTwoThreadsGiveTheSerialEvents) {
  EventRelay::Tuning tiny;
  tiny.batch_lines = 3;
  tiny.batch_bytes = 256;
  tiny.batches = 2;
  for (const char* log :
       {"corpus/h200x4/subsys_all.log", "corpus/h200x4/hang.log", "corpus/h200x4/two_nodes.log"}) {
    SCOPED_TRACE(log);
    const std::string text = ReadFileOrDie(TestData(log));
    EXPECT_EQ(EventsOf(text, tiny), EventsOf(text, std::nullopt));
  }
}

/// How many events of a relayed run of `text` the sink saw on the calling thread, and in all.
std::pair<size_t, size_t> EventsOnThisThread(const std::string& text) {
  std::vector<SourceInfo> sources;
  JobStats stats;
  EventPipeline pipeline(&sources, &stats);
  pipeline.set_relay(EventRelay::Tuning{});
  std::vector<InputProblem> problems;
  size_t here = 0, all = 0;
  const std::thread::id self = std::this_thread::get_id();
  pipeline.Run(
      MemoryByteSource(text.data(), text.size()), InputPath{"", "relay.log"},
      [&](const Event&) {
        here += std::this_thread::get_id() == self;
        ++all;
      },
      &problems);
  return {here, all};
}

std::string Repeated(const char* log, int times) {
  const std::string one = ReadFileOrDie(TestData(log));
  std::string text;
  for (int i = 0; i < times; ++i) text += one;
  return text;
}

TEST(EventRelayTest, MostlyCollectiveStreamEndsTheRelayAfterItsSample) {
  // 38,562 lines, nearly all COLL: after the first 32,768 event lines the model runs on the
  // reading thread, and the events are still the serial ones.
  const std::string text = Repeated("corpus/h200x4/coll_heavy.log", 3);
  const auto [here, all] = EventsOnThisThread(text);
  EXPECT_GT(here, 5000u);
  EXPECT_LT(here, all - 30000);
  EXPECT_EQ(EventsOf(text, EventRelay::Tuning{}), EventsOf(text, std::nullopt));
}

TEST(EventRelayTest, SetupHeavyStreamKeepsTheRelay) {
  // 36,400 lines of connection, ring and init lines: the model keeps its thread to the end (the
  // calling thread sees the last, unfinished batch only).
  const std::string text = Repeated("corpus/h200x4/two_nodes.log", 70);
  const auto [here, all] = EventsOnThisThread(text);
  EXPECT_GT(all, 33000u);
  EXPECT_LE(here, 2 * EventRelay::Tuning{}.batch_lines);
}

TEST(EventRelayTest, LineLongerThanABatchGetsABatchOfItsOwn) {
  std::string ring = "vm:1:1 [0] NCCL INFO Channel 00/02 :";
  for (int r = 0; r < 4096; ++r) {
    ring += ' ';
    ring += std::to_string(r);
  }
  const std::string text = "vm:1:1 [0] NCCL INFO cudaDriverVersion 13000\n" + ring +
                           "\nvm:1:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n";
  EventRelay::Tuning small;
  small.batch_bytes = 128;
  EXPECT_EQ(EventsOf(text, small), EventsOf(text, std::nullopt));
}

TEST(EventRelayTest, AnalyzeReportIsTheSameOnTwoThreads) {
  const std::string text = ReadFileOrDie(TestData("corpus/h200x4/subsys_all.log"));
  AnalyzeOptions serial;
  serial.jobs = 1;
  AnalyzeOptions relayed;
  relayed.jobs = 2;
  relayed.relay_min_bytes = 0;
  const AnalysisResult a = AnalyzeText(text, "a.log", serial);
  const AnalysisResult b = AnalyzeText(text, "a.log", relayed);
  EXPECT_EQ(a.job.links.size(), b.job.links.size());
  EXPECT_EQ(a.job.comms.size(), b.job.comms.size());
  EXPECT_EQ(a.job.stats.events, b.job.stats.events);
  EXPECT_EQ(a.job.stats.lines, b.job.stats.lines);
  EXPECT_EQ(a.findings.size(), b.findings.size());
}

/// Analyses `inputs` serially and on two threads (the relay on at any size); every source's line
/// counts must be the same. Returns the number of sources.
size_t ExpectSameSourceCountsOnTwoThreads(const std::vector<std::string>& inputs) {
  AnalyzeOptions serial;
  serial.jobs = 1;
  serial.inputs = inputs;
  AnalyzeOptions relayed = serial;
  relayed.jobs = 2;
  relayed.relay_min_bytes = 0;
  AnalysisResult a, b;
  EXPECT_TRUE(Analyze(serial, &a).ok());
  EXPECT_TRUE(Analyze(relayed, &b).ok());
  EXPECT_EQ(a.job.sources.size(), b.job.sources.size());
  for (size_t i = 0; i < a.job.sources.size() && i < b.job.sources.size(); ++i) {
    const SourceInfo &x = a.job.sources[i], &y = b.job.sources[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.lines, y.lines) << x.name;
    EXPECT_EQ(x.nccl_lines, y.nccl_lines) << x.name;
    EXPECT_EQ(x.info_lines, y.info_lines) << x.name;
    EXPECT_EQ(x.events, y.events) << x.name;
    EXPECT_EQ(x.unrecognized, y.unrecognized) << x.name;
  }
  EXPECT_EQ(a.job.stats.lines, b.job.stats.lines);
  EXPECT_EQ(a.job.stats.events, b.job.stats.events);
  return a.job.sources.size();
}

// Per-rank files streamed on two threads: each input's line counters are kept by the reading
// thread while it runs and handed over at its end (starting at the input's own source, so that
// the n-th file does not count into n entries). Every file's counts match a serial read's.
TEST(EventRelayTest, ManyInputsKeepTheirOwnLineCountsOnTwoThreads) {
  const std::string text = ReadFileOrDie(TestData("corpus/h200x4/two_nodes.log"));
  ScratchDir dir;
  std::vector<std::string> inputs;
  for (int i = 0; i < 40; ++i) {
    // Files of different lengths, so that a count handed to the wrong source shows.
    const std::string path = dir.Path("rank" + std::to_string(100 + i) + ".log");
    WriteFile(path, text.substr(0, text.size() * static_cast<size_t>(i + 1) / 40));
    inputs.push_back(path);
  }
  EXPECT_EQ(ExpectSameSourceCountsOnTwoThreads(inputs), 40u);
}

// An input whose first lines carry kubectl's `--prefix` (a pod source, created after the input's
// own) and whose later lines do not: the reading thread's counters start at the pod's source and
// must reach back to the input's own. Counts per source match a serial read's.
TEST(EventRelayTest, PodLinesBeforeTheInputsOwnKeepTheirCountsOnTwoThreads) {
  const std::string text = ReadFileOrDie(TestData("corpus/h200x4/two_nodes.log"));
  ScratchDir dir;
  std::vector<std::string> inputs;
  for (int i = 0; i < 3; ++i) {
    std::string mixed;
    size_t start = 0;
    for (int line = 0; start < text.size(); ++line) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size() - 1;
      if (line < 50 + 20 * i) mixed += "[pod/train-" + std::to_string(i) + "/main] ";
      mixed.append(text, start, end + 1 - start);
      start = end + 1;
    }
    const std::string path = dir.Path("pod" + std::to_string(i) + ".log");
    WriteFile(path, mixed);
    inputs.push_back(path);
  }
  EXPECT_EQ(ExpectSameSourceCountsOnTwoThreads(inputs), 6u);  // three inputs and their pods
}

Event EventOn(const Line& line) {
  Event e;
  e.ctx.text = line.text;
  e.ctx.body = line.text.substr(1);
  e.ctx.meta = &line.meta;
  e.data = Unrecognized{line.text, false};
  return e;
}

TEST(EventRelayTest, EventWithAViewOutsideItsStagedLineIsNotOwned) {
  std::vector<std::string> seen;
  EventRelay relay([&](const Event& e) { seen.emplace_back(e.ctx.text); });
  std::string buffer = "first line";
  Line line;
  line.text = buffer;
  const Line& staged = relay.Stage(line);
  Event owned = EventOn(staged);
  EXPECT_TRUE(relay.Owns(owned));
  Event borrowed = owned;
  borrowed.ctx.body = buffer;  // the reader's buffer, not the staged copy
  EXPECT_FALSE(relay.Owns(borrowed));
  Event other_meta = owned;
  other_meta.ctx.meta = &line.meta;
  EXPECT_FALSE(relay.Owns(other_meta));
  relay.Push(owned);
  buffer = "overwritten";  // the staged copy is what the sink reads
  relay.Drain();
  EXPECT_EQ(seen, std::vector<std::string>{"first line"});
}

TEST(EventRelayTest, DrainDeliversQueuedEventsBeforeTheCallerSinksItsOwn) {
  std::vector<std::string> seen;
  EventRelay::Tuning tuning;
  tuning.batch_lines = 2;
  EventRelay relay([&](const Event& e) { seen.emplace_back(e.ctx.text); }, tuning);
  for (std::string text : {"a", "b", "c", "d", "e"}) {
    Line line;
    line.text = text;
    relay.Push(EventOn(relay.Stage(line)));
  }
  relay.Drain();
  seen.emplace_back("own");  // what the caller hands the sink itself after a drain
  Line line;
  line.text = "f";
  relay.Push(EventOn(relay.Stage(line)));
  relay.Drain();
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c", "d", "e", "own", "f"}));
}

TEST(EventRelayTest, SinkErrorIsRethrownByDrain) {
  int calls = 0;
  EventRelay::Tuning tuning;
  tuning.batch_lines = 1;
  EventRelay relay(
      [&](const Event&) {
        if (++calls == 2) throw std::runtime_error("model failed");
      },
      tuning);
  for (std::string text : {"a", "b", "c"}) {
    Line line;
    line.text = text;
    relay.Push(EventOn(relay.Stage(line)));
  }
  EXPECT_THROW(relay.Drain(), std::runtime_error);
  EXPECT_EQ(calls, 2);  // nothing after the failure reaches the sink
}

}  // namespace
}  // namespace ncclscope
