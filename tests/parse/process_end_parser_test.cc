// Launcher, scheduler, kernel and Python lines that say how a process ended: each family fires
// on its real lines and stays quiet on look-alikes. Lines are from testdata/corpus/
// h200x2-failures (torchrun, mpirun, Python) or quoted from public threads (Slurm, DeepSpeed,
// Kubernetes, kernel), as noted.
#include <gtest/gtest.h>

#include "input/strip_prefixes_helper.h"
#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

using testing::ParseAs;
using testing::ParseOne;
using testing::Parsed;

TEST(Torchelastic, FailedExitcodeIsAProcessExitWithSignal) {
  auto p = ParseOne(
      "E1123 09:26:08.776000 606 torch/distributed/elastic/multiprocessing/api.py:986] failed "
      "(exitcode: -9) local_rank: 1 (pid: 631) of binary: /opt/torch/.venv/bin/python");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.timestamp, "1123 09:26:08.776000");
  auto e = std::get<ProcessExit>(p.event.data);
  EXPECT_EQ(e.reporter, ExitReporter::kTorchrun);
  EXPECT_EQ(e.exit_code, -9);
  EXPECT_EQ(e.signal, 9);
  EXPECT_EQ(e.local_rank, 1);
  EXPECT_EQ(e.pid, 631);
}

TEST(Torchelastic, PlainExitCodeHasNoSignal) {
  auto e = ParseAs<ProcessExit>(
      "E1123 09:26:48.361000 876 torch/distributed/elastic/multiprocessing/api.py:986] failed "
      "(exitcode: 1) local_rank: 1 (pid: 906) of binary: /opt/torch/.venv/bin/python");
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_EQ(e.signal, 0);
}

TEST(Torchelastic, ChildFailedErrorTableLines) {
  EXPECT_EQ(ParseAs<LauncherEvent>("Root Cause (first observed failure):").kind,
            LauncherKind::kRootCauseHeader);
  EXPECT_EQ(ParseAs<LauncherEvent>("Failures:").kind, LauncherKind::kFailuresHeader);
  auto entry = ParseAs<LauncherEvent>("[0]:");
  EXPECT_EQ(entry.kind, LauncherKind::kTableEntry);
  EXPECT_EQ(entry.value, "0");
  auto code = ParseAs<LauncherEvent>("  exitcode  : -9 (pid: 631)");
  EXPECT_EQ(code.kind, LauncherKind::kTableField);
  EXPECT_EQ(code.key, "exitcode");
  EXPECT_EQ(code.value, "-9 (pid: 631)");
  auto file = ParseAs<LauncherEvent>("  error_file: <N/A>");
  EXPECT_EQ(file.key, "error_file");
  auto tb = ParseAs<LauncherEvent>("  traceback : Signal 9 (SIGKILL) received by PID 631");
  EXPECT_EQ(tb.key, "traceback");
  EXPECT_EQ(tb.value, "Signal 9 (SIGKILL) received by PID 631");
}

TEST(Torchelastic, TableFieldBehindMpirunsTagKeepsOneBlank) {
  // `[1,0]<stderr>:  exitcode  : 1 (pid: 848)`: the tag's matcher takes one of the two blanks
  // (Open MPI 5 writes one after the tag itself).
  const std::string text = testing::Strip("[1,0]<stderr>:  exitcode  : 1 (pid: 848)").text;
  EXPECT_EQ(text, " exitcode  : 1 (pid: 848)");
  const auto code = ParseAs<LauncherEvent>(text);
  EXPECT_EQ(code.kind, LauncherKind::kTableField);
  EXPECT_EQ(code.key, "exitcode");
  EXPECT_EQ(code.value, "1 (pid: 848)");
}

TEST(Torchelastic, TableLookAlikesStayQuiet) {
  EXPECT_EQ(ParseOne("  rank: 3").outcome, ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("    exitcode  : -9 (pid: 631)").outcome, ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("[x]:").outcome, ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("Failures: 3 of 10 tests").outcome, ParseOutcome::kNotNccl);
}

TEST(Torchelastic, RestartMarker) {
  auto l = ParseAs<LauncherEvent>(
      "[default] Worker group FAILED. 3/3 attempts left; will restart worker group");
  EXPECT_EQ(l.kind, LauncherKind::kRestart);
  EXPECT_EQ(l.value, "3/3");
}

TEST(Torchelastic, ClosingSignalCarriesThePid) {
  auto f = ParseAs<FrameworkEvent>(
      "W1123 09:26:08.661000 606 torch/distributed/elastic/multiprocessing/api.py:1012] Sending "
      "process 630 closing signal SIGTERM");
  EXPECT_EQ(f.kind, FrameworkKind::kProcessSignal);
  EXPECT_EQ(f.pid, 630);
  EXPECT_EQ(f.detail, "SIGTERM");
}

