// The families the sixty-fourth to sixty-seventh held-out rounds of public logs exposed
// (docs/triage.md): RCCL on AMD GPUs (its version block, its start-up advice), Ray jobs (a
// remote task's NCCL exception, glibc backtraces of the watchdog) and integrated GPUs (Jetson,
// DGX Spark). Lines verbatim from the threads named, each with the case where the tool must
// conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;

int IncidentsOfKind(const AnalysisResult& r, IncidentKind kind) {
  int n = 0;
  for (const Incident& i : r.job.incidents.incidents) n += i.kind == kind ? 1 : 0;
  return n;
}

// ROCm/rccl#2188 and ROCm/rccl-tests#163: RCCL's version block at init.
constexpr std::string_view kRcclVersionBlock =
    "z292:58192:58192 [0] NCCL INFO Kernel version: 5.15.0-163-generic\n"
    "z292:58192:58192 [3] NCCL INFO ROCr version 1.14\n"
    "z292:58192:58192 [3] NCCL INFO Dmabuf feature disabled without NCCL_DMABUF_ENABLE=1\n"
    "node [0] NCCL INFO Hipruntime version: 70253211, firmware version: 44\n"
    "node [0] NCCL INFO RCCL version : 2.27.7-HEAD:29e1567\n"
    "z292:58192:58200 [2] NCCL INFO [node_id = 4; gpu_id = 9962; unique_id = 156633409065108215; "
    "location_id = 51200; bdf = 51200; domain = 0; partition = 0], \n";

TEST(FieldRound64, RcclVersionBlockIsUnderstood) {
  const AnalysisResult r = AnalyzeText(kRcclVersionBlock);
  EXPECT_EQ(r.job.stats.unrecognized, 0u);
  EXPECT_EQ(r.job.stats.unrecognized_mentions, 0u);
}

// ROCm/rccl#908: RCCL's advice on the kernel command line is printed as a WARN before the
// failure; the failure is the IPC handle that could not be created.
constexpr std::string_view kRcclAdviceThenFailure =
    "sharbox-ultra:204802:204802 [0] /home/elias/rccl/build/release/hipify/src/init.cc:125 NCCL "
    "WARN Missing \"amd_iommu=on\" from kernel command line which can lead to system instablity "
    "or hang!\n"
    "sharbox-ultra:204802:204802 [0] /home/elias/rccl/build/release/hipify/src/init.cc:127 NCCL "
    "WARN Missing \"iommu=pt\" from kernel command line which can lead to system instablity or "
    "hang!\n"
    "sharbox-ultra:204802:204836 [1] /home/elias/rccl/build/release/hipify/src/transport/"
    "p2p.cc:220 NCCL WARN hipIpcGetMemHandle failed : invalid argument\n";

TEST(FieldRound64, RcclAdviceIsNotTheRootCause) {
  const AnalysisResult r = AnalyzeText(kRcclAdviceThenFailure);
  EXPECT_NE(r.root_cause.cause.what.find("hipIpcGetMemHandle failed"), std::string::npos)
      << r.root_cause.cause.what;
}

TEST(FieldRound64, RcclAdviceAloneIsNoFailure) {
  const AnalysisResult r = AnalyzeText(
      "supllm:402:402 [0] /longer_pathname_so_that_rpms_can_support_packaging_the_debug_info_for_"
      "all_os_distros/src/init.cc:149 NCCL WARN Missing \"iommu=pt\" from kernel command line "
      "which can lead to system instablity or hang!\n");
  EXPECT_FALSE(r.root_cause.cause.job_failed);
  EXPECT_EQ(FindingOf(r, "nccl-error"), nullptr);
}

// ray-project/ray#39471: a Ray collective allreduce fails inside the actor; the driver's
// traceback ends in the remote task's error, which names the actor's pid and node.
constexpr std::string_view kRayTaskNcclError =
    "  File \"/home/ml/virtualenv/lib/python3.10/site-packages/ray/_private/worker.py\", line "
    "2493, in get\n"
    "    raise value.as_instanceof_cause()\n"
    "ray.exceptions.RayTaskError(NcclError): ray::Worker.compute() (pid=35381, ip=10.223.22.25, "
    "actor_id=b84905374d259cd0728226ab01000000, repr=<allreduce_test.Worker object at "
    "0x7f496f95ab90>)\n";

TEST(FieldRound65, RayTaskNcclErrorNamesTheActorProcess) {
  const AnalysisResult r = AnalyzeText(kRayTaskNcclError);
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "nccl-error");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].pid, 35381);
  EXPECT_EQ(c.culprits[0].host, "10.223.22.25");
}

TEST(FieldRound65, RayTaskErrorOfAnotherKindIsAPythonException) {
  const AnalysisResult r = AnalyzeText(
      "ray.exceptions.RayTaskError(ValueError): ray::Worker.compute() (pid=35381, "
      "ip=10.223.22.25, repr=<Worker object at 0x7f49>)\n");
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "python-exception");
}

TEST(FieldRound65, ParenthesesThatNameNoExceptionAreNoException) {
  // A Ray log line that only looks like a type: "(pid=...)" is no exception name.
  const AnalysisResult r = AnalyzeText("ray.exceptions.RayTaskError(pid=35381): something\n");
  EXPECT_FALSE(r.root_cause.cause.job_failed);
}

