// Reader for nccl-tests output: the text tables (several runs per file, NCCL INFO lines
// interleaved) and the -J JSON file.
#ifndef NCCLSCOPE_BENCH_BENCH_PARSER_H_
#define NCCLSCOPE_BENCH_BENCH_PARSER_H_

#include <string_view>
#include <vector>

#include "ncclscope/base/status.h"
#include "ncclscope/bench/bench_result.h"

namespace ncclscope {

/// Parses nccl-tests text output into one BenchTest per run, skipping NCCL log lines.
/// InvalidInput when no run (header or results table) is found.
Status ParseBenchText(std::string_view text, std::vector<BenchTest>* out);
/// Parses the JSON written by `-J FILE` (nccl-tests 2.17+). InvalidInput on malformed JSON or a
/// document without "results".
Status ParseBenchJson(std::string_view text, std::vector<BenchTest>* out);
/// Dispatches on the first non-blank character: '{' → JSON, else text.
Status ParseBenchOutput(std::string_view text, std::vector<BenchTest>* out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_BENCH_BENCH_PARSER_H_
