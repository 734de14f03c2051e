// StripPrefixes for the prefix tests: the stripped text and what the prefixes said, copied out of
// LineMeta's views (which may point into the scratch buffer).
#ifndef NCCLSCOPE_TESTS_INPUT_STRIP_PREFIXES_HELPER_H_
#define NCCLSCOPE_TESTS_INPUT_STRIP_PREFIXES_HELPER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "ncclscope/input/prefix.h"

namespace ncclscope::testing {

struct Stripped {
  std::string text, timestamp, pod, origin_host, origin_name;
  int rank = -1;
  uint32_t origin_pid = 0;
  bool had_ansi = false;
  MultiNodePrefix multi_node = MultiNodePrefix::kNone;
};

inline Stripped Strip(std::string_view raw) {
  std::string scratch;
  LineMeta meta;
  Stripped s;
  s.text = std::string(StripPrefixes(raw, &meta, &scratch));
  s.timestamp = std::string(meta.timestamp);
  s.pod = std::string(meta.pod);
  s.origin_host = std::string(meta.origin_host);
  s.origin_name = std::string(meta.origin_name);
  s.rank = meta.launcher_rank;
  s.origin_pid = meta.origin_pid;
  s.had_ansi = meta.had_ansi;
  s.multi_node = meta.multi_node;
  return s;
}

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_INPUT_STRIP_PREFIXES_HELPER_H_
