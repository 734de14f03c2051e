#include "ncclscope/input/line_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "input_test_helpers.h"
#include "ncclscope/input/input_set.h"
#include "ncclscope/input/prefix.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::ScratchDir;
using testing::WriteFile;
using testing::WriteGzip;

bool LooksLikeNcclLine(std::string_view text) {
  return text.find(" NCCL ") != std::string_view::npos && text.find(':') < text.find(' ');
}

TEST(LineStream, TeePrefixLogGivesEveryLineALauncherRankAndNcclText) {
  const std::string path = testing::TestData("corpus/h200x4/tee_prefix.log");
  const std::string content = testing::ReadFileOrDie(path);
  LineStream stream(path, 7);
  Line line;
  uint64_t count = 0, nccl = 0;
  int ranks_seen = 0;
  std::map<std::string, int> rank_of_pid;
  while (stream.Next(&line)) {
    ++count;
    EXPECT_EQ(line.number, count);
    EXPECT_EQ(line.source, 7u);
    EXPECT_FALSE(line.truncated);
    ASSERT_GE(line.meta.launcher_rank, 0) << "line " << count;
    ASSERT_LE(line.meta.launcher_rank, 3) << "line " << count;
    ranks_seen |= 1 << line.meta.launcher_rank;
    EXPECT_NE(line.text.substr(0, 8), "[default");
    if (LooksLikeNcclLine(line.text)) {
      ++nccl;
      // `host:pid:tid`: every process writes under one launcher rank only.
      const size_t a = line.text.find(':');
      const std::string pid(line.text.substr(a + 1, line.text.find(':', a + 1) - a - 1));
      auto [it, inserted] = rank_of_pid.emplace(pid, line.meta.launcher_rank);
      EXPECT_EQ(it->second, line.meta.launcher_rank) << line.text;
    }
  }
  const InputDiagnostics& d = stream.diagnostics();
  EXPECT_TRUE(d.status.ok());
  EXPECT_EQ(d.lines, count);
  EXPECT_EQ(d.bytes, content.size());
  EXPECT_EQ(count, static_cast<uint64_t>(std::count(content.begin(), content.end(), '\n')));
  EXPECT_EQ(ranks_seen, 0xf);
  EXPECT_EQ(rank_of_pid.size(), 4u);
  EXPECT_GT(nccl, count / 2);
  EXPECT_EQ(d.truncated_lines + d.nul_lines + d.invalid_utf8_lines, 0u);
}

TEST(LineStream, DefaultLogLinesComeThroughUnchanged) {
  const std::string path = testing::TestData("corpus/h200x4/default.log");
  LineStream stream(path, 0);
  Line line;
  uint64_t count = 0;
  while (stream.Next(&line)) {
    ++count;
    EXPECT_EQ(line.meta.launcher_rank, -1) << line.text;
    EXPECT_TRUE(line.meta.pod.empty());
    EXPECT_TRUE(line.meta.timestamp.empty()) << line.text;
  }
  EXPECT_GT(count, 100u);
  EXPECT_TRUE(stream.diagnostics().status.ok());
}

TEST(LineStream, MissingFileFailsAtOnceWithStatus) {
  LineStream stream("/nonexistent/x.log", 0);
  Line line;
  EXPECT_FALSE(stream.Next(&line));
  EXPECT_EQ(stream.diagnostics().status.code(), Status::Code::kNotFound);
}

TEST(LineStream, CountsTruncatedNulAndInvalidUtf8LinesWithoutStopping) {
  const std::string data = std::string("ok line\n") + std::string(50, 'x') + "\n" +
                           std::string("nul\0here\n", 9) + "bad \xff\xfe utf8\n" +
                           "good utf8 \xc3\xa9\xe2\x82\xac\n" + "last";
  LineStream stream(MemoryByteSource(data.data(), data.size()), 2, 20);
  std::vector<std::string> texts;
  std::vector<bool> truncated;
  Line line;
  while (stream.Next(&line)) {
    texts.emplace_back(line.text);
    truncated.push_back(line.truncated);
  }
  ASSERT_EQ(texts.size(), 6u);
  EXPECT_EQ(texts[1], std::string(20, 'x'));
  EXPECT_EQ(truncated, (std::vector<bool>{false, true, false, false, false, false}));
  EXPECT_EQ(texts[2], std::string("nul\0here", 8));
  EXPECT_EQ(texts[5], "last");
  const InputDiagnostics& d = stream.diagnostics();
  EXPECT_EQ(d.lines, 6u);
  EXPECT_EQ(d.truncated_lines, 1u);
  EXPECT_EQ(d.nul_lines, 1u);
  EXPECT_EQ(d.invalid_utf8_lines, 1u);
  EXPECT_TRUE(d.status.ok());
}

