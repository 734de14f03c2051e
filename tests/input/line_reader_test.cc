#include "ncclscope/input/line_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ncclscope/input/byte_source.h"

namespace ncclscope {
namespace {

struct ReadResult {
  std::vector<std::string> lines;
  std::vector<bool> truncated;
};

ReadResult ReadLines(ByteSource* src, size_t max_line = LineReader::kDefaultMaxLine) {
  LineReader reader(src, max_line);
  ReadResult r;
  std::string_view line;
  bool truncated = false;
  while (reader.Next(&line, &truncated)) {
    r.lines.emplace_back(line);
    r.truncated.push_back(truncated);
  }
  return r;
}

ReadResult ReadString(const std::string& data, size_t max_line = LineReader::kDefaultMaxLine) {
  auto src = MemoryByteSource(data.data(), data.size());
  return ReadLines(src.get(), max_line);
}

/// Hands out a string in chunks of the given sizes (cycling), like a pipe would.
class ChunkedSource : public ByteSource {
 public:
  ChunkedSource(std::string data, std::vector<size_t> chunks)
      : data_(std::move(data)), chunks_(std::move(chunks)) {}
  Status Read(char* buf, size_t cap, size_t* n) override {
    size_t want = std::min({cap, chunks_[next_++ % chunks_.size()], data_.size() - pos_});
    std::memcpy(buf, data_.data() + pos_, want);
    pos_ += want;
    *n = want;
    return Status::Ok();
  }

 private:
  std::string data_;
  std::vector<size_t> chunks_;
  size_t pos_ = 0;
  size_t next_ = 0;
};

/// Produces `count` bytes of 'x' without storing them, then `tail`.
class GeneratedLineSource : public ByteSource {
 public:
  GeneratedLineSource(uint64_t count, std::string tail) : left_(count), tail_(std::move(tail)) {}
  Status Read(char* buf, size_t cap, size_t* n) override {
    if (left_ > 0) {
      size_t k = static_cast<size_t>(std::min<uint64_t>(cap, left_));
      std::memset(buf, 'x', k);
      left_ -= k;
      *n = k;
      return Status::Ok();
    }
    size_t k = std::min(cap, tail_.size() - tail_pos_);
    std::memcpy(buf, tail_.data() + tail_pos_, k);
    tail_pos_ += k;
    *n = k;
    return Status::Ok();
  }

 private:
  uint64_t left_;
  std::string tail_;
  size_t tail_pos_ = 0;
};

/// Returns `data`, then fails.
class FailingSource : public ByteSource {
 public:
  explicit FailingSource(std::string data) : data_(std::move(data)) {}
  Status Read(char* buf, size_t cap, size_t* n) override {
    if (done_) {
      *n = 0;
      return Status::IoError("disk.log: Input/output error");
    }
    *n = std::min(cap, data_.size());
    std::memcpy(buf, data_.data(), *n);
    done_ = true;
    return Status::Ok();
  }

 private:
  std::string data_;
  bool done_ = false;
};

TEST(LineReader, SplitsOnNewlines) {
  ReadResult r = ReadString("a\nbb\nccc\n");
  EXPECT_EQ(r.lines, (std::vector<std::string>{"a", "bb", "ccc"}));
}

TEST(LineReader, CrlfLineEndingsLoseTheCarriageReturn) {
  ReadResult r = ReadString("one\r\ntwo\r\n\r\nthree\r");
  EXPECT_EQ(r.lines, (std::vector<std::string>{"one", "two", "", "three"}));
}

TEST(LineReader, CarriageReturnInsideALineIsKept) {
  ReadResult r = ReadString("progress\r50%\n");
  EXPECT_EQ(r.lines, (std::vector<std::string>{"progress\r50%"}));
}

TEST(LineReader, LastLineWithoutNewlineIsReturned) {
  ReadResult r = ReadString("first\nlast");
  EXPECT_EQ(r.lines, (std::vector<std::string>{"first", "last"}));
}

TEST(LineReader, EmptyInputYieldsNoLines) {
  ReadResult r = ReadString("");
  EXPECT_TRUE(r.lines.empty());
}

TEST(LineReader, EmptyLinesAreKept) {
  ReadResult r = ReadString("\n\nx\n");
  EXPECT_EQ(r.lines, (std::vector<std::string>{"", "", "x"}));
}

TEST(LineReader, NulBytesPassThroughAsData) {
  const std::string data("a\0b\n\0\n", 6);
  ReadResult r = ReadString(data);
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[0], std::string("a\0b", 3));
  EXPECT_EQ(r.lines[1], std::string("\0", 1));
}

TEST(LineReader, CountsLinesAndBytes) {
  const std::string data = "a\nbb\r\nccc";
  auto src = MemoryByteSource(data.data(), data.size());
  LineReader reader(src.get());
  std::string_view line;
  bool truncated;
  while (reader.Next(&line, &truncated)) {
  }
  EXPECT_EQ(reader.lines_read(), 3u);
  EXPECT_EQ(reader.bytes_read(), data.size());
  EXPECT_TRUE(reader.status().ok());
}

TEST(LineReader, OverlongLineIsCutAndReportedAsTruncated) {
  ReadResult r = ReadString("short\n0123456789abcdefXYZ\nafter\n", 16);
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[0], "short");
  EXPECT_EQ(r.lines[1], "0123456789abcdef");
  EXPECT_TRUE(r.truncated[1]);
  EXPECT_EQ(r.lines[2], "after");
  EXPECT_FALSE(r.truncated[0]);
  EXPECT_FALSE(r.truncated[2]);
}

