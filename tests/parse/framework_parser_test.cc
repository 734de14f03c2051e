// PyTorch ProcessGroupNCCL and torchelastic lines (§7), incl. real lines from hang.log.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

using testing::ParseAs;
using testing::ParseOne;
using testing::Parsed;

TEST(Framework, WatchdogTimeoutC10HeaderWithRankTag) {
  auto p = ParseOne(
      "[rank0]:[E1121 13:39:41.727410739 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=6, OpType=ALLREDUCE, NumelIn=16777216, "
      "NumelOut=16777216, Timeout(ms)=25000) ran for 25021 milliseconds before timing out.");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.level, Level::kTorch);
  EXPECT_EQ(p.event.ctx.torch_rank, 0);
  EXPECT_EQ(p.event.ctx.timestamp, "1121 13:39:41.727410739");
  EXPECT_EQ(p.event.ctx.location, "ProcessGroupNCCL.cpp:689");
  auto w = std::get<WatchdogTimeout>(p.event.data);
  EXPECT_EQ(w.rank, 0);
  EXPECT_EQ(w.seq, 6);
  EXPECT_EQ(w.op_type, "ALLREDUCE");
  EXPECT_EQ(w.numel_in, 16777216);
  EXPECT_EQ(w.timeout_ms, 25000);
  EXPECT_EQ(w.ran_ms, 25021);
}

TEST(Framework, VllmPyNcclNamesTheNcclVersion) {
  // vllm-project/vllm and its Ray workers: the one version line many inference logs have.
  for (std::string_view line :
       {"INFO 01-29 07:44:27 pynccl.py:69] vLLM is using nccl==2.21.5",
        "INFO 08-28 17:59:13 [pynccl.py:113] vLLM is using nccl==2.28.9"}) {
    auto p = ParseOne(line);
    ASSERT_EQ(p.outcome, ParseOutcome::kEvent) << line;
    const auto* v = std::get_if<NcclVersion>(&p.event.data);
    ASSERT_NE(v, nullptr) << line;
    EXPECT_TRUE(v->version == "2.21.5" || v->version == "2.28.9") << v->version;
  }
  // Not a version: which library vLLM loads is noise the analysis does not use (read, not lost).
  auto q = ParseOne("INFO 01-29 07:44:27 utils.py:918] Found nccl from library libnccl.so.2");
  ASSERT_EQ(q.outcome, ParseOutcome::kEvent);
  EXPECT_TRUE(std::holds_alternative<KnownNoise>(q.event.data));
}

TEST(Framework, DestructorThatRaisedIsReadNotListed) {
  // vllm#4114: after a failed init, Python notes that NCCLCommunicator's destructor raised; the
  // exception's lines follow. Read (it names NCCL), not a line the tool is blind to.
  auto p = ParseOne("Exception ignored in: <function NCCLCommunicator.__del__ at 0x7f4d8c3212d0>");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_TRUE(std::holds_alternative<KnownNoise>(p.event.data));
}

TEST(Framework, WatchdogTimeoutOldWorkNcclWithoutRankTag) {
  auto p = ParseOne(
      "[E ProcessGroupNCCL.cpp:475] [Rank 2] Watchdog caught collective operation timeout: "
      "WorkNCCL(OpType=BROADCAST, TensorShape=[1, 2], Timeout(ms)=1800000) ran for 1800650 "
      "milliseconds before timing out.");
  auto w = std::get<WatchdogTimeout>(p.event.data);
  EXPECT_EQ(p.event.ctx.torch_rank, 2);
  EXPECT_EQ(w.seq, -1);
  EXPECT_EQ(w.op_type, "BROADCAST");
  EXPECT_EQ(w.timeout_ms, 1800000);
}

