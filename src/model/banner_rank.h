// BannerRank: rank 0 told by NCCL's bare version banner.
//
// NCCL up to 2.21 prints "NCCL version 2.x.y+cudaA.B" without a prefix, once per process, and
// only from ncclCommInitRank's `myrank == 0` (init.cc: `if (myrank == 0) showVersion();`). A
// bare banner amid one process's own lines (the two headed NCCL lines before it and the first
// one after it all from that process) was printed by that process: it was rank 0 of the
// communicator it was initialising. Used only for processes whose rank nothing else states.
#ifndef NCCLSCOPE_SRC_MODEL_BANNER_RANK_H_
#define NCCLSCOPE_SRC_MODEL_BANNER_RANK_H_

#include <cstdint>
#include <set>
#include <vector>

#include "ncclscope/parse/events.h"

namespace ncclscope {

class BannerRank {
 public:
  /// Every event of input `source`, in order; `instance` is the printing process (-1 for lines
  /// without NCCL's host:pid head).
  void Note(uint32_t source, int instance, const Event& event);
  /// Whether the bare banner says this process instance was rank 0.
  bool RankZero(int instance) const { return rank_zero_.count(instance) > 0; }

  /// Whether NCCL `version` ("2.4.2") prints its banner from rank 0 only, without a prefix.
  static bool BareBannerOfRankZero(std::string_view version);

 private:
  struct SourceState {
    int headed = -1;     ///< Process of the last headed line.
    int run = 0;         ///< Consecutive headed lines of that process.
    int candidate = -1;  ///< A bare banner followed `headed`'s run; the next headed line decides.
  };
  std::vector<SourceState> sources_;
  std::set<int> rank_zero_;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_SRC_MODEL_BANNER_RANK_H_
