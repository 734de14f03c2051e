// Compact rank lists for messages: "0-2,5".
#ifndef NCCLSCOPE_MODEL_RANK_RANGES_H_
#define NCCLSCOPE_MODEL_RANK_RANGES_H_

#include <string>
#include <vector>

namespace ncclscope {

/// Sorted, deduplicated ranks as ranges: {0,1,2,5} → "0-2,5", {3,4} → "3,4"; "" when empty.
std::string RankRanges(std::vector<int> ranks);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_RANK_RANGES_H_