// verl-project/verl#2995: glibc backtrace_symbols() frames of the watchdog thread behind Ray's
// actor prefix.
TEST(FieldRound65, GlibcBacktraceFramesAreKnownFrames) {
  const AnalysisResult r = AnalyzeText(
      "(WorkerDict pid=830, ip=172.26.143.83) /usr/local/lib/python3.10/dist-packages/torch/lib/"
      "libtorch_cuda.so(+0xe5c7aa) [0x14d1948877aa] c10d::ProcessGroupNCCL::ncclCommWatchdog()\n"
      "(WorkerDict pid=830, ip=172.26.143.83) /usr/lib/x86_64-linux-gnu/libstdc++.so.6(+0xdc253) "
      "[0x1501663dd253]\n");
  EXPECT_EQ(r.job.stats.unrecognized_mentions, 0u);
}

// allenai/OLMo-core#829: the reporter re-wrapped rank 4's watchdog lines by hand, WorkNCCL's
// fields over three lines of their own; the pieces are one timeout, and one progress line.
constexpr std::string_view kHandWrappedTimeout =
    "[Rank 4] Watchdog caught collective operation timeout:\n"
    "WorkNCCL(SeqNum=27732, OpType=_REDUCE_SCATTER_BASE,\n"
    "         NumelIn=215585536, NumelOut=26948192, Timeout(ms)=1800000)\n"
    "         ran for 1800003 milliseconds before timing out.\n"
    "\n"
    "[Rank 4] failure detected by watchdog at work sequence id: 27732\n"
    "         PG status: last enqueued work: 27753, last completed work: 27731\n";

TEST(FieldRound65, WatchdogTimeoutWrappedOverFourLinesIsOneTimeout) {
  const AnalysisResult r = AnalyzeText(kHandWrappedTimeout);
  EXPECT_EQ(r.job.stats.unrecognized_mentions, 0u);
  EXPECT_NE(r.root_cause.cause.what.find("SeqNum 27732 _REDUCE_SCATTER_BASE"), std::string::npos)
      << r.root_cause.cause.what;
  EXPECT_EQ(IncidentsOfKind(r, IncidentKind::kWatchdogTimeout), 1);
}

TEST(FieldRound65, ALineThatAddsNoFieldIsNoPieceOfTheTimeout) {
  // A traceback after a cut timeout line starts the traceback; it does not join the timeout.
  const AnalysisResult r = AnalyzeText(
      "[Rank 4] Watchdog caught collective operation timeout:\n"
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 12, in <module>\n"
      "ValueError: loss became NaN at step 3\n");
  EXPECT_EQ(IncidentsOfKind(r, IncidentKind::kException), 1);
}

// googlecolab/colabtools#1735: a notebook cell's IPython traceback marks the frame's current
// line with an arrow; that line is code even when it names NCCL.
TEST(FieldRound66, IpythonMarkedCodeLineIsNoUnreadMention) {
  const AnalysisResult r = AnalyzeText(
      "/usr/local/lib/python3.6/dist-packages/jukebox/utils/dist_utils.py in "
      "_setup_dist_from_mpi(master_addr, backend, port, n_attempts, verbose)\n"
      "     99             pass\n"
      "    100 \n"
      "--> 101     raise RuntimeError(\"Failed to initialize NCCL\")\n");
  EXPECT_EQ(r.job.stats.unrecognized_mentions, 0u);
}

TEST(FieldRound66, AnArrowWithoutALineNumberIsNoCodeLine) {
  const AnalysisResult r = AnalyzeText("--> NCCL INFO something the tool cannot read\n");
  EXPECT_EQ(r.job.stats.unrecognized_mentions + r.job.stats.unrecognized, 1u);
}

// dusty-nv/jetson-containers#1636: nccl-tests on a Jetson AGX Orin (one integrated GPU). NVML
// has no PCI device and no P2P status for it; NCCL warns and the test passes.
constexpr std::string_view kOrinWarnings =
    "NCCL version 2.29.3+cuda12.9\n"
    "\n"
    "[2026-02-24 10:44:30] jetson:27998:27998 [0] misc/nvmlwrap.cc:164 NCCL WARN "
    "nvmlDeviceGetP2PStatus(0,0,NVML_P2P_CAPS_INDEX_READ) failed: Not Supported\n"
    "\n"
    "[2026-02-24 10:44:30] jetson:27998:27998 [0] init.cc:471 NCCL WARN Failed to find nvml "
    "device for busId 0000:00:00.0. This may affect performance.\n";

TEST(FieldRound67, IntegratedGpuNvmlWarningsAreHarmless) {
  const AnalysisResult r = AnalyzeText(kOrinWarnings);
  EXPECT_EQ(FindingOf(r, "nccl-warn"), nullptr);
  EXPECT_FALSE(r.root_cause.cause.job_failed);
}

TEST(FieldRound67, NvmlMissingADiscreteGpuStillWarns) {
  // A discrete GPU at a real bus id that NVML cannot find (a container without NVML access) is
  // not the integrated-GPU case.
  const AnalysisResult r = AnalyzeText(
      "node1:4000:4000 [0] init.cc:471 NCCL WARN Failed to find nvml device for busId "
      "0000:1b:00.0. This may affect performance.\n");
  EXPECT_NE(FindingOf(r, "nccl-warn"), nullptr);
}

}  // namespace
}  // namespace ncclscope