TEST(DeepSpeed, ReturnCodeWithLocalRank) {
  // DeepSeek-Coder issue 55 (quoted in public notes), the launcher's sigkill_handler.
  auto p = ParseOne(
      "[2023-11-28 10:00:34,590] [ERROR] [launch.py:321:sigkill_handler] "
      "['/home/.python_libs/conda_env/deepseek/bin/python', '-u', 'finetune_deepseekcoder.py', "
      "'--local_rank=0', '--model_name_or_path', 'x'] exits with return code = -9");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.timestamp, "2023-11-28 10:00:34,590");
  auto e = std::get<ProcessExit>(p.event.data);
  EXPECT_EQ(e.reporter, ExitReporter::kDeepSpeed);
  EXPECT_EQ(e.exit_code, -9);
  EXPECT_EQ(e.signal, 9);
  EXPECT_EQ(e.local_rank, 0);
  auto k = ParseAs<LauncherEvent>(
      "[2023-11-28 10:00:33,100] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4567");
  EXPECT_EQ(k.kind, LauncherKind::kKillSent);
  EXPECT_EQ(k.value, "4567");
  // The same lines once the input layer took DeepSpeed's logger head off (prefix_logger.cc).
  auto bare = ParseAs<LauncherEvent>("Killing subprocess 4567");
  EXPECT_EQ(bare.kind, LauncherKind::kKillSent);
  EXPECT_EQ(bare.value, "4567");
  auto exit = ParseAs<ProcessExit>("['/usr/bin/python3', '-u', 'main.py', '--local_rank=0'] exits "
                                   "with return code = -9");
  EXPECT_EQ(exit.reporter, ExitReporter::kDeepSpeed);
  EXPECT_EQ(exit.local_rank, 0);
}

TEST(Mpirun, NoticedSignal) {
  auto e = ParseAs<ProcessExit>(
      "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).");
  EXPECT_EQ(e.reporter, ExitReporter::kMpirun);
  EXPECT_EQ(e.rank, 1);
  EXPECT_EQ(e.pid, 0);
  EXPECT_EQ(e.node, "vm");
  EXPECT_EQ(e.signal, 9);
  EXPECT_EQ(e.reason, "Killed");
  auto a = ParseAs<LauncherEvent>("Primary job  terminated normally, but 1 process returned");
  EXPECT_EQ(a.kind, LauncherKind::kMpiAbort);
  auto n = ParseAs<LauncherEvent>("  Process name: [[41097,1],3]");
  EXPECT_EQ(n.key, "mpi-process");
  EXPECT_EQ(ParseAs<LauncherEvent>("  Exit code:    1").key, "mpi-exit-code");
}

TEST(Slurm, TaskEnds) {
  // From public job logs: a task killed, tasks exiting with a code, a cancelled step.
  auto k = ParseAs<ProcessExit>("srun: error: node7: task 3: Killed");
  EXPECT_EQ(k.reporter, ExitReporter::kSlurm);
  EXPECT_EQ(k.node, "node7");
  EXPECT_EQ(k.rank, 3);
  EXPECT_EQ(k.signal, 9);
  auto x = ParseAs<ProcessExit>("srun: error: sn30-r1-h1: task 0: Exited with exit code 1");
  EXPECT_EQ(x.exit_code, 1);
  EXPECT_EQ(x.signal, 0);
  auto t = ParseAs<ProcessExit>("srun: error: node30: tasks 0-1: Exited with exit code 1");
  EXPECT_EQ(t.rank, -1);
  EXPECT_EQ(t.ranks, "0-1");
  auto c = ParseAs<LauncherEvent>(
      "slurmstepd: error: *** JOB 12345 ON node7 CANCELLED AT 2024-01-01T10:00:00 DUE TO TIME "
      "LIMIT ***");
  EXPECT_EQ(c.kind, LauncherKind::kJobCancelled);
  EXPECT_EQ(c.value, "TIME LIMIT");
  auto o = ParseAs<LauncherEvent>(
      "slurmstepd: error: Detected 1 oom_kill event in StepId=12345.0. Some of the step tasks "
      "have been OOM Killed.");
  EXPECT_EQ(o.kind, LauncherKind::kOomEvent);
}

TEST(Slurm, OtherSrunErrorsStayQuiet) {
  EXPECT_EQ(ParseOne("srun: error: Unable to create step for job 20192207: Invalid generic "
                     "resource (gres) specification")
                .outcome,
            ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("srun: error: invalid partition").outcome, ParseOutcome::kNotNccl);
}