TEST(Framework, WorkProgressAllSpellings) {
  auto a = ParseAs<WorkProgress>(
      "[E1121 13:39:41.737806899 ProcessGroupNCCL.cpp:2303] [PG ID 0 PG GUID 0(default_pg) Rank "
      "0]  failure detected by watchdog at work sequence id: 6 PG status: last enqueued work: 6, "
      "last completed work: 1");
  EXPECT_EQ(a.rank, 0);
  EXPECT_EQ(a.pg_id, 0);
  EXPECT_EQ(a.pg_desc, "default_pg");
  EXPECT_EQ(a.failed_seq, 6);
  EXPECT_EQ(a.last_enqueued, 6);
  EXPECT_EQ(a.last_completed, 1);
  auto b = ParseAs<WorkProgress>(
      "[E ProcessGroupNCCL.cpp:1 ] [PG 1 (tp) Rank 3] Exception (either an error or timeout) "
      "detected by watchdog at work: 7, last enqueued NCCL work: 8, last completed NCCL work: 6.");
  EXPECT_EQ(b.pg_id, 1);
  EXPECT_EQ(b.pg_desc, "tp");
  EXPECT_EQ(b.failed_seq, 7);
  EXPECT_EQ(b.last_enqueued, 8);
  EXPECT_EQ(b.last_completed, 6);
  auto c = ParseAs<WorkProgress>(
      "I0527 15:16:51.665375 58626 ProcessGroupNCCL.cpp:869] [PG 0 Rank 1] Timeout at NCCL work: "
      "3, last enqueued NCCL work: 3, last completed NCCL work: 2.");
  EXPECT_EQ(c.rank, 1);
  EXPECT_EQ(c.failed_seq, 3);
  auto d = ParseAs<WorkProgress>(
      "[E1121 13:39:45.282551439 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank "
      "3] Received a dump signal due to a collective timeout from  rank 0 and we will try our best "
      "to dump the debug info. Last enqueued NCCL work: 1, last completed NCCL work: 1.This is "
      "most likely caused by incorrect usages of collectives");
  EXPECT_EQ(d.failed_seq, -1);
  EXPECT_EQ(d.last_enqueued, 1);
  EXPECT_EQ(d.last_completed, 1);
}

TEST(Framework, NcclErrorWithAndWithoutExceptionName) {
  auto a = ParseAs<FrameworkNcclError>(
      "torch.distributed.DistBackendError: NCCL error in: "
      "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, unhandled system error (run with "
      "NCCL_DEBUG=INFO for details), NCCL version 2.28.9");
  EXPECT_EQ(a.exception, "torch.distributed.DistBackendError");
  EXPECT_EQ(a.where, "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93");
  EXPECT_EQ(a.reason, "unhandled system error (run with NCCL_DEBUG=INFO for details)");
  EXPECT_EQ(a.nccl_version, "2.28.9");
  auto b = ParseAs<FrameworkNcclError>(
      "NCCL error in: ../torch/lib/c10d/ProcessGroupNCCL.cpp:825, invalid usage");
  EXPECT_TRUE(b.exception.empty());
  EXPECT_EQ(b.reason, "invalid usage");
  EXPECT_TRUE(b.nccl_version.empty());
}

TEST(Framework, NcclTestsFailureIsAnNcclErrorWithItsLastError) {
  // NVIDIA/nccl-tests#204 (the host prefix is read by the input layer); nccl-tests prints the
  // result string, then NCCL's last error after " / " (empty here).
  auto a = ParseAs<FrameworkNcclError>(
      "Test NCCL failure common.cu:961 'internal error - please report this issue to the NCCL "
      "developers / '");
  EXPECT_EQ(a.exception, "nccl-tests");
  EXPECT_EQ(a.where, "common.cu:961");
  EXPECT_EQ(a.reason, "internal error - please report this issue to the NCCL developers");
  EXPECT_TRUE(a.last_error.empty());
  auto b = ParseAs<FrameworkNcclError>(
      "Test NCCL failure common.cu:1279 'unhandled system error (run with NCCL_DEBUG=INFO for "
      "details) / socketStartConnect: Connect to 10.0.0.2<4567> failed : Connection refused'");
  EXPECT_EQ(b.reason, "unhandled system error (run with NCCL_DEBUG=INFO for details)");
  EXPECT_EQ(b.last_error, "socketStartConnect: Connect to 10.0.0.2<4567> failed : Connection refused");
}

TEST(Framework, NcclTestsFailureBehindAHostNameWithoutDigitsIsRead) {
  // aikitoria/open-gpu-kernel-modules#38: nccl-tests' own "HOST: " before its failure line; the
  // pdsh reader does not take a host name without a digit, so the parser reads it.
  auto a = ParseAs<FrameworkNcclError>(
      "definitley-not-a-banana: Test NCCL failure common.cu:1107 'unhandled cuda error (run with "
      "NCCL_DEBUG=INFO for details) / '");
  EXPECT_EQ(a.exception, "nccl-tests");
  EXPECT_EQ(a.where, "common.cu:1107");
  EXPECT_EQ(a.reason, "unhandled cuda error (run with NCCL_DEBUG=INFO for details)");
}

