// Shards of a set of inputs, for `ncclscope summarize --shard K/N` run by N workers in parallel
// (docs/scale-out.md): the expanded inputs in order, cut into N contiguous ranges of (almost) equal
// count. Merging the N summaries in shard order gives the report of one run over all inputs.
#ifndef NCCLSCOPE_ANALYSIS_SHARD_H_
#define NCCLSCOPE_ANALYSIS_SHARD_H_

#include <string_view>
#include <vector>

#include "ncclscope/base/status.h"
#include "ncclscope/input/input_set.h"

namespace ncclscope {

struct Shard {
  unsigned index = 0;  ///< 0-based
  unsigned count = 1;
};

/// Parses "K/N" (0 <= K < N, N >= 1). Usage error otherwise.
Status ParseShard(std::string_view text, Shard* out);

/// The inputs of shard `s`: [K*M/N, (K+1)*M/N) of M inputs. Shards of more workers than inputs
/// are empty; together the shards hold every input once, in order.
std::vector<InputPath> ShardInputs(const std::vector<InputPath>& inputs, Shard s);

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_SHARD_H_
