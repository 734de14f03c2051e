// The families the thirty-seventh to thirty-ninth held-out rounds of public logs exposed
// (docs/triage.md): jobs under Slurm and MPI launchers, large-model training that failed
// mid-run, and fine-tuning tools on one or two machines. Lines verbatim from the threads named,
// each with the case where the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::Has;
using testing::OneCulprit;

// NVIDIA-NeMo/Megatron-Bridge#836: the watchdog of a tensor-parallel group names the rank in
// that group ("Rank 1"); PyTorch's "[rank29]:" prefix names the process.
constexpr std::string_view kSubgroupWatchdog =
    "[rank29]:[E1002 12:20:55.123831168 ProcessGroupNCCL.cpp:1923] [PG ID 5 PG GUID "
    "83(TENSOR_MODEL_PARALLEL_GROUP) Rank 1] Process group watchdog thread terminated with "
    "exception: CUDA error: unspecified launch failure\n"
    "CUDA kernel errors might be asynchronously reported at some other API call, so the "
    "stacktrace below might be incorrect.\n";

TEST(FieldRound38, SubgroupRankYieldsToTheGlobalRankPrefix) {
  const AnalysisResult r = AnalyzeText(kSubgroupWatchdog);
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "nccl-error");
  EXPECT_TRUE(OneCulprit(r, 29));
}

TEST(FieldRound38, SubgroupRankStaysWithoutAGlobalPrefix) {
  // torchrun's "[default3]:" may be a local rank: it does not replace the header's.
  std::string local(kSubgroupWatchdog);
  local.replace(0, 9, "[default3]:");
  const AnalysisResult r = AnalyzeText(local);
  EXPECT_TRUE(OneCulprit(r, 1));
}

TEST(FieldRound38, HigherHeaderRankIsAnotherWorldsAndStays) {
  // OpenRLHF/OpenRLHF#621: a vLLM worker of default-PG rank 1 joined the trainer's weight-sync
  // world as rank 12; a subgroup's rank is never above the global one, so 12 is kept.
  const AnalysisResult r = AnalyzeText(
      "(RayWorkerWrapper pid=92234, ip=172.19.24.110) [rank1]:[E1224 13:23:05.483840160 "
      "ProcessGroupNCCL.cpp:542] [Rank 12] Collective WorkNCCL(SeqNum=1, OpType=BROADCAST, "
      "NumelIn=778567680, NumelOut=778567680, Timeout(ms)=1800000) raised the following async "
      "exception: NCCL error: remote process exited or there was a network error, NCCL version "
      "2.21.5\n");
  bool twelve = false;
  for (const Incident& i : r.job.incidents.incidents) twelve = twelve || i.rank == 12;
  EXPECT_TRUE(twelve);
}

// hiyouga/LlamaFactory#8968: CUDA error 802 on an NVSwitch node is the node's (Fabric Manager),
// not rank 0's: rank 0 is only where the input shows it first.
constexpr std::string_view kFabricNotReady =
    "[rank0]:     work = group.barrier(opts=opts)\n"
    "[rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/"
    "c10d/NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL "
    "version 2.25.1\n"
    "[rank0]: ncclUnhandledCudaError: Call to CUDA function failed.\n"
    "[rank0]: Last error:\n"
    "[rank0]: Cuda failure 802 'system not yet initialized'\n";

TEST(FieldRound39, NodeWideCudaConditionIsNotBlamedWithHighConfidence) {
  const AnalysisResult r = AnalyzeText(kFabricNotReady);
  const RootCause& c = r.root_cause.cause;
  EXPECT_TRUE(OneCulprit(r, 0));
  EXPECT_EQ(c.confidence, Confidence::kMedium) << c.reasoning;
  EXPECT_TRUE(Has(c.reasoning, "condition of the node")) << c.reasoning;
}

TEST(FieldRound39, RanksOwnCudaErrorKeepsHighConfidence) {
  std::string own(kFabricNotReady);
  own.replace(own.find("802 'system not yet initialized'"), 32, "700 'an illegal memory access'");
  const AnalysisResult r = AnalyzeText(own);
  EXPECT_TRUE(OneCulprit(r, 0));
  EXPECT_EQ(r.root_cause.cause.confidence, Confidence::kHigh) << r.root_cause.cause.reasoning;
}