struct FwCase {
  const char* text;
  FrameworkKind kind;
  const char* detail;
};

class FrameworkEvents : public ::testing::TestWithParam<FwCase> {};

TEST_P(FrameworkEvents, KindAndDetail) {
  auto e = ParseAs<FrameworkEvent>(GetParam().text);
  EXPECT_EQ(e.kind, GetParam().kind) << GetParam().text;
  EXPECT_EQ(e.detail, GetParam().detail) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Section7, FrameworkEvents,
    ::testing::Values(
        FwCase{"ncclSystemError: System call (e.g. socket, malloc) or external library call failed "
               "or device error. ",
               FrameworkKind::kNcclErrorDetail, "ncclSystemError"},
        FwCase{"ncclInvalidUsage: This usually reflects invalid usage of NCCL library.",
               FrameworkKind::kNcclErrorDetail, "ncclInvalidUsage"},
        // Indented: torchelastic's failure table quotes the exception (h200x1-failures/
        // bad_ifname_rank1.log); `ncclInvalidUsage:` ends in neither "Error:" nor "Exception:".
        FwCase{"  ncclInvalidUsage: This usually reflects invalid usage of NCCL library.",
               FrameworkKind::kNcclErrorDetail, "ncclInvalidUsage"},
        FwCase{"[E1121 13:39:45.1 ProcessGroupNCCL.cpp:1] [PG 0 Rank 0] Heartbeat monitor timed "
               "out! Process will be terminated after dumping debug info.",
               FrameworkKind::kHeartbeatTimeout, ""},
        FwCase{"[E1121 13:39:45.1 ProcessGroupNCCL.cpp:1] Process group watchdog thread "
               "terminated with exception: boom",
               FrameworkKind::kWatchdogTerminated, "boom"},
        FwCase{"[E1121 13:39:45.1 ProcessGroupNCCL.cpp:1] To avoid data inconsistency, we are "
               "taking the entire process down.",
               FrameworkKind::kTakingDown, ""},
        FwCase{"NCCL communicator was aborted on rank 3. ", FrameworkKind::kCommAborted, ""},
        FwCase{"NCCL timeout in communicator initialization.", FrameworkKind::kInitTimeout, ""},
        FwCase{"[E1121 13:39:45.684220530 ProcessGroupNCCL.cpp:2636] [PG ID 0 PG GUID "
               "0(default_pg) Rank 0] First PG on this rank to signal dumping.",
               FrameworkKind::kDumpSignal, ""},
        FwCase{"W1121 13:40:26.274000 3871 "
               "torch/distributed/elastic/multiprocessing/api.py:1012] Sending process 3886 "
               "closing signal SIGTERM",
               FrameworkKind::kProcessSignal, "SIGTERM"},
        FwCase{"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
               FrameworkKind::kChildFailed, ""},
        FwCase{"/workspace/workload.py FAILED", FrameworkKind::kChildFailed,
               "/workspace/workload.py"}));

TEST(Framework, ViaTcpStoreLineIsNotAConnection) {
  auto p = ParseOne(
      "[rank3]:[E1121 13:39:45.282344809 ProcessGroupNCCL.cpp:1849] [PG ID 0 PG GUID "
      "0(default_pg) Rank 3] Observed flight recorder dump signal from another rank via TCPStore.");
  EXPECT_EQ(std::get<FrameworkEvent>(p.event.data).kind, FrameworkKind::kDumpSignal);
  EXPECT_EQ(p.event.ctx.torch_rank, 3);
}

/// What a test checks of one event, copied while the parser's joined text is alive.
struct Seen {
  std::string type;
  int torch_rank = -1;
  int rank = -1;  ///< The rank the message names ("[Rank 13]", "[PG 0 (default_pg) Rank 13]").
  int64_t seq = -1;
  std::string op;
  int64_t numel = -1, last_completed = -1;
  std::string family;  ///< KnownNoise's
};

