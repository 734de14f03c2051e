// Test helper: reads a corpus log into ncclscope::Line objects without the input layer (which is
// written separately). Header-only because CMake compiles only tests/**/*_test.cc.
#ifndef NCCLSCOPE_TESTS_PARSE_CORPUS_LINES_H_
#define NCCLSCOPE_TESTS_PARSE_CORPUS_LINES_H_

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/input/line.h"
#include "test_util.h"

namespace ncclscope::testing {

/// A whole log file split into lines; `lines` views point into `storage`.
struct CorpusFile {
  std::string path;
  std::vector<std::string> storage;
  std::vector<Line> lines;
};

/// Reads `path` (absolute). Drops '\r'; strips a leading `[defaultN]:` tee prefix.
inline CorpusFile ReadCorpusFile(const std::string& path) {
  CorpusFile f;
  f.path = path;
  std::ifstream in(path, std::ios::binary);
  std::string s;
  std::vector<int> ranks;
  while (std::getline(in, s)) {
    if (!s.empty() && s.back() == '\r') s.pop_back();
    int launcher_rank = -1;
    if (s.rfind("[default", 0) == 0) {
      size_t close = s.find("]:");
      if (close != std::string::npos) {
        launcher_rank = std::stoi(s.substr(8, close - 8));
        s.erase(0, close + 2);
      }
    }
    f.storage.push_back(std::move(s));
    ranks.push_back(launcher_rank);
  }
  f.lines.resize(f.storage.size());
  for (size_t i = 0; i < f.lines.size(); ++i) {
    f.lines[i].text = f.storage[i];
    f.lines[i].number = i + 1;
    f.lines[i].meta.launcher_rank = ranks[i];
  }
  return f;
}

/// Every NCCL log under testdata/corpus (h200x4/*.log, h200x4/debug_file/*, seeds/*.log,
/// nccl-tests/*.log), as absolute paths in a stable order.
inline std::vector<std::string> CorpusLogPaths() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  auto add_dir = [&out](const std::string& dir, bool only_log) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      if (only_log && e.path().extension() != ".log") continue;
      out.push_back(e.path().string());
    }
  };
  add_dir(TestData("corpus/h200x4"), true);
  add_dir(TestData("corpus/h200x4/debug_file"), false);
  add_dir(TestData("corpus/seeds"), true);
  add_dir(TestData("corpus/nccl-tests"), true);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_PARSE_CORPUS_LINES_H_