TEST(LineReader, LineOfExactlyMaxLineIsNotTruncated) {
  ReadResult r = ReadString("0123456789abcdef\n0123456789abcdef", 16);
  EXPECT_EQ(r.lines, (std::vector<std::string>{"0123456789abcdef", "0123456789abcdef"}));
  EXPECT_EQ(r.truncated, (std::vector<bool>{false, false}));
}

TEST(LineReader, OverlongLastLineWithoutNewlineIsCutOnce) {
  ReadResult r = ReadString("ok\n" + std::string(100, 'y'), 16);
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[1], std::string(16, 'y'));
  EXPECT_TRUE(r.truncated[1]);
}

TEST(LineReader, LinesLongerThanTheBufferAreCutAtMaxLine) {
  const size_t max_line = 1024 * 1024;  // Larger than the default buffer: the buffer grows.
  std::string data = std::string(max_line + 10, 'z') + "\nend\n";
  ReadResult r = ReadString(data, max_line);
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[0].size(), max_line);
  EXPECT_TRUE(r.truncated[0]);
  EXPECT_EQ(r.lines[1], "end");
}

TEST(LineReader, HundredMegabyteLineWithoutNewlineUsesBoundedMemoryAndEnds) {
  const uint64_t kSize = 100ull * 1024 * 1024;
  GeneratedLineSource src(kSize, "\nnext line\n");
  const auto start = std::chrono::steady_clock::now();
  LineReader reader(&src, 4096);
  std::string_view line;
  bool truncated = false;
  ASSERT_TRUE(reader.Next(&line, &truncated));
  EXPECT_EQ(line, std::string(4096, 'x'));
  EXPECT_TRUE(truncated);
  ASSERT_TRUE(reader.Next(&line, &truncated));
  EXPECT_EQ(line, "next line");
  EXPECT_FALSE(truncated);
  EXPECT_FALSE(reader.Next(&line, &truncated));
  EXPECT_EQ(reader.bytes_read(), kSize + 11);
  EXPECT_EQ(reader.lines_read(), 2u);
  const auto secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(secs, 5.0);
}

TEST(LineReader, HundredMegabyteFinalLineWithoutAnyNewlineEnds) {
  GeneratedLineSource src(100ull * 1024 * 1024, "");
  ReadResult r = ReadLines(&src);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].size(), LineReader::kDefaultMaxLine);
  EXPECT_TRUE(r.truncated[0]);
}

/// A source that says it is smaller than it is (a log still being written while it is read).
class GrowingSource : public ByteSource {
 public:
  GrowingSource(std::string data, int64_t hint) : data_(std::move(data)), hint_(hint) {}
  Status Read(char* buf, size_t cap, size_t* n) override {
    *n = std::min(cap, data_.size() - pos_);
    std::memcpy(buf, data_.data() + pos_, *n);
    pos_ += *n;
    return Status::Ok();
  }
  int64_t SizeHint() const override { return hint_; }

 private:
  std::string data_;
  int64_t hint_;
  size_t pos_ = 0;
};

TEST(LineReader, FileLongerThanItsSizeHintIsReadWhole) {
  // The buffer is sized from the hint (small files) and must grow, not stop, when more comes.
  std::string data;
  for (int i = 0; i < 20000; ++i) data += "line " + std::to_string(i) + "\n";
  data += std::string(100000, 'y') + "\nlast";
  const ReadResult whole = ReadString(data);
  for (int64_t hint : {int64_t{0}, int64_t{10}, int64_t{5000}, int64_t{200000}}) {
    GrowingSource src(data, hint);
    const ReadResult r = ReadLines(&src);
    EXPECT_EQ(r.lines, whole.lines) << "hint " << hint;
    EXPECT_EQ(r.truncated, whole.truncated) << "hint " << hint;
  }
  ASSERT_EQ(whole.lines.size(), 20002u);
  EXPECT_TRUE(whole.truncated[20000]);  // the 100,000-byte line is cut at 64 KiB
  EXPECT_EQ(whole.lines.back(), "last");
}

