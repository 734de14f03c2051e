// Text helpers of the diff parts: rank sets and a fact's values over the processes.
#include <fmt/format.h>

#include <algorithm>

#include "diff_parts.h"

namespace ncclscope::diff_internal {

std::string RankSetText(const std::vector<int>& ranks) {
  std::vector<int> known;
  int unknown = 0;
  for (int r : ranks) {
    if (r >= 0) {
      known.push_back(r);
    } else {
      ++unknown;
    }
  }
  std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());
  std::string out;
  for (size_t i = 0; i < known.size();) {
    size_t j = i;
    while (j + 1 < known.size() && known[j + 1] == known[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(known[i]);
    // Two consecutive ranks read better as "0,1" than as "0-1".
    if (j == i + 1) out += "," + std::to_string(known[j]);
    if (j > i + 1) out += "-" + std::to_string(known[j]);
    i = j + 1;
  }
  if (unknown > 0) {
    if (out.empty()) return fmt::format("{} unknown", unknown);
    out += fmt::format(" and {} unknown", unknown);
  }
  return out;
}

std::string ValuesText(const std::vector<ValueCount>& values, int processes,
                       const std::string& none) {
  if (values.empty()) return none;
  if (values.size() == 1) {
    const ValueCount& v = values.front();
    if (processes <= 0 || v.processes >= processes) return v.value;
    return fmt::format("{} on {} of {} processes", v.value, v.processes, processes);
  }
  std::string out;
  for (const ValueCount& v : values) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} ×{}", v.value, v.processes);
  }
  return out;
}

}  // namespace ncclscope::diff_internal
