// Whether cutting one big input into pieces pays: judged on a sample of its middle, condensed.
#ifndef NCCLSCOPE_ANALYSIS_PIECE_SAMPLING_H_
#define NCCLSCOPE_ANALYSIS_PIECE_SAMPLING_H_

#include <cstdint>
#include <vector>

#include "ncclscope/analysis/input_pieces.h"
#include "ncclscope/input/input_set.h"

namespace ncclscope {

/// Bytes of the sample: the start of the middle piece (a few milliseconds to condense).
inline constexpr uint64_t kPieceSampleBytes = 1024 * 1024;

/// Whether condensing the pieces of `input` in parallel pays: the condensed form of a sample
/// (the first kPieceSampleBytes of its middle piece) keeps fewer than half of the sample's
/// lines. When it keeps more (a log of communicator setups: connection lines; ring orders of
/// thousands of ranks), the replay parses most lines a second time on one thread, and one
/// stream is faster. `pieces` are the pieces of the inputs (PlanPieces), more than one, and
/// `input` is the input of the middle one (several small files: one of them is the sample). The
/// answer changes speed only: both paths give the same job.
bool CondensingPays(const InputPath& input, const std::vector<InputPiece>& pieces);

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_PIECE_SAMPLING_H_