/// Parses `lines` in order with one parser (source 0, lines numbered from 1).
std::vector<Seen> ParseSequence(const std::vector<std::string>& lines) {
  LineParser parser;
  std::vector<Seen> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    Line l;
    l.text = lines[i];
    l.number = i + 1;
    Event ev;
    Seen s;
    if (parser.Parse(l, &ev) == ParseOutcome::kEvent) {
      s.type = std::string(EventTypeName(ev.data));
      s.torch_rank = ev.ctx.torch_rank;
      if (const auto* w = std::get_if<WatchdogTimeout>(&ev.data)) {
        s.rank = w->rank;
        s.seq = w->seq;
        s.op = std::string(w->op_type);
        s.numel = w->numel_in;
      } else if (const auto* p = std::get_if<WorkProgress>(&ev.data)) {
        s.rank = p->rank;
        s.seq = p->failed_seq;
        s.last_completed = p->last_completed;
      } else if (const auto* k = std::get_if<KnownNoise>(&ev.data)) {
        s.family = std::string(k->family);
      }
    }
    out.push_back(s);
  }
  return out;
}

TEST(Framework, SourceLineUnderATracebackFrameIsCodeNotAMessage) {
  // gpustack/gpustack#2680 (vLLM's pynccl wrapper): the frame's source line names NCCL.
  const std::vector<Seen> ev = ParseSequence(
      {"Traceback (most recent call last):",
       "  File \"/usr/local/lib/python3.11/dist-packages/vllm/distributed/device_communicators/"
       "pynccl_wrapper.py\", line 257, in NCCL_CHECK",
       "    raise RuntimeError(f\"NCCL error: {error_str}\")",
       "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"});
  EXPECT_EQ(ev[1].type, "traceback");
  EXPECT_EQ(ev[2].type, "known_noise");
  EXPECT_EQ(ev[2].family, "traceback");
  EXPECT_EQ(ev[3].type, "framework_nccl_error");
}

TEST(Framework, IndentedNcclCodeWithoutAFrameBeforeItIsStillListed) {
  // An excerpt that starts inside a traceback: nothing says the line is code, so it is counted.
  const std::vector<Seen> ev = ParseSequence(
      {"    self.NCCL_CHECK(self._funcs[\"ncclCommInitRank\"](ctypes.byref(comm),",
       "some other line",
       "    self.NCCL_CHECK(self._funcs[\"ncclCommInitRank\"](ctypes.byref(comm),"});
  EXPECT_EQ(ev[0].type, "unrecognized");
  EXPECT_EQ(ev[2].type, "unrecognized");
}

TEST(Framework, WatchdogLinesWrappedByAPasteAreJoinedWithTheirNextLine) {
  // mila-iqia/milabench#269: a collector prefix, and the paste wrapped each message once.
  const std::vector<Seen> ev = ParseSequence(
      {"dinov2-giant-nodes.cn-d004 [stderr] [rank13]:[E909 09:55:29.340428860 "
       "ProcessGroupNCCL.cpp:607] [Rank 13] Watchdog caught collective operation timeout: ",
       "WorkNCCL(SeqNum=2070, OpType=REDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
       "600068 milliseconds before timing out.",
       "dinov2-giant-nodes.cn-d004 [stderr] [rank13]:[E909 09:55:29.340679605 "
       "ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank 13] Exception (either an error or "
       "timeout) detected",
       "by watchdog at work: 2070, last enqueued NCCL work: 2070, last completed NCCL work: "
       "2069."});
  // The first part of the timeout parses alone (its rank, SeqNum unknown); the next line
  // completes it.
  EXPECT_EQ(ev[0].type, "watchdog_timeout");
  EXPECT_EQ(ev[0].seq, -1);
  EXPECT_EQ(ev[1].type, "watchdog_timeout");
  EXPECT_EQ(ev[1].seq, 2070);
  EXPECT_EQ(ev[1].op, "REDUCE");
  EXPECT_EQ(ev[1].rank, 13);
  // The exception line alone says nothing: it waits for its continuation.
  EXPECT_EQ(ev[2].type, "known_noise");
  EXPECT_EQ(ev[2].family, "cut");
  EXPECT_EQ(ev[3].type, "work_progress");
  EXPECT_EQ(ev[3].seq, 2070);
  EXPECT_EQ(ev[3].last_completed, 2069);
}

TEST(Framework, WatchdogLineWrappedInsideAWordIsJoinedWithoutABlank) {
  const std::vector<Seen> ev = ParseSequence(
      {"[rank2]:[E1121 13:40:45.8 ProcessGroupNCCL.cpp:607] [Rank 2] Watchdog caught collective "
       "operation timeout: WorkNCCL(SeqNum=31, OpTy",
       "pe=BROADCAST, NumelIn=112, NumelOut=112, Timeout(ms)=1800000) ran for 1800055 "
       "milliseconds before timing out."});
  EXPECT_EQ(ev[1].type, "watchdog_timeout");
  EXPECT_EQ(ev[1].seq, 31);
  EXPECT_EQ(ev[1].op, "BROADCAST");
  EXPECT_EQ(ev[1].numel, 112);
}

