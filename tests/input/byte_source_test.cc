#include "ncclscope/input/byte_source.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include "input_test_helpers.h"

namespace ncclscope {
namespace {

using testing::ReadAll;
using testing::ScratchDir;
using testing::WriteFile;
using testing::WriteGzip;

std::string SomeLog(int lines) {
  std::string s;
  for (int i = 0; i < lines; ++i) {
    s += "vm:1012:1012 [0] NCCL INFO Channel " + std::to_string(i % 32) + "/0 : 0[0] -> 1[1] via " +
         "P2P/CUMEM line " + std::to_string(i) + "\n";
  }
  return s;
}

TEST(ByteSource, MemorySourceReturnsTheBufferThenEnd) {
  const std::string data = "abc\ndef";
  auto src = MemoryByteSource(data.data(), data.size());
  EXPECT_EQ(src->SizeHint(), 7);
  Status st;
  EXPECT_EQ(ReadAll(src.get(), &st), data);
  EXPECT_TRUE(st.ok());
}

TEST(ByteSource, PlainFileIsReadWhole) {
  ScratchDir dir;
  const std::string data = SomeLog(5000);
  WriteFile(dir.Path("a.log"), data);
  Status err;
  auto src = OpenByteSource(dir.Path("a.log"), &err);
  ASSERT_NE(src, nullptr) << err.message();
  EXPECT_EQ(src->SizeHint(), static_cast<int64_t>(data.size()));
  Status st;
  EXPECT_EQ(ReadAll(src.get(), &st), data);
  EXPECT_TRUE(st.ok());
}

TEST(ByteSource, EmptyAndOneByteFilesAreReadAsPlain) {
  ScratchDir dir;
  for (const std::string& data : {std::string(), std::string("\x1f")}) {
    WriteFile(dir.Path("f"), data);
    Status err;
    auto src = OpenByteSource(dir.Path("f"), &err);
    ASSERT_NE(src, nullptr);
    Status st;
    EXPECT_EQ(ReadAll(src.get(), &st), data);
    EXPECT_TRUE(st.ok());
  }
}

TEST(ByteSource, MissingFileIsNotFoundNamingThePath) {
  Status err;
  auto src = OpenByteSource("/nonexistent/dir/x.log", &err);
  EXPECT_EQ(src, nullptr);
  EXPECT_EQ(err.code(), Status::Code::kNotFound);
  EXPECT_EQ(err.message(), "/nonexistent/dir/x.log: No such file or directory");
}

TEST(ByteSource, DirectoryCannotBeOpened) {
  ScratchDir dir;
  Status err;
  EXPECT_EQ(OpenByteSource(dir.path(), &err), nullptr);
  EXPECT_FALSE(err.ok());
  EXPECT_NE(err.message().find("Is a directory"), std::string::npos);
}

TEST(ByteSource, GzipIsDetectedByMagicNotByName) {
  ScratchDir dir;
  const std::string data = SomeLog(20000);
  WriteGzip(dir.Path("compressed.log"), {data});
  Status err;
  auto src = OpenByteSource(dir.Path("compressed.log"), &err);
  ASSERT_NE(src, nullptr);
  EXPECT_EQ(src->SizeHint(), -1);  // Decompressed size unknown.
  Status st;
  EXPECT_EQ(ReadAll(src.get(), &st), data);
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(ByteSource, PlainTextNamedGzIsReadAsPlain) {
  ScratchDir dir;
  WriteFile(dir.Path("x.gz"), "not compressed\n");
  Status err;
  auto src = OpenByteSource(dir.Path("x.gz"), &err);
  ASSERT_NE(src, nullptr);
  Status st;
  EXPECT_EQ(ReadAll(src.get(), &st), "not compressed\n");
}

TEST(ByteSource, ConcatenatedGzipMembersAreAllRead) {
  ScratchDir dir;
  WriteGzip(dir.Path("multi.gz"), {"first member\n", "", SomeLog(3000), "last\n"});
  Status err;
  auto src = OpenByteSource(dir.Path("multi.gz"), &err);
  ASSERT_NE(src, nullptr);
  Status st;
  EXPECT_EQ(ReadAll(src.get(), &st), "first member\n" + SomeLog(3000) + "last\n");
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(ByteSource, TruncatedGzipGivesDataBeforeTheDamageThenAnError) {
  ScratchDir dir;
  std::mt19937 rng(7);
  std::string data = SomeLog(40000);  // ~3 MB, so the cut is far from the start.
  for (size_t i = 0; i < data.size(); i += 97) data[i] = static_cast<char>('a' + rng() % 26);
  WriteGzip(dir.Path("cut.gz"), {data});
  const std::string gz = testing::ReadFileOrDieForInput(dir.Path("cut.gz"));
  WriteFile(dir.Path("cut.gz"), gz.substr(0, gz.size() / 2));
  Status err;
  auto src = OpenByteSource(dir.Path("cut.gz"), &err);
  ASSERT_NE(src, nullptr);
  Status st;
  std::string got = ReadAll(src.get(), &st);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message(), dir.Path("cut.gz") + ": truncated gzip stream");
  EXPECT_GT(got.size(), data.size() / 4);
  EXPECT_LT(got.size(), data.size());
  EXPECT_EQ(got, data.substr(0, got.size()));
}

TEST(ByteSource, GzipCutInsideTheHeaderIsTruncated) {
  ScratchDir dir;
  WriteFile(dir.Path("h.gz"), std::string("\x1f\x8b\x08", 3));
  Status err;
  auto src = OpenByteSource(dir.Path("h.gz"), &err);
  ASSERT_NE(src, nullptr);
  Status st;
  EXPECT_EQ(ReadAll(src.get(), &st), "");
  EXPECT_EQ(st.message(), dir.Path("h.gz") + ": truncated gzip stream");
}

TEST(ByteSource, CorruptGzipDataIsReportedAsDamaged) {
  ScratchDir dir;
  WriteGzip(dir.Path("bad.gz"), {SomeLog(100)});
  std::string gz = testing::ReadFileOrDieForInput(dir.Path("bad.gz"));
  for (size_t i = 12; i < gz.size() - 8; ++i) gz[i] = static_cast<char>(0xff);
  WriteFile(dir.Path("bad.gz"), gz);
  Status err;
  auto src = OpenByteSource(dir.Path("bad.gz"), &err);
  ASSERT_NE(src, nullptr);
  Status st;
  ReadAll(src.get(), &st);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find(dir.Path("bad.gz")), std::string::npos);
}

TEST(ByteSource, ZeroPaddingAfterGzipIsIgnoredButGarbageIsReported) {
  ScratchDir dir;
  WriteGzip(dir.Path("p.gz"), {"payload\n"});
  const std::string gz = testing::ReadFileOrDieForInput(dir.Path("p.gz"));
  WriteFile(dir.Path("p.gz"), gz + std::string(512, '\0'));
  WriteFile(dir.Path("g.gz"), gz + "garbage");
  Status err, st;
  auto padded = OpenByteSource(dir.Path("p.gz"), &err);
  EXPECT_EQ(ReadAll(padded.get(), &st), "payload\n");
  EXPECT_TRUE(st.ok()) << st.message();
  auto garbage = OpenByteSource(dir.Path("g.gz"), &err);
  EXPECT_EQ(ReadAll(garbage.get(), &st), "payload\n");
  EXPECT_FALSE(st.ok());
}

TEST(ByteSource, DashReadsStandardInputIncludingGzip) {
  ScratchDir dir;
  WriteGzip(dir.Path("in.gz"), {"from stdin\n"});
  const int saved = dup(STDIN_FILENO);
  ASSERT_GE(saved, 0);
  const int fd = open(dir.Path("in.gz").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(dup2(fd, STDIN_FILENO), STDIN_FILENO);
  close(fd);
  Status err, st;
  std::string got;
  {
    auto src = OpenByteSource("-", &err);
    ASSERT_NE(src, nullptr);
    got = ReadAll(src.get(), &st);
  }
  dup2(saved, STDIN_FILENO);
  close(saved);
  EXPECT_EQ(got, "from stdin\n");
  EXPECT_TRUE(st.ok());
}

}  // namespace
}  // namespace ncclscope
