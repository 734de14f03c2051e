// Text helpers shared by the files that implement IncidentRecorder (incident_recorder.cc and its
// per-family handlers: incident_recorder_nccl.cc, _framework.cc, _launcher.cc, _traceback.cc).
// Not part of the public API.
#ifndef NCCLSCOPE_SRC_MODEL_INCIDENT_RECORDER_TEXT_H_
#define NCCLSCOPE_SRC_MODEL_INCIDENT_RECORDER_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ncclscope::recorder_internal {

/// Digits at s[*i] as a number (at most 15 digits, the rest skipped); false if none.
inline bool ReadNumber(std::string_view s, size_t* i, int64_t* out) {
  const size_t start = *i;
  int64_t v = 0;
  for (; *i < s.size() && s[*i] >= '0' && s[*i] <= '9'; ++*i) {
    if (*i - start < 15) v = v * 10 + (s[*i] - '0');
  }
  if (*i == start) return false;
  *out = v;
  return true;
}

/// The rank whose digits start at s[at] and end right before `next`; -1 if the text is not
/// that, or the number is too large to be a rank.
inline int RankFollowedBy(std::string_view s, size_t at, char next) {
  int64_t rank = -1;
  if (!ReadNumber(s, &at, &rank) || at >= s.size() || s[at] != next) return -1;
  return rank <= 1000000 ? static_cast<int>(rank) : -1;
}

inline std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

}  // namespace ncclscope::recorder_internal

#endif  // NCCLSCOPE_SRC_MODEL_INCIDENT_RECORDER_TEXT_H_