// NVIDIA/nccl-tests#41: the verbs library finds the NIC but not its user-space provider.
TEST(FieldRound43, MissingVerbsProviderIsAnIbWarning) {
  const AnalysisResult r = AnalyzeText(
      "libibverbs: Warning: no userspace device-specific driver found for "
      "/sys/class/infiniband_verbs/uverbs0\n"
      "ip-0AB85F07: Test NCCL failure common.cu:775 'internal error'\n");
  const Finding* f = testing::FindingOf(r, "ib-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->title, "user-space driver")) << f->title;
  // libibverbs' other warnings (a provider of another vendor that fails to load) say nothing.
  const AnalysisResult other = AnalyzeText(
      "libibverbs: Warning: couldn't load driver 'libhfi1verbs-rdmav34.so'\n");
  EXPECT_EQ(testing::FindingOf(other, "ib-error"), nullptr);
}

// NVIDIA/nccl#1529: two containers of one node that each see only their GPUs.
TEST(FieldRound43, PeerGpuNotVisibleToNvmlIsExplained) {
  const AnalysisResult r = AnalyzeText(
      "ucpe-resource033018034100:6897:7102 [2] misc/nvmlwrap.cc:187 NCCL WARN "
      "nvmlDeviceGetHandleByPciBusId() failed: Not Found\n"
      "ucpe-resource033018034100:6897:7102 [2] NCCL INFO graph/xml.cc:850 -> 2\n");
  const Finding* f = testing::FindingOf(r, "cuda-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_TRUE(Has(f->fix, "NCCL_HOSTID")) << f->fix;
}

// NVIDIA/nccl-tests#165: nccl-tests names the failing host and pid; mpirun's report after its
// banner names the rank that failed first.
constexpr std::string_view kMpirunFirstFailure =
    "majidnc24MPTXTH: Test CUDA failure common.cu:892 'invalid device ordinal'\n"
    " .. majidnc24MPTXTH pid 9972: Test failure common.cu:842\n"
    "--------------------------------------------------------------------------\n"
    "Primary job  terminated normally, but 1 process returned\n"
    "a non-zero exit code. Per user-direction, the job has been aborted.\n"
    "--------------------------------------------------------------------------\n"
    "--------------------------------------------------------------------------\n"
    "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
    "the job to be terminated. The first process to do so was:\n"
    "\n"
    "  Process name: [[25735,1],1]\n"
    "  Exit code:    2\n"
    "--------------------------------------------------------------------------\n";

TEST(FieldRound44, MpirunsFirstFailedRankOwnsTheFailureOfAKnownPid) {
  const AnalysisResult r = AnalyzeText(kMpirunFirstFailure);
  EXPECT_TRUE(OneCulprit(r, 1, "majidnc24MPTXTH"));
  // Two processes that failed before mpirun's report: which one is rank 1 is not known, so
  // neither host is given rank 1.
  std::string two(kMpirunFirstFailure);
  two.insert(0,
             "othernode: Test CUDA failure common.cu:892 'invalid device ordinal'\n"
             " .. othernode pid 7001: Test failure common.cu:842\n");
  const AnalysisResult both = AnalyzeText(two);
  for (const Culprit& c : both.root_cause.cause.culprits) {
    EXPECT_TRUE(c.rank != 1 || c.host.empty()) << c.host << ": " << both.root_cause.cause.reasoning;
  }
}

// aws/aws-ofi-nccl's "disabling GDR" is no plugin failure: the plugin runs, without GPUDirect
// RDMA. One finding (no-gdrdma), not that and a "Network plugin failed" for the same lines.
TEST(FieldRound43, OfiGdrDisabledIsNoGdrdmaOnly) {
  const AnalysisResult r = AnalyzeText(
      "ip-10-1-2-3:41:41 [0] NCCL INFO NET/OFI Could not disable CUDA API usage for HMEM, "
      "disabling GDR\n"
      "ip-10-1-2-3:41:41 [0] NCCL INFO NET/OFI Selected Provider is efa\n");
  EXPECT_NE(testing::FindingOf(r, "no-gdrdma"), nullptr);
  EXPECT_EQ(testing::FindingOf(r, "net-plugin-failed"), nullptr);
}

// NVIDIA/nccl-tests#245: NCCL lines without their host:pid head; the report says so instead of
// a made-up "?input pid 0".
TEST(FieldRound40, HeadlessProcessIsNamedForWhatItIs) {
  const AnalysisResult r = AnalyzeText(
      "[0] NCCL INFO comm 0x2515e00 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1e0 commId "
      "0x1c71981584deedae - Init START\n"
      "[0] NCCL INFO Channel 00/02 :    0   1\n");
  const Finding* f = testing::FindingOf(r, "init-incomplete");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "lines without a host:pid head in")) << f->message;
  EXPECT_FALSE(Has(f->message, "pid 0")) << f->message;
}

