// Helpers for the input tests: a scratch directory removed at the end of the test, file writers
// (plain and gzip) and a drain-everything reader for ByteSource.
#ifndef NCCLSCOPE_TESTS_INPUT_INPUT_TEST_HELPERS_H_
#define NCCLSCOPE_TESTS_INPUT_INPUT_TEST_HELPERS_H_

#include <gtest/gtest.h>
#include <stdlib.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ncclscope/input/byte_source.h"

namespace ncclscope::testing {

/// A fresh directory under the test temp dir, deleted (with its contents) on destruction.
class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = std::filesystem::temp_directory_path().string() + "/ncclscope_in_XXXXXX";
    char* made = mkdtemp(tmpl.data());
    EXPECT_NE(made, nullptr);
    path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  /// Absolute path of `name` inside the directory.
  std::string Path(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Writes `data` to `path`, creating parent directories.
inline void WriteFile(const std::string& path, const std::string& data) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  ASSERT_TRUE(out.good()) << path;
}

/// Writes each of `members` as one gzip member, one after the other, into `path`.
inline void WriteGzip(const std::string& path, const std::vector<std::string>& members) {
  std::string all;
  for (const std::string& m : members) {
    std::string tmp = path + ".member";
    gzFile gz = gzopen(tmp.c_str(), "wb");
    ASSERT_NE(gz, nullptr);
    if (!m.empty()) {
      ASSERT_EQ(gzwrite(gz, m.data(), static_cast<unsigned>(m.size())), int(m.size()));
    }
    ASSERT_EQ(gzclose(gz), Z_OK);
    std::ifstream in(tmp, std::ios::binary);
    all.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::filesystem::remove(tmp);
  }
  WriteFile(path, all);
}

/// Whole file as bytes (empty if unreadable).
inline std::string ReadFileOrDieForInput(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Reads `source` to the end (or the first error, returned in *status) in odd-sized chunks.
inline std::string ReadAll(ByteSource* source, Status* status) {
  std::string out;
  char buf[4093];
  for (;;) {
    size_t n = 0;
    *status = source->Read(buf, sizeof(buf), &n);
    out.append(buf, n);
    if (!status->ok() || n == 0) return out;
  }
}

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_INPUT_INPUT_TEST_HELPERS_H_
