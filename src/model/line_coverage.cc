#include "ncclscope/model/line_coverage.h"

#include <fmt/format.h>

#include <cmath>

namespace ncclscope {
namespace {

LineCoverage Make(uint64_t messages, uint64_t unrecognized, uint64_t mentions,
                  uint64_t unrecognized_mentions) {
  LineCoverage c;
  c.messages = messages;
  c.unrecognized_messages = unrecognized < messages ? unrecognized : messages;
  c.mentions = mentions;
  c.unrecognized_mentions = unrecognized_mentions < mentions ? unrecognized_mentions : mentions;
  c.read = messages + mentions;
  c.understood = c.read - c.unrecognized_messages - c.unrecognized_mentions;
  return c;
}

}  // namespace

LineCoverage CoverageOf(const JobStats& s) {
  return Make(s.nccl_lines, s.unrecognized, s.mention_lines, s.unrecognized_mentions);
}

LineCoverage CoverageOf(const SourceInfo& s) {
  return Make(s.nccl_lines, s.unrecognized, s.mention_lines, s.unrecognized_mentions);
}

std::string GroupThousands(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  const size_t lead = digits.size() % 3;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && i >= lead && (i - lead) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string CoverageSummary(const LineCoverage& c) {
  // One decimal, truncated rather than rounded: 99.96 % with a line missing reads 99.9 %.
  double pct = std::floor(c.ratio() * 1000.0) / 10.0;
  if (c.not_understood() == 0) pct = 100.0;
  return fmt::format("{} read, {} understood ({:.1f}%)", GroupThousands(c.read),
                     GroupThousands(c.understood), pct);
}

}  // namespace ncclscope
