// Horovod's stall inspector lines (see horovod_stall_parser.h).
#include "horovod_stall_parser.h"

#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

/// "1", "1, 3": digits, commas and blanks only, at least one digit.
bool IsRankList(std::string_view s) {
  bool digit = false;
  for (char ch : s) {
    if (ch >= '0' && ch <= '9') {
      digit = true;
    } else if (ch != ',' && ch != ' ') {
      return false;
    }
  }
  return digit;
}

FrameworkEvent StallMissing(std::string_view ranks) {
  FrameworkEvent fe;
  fe.kind = FrameworkKind::kStallMissing;
  fe.detail = ranks;
  return fe;
}

}  // namespace

bool ParseHorovodMissingRanks(std::string_view msg, EventData* data) {
  constexpr std::string_view kKey = "[missing ranks: ";
  const size_t at = msg.find(kKey);
  if (at == std::string_view::npos) {
    // A 0.19+ rank line whose tensors are Horovod's own ops names its report without the
    // header ("0: [HorovodAllreduce_grads_0]", also behind prefixes the input layer left:
    // "... -- [1,0]<stderr>:0: [HorovodAllreduce]"); other tensor names need the header.
    constexpr std::string_view kOps = ": [Horovod";
    for (size_t p = msg.find(kOps); p != std::string_view::npos; p = msg.find(kOps, p + 1)) {
      size_t b = p;
      if (b > 0 && msg[b - 1] == '!') --b;
      const size_t digits_end = b;
      while (b > 0 && digits_end - b < 8 && msg[b - 1] >= '0' && msg[b - 1] <= '9') --b;
      if (b == digits_end) continue;
      if (b > 0 && msg[b - 1] != ' ' && msg[b - 1] != ':') continue;
      *data = StallMissing(msg.substr(b, digits_end - b));
      return true;
    }
    return false;
  }
  const std::string_view rest = msg.substr(at + kKey.size());
  const size_t close = rest.find(']');
  if (close == std::string_view::npos || !IsRankList(rest.substr(0, close))) return false;
  *data = StallMissing(rest.substr(0, close));
  return true;
}

bool IsHorovodStallHeader(std::string_view trimmed) {
  for (std::string_view header : {"Stalled ranks:", "Missing ranks:"}) {
    if (!trimmed.ends_with(header)) continue;
    const size_t b = trimmed.size() - header.size();
    // On a line of its own, or behind a prefix the input layer left (`...<stderr>:`).
    if (b == 0 || trimmed[b - 1] == ' ' || trimmed[b - 1] == ':') return true;
  }
  return false;
}

bool ParseHorovodStalledRank(std::string_view trimmed, EventData* data) {
  size_t k = 0;
  while (k < trimmed.size() && k < 8 && trimmed[k] >= '0' && trimmed[k] <= '9') ++k;
  if (k == 0) return false;
  const std::string_view rank = trimmed.substr(0, k);
  TextCursor c(trimmed.substr(k));
  c.Eat("!");
  if (!c.Eat(": [")) return false;
  *data = StallMissing(rank);
  return true;
}

bool ParseHorovodLabelledRank(std::string_view trimmed, int launcher_rank, EventData* data) {
  if (launcher_rank < 0 || trimmed.size() < 3 || trimmed.front() != '[') return false;
  // A list of tensor names ("allreduce.layer1.weight, HorovodAllreduce_grads_0 ..."), not a
  // log head ("[2020-01-15 22:44:33.214399: W horovod/...]") or another tag ("[[1,0]<stderr>:").
  const size_t close = trimmed.find(']');
  if (close == std::string_view::npos || close < 2) return false;
  for (char ch : trimmed.substr(1, close - 1)) {
    const bool name = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '/' ||
                      ch == ',' || ch == ' ' || ch == '-';
    if (!name) return false;
  }
  FrameworkEvent fe = StallMissing({});
  fe.rank = launcher_rank;
  *data = fe;
  return true;
}

}  // namespace ncclscope::parse_internal
