// ParseShard, ShardInputs: contiguous input ranges per worker.
#include "ncclscope/analysis/shard.h"

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ncclscope {
namespace {

bool ParseUnsigned(std::string_view s, unsigned* out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Status ParseShard(std::string_view text, Shard* out) {
  const size_t slash = text.find('/');
  Shard s;
  if (slash == std::string_view::npos || !ParseUnsigned(text.substr(0, slash), &s.index) ||
      !ParseUnsigned(text.substr(slash + 1), &s.count) || s.count == 0 || s.index >= s.count) {
    return Status::Usage("--shard " + std::string(text) +
                         ": expected K/N with 0 <= K < N (e.g. 3/16: the 4th of 16 shards)");
  }
  *out = s;
  return Status::Ok();
}

std::vector<InputPath> ShardInputs(const std::vector<InputPath>& inputs, Shard s) {
  const uint64_t m = inputs.size();
  const auto begin = static_cast<size_t>(m * s.index / s.count);
  const auto end = static_cast<size_t>(m * (s.index + 1) / s.count);
  return std::vector<InputPath>(inputs.begin() + static_cast<std::ptrdiff_t>(begin),
                                inputs.begin() + static_cast<std::ptrdiff_t>(end));
}

}  // namespace ncclscope
