// Text form of nccl-tests output. Each run prints, in order:
//   # nccl-tests version 2.19.6 nccl-headers=22809 nccl-library=22809   (2.14+)
//   # Collective test starting: all_reduce_perf                         (2.19+)
//   # nThread 1 nGpus 4 minBytes 8 maxBytes 2147483648 step: 2(factor) ...
//   #  Rank  0 Group  0 Pid   1733 on vm device  0 [0000:00:06] NVIDIA H200
//   the table: size count type redop root, then time algbw busbw #wrong twice
//   # Out of bounds values : 0 OK
//   # Avg bus bandwidth    : 108.423
//   # Collective test concluded: all_reduce_perf
#include <fmt/format.h>

#include <algorithm>

#include "ncclscope/base/text_tokens.h"
#include "ncclscope/bench/bench_parser.h"

namespace ncclscope {
namespace {

bool IsNcclLogLine(std::string_view line) {
  return line.find(" NCCL INFO ") != std::string_view::npos ||
         line.find(" NCCL WARN ") != std::string_view::npos ||
         line.find(" NCCL TRACE ") != std::string_view::npos;
}

bool IsTestFailureLine(std::string_view line) {
  return line.find("Test NCCL failure") != std::string_view::npos ||
         line.find("Test CUDA failure") != std::string_view::npos ||
         line.find("Test failure") != std::string_view::npos;
}

// "N/A" → nullopt with *ok true; a number → value; anything else → *ok false.
std::optional<double> ParseCell(std::string_view s, bool* ok) {
  if (s == "N/A") return std::nullopt;
  std::optional<double> v = ParseDouble(s);
  if (!v) *ok = false;
  return v;
}

// A results row: size count [type [redop [root]]] followed by 8 placement cells.
std::optional<BenchRow> ParseRow(const std::vector<std::string_view>& t) {
  if (t.size() < 11 || t.size() > 13) return std::nullopt;
  std::optional<int64_t> size = ParseInt64(t[0]);
  std::optional<int64_t> count = ParseInt64(t[1]);
  if (!size || !count || *size < 0 || *count < 0) return std::nullopt;
  BenchRow row;
  row.size_bytes = *size;
  row.count = *count;
  const size_t first_cell = t.size() - 8;
  row.type = std::string(t[2]);
  if (first_cell > 3) row.redop = std::string(t[3]);
  if (first_cell > 4) {
    row.root = ParseInt64(t[4]);
    if (!row.root) return std::nullopt;
  }
  bool ok = true;
  BenchPlacement* placements[2] = {&row.out_of_place, &row.in_place};
  for (int p = 0; p < 2; ++p) {
    size_t base = first_cell + static_cast<size_t>(p) * 4;
    placements[p]->time_us = ParseCell(t[base], &ok);
    placements[p]->algbw_gbps = ParseCell(t[base + 1], &ok);
    placements[p]->busbw_gbps = ParseCell(t[base + 2], &ok);
    placements[p]->wrong = ParseCell(t[base + 3], &ok);
  }
  if (!ok) return std::nullopt;
  return row;
}

int ClampInt(std::optional<int64_t> v) {
  return v && *v >= 0 && *v < (1 << 30) ? static_cast<int>(*v) : 0;
}

// "Rank  0 Group  0 Pid   1733 on  vm device  0 [0000:00:06] NVIDIA H200" (after the '#').
std::optional<BenchDevice> ParseDeviceLine(std::string_view body) {
  std::vector<std::string_view> t = SplitWhitespace(body);
  if (t.size() < 2 || t[0] != "Rank") return std::nullopt;
  BenchDevice d;
  std::optional<int64_t> rank = ParseInt64(t[1]);
  if (!rank) return std::nullopt;
  if (*rank < 0 || *rank >= (1 << 30)) return std::nullopt;
  d.rank = static_cast<int>(*rank);
  for (size_t i = 2; i + 1 < t.size(); ++i) {
    if (t[i] == "Group") {
      d.group = ClampInt(ParseInt64(t[i + 1]));
    } else if (t[i] == "Pid") {
      d.pid = ParseInt64(t[i + 1]).value_or(0);
    } else if (t[i] == "on") {
      d.host = std::string(t[i + 1]);
    } else if (t[i] == "device") {
      d.device = ClampInt(ParseInt64(t[i + 1]));
      break;
    }
  }
  size_t open = body.find('[');
  size_t close = body.find(']', open == std::string_view::npos ? 0 : open);
  if (open != std::string_view::npos && close != std::string_view::npos) {
    d.bus_id = std::string(body.substr(open + 1, close - open - 1));
    d.name = std::string(TrimWhitespace(body.substr(close + 1)));
  }
  return d;
}

// "nThread 1 nGpus 4 minBytes 8 maxBytes 2147483648 step: ..." (after the '#').
void ParseRunHeader(std::string_view body, BenchTest* t) {
  std::vector<std::string_view> tok = SplitWhitespace(body);
  for (size_t i = 0; i + 1 < tok.size(); ++i) {
    std::optional<int64_t> v = ParseInt64(tok[i + 1]);
    if (!v) continue;
    int small = *v >= 0 && *v < (1 << 20) ? static_cast<int>(*v) : 0;
    if (tok[i] == "nThread") t->nthreads = small;
    if (tok[i] == "nGpus") t->ngpus = small;
    if (tok[i] == "minBytes") t->min_bytes = *v;
    if (tok[i] == "maxBytes") t->max_bytes = *v;
  }
}

// Value after "key :" in a summary line, e.g. "Avg bus bandwidth    : 108.423 OK".
std::vector<std::string_view> AfterColon(std::string_view body) {
  size_t colon = body.find(':');
  if (colon == std::string_view::npos) return {};
  return SplitWhitespace(body.substr(colon + 1));
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

class TextParser {
 public:
  explicit TextParser(std::vector<BenchTest>* out) : out_(out) {}

  void Line(std::string_view raw, int line_no) {
    if (IsNcclLogLine(raw)) return;
    std::string_view line = TrimWhitespace(raw);
    if (line.empty()) return;
    if (line.front() == '#') {
      Comment(TrimWhitespace(line.substr(1)), line_no);
      return;
    }
    if (IsTestFailureLine(line)) {
      Current(line_no)->errors.emplace_back(line);
      return;
    }
    std::optional<BenchRow> row = ParseRow(SplitWhitespace(line));
    if (row) {
      BenchTest* t = Current(line_no);
      if (t->concluded) t = StartNew(line_no);
      t->rows.push_back(std::move(*row));
    }
  }

  void Finish() {
    if (has_current_) out_->push_back(std::move(current_));
    has_current_ = false;
  }

 private:
  void Comment(std::string_view body, int line_no) {
    if (StartsWith(body, "nccl-tests version")) {
      BenchTest* t = StartNew(line_no);
      std::vector<std::string_view> tok = SplitWhitespace(body);
      if (tok.size() >= 3) t->nccl_tests_version = std::string(tok[2]);
    } else if (StartsWith(body, "Collective test starting:")) {
      BenchTest* t = Current(line_no);
      if (!t->rows.empty() || !t->name.empty()) t = StartNew(line_no);
      std::vector<std::string_view> tok = AfterColon(body);
      if (!tok.empty()) t->name = std::string(tok[0]);
    } else if (StartsWith(body, "nThread")) {
      BenchTest* t = Current(line_no);
      if (!t->rows.empty() || t->nthreads != 0) t = StartNew(line_no);
      ParseRunHeader(body, t);
    } else if (StartsWith(body, "Rank")) {
      std::optional<BenchDevice> d = ParseDeviceLine(body);
      if (d) Current(line_no)->devices.push_back(std::move(*d));
    } else if (StartsWith(body, "Out of bounds values")) {
      std::vector<std::string_view> tok = AfterColon(body);
      BenchTest* t = Current(line_no);
      if (!tok.empty()) t->out_of_bounds = ParseInt64(tok[0]);
      t->concluded = true;
    } else if (StartsWith(body, "Avg bus bandwidth")) {
      std::vector<std::string_view> tok = AfterColon(body);
      BenchTest* t = Current(line_no);
      if (!tok.empty()) t->avg_busbw_gbps = ParseDouble(tok[0]);
      t->concluded = true;
    } else if (StartsWith(body, "Collective test concluded:")) {
      Current(line_no)->concluded = true;
    }
  }

  BenchTest* StartNew(int line_no) {
    Finish();
    current_ = BenchTest();
    current_.source_format = "text";
    current_.first_line = line_no;
    has_current_ = true;
    return &current_;
  }

  BenchTest* Current(int line_no) { return has_current_ ? &current_ : StartNew(line_no); }

  std::vector<BenchTest>* out_;
  BenchTest current_;
  bool has_current_ = false;
};

}  // namespace

Status ParseBenchText(std::string_view text, std::vector<BenchTest>* out) {
  out->clear();
  std::vector<BenchTest> tests;
  TextParser parser(&tests);
  std::vector<std::string_view> lines = SplitLines(text);
  for (size_t i = 0; i < lines.size(); ++i) parser.Line(lines[i], static_cast<int>(i) + 1);
  parser.Finish();
  // Keep runs that carry results or an error; a stray "# Rank" comment alone is not a run.
  for (BenchTest& t : tests) {
    if (!t.rows.empty() || !t.errors.empty() || t.nthreads != 0) out->push_back(std::move(t));
  }
  if (out->empty()) {
    return Status::InvalidInput(
        "no nccl-tests output found (expected a '# nThread ...' header or a results table)");
  }
  return Status::Ok();
}

Status ParseBenchOutput(std::string_view text, std::vector<BenchTest>* out) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return ParseBenchJson(text, out);
  return ParseBenchText(text, out);
}

}  // namespace ncclscope
