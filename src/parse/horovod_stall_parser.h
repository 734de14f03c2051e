// Horovod's stall inspector: the ranks that did not submit a tensor every other rank submitted
// (horovod/common/operations.cc up to 0.16, stall_inspector.cc since 0.19). Those ranks are the
// ones the others wait for: the stuck (or slow, or dead) ranks of a Horovod hang.
//
//   0.16:  "Stalled ops:HorovodBroadcast_dense_1_bias_0 [missing ranks: 1]", then one line per
//          tensor: "[2019-04-13 14:00:31.874338: W horovod/common/operations.cc:588]
//          HorovodBroadcast_dense_kernel_0 [missing ranks: 1, 3]"
//   0.19+: "... which will cause deadlock. ", then "Stalled ranks:" (or "Missing ranks:") on a
//          line of its own, then one line per rank: "0: [HorovodAllreduce_grads_0, ...]",
//          "3!: [...]" ("!": past HOROVOD_STALL_SHUTDOWN_TIME_SECONDS)
#ifndef NCCLSCOPE_SRC_PARSE_HOROVOD_STALL_PARSER_H_
#define NCCLSCOPE_SRC_PARSE_HOROVOD_STALL_PARSER_H_

#include <string_view>

#include "ncclscope/parse/events.h"

namespace ncclscope::parse_internal {

/// A 0.16 line holding "[missing ranks: 1, 3]": FrameworkEvent kStallMissing, detail "1, 3";
/// or a 0.19+ rank line whose tensors are Horovod ops ("0: [HorovodAllreduce_grads_0]"), which
/// says what it is without its header.
bool ParseHorovodMissingRanks(std::string_view msg, EventData* data);

/// The 0.19+ header line ("Stalled ranks:", "Missing ranks:"), trimmed.
bool IsHorovodStallHeader(std::string_view trimmed);

/// A 0.19+ rank line after the header ("0: [HorovodAllreduce_grads_0]", "3!: [a, b ...]"),
/// trimmed: FrameworkEvent kStallMissing, detail the rank.
bool ParseHorovodStalledRank(std::string_view trimmed, EventData* data);

/// The same line whose `0: ` the input layer took for a launcher's label (srun's `3: `) and
/// stripped, leaving `[HorovodAllreduce_grads_0]` and `launcher_rank` 0: FrameworkEvent
/// kStallMissing with `rank` set and no detail.
bool ParseHorovodLabelledRank(std::string_view trimmed, int launcher_rank, EventData* data);

}  // namespace ncclscope::parse_internal

#endif  // NCCLSCOPE_SRC_PARSE_HOROVOD_STALL_PARSER_H_
