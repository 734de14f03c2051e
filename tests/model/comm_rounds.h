// Jobs that create communicators again and again, built from one corpus log: each round repeats
// the log's communicators with new commIds (and pointers), as a long job with per-step process
// groups or many attempts in one log does. For the builder's tests.
#ifndef NCCLSCOPE_TESTS_MODEL_COMM_ROUNDS_H_
#define NCCLSCOPE_TESTS_MODEL_COMM_ROUNDS_H_

#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/model/job_builder.h"

namespace ncclscope::testing {

/// One more round of the same job: new commIds and (unless kept) communicator pointers; round 0
/// is the log unchanged.
inline std::string Round(const std::string& log, int round, bool new_pointers = true) {
  if (round == 0) return log;
  static const std::regex ptr("(comm |parent )0x([0-9a-f]+)");
  std::string out = new_pointers
                        ? std::regex_replace(log, ptr, "$010x" + std::to_string(100 + round) + "$2")
                        : log;
  // The commId's last byte XOR the round: distinct from the original and from other rounds.
  static const std::regex id("commId 0x[0-9a-f]{16}");
  std::string with_ids;
  std::sregex_iterator it(out.begin(), out.end(), id), end;
  size_t pos = 0;
  for (; it != end; ++it) {
    const size_t at = static_cast<size_t>(it->position());
    const std::string hex = it->str().substr(it->str().size() - 2);
    char tail[8];
    std::snprintf(tail, sizeof(tail), "%02x", (std::stoi(hex, nullptr, 16) ^ round) & 0xff);
    with_ids += out.substr(pos, at - pos) + it->str().substr(0, it->str().size() - 2) + tail;
    pos = at + it->str().size();
  }
  return with_ids + out.substr(pos);
}

/// The log without its lines that hold `needle`.
inline std::string Without(const std::string& log, const std::string& needle) {
  std::string out;
  size_t pos = 0;
  while (pos < log.size()) {
    size_t nl = log.find('\n', pos);
    size_t end = nl == std::string::npos ? log.size() : nl + 1;
    const std::string line = log.substr(pos, end - pos);
    if (line.find(needle) == std::string::npos) out += line;
    pos = end;
  }
  return out;
}

/// Lines a process prints once in its life (a new round of communicators does not repeat them).
inline std::string WithoutProcessBanner(const std::string& log) {
  return Without(Without(log, "NCCL version"), "cudaDriverVersion");
}

/// The model of `text` (one in-memory input) built with `tuning` and finished.
inline Job BuildJob(const std::string& text, BuilderTuning tuning = {}) {
  Job job;
  JobBuilder builder(&job, tuning);
  EventPipeline pipeline(&job.sources, &job.stats);
  std::vector<InputProblem> problems;
  pipeline.Run(MemoryByteSource(text.data(), text.size()), InputPath{"", "mem.log"},
               [&](const Event& e) { builder.Add(e); }, &problems);
  builder.Finish(BuildOptions{});
  return job;
}

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_MODEL_COMM_ROUNDS_H_
