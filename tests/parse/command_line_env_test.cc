// NCCL_* assignments on a pasted shell command line or environment dump: each one is a setting
// the processes of that input run with, not a line that only mentions NCCL.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ncclscope/parse/line_parser.h"

namespace ncclscope {
namespace {

struct Assignment {
  std::string name, value, text;
  bool command_line = false;
};

std::vector<Assignment> Assignments(const std::string& text) {
  LineParser parser;
  Line line;
  line.text = text;
  line.number = 1;
  Event e;
  std::vector<Assignment> out;
  if (parser.Parse(line, &e) != ParseOutcome::kEvent) return out;
  do {
    if (const auto* s = std::get_if<EnvSetting>(&e.data)) {
      out.push_back({std::string(s->name), std::string(s->value), std::string(e.ctx.text),
                     s->command_line});
    }
  } while (parser.ParseMore(&e));
  return out;
}

TEST(CommandLineEnv, EveryAssignmentOfAShellPromptLineIsASetting) {
  // nccl#1773.
  auto got = Assignments(
      "root@10-4-3-3:/opt/nccl-tests# NCCL_P2P_DISABLE=0 NCCL_P2P_LEVEL=SYS NCCL_DEBUG=info "
      "./build/all_reduce_perf -g 8 | tail -n 30");
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].name, "NCCL_P2P_DISABLE");
  EXPECT_EQ(got[0].value, "0");
  EXPECT_EQ(got[1].name, "NCCL_P2P_LEVEL");
  EXPECT_EQ(got[1].value, "SYS");
  EXPECT_EQ(got[2].name, "NCCL_DEBUG");
  EXPECT_EQ(got[2].value, "info");
  EXPECT_TRUE(got[1].command_line);
  // The first setting's text is the line; each further one's starts at its assignment, so that
  // re-reading the text (a condensed input's replay) gives that setting.
  EXPECT_EQ(got[0].text.substr(0, 14), "root@10-4-3-3:");
  EXPECT_EQ(got[1].text.substr(0, 19), "NCCL_P2P_LEVEL=SYS ");
  EXPECT_EQ(Assignments(got[1].text).front().name, "NCCL_P2P_LEVEL");
}

TEST(CommandLineEnv, QuotedValuesAndExports) {
  // nccl#1597 (a value with a blank, quoted).
  auto got = Assignments("        NCCL_NET='AWS Libfabric' \\");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].name, "NCCL_NET");
  EXPECT_EQ(got[0].value, "AWS Libfabric");
  auto exported = Assignments("export NCCL_IB_HCA=mlx5_0,mlx5_1; export NCCL_DEBUG=INFO");
  ASSERT_EQ(exported.size(), 2u);
  EXPECT_EQ(exported[0].value, "mlx5_0,mlx5_1");
}

TEST(CommandLineEnv, NcclsOwnEchoIsNotACommandLine) {
  auto got = Assignments("vm:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to SYS");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].command_line);
  // A line that names NCCL otherwise is no assignment.
  EXPECT_TRUE(Assignments("export NCCL_DEBUG=INFO && python train.py  # NCCL logs").empty());
}

TEST(CommandLineEnv, PythonDictKeysAreSettings) {
  // NVIDIA/nccl#2186: a Ray job prints its runtime_env; TORCH_NCCL_* and other keys are not
  // NCCL's settings.
  auto got = Assignments(
      "runtime_env env_vars: {'NCCL_DEBUG': 'INFO', 'NCCL_DEBUG_SUBSYS': 'INIT,COLL', "
      "'NCCL_CUMEM_ENABLE': '1', 'CUDA_DEVICE_MAX_CONNECTIONS': '1', "
      "'TORCH_NCCL_AVOID_RECORD_STREAMS': '1'}");
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[1].name, "NCCL_DEBUG_SUBSYS");
  EXPECT_EQ(got[1].value, "INIT,COLL");
  EXPECT_EQ(got[2].name, "NCCL_CUMEM_ENABLE");
  EXPECT_EQ(got[2].value, "1");
  // JSON, and an unquoted number.
  auto json = Assignments("{\"NCCL_IB_DISABLE\": 1, \"NCCL_NET\": \"Socket\"}");
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0].value, "1");
  EXPECT_EQ(json[1].value, "Socket");
  // A print that names a variable without a value is none.
  EXPECT_TRUE(Assignments("=== env_dump from rank 0 (verify NCCL_DEBUG propagation) ===").empty());
  EXPECT_TRUE(Assignments("{'NCCL_DEBUG' is not set}").empty());
}

}  // namespace
}  // namespace ncclscope