TEST(LineReader, TinyReadsGiveTheSameLinesAsOneBigRead) {
  std::string data;
  for (int i = 0; i < 500; ++i) {
    data += "line " + std::to_string(i) + std::string(i % 37, '.') + (i % 3 ? "\n" : "\r\n");
  }
  ReadResult whole = ReadString(data, 40);
  for (std::vector<size_t> chunks :
       {std::vector<size_t>{1}, std::vector<size_t>{7, 1, 3}, std::vector<size_t>{41, 2}}) {
    ChunkedSource src(data, chunks);
    ReadResult r = ReadLines(&src, 40);
    EXPECT_EQ(r.lines, whole.lines);
    EXPECT_EQ(r.truncated, whole.truncated);
  }
}

TEST(LineReader, RandomBinaryGarbageIsSplitWithoutLosingBytes) {
  std::mt19937 rng(42);
  std::string data(1 << 20, '\0');
  for (char& c : data) c = static_cast<char>(rng() & 0xff);
  ReadResult r = ReadString(data, 100000);
  size_t newlines = std::count(data.begin(), data.end(), '\n');
  size_t total = 0;
  for (const std::string& l : r.lines) total += l.size();
  size_t crs = 0;  // A CR before a newline (or at the end) is dropped.
  for (size_t i = 0; i < data.size(); ++i) {
    if (data[i] == '\r' && (i + 1 == data.size() || data[i + 1] == '\n')) ++crs;
  }
  EXPECT_GE(r.lines.size(), newlines);
  EXPECT_LE(r.lines.size(), newlines + 1);
  EXPECT_EQ(total + newlines + crs, data.size());
}

TEST(LineReader, ReadErrorReturnsTheGoodLinesThenStopsWithStatus) {
  FailingSource src("good 1\ngood 2\npartial");
  LineReader reader(&src);
  std::vector<std::string> lines;
  std::string_view line;
  bool truncated;
  while (reader.Next(&line, &truncated)) lines.emplace_back(line);
  EXPECT_EQ(lines, (std::vector<std::string>{"good 1", "good 2", "partial"}));
  EXPECT_FALSE(reader.status().ok());
  EXPECT_EQ(reader.status().message(), "disk.log: Input/output error");
  EXPECT_FALSE(reader.Next(&line, &truncated));
}

/// Keeps every retired buffer, and counts what it handed out.
class KeepingRecycler : public BufferRecycler {
 public:
  std::unique_ptr<char[]> Take(size_t bytes) override {
    ++taken;
    return std::unique_ptr<char[]>(new char[bytes]);
  }
  void Retire(std::unique_ptr<char[]> buffer, size_t) override {
    kept.push_back(std::move(buffer));
  }
  int taken = 0;
  std::vector<std::unique_ptr<char[]>> kept;
};

TEST(LineReader, WithARecyclerEveryLineReturnedStaysIntact) {
  // Lines of every length up to past the buffer, cut at odd read sizes and one over-long line:
  // the reader never writes into a buffer it returned lines from (views kept, compared at the
  // end), and moves on through the recycler's buffers.
  std::string data;
  std::vector<std::string> expected;
  for (int i = 0; i < 4000; ++i) {
    std::string line(static_cast<size_t>((i * 131) % 700), static_cast<char>('a' + i % 26));
    line += std::to_string(i);
    data += line + "\n";
    expected.push_back(line);
  }
  data += std::string(300, 'x') + "\ntail\n";
  expected.push_back(std::string(200, 'x'));
  expected.push_back("tail");
  ChunkedSource src(data, {4093, 17, 65536});
  KeepingRecycler recycler;
  LineReader reader(&src, /*max_line=*/200);
  reader.set_recycler(&recycler);
  std::vector<std::string_view> views;
  std::string_view line;
  bool truncated = false;
  while (reader.Next(&line, &truncated)) views.push_back(line);
  ASSERT_EQ(views.size(), expected.size());
  for (size_t i = 0; i < views.size(); ++i) {
    const std::string& want = expected[i].size() > 200 ? expected[i].substr(0, 200) : expected[i];
    ASSERT_EQ(views[i], want) << "line " << i;
  }
  EXPECT_GT(recycler.taken, 3);
  EXPECT_EQ(recycler.kept.size(), static_cast<size_t>(recycler.taken));
}

}  // namespace
}  // namespace ncclscope
