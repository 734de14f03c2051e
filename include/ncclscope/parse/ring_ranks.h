// The rank list of a ring-order line ("Channel 00/24 : 0 1 2 3 ... 16383", printed by rank 0 of a
// communicator, one line per channel): read on the hot path only as far as the model needs it
// (is it a rank list, how many ranks, was it cut with "..."), decoded into numbers on request
// (the `events` output). Lines of thousands of ranks are common at scale: the check reads the
// text eight bytes at a time.
#ifndef NCCLSCOPE_PARSE_RING_RANKS_H_
#define NCCLSCOPE_PARSE_RING_RANKS_H_

#include <string_view>
#include <vector>

namespace ncclscope {

/// What a rank list holds, without its numbers.
struct RingRankCount {
  int count = 0;     ///< Ranks before the end or the "...".
  bool cut = false;  ///< The list ends in "..." (NCCL shortens long lists in some versions).
};

/// Checks that `text` is a rank list: decimal numbers of at most nine digits separated by blanks,
/// optionally ending in "..." (anything may follow the dots). Fills *out and returns true if it
/// is; false for anything else (a letter, a sign, a ten-digit number).
bool ScanRingRanks(std::string_view text, RingRankCount* out);

/// The numbers of a list ScanRingRanks accepted, in order (up to the "...").
std::vector<int> DecodeRingRanks(std::string_view text);

}  // namespace ncclscope

#endif  // NCCLSCOPE_PARSE_RING_RANKS_H_