TEST(Kubernetes, DescribeReasonAndExitCode) {
  auto r = ParseAs<ProcessExit>("      Reason:       OOMKilled");
  EXPECT_EQ(r.reporter, ExitReporter::kKubernetes);
  EXPECT_TRUE(r.oom);
  EXPECT_EQ(r.signal, 9);
  auto c = ParseAs<ProcessExit>("      Exit Code:    137");
  EXPECT_EQ(c.exit_code, 137);
  EXPECT_EQ(c.signal, 9);
  EXPECT_EQ(ParseOne("      Reason:       Completed").outcome, ParseOutcome::kNotNccl);
}

TEST(KernelOom, KilledProcessForms) {
  auto a = ParseAs<ProcessExit>(
      "[1234567.890123] Out of memory: Killed process 4567 (python) total-vm:123456789kB, "
      "anon-rss:98765432kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:200000kB oom_score_adj:0");
  EXPECT_EQ(a.reporter, ExitReporter::kKernel);
  EXPECT_EQ(a.pid, 4567);
  EXPECT_EQ(a.reason, "python");
  EXPECT_TRUE(a.oom);
  auto b = ParseAs<ProcessExit>(
      "Memory cgroup out of memory: Killed process 812 (pt_main_thread) total-vm:1kB");
  EXPECT_EQ(b.pid, 812);
  auto c = ParseAs<ProcessExit>(
      "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=abc,mems_allowed=0-1,"
      "oom_memcg=/kubepods,task_memcg=/kubepods/pod1,task=python,pid=4567,uid=0");
  EXPECT_EQ(c.pid, 4567);
  EXPECT_EQ(c.reason, "python");
  EXPECT_EQ(ParseOne("Killed process 12 after timeout").outcome, ParseOutcome::kNotNccl);
}

// UCX's signal handler, printed by the dying process itself (lines quoted from
// deepspeedai/DeepSpeed#2638, triton-inference-server/hugectr_backend#42 and NVIDIA/nccl#1419).
TEST(CaughtSignal, UcxHandlerLineIsTheProcessesOwnFatalSignal) {
  auto bus = ParseAs<ProcessExit>(
      "[cf0b62962198:378934:0:382579] Caught signal 7 (Bus error: nonexistent physical address)");
  EXPECT_EQ(bus.reporter, ExitReporter::kPython);
  EXPECT_EQ(bus.node, "cf0b62962198");
  EXPECT_EQ(bus.pid, 378934);
  EXPECT_EQ(bus.signal, 7);
  EXPECT_EQ(bus.reason, "Caught signal 7 (Bus error: nonexistent physical address)");
  auto padded = ParseAs<ProcessExit>(
      "[qgpuvb813-cvision:1    :0:381] Caught signal 7 (Bus error: nonexistent physical address)");
  EXPECT_EQ(padded.node, "qgpuvb813-cvision");
  EXPECT_EQ(padded.pid, 1);
  auto segv = ParseAs<ProcessExit>(
      "[gpu-node09:332629:0:332629] Caught signal 11 (Segmentation fault: address not mapped to "
      "object at address 0x10)");
  EXPECT_EQ(segv.signal, 11);
  EXPECT_EQ(segv.pid, 332629);
}

TEST(CaughtSignal, LookAlikesStayQuiet) {
  EXPECT_EQ(ParseOne("[worker] Caught signal 15, shutting down").outcome, ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("[host:abc:0:1] Caught signal 7 (Bus error)").outcome,
            ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("Caught signal 7 (Bus error: nonexistent physical address)").outcome,
            ParseOutcome::kNotNccl);
}

// Open MPI's signal handler, printed by the dying process itself (lines quoted from NVIDIA/nccl
// #1669, #1363 and #2380, where a timestamp precedes every line).
TEST(OpalSignal, ReceivedSignalAndSignalLinesAreTheProcessesOwnCrash) {
  auto first = ParseAs<ProcessExit>("[rtptest1621:405884] *** Process received signal ***");
  EXPECT_EQ(first.reporter, ExitReporter::kPython);
  EXPECT_EQ(first.node, "rtptest1621");
  EXPECT_EQ(first.pid, 405884);
  EXPECT_EQ(first.signal, 0);  // the next line says which
  EXPECT_TRUE(first.fatal_signal);
  auto which = ParseAs<ProcessExit>("[mbay-csp2:627483] Signal: Segmentation fault (11)");
  EXPECT_EQ(which.node, "mbay-csp2");
  EXPECT_EQ(which.pid, 627483);
  EXPECT_EQ(which.signal, 11);
  EXPECT_EQ(which.reason, "Segmentation fault (11)");
  EXPECT_TRUE(which.fatal_signal);
  Parsed stamped =
      ParseOne("2026-08-31 12:27:50 [k8s-slave03:00956] Signal: Segmentation fault (11)");
  ASSERT_EQ(stamped.outcome, ParseOutcome::kEvent);
  const auto& e = std::get<ProcessExit>(stamped.event.data);
  EXPECT_EQ(e.node, "k8s-slave03");
  EXPECT_EQ(e.pid, 956);
  EXPECT_EQ(e.signal, 11);
  EXPECT_EQ(stamped.event.ctx.timestamp, "2026-08-31 12:27:50");
}