TEST(LineStream, PrefixedLinesAreStrippedAndNumbered) {
  const std::string data =
      "2025-05-16T16:39:55.218123456Z [pod/w-0/c] [default1]:vm:1:1 [1] NCCL INFO a\r\n"
      "\x1b[31m[rank2]:\x1b[0m[E1121 13:39:41.727410739 ProcessGroupNCCL.cpp:689] boom\n";
  LineStream stream(MemoryByteSource(data.data(), data.size()), 0);
  Line line;
  ASSERT_TRUE(stream.Next(&line));
  EXPECT_EQ(line.text, "vm:1:1 [1] NCCL INFO a");
  EXPECT_EQ(line.number, 1u);
  EXPECT_EQ(line.meta.pod, "w-0/c");
  EXPECT_EQ(line.meta.timestamp, "2025-05-16T16:39:55.218123456Z");
  EXPECT_EQ(line.meta.launcher_rank, 1);
  ASSERT_TRUE(stream.Next(&line));
  EXPECT_EQ(line.text, "[E1121 13:39:41.727410739 ProcessGroupNCCL.cpp:689] boom");
  EXPECT_EQ(line.number, 2u);
  EXPECT_EQ(line.meta.launcher_rank, 2);
  EXPECT_TRUE(line.meta.had_ansi);
  EXPECT_FALSE(stream.Next(&line));
}

TEST(LineStream, TruncatedGzipGivesTheLinesBeforeTheDamageAndAStatus) {
  ScratchDir dir;
  std::string data;
  for (int i = 0; i < 30000; ++i) {
    data += "vm:1:1 [0] NCCL INFO line " + std::to_string(i * 7919 % 100003) + "\n";
  }
  WriteGzip(dir.Path("log.gz"), {data});
  const std::string gz = testing::ReadFileOrDieForInput(dir.Path("log.gz"));
  WriteFile(dir.Path("log.gz"), gz.substr(0, gz.size() * 3 / 4));
  LineStream stream(dir.Path("log.gz"), 0);
  Line line;
  uint64_t n = 0;
  while (stream.Next(&line)) ++n;
  EXPECT_GT(n, 10000u);
  EXPECT_LE(n, 30000u);
  EXPECT_FALSE(stream.diagnostics().status.ok());
  EXPECT_EQ(stream.diagnostics().status.message(), dir.Path("log.gz") + ": truncated gzip stream");
}

TEST(LineStream, CorpusLinesLoseOnlyPytorchRankPrefixes) {
  const ExpandedInputs all = ExpandInputs({testing::TestData("corpus")});
  ASSERT_GT(all.inputs.size(), 20u);
  std::string scratch;
  for (const InputPath& in : all.inputs) {
    // tee_prefix.log is all prefixes, and so are the failure runs made with `torchrun --tee 3`
    // (kill_tee.log, pyexc_logdir.log: `[default0]:`) and `mpirun --tag-output`
    // (mpirun_kill.log: `[1,0]<stdout>:`); README.md is prose ("p4d.24xlarge: NV12" reads as a
    // pdsh host, which is what such a line would be in a log).
    if (in.path.ends_with("tee_prefix.log") || in.path.ends_with("kill_tee.log") ||
        in.path.ends_with("pyexc_logdir.log") || in.path.ends_with("mpirun_kill.log") ||
        in.path.ends_with(".md")) {
      continue;
    }
    Status err;
    auto src = OpenByteSource(in.path, &err);
    ASSERT_NE(src, nullptr) << err.message();
    LineReader reader(src.get());
    std::string_view raw;
    bool truncated;
    while (reader.Next(&raw, &truncated)) {
      LineMeta meta;
      std::string_view text = StripPrefixes(raw, &meta, &scratch);
      if (text == raw) continue;
      if (meta.had_ansi) {  // nvidia-smi topo -m underlines its header.
        EXPECT_EQ(text.find('\x1b'), std::string_view::npos);
        continue;
      }
      // Only PyTorch's `[rankN]:` may go (hang.log, the seeds).
      const std::string rank = "[rank" + std::to_string(meta.launcher_rank) + "]:";
      EXPECT_EQ(std::string(raw), rank + std::string(text))
          << in.name << ":" << reader.lines_read();
    }
    EXPECT_TRUE(reader.status().ok()) << in.name;
  }
}

TEST(IsValidUtf8, AcceptsWellFormedAndRejectsMalformedSequences) {
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\x80"));
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));
  EXPECT_TRUE(IsValidUtf8("\xe2\x82", /*allow_cut_end=*/true));
}

}  // namespace
}  // namespace ncclscope
