// The families the twenty-ninth and thirtieth held-out rounds of public logs exposed
// (docs/triage.md): newer fabric features (NVLS, CollNet, MNNVL) and logs from localized
// environments. Lines verbatim from the threads named, each with the case where the tool must
// conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

// OpenBMB/MiniCPM-V#265: four GPUs of one host linked through PHB and SYS only, and
// NCCL_P2P_LEVEL=NVL: P2P is off between all of them.
constexpr std::string_view kPcieOnlyNvlLevel =
    "gpu009:47870:48592 [3] NCCL INFO GPU/50000 :GPU/50000 (0/5000.000000/LOC) GPU/53000 "
    "(4/24.000000/PHB) GPU/57000 (4/24.000000/PHB) GPU/9C000 (5/10.000000/SYS) CPU/0 "
    "(2/24.000000/PHB) CPU/1 (3/10.000000/SYS) \n"
    "gpu009:47868:48591 [1] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL\n"
    "gpu009:47869:48590 [2] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL\n"
    "gpu009:47867:48593 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL\n";

TEST(FieldRound30, P2pLevelBelowTheGpusPathsDisablesP2p) {
  const AnalysisResult r = AnalyzeText(kPcieOnlyNvlLevel);
  const Finding* f = FindingOf(r, "env-override");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "NCCL_P2P_LEVEL=NVL")) << f->message;
  EXPECT_TRUE(Has(f->message, "PHB/SYS")) << f->message;
  // The same level where the GPUs have NVLink between them keeps P2P: a setting, no warning.
  std::string nvlink(kPcieOnlyNvlLevel);
  for (size_t at; (at = nvlink.find("/PHB)")) != std::string::npos;) nvlink.replace(at, 5, "/NVL)");
  for (size_t at; (at = nvlink.find("/SYS)")) != std::string::npos;) nvlink.replace(at, 5, "/NVL)");
  const AnalysisResult ok = AnalyzeText(nvlink);
  const Finding* g = FindingOf(ok, "env-override");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->severity, Severity::kInfo) << g->message;
  // A level that admits the farthest path (SYS) cuts nothing.
  std::string sys(kPcieOnlyNvlLevel);
  for (size_t at; (at = sys.find("to NVL")) != std::string::npos;) sys.replace(at, 6, "to SYS");
  const Finding* h = FindingOf(AnalyzeText(sys), "env-override");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->severity, Severity::kInfo) << h->message;
}

TEST(FieldRound29, RuntimeEnvDictSettingsCount) {
  // NVIDIA/nccl#2186: the Ray job's runtime_env print is how its NCCL settings are known.
  const AnalysisResult r = AnalyzeText(
      "runtime_env env_vars: {'NCCL_DEBUG': 'INFO', 'NCCL_DEBUG_SUBSYS': 'INIT,COLL', "
      "'NCCL_CUMEM_ENABLE': '1', 'NCCL_NVLS_ENABLE': '1', 'NCCL_MNNVL_ENABLE': '1', "
      "'CUDA_DEVICE_MAX_CONNECTIONS': '1', 'TORCH_NCCL_AVOID_RECORD_STREAMS': '1', "
      "'PYTHONUNBUFFERED': '1'}\n"
      "(W pid=694) gb200-rack1-15:694:945 [0] NCCL INFO cudaDriverVersion 13000\n");
  const Finding* f = FindingOf(r, "env-override");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "NCCL_MNNVL_ENABLE=1")) << f->message;
  EXPECT_EQ(r.job.stats.unrecognized_mentions + r.job.stats.unrecognized, 0u);
}

}  // namespace
}  // namespace ncclscope