// deepspeedai/DeepSpeedExamples#310: NCCL up to 2.19 printed every IB asynchronous event as a
// WARN; the subnet manager's re-registration is no device failure.
TEST(FieldRound47, SubnetManagerEventIsAWarningNotADeviceError) {
  const AnalysisResult r = AnalyzeText(
      "gpu1:5021:5386 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : client "
      "reregistration\n");
  const Finding* f = testing::FindingOf(r, "ib-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->title, "subnet manager")) << f->title;
  // A fatal event of the same era stays an error.
  const AnalysisResult fatal = AnalyzeText(
      "gpu1:5021:5386 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port "
      "error\n");
  const Finding* g = testing::FindingOf(fatal, "ib-error");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->severity, Severity::kError);
}

// pytorch/pytorch#134006 and verl-project/verl#1158: torchrun names the rank and its exit code
// or signal, and nothing says why. The rank is certain; its class is a reading of a code.
TEST(FieldRound50, AnExitCodeOrAbortAloneIsMediumConfidence) {
  const AnalysisResult code = AnalyzeText(
      "E0820 11:37:36.000000 793000 torch/distributed/elastic/multiprocessing/api.py:833] failed "
      "(exitcode: 1) local_rank: 0 (pid: 793062) of binary: /usr/bin/python\n"
      "[rank0]:[E820 11:47:24.069865760 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=2, OpType=_ALLGATHER_BASE, NumelIn=1, "
      "NumelOut=2, Timeout(ms)=600000) ran for 600009 milliseconds before timing out.\n");
  EXPECT_EQ(code.root_cause.cause.confidence, Confidence::kMedium)
      << code.root_cause.cause.reasoning;
  const AnalysisResult abort = AnalyzeText(
      "E0509 03:30:01.000000 140 torch/distributed/elastic/multiprocessing/api.py:869] failed "
      "(exitcode: -6) local_rank: 1 (pid: 2201) of binary: /usr/bin/python3\n");
  EXPECT_EQ(CauseClassName(abort.root_cause.cause.cls), "crash-signal");
  EXPECT_EQ(abort.root_cause.cause.confidence, Confidence::kMedium)
      << abort.root_cause.cause.reasoning;
  // A SIGKILL is what it is: high.
  const AnalysisResult kill = AnalyzeText(
      "E0509 03:30:01.000000 140 torch/distributed/elastic/multiprocessing/api.py:869] failed "
      "(exitcode: -9) local_rank: 1 (pid: 2201) of binary: /usr/bin/python3\n");
  EXPECT_EQ(kill.root_cause.cause.confidence, Confidence::kHigh) << kill.root_cause.cause.reasoning;
}

// sgl-project/sglang#4096: a weight-update group whose rank 1 cannot read the NCCL unique id
// from rank 0's c10d store; no NCCL line at all, and still a connection error with its fix.
TEST(FieldRound52, UniqueIdStoreReadFailureIsAConnectionError) {
  const AnalysisResult r = AnalyzeText(
      "0: torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving "
      "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: "
      "failed to format addr, unknown family=0\n");
  const Finding* f = testing::FindingOf(r, "connection-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_TRUE(Has(f->fix, "rank 0")) << f->fix;
  // When the store's error says how (its host reset the connection: it died), that says more.
  const AnalysisResult reset = AnalyzeText(
      "RuntimeError: [14] is setting up NCCL communicator and retrieving ncclUniqueId from [0] "
      "via c10d key-value store by key '0', but store->get('0') got error: Connection reset by "
      "peer\n");
  const Finding* g = testing::FindingOf(reset, "connection-error");
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(Has(g->title, "peer died")) << g->title;
}

}  // namespace
}  // namespace ncclscope