TEST(Framework, WrappedWatchdogLineIsNotJoinedWithAnotherRanksLine) {
  const std::vector<Seen> ev = ParseSequence(
      {"[rank2]:[E1121 13:40:45.8 ProcessGroupNCCL.cpp:607] [Rank 2] Watchdog caught collective "
       "operation timeout: ",
       "[rank3]:[E1121 13:40:45.9 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective "
       "operation timeout: WorkNCCL(SeqNum=31, OpType=BROADCAST, NumelIn=112, NumelOut=112, "
       "Timeout(ms)=1800000) ran for 1800055 milliseconds before timing out."});
  EXPECT_EQ(ev[1].type, "watchdog_timeout");
  EXPECT_EQ(ev[1].torch_rank, 3);
  EXPECT_EQ(ev[1].seq, 31);
}

TEST(Framework, C10HeaderOfAMonthBeforeOctoberHasThreeDigits) {
  // verl-project/verl#597: c10 prints March 14 as `E314`.
  auto p = ParseOne(
      "[rank1]:[E314 14:33:45.173272575 ProcessGroupNCCL.cpp:1709] [PG 0 (default_pg) Rank 1] "
      "Timeout at NCCL work: 1, last enqueued NCCL work: 1, last completed NCCL work: -1.");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.timestamp, "314 14:33:45.173272575");
  EXPECT_EQ(p.event.ctx.location, "ProcessGroupNCCL.cpp:1709");
  const auto* w = std::get_if<WorkProgress>(&p.event.data);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->rank, 1);
  EXPECT_EQ(w->pg_id, 0);
  EXPECT_EQ(w->failed_seq, 1);
  EXPECT_EQ(w->last_completed, -1);
}

TEST(Framework, CppBacktraceFrameIsKnownTorchOutput) {
  Parsed p = ParseOne(
      "frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::"
      "duration<long, std::ratio<1l, 1000l> > >) + 0x2b4 (0x7fc741429c74 in "
      "/usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so)");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  ASSERT_TRUE(std::holds_alternative<KnownNoise>(p.event.data));
  EXPECT_EQ(std::get<KnownNoise>(p.event.data).family, "torch");
}

TEST(Framework, LastErrorContinuationBecomesTorchLevelWarning) {
  std::string a = "Last error:";
  std::string b = "Failed to initialize any NET plugin";
  Line la, lb;
  la.text = a;
  lb.text = b;
  LineParser parser;
  Event ev;
  EXPECT_EQ(parser.Parse(la, &ev), ParseOutcome::kNotNccl);
  ASSERT_EQ(parser.Parse(lb, &ev), ParseOutcome::kEvent);
  EXPECT_EQ(ev.ctx.level, Level::kTorch);
  EXPECT_EQ(std::get<Warning>(ev.data).category, WarnCategory::kPlugin);
  // Only the line right after "Last error:" is taken.
  EXPECT_EQ(parser.Parse(lb, &ev), ParseOutcome::kNotNccl);
}

/// A line a worker's prefix (`(VllmWorkerProcess pid=N) `, stripped) attributed to pid `pid`.
Line WorkerLine(std::string_view text, uint32_t pid) {
  Line l;
  l.text = text;
  l.meta.origin_pid = pid;
  return l;
}

TEST(Framework, LastErrorDetailIsTheNextLineOfTheSameWorker) {
  // microsoft/WSL#12467: two vLLM workers interleave; the detail of pid 3985's "Last error:"
  // comes after a line of pid 3984 (the prefixes are stripped into LineMeta::origin_pid).
  const std::string head = "ERROR 01-15 02:47:32 multiproc_worker_utils.py:226] ";
  const std::string last = head + "Last error:";
  const std::string other = head + "  File \"/usr/local/lib/python3.8/dist-packages/torch/"
                                   "distributed/c10d_logger.py\", line 79, in wrapper";
  const std::string detail =
      head + "Error while creating shared memory segment /dev/shm/nccl-g0wGsu (size 9637888)";
  LineParser parser;
  Event ev;
  EXPECT_EQ(parser.Parse(WorkerLine(last, 3985), &ev), ParseOutcome::kNotNccl);
  // The other worker's line is not the detail.
  const ParseOutcome o = parser.Parse(WorkerLine(other, 3984), &ev);
  EXPECT_FALSE(o == ParseOutcome::kEvent && std::holds_alternative<Warning>(ev.data));
  ASSERT_EQ(parser.Parse(WorkerLine(detail, 3985), &ev), ParseOutcome::kEvent);
  ASSERT_TRUE(std::holds_alternative<Warning>(ev.data));
  EXPECT_EQ(std::get<Warning>(ev.data).message,
            "Error while creating shared memory segment /dev/shm/nccl-g0wGsu (size 9637888)");
  EXPECT_EQ(std::get<Warning>(ev.data).category, WarnCategory::kShm);
}