TEST(OpalSignal, RestOfTheReportAndLookAlikesStayQuiet) {
  EXPECT_EQ(ParseOne("[mbay-csp2:627483] Signal code:  (-6)").outcome, ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("[mbay-csp2:627483] Failing at address: 0x3e80009931b").outcome,
            ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("[mbay-csp2:627483] *** End of error message ***").outcome,
            ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("[worker:abc] *** Process received signal ***").outcome,
            ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("[node1:12:0] Signal: Segmentation fault (11)").outcome,
            ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("[host:12] Signal: handled (SIGUSR1)").outcome, ParseOutcome::kNotNccl);
}

TEST(Python, TracebackFramesAndException) {
  EXPECT_EQ(ParseAs<Traceback>("Traceback (most recent call last):").kind, TracebackKind::kStart);
  // A logger's message that introduces it (SGLang's scheduler).
  EXPECT_EQ(ParseAs<Traceback>("Scheduler hit an exception: Traceback (most recent call last):")
                .kind,
            TracebackKind::kStart);
  auto f = ParseAs<Traceback>(
      "  File \"/work/main/gpu-logs/wl.py\", line 49, in train_step");
  EXPECT_EQ(f.kind, TracebackKind::kFrame);
  EXPECT_EQ(f.file, "/work/main/gpu-logs/wl.py");
  EXPECT_EQ(f.line, 49);
  EXPECT_EQ(f.function, "train_step");
  auto e = ParseAs<Traceback>("ValueError: loss became NaN at step 3");
  EXPECT_EQ(e.kind, TracebackKind::kException);
  EXPECT_EQ(e.type, "ValueError");
  EXPECT_EQ(e.message, "loss became NaN at step 3");
  auto oom = ParseAs<Traceback>(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 200.00 GiB. GPU 1 has a "
      "total capacity of 139.80 GiB of which 136.83 GiB is free.");
  EXPECT_EQ(oom.type, "torch.OutOfMemoryError");
}

TEST(Python, FatalSignalAndCppTerminate) {
  auto s = ParseAs<Traceback>("Fatal Python error: Segmentation fault");
  EXPECT_EQ(s.kind, TracebackKind::kFatalSignal);
  EXPECT_EQ(s.type, "Segmentation fault");
  // Two processes dying at once interleave their messages (buffsize_all_die.log).
  auto two = ParseAs<Traceback>(
      "Fatal Python error: Fatal Python error: Floating point exceptionFloating point exception");
  EXPECT_EQ(two.type, "Floating point exceptionFloating point exception");
  auto t = ParseAs<Traceback>(
      "terminate called after throwing an instance of 'c10::DistBackendError'");
  EXPECT_EQ(t.kind, TracebackKind::kCppTerminate);
  EXPECT_EQ(t.type, "c10::DistBackendError");
}

TEST(Python, TerminateGluedToATestRunnersStatusLine) {
  // pytorch/pytorch#12744 (CircleCI, unittest -v): the test's stderr follows its name on one line.
  auto t = ParseAs<Traceback>(
      "test_broadcast_ops (__main__.ProcessGroupNCCLTest) ... terminate called after throwing an "
      "instance of 'std::runtime_error'");
  EXPECT_EQ(t.kind, TracebackKind::kCppTerminate);
  EXPECT_EQ(t.type, "std::runtime_error");
  // Prose that mentions the words is no terminate.
  EXPECT_NE(ParseOne("see the docs ... about terminate handlers").outcome, ParseOutcome::kEvent);
}

TEST(Python, ProseAndSourceLinesStayQuiet) {
  EXPECT_EQ(ParseOne("Error: something went wrong").outcome, ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("MyError happened here").outcome, ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("    raise ValueError(f\"loss became NaN at step {step}\")").outcome,
            ParseOutcome::kNotNccl);
  EXPECT_EQ(ParseOne("2026-11-23 09:26:08,291 INFO [rank0] step 2 done").outcome,
            ParseOutcome::kNotNccl);
}

TEST(Framework, AsyncNcclErrorReasonIsWhole) {
  // kill_socket.log: the reason used to lose its first letter ("emote process exited").
  auto e = ParseAs<FrameworkNcclError>(
      "[E1123 09:26:08.640618159 ProcessGroupNCCL.cpp:612] [Rank 0] Collective "
      "WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, "
      "Timeout(ms)=20000) raised the following async exception: NCCL error: remote process "
      "exited or there was a network error, NCCL version 2.28.9");
  EXPECT_EQ(e.reason, "remote process exited or there was a network error");
  EXPECT_EQ(e.nccl_version, "2.28.9");
}

}  // namespace
}  // namespace ncclscope
