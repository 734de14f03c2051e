#include "ncclscope/input/input_set.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "input_test_helpers.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::ScratchDir;
using testing::WriteFile;

std::vector<std::string> Names(const ExpandedInputs& e) {
  std::vector<std::string> out;
  for (const InputPath& p : e.inputs) out.push_back(p.name);
  return out;
}

TEST(ExpandInputs, NoArgumentsMeansStdin) {
  ExpandedInputs e = ExpandInputs({});
  ASSERT_EQ(e.inputs.size(), 1u);
  EXPECT_EQ(e.inputs[0].path, "-");
  EXPECT_EQ(e.inputs[0].name, "<stdin>");
  EXPECT_TRUE(e.problems.empty());
}

TEST(ExpandInputs, DashMeansStdin) {
  ExpandedInputs e = ExpandInputs({"-"});
  ASSERT_EQ(e.inputs.size(), 1u);
  EXPECT_EQ(e.inputs[0].path, "-");
  EXPECT_EQ(e.inputs[0].name, "<stdin>");
}

TEST(ExpandInputs, FilesKeepTheirOrderAndNameAsGiven) {
  ScratchDir dir;
  WriteFile(dir.Path("b.log"), "b\n");
  WriteFile(dir.Path("a.log"), "a\n");
  ExpandedInputs e = ExpandInputs({dir.Path("b.log"), dir.Path("a.log")});
  EXPECT_EQ(Names(e), (std::vector<std::string>{dir.Path("b.log"), dir.Path("a.log")}));
  EXPECT_TRUE(e.problems.empty());
}

TEST(ExpandInputs, MissingPathIsAProblemAndTheOthersAreKept) {
  ScratchDir dir;
  WriteFile(dir.Path("ok.log"), "x\n");
  ExpandedInputs e = ExpandInputs({dir.Path("missing.log"), dir.Path("ok.log")});
  EXPECT_EQ(Names(e), (std::vector<std::string>{dir.Path("ok.log")}));
  ASSERT_EQ(e.problems.size(), 1u);
  EXPECT_EQ(e.problems[0].path, dir.Path("missing.log"));
  EXPECT_EQ(e.problems[0].message, "No such file or directory");
}

TEST(ExpandInputs, DirectoryIsWalkedRecursivelyInSortedOrder) {
  ScratchDir dir;
  WriteFile(dir.Path("logs/z.log"), "z\n");
  WriteFile(dir.Path("logs/a.log"), "a\n");
  WriteFile(dir.Path("logs/node1/rank1.log"), "1\n");
  WriteFile(dir.Path("logs/node0/rank0.log.gz"), "0\n");
  std::filesystem::create_directories(dir.Path("logs/empty"));
  ExpandedInputs e = ExpandInputs({dir.Path("logs")});
  EXPECT_EQ(Names(e), (std::vector<std::string>{
                          dir.Path("logs/a.log"),
                          dir.Path("logs/node0/rank0.log.gz"),
                          dir.Path("logs/node1/rank1.log"),
                          dir.Path("logs/z.log"),
                      }));
  EXPECT_TRUE(e.problems.empty());
}

TEST(ExpandInputs, DirectoryWithTrailingSlashGivesCleanNames) {
  ScratchDir dir;
  WriteFile(dir.Path("d/x.log"), "x\n");
  ExpandedInputs e = ExpandInputs({dir.Path("d/")});
  EXPECT_EQ(Names(e), (std::vector<std::string>{dir.Path("d/x.log")}));
}

TEST(ExpandInputs, SymlinkLoopInsideADirectoryEnds) {
  ScratchDir dir;
  WriteFile(dir.Path("d/sub/x.log"), "x\n");
  std::filesystem::create_directory_symlink(dir.Path("d"), dir.Path("d/sub/loop"));
  ExpandedInputs e = ExpandInputs({dir.Path("d")});
  EXPECT_EQ(Names(e), (std::vector<std::string>{dir.Path("d/sub/x.log")}));
}

TEST(ExpandInputs, SymlinkedFileInsideADirectoryIsRead) {
  ScratchDir dir;
  WriteFile(dir.Path("real/pod.log"), "x\n");
  std::filesystem::create_directories(dir.Path("containers"));
  std::filesystem::create_symlink(dir.Path("real/pod.log"), dir.Path("containers/pod.log"));
  ExpandedInputs e = ExpandInputs({dir.Path("containers")});
  EXPECT_EQ(Names(e), (std::vector<std::string>{dir.Path("containers/pod.log")}));
}

TEST(ExpandInputs, UnreadableFileIsAProblemAndTheOthersAreKept) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads files regardless of their mode";
  ScratchDir dir;
  WriteFile(dir.Path("d/secret.log"), "x\n");
  WriteFile(dir.Path("d/open.log"), "y\n");
  ASSERT_EQ(chmod(dir.Path("d/secret.log").c_str(), 0), 0);
  ExpandedInputs e = ExpandInputs({dir.Path("d"), dir.Path("d/secret.log")});
  EXPECT_EQ(Names(e), (std::vector<std::string>{dir.Path("d/open.log")}));
  ASSERT_EQ(e.problems.size(), 2u);
  EXPECT_EQ(e.problems[0].path, dir.Path("d/secret.log"));
  EXPECT_EQ(e.problems[0].message, "Permission denied");
}

TEST(ExpandInputs, UnreadableSubdirectoryIsAProblemAndTheOthersAreKept) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads directories regardless of their mode";
  ScratchDir dir;
  WriteFile(dir.Path("d/locked/x.log"), "x\n");
  WriteFile(dir.Path("d/y.log"), "y\n");
  ASSERT_EQ(chmod(dir.Path("d/locked").c_str(), 0), 0);
  ExpandedInputs e = ExpandInputs({dir.Path("d")});
  chmod(dir.Path("d/locked").c_str(), 0755);
  EXPECT_EQ(Names(e), (std::vector<std::string>{dir.Path("d/y.log")}));
  ASSERT_EQ(e.problems.size(), 1u);
  EXPECT_EQ(e.problems[0].path, dir.Path("d/locked"));
}

TEST(ExpandInputs, CorpusDirectoryListsTheDebugFiles) {
  ExpandedInputs e = ExpandInputs({testing::TestData("corpus/h200x4/debug_file")});
  EXPECT_EQ(e.inputs.size(), 4u);
  EXPECT_TRUE(e.problems.empty());
}

}  // namespace
}  // namespace ncclscope