TEST(Framework, LastErrorWithoutADetailOfItsWorkerIsDropped) {
  const std::string warn = "Failed to initialize any NET plugin";
  LineParser parser;
  Event ev;
  EXPECT_EQ(parser.Parse(WorkerLine("Last error:", 7), &ev), ParseOutcome::kNotNccl);
  // Many lines of other workers: the wait ends, and a later line of pid 7 is no detail.
  for (int i = 0; i < 20; ++i) parser.Parse(WorkerLine("some output", 8), &ev);
  EXPECT_EQ(parser.Parse(WorkerLine(warn, 7), &ev), ParseOutcome::kNotNccl);
  // Without prefixes, the next line is the detail as before.
  EXPECT_EQ(parser.Parse(WorkerLine("Last error:", 0), &ev), ParseOutcome::kNotNccl);
  ASSERT_EQ(parser.Parse(WorkerLine(warn, 0), &ev), ParseOutcome::kEvent);
  EXPECT_EQ(std::get<Warning>(ev.data).category, WarnCategory::kPlugin);
}

TEST(Framework, RemoteErrorWhoseLastErrorLineRayDroppedStillGivesItsDetail) {
  // AReaL#3: under Ray (prefix stripped: pid 43581) the "Last error:" line between PyTorch's
  // interpretation of ncclRemoteError and NCCL's warning is missing (Ray folds a line several
  // workers print alike); the warning's own text says what it is.
  const std::string remote =
      "ncclRemoteError: A call failed possibly due to a network error or a remote process "
      "exiting prematurely.";
  const std::string ib =
      "NET/IB : Got completion from peer 10.10.11.9<51354> with status=5 opcode=0 len=0 vendor "
      "err 249 (Recv) localGid ::ffff:10.10.15.1 remoteGids::ffff:10.10.14.4";
  LineParser parser;
  Event ev;
  ASSERT_EQ(parser.Parse(WorkerLine(remote, 43581), &ev), ParseOutcome::kEvent);
  ASSERT_EQ(parser.Parse(WorkerLine(ib, 43581), &ev), ParseOutcome::kEvent);
  ASSERT_TRUE(std::holds_alternative<Warning>(ev.data));
  EXPECT_EQ(ev.ctx.level, Level::kTorch);
  EXPECT_EQ(std::get<Warning>(ev.data).category, WarnCategory::kIb);
  // Only that next line: the same text later is not a detail.
  EXPECT_EQ(parser.Parse(WorkerLine(ib, 43581), &ev), ParseOutcome::kNotNccl);
}

TEST(Framework, LineAfterARemoteErrorThatIsNoWarningTextIsNotTakenForOne) {
  const std::string remote =
      "ncclSystemError: System call (e.g. socket, malloc) or external "
      "library call failed or device error.";
  LineParser parser;
  Event ev;
  ASSERT_EQ(parser.Parse(WorkerLine(remote, 0), &ev), ParseOutcome::kEvent);
  const ParseOutcome o = parser.Parse(WorkerLine("Traceback (most recent call last):", 0), &ev);
  EXPECT_FALSE(o == ParseOutcome::kEvent && std::holds_alternative<Warning>(ev.data));
  // With "Last error:" the next line is the detail whatever its text, as before.
  ASSERT_EQ(parser.Parse(WorkerLine(remote, 0), &ev), ParseOutcome::kEvent);
  EXPECT_EQ(parser.Parse(WorkerLine("Last error:", 0), &ev), ParseOutcome::kNotNccl);
  ASSERT_EQ(
      parser.Parse(WorkerLine("Error while creating shared memory segment /dev/shm/x", 0), &ev),
      ParseOutcome::kEvent);
  EXPECT_EQ(std::get<Warning>(ev.data).category, WarnCategory::kShm);
}

}  // namespace
}  // namespace ncclscope
