// Input pieces: the units that `analyze --jobs N` condenses in parallel. A piece is a whole input,
// or, for a large regular file, a byte range of it cut at line boundaries, so that one big log
// uses every core. Each piece goes through the normal stream (LineStream: prefixes, line limits,
// counters); the pieces of one input are then replayed in order into one model
// (CondensedReplay), which gives exactly the job a serial read gives:
//
// - line numbers: a piece counts from 1; the replay adds the lines of the pieces before it;
// - the parser's state across lines (PyTorch's "Last error:" continuation): a piece's parser first
//   parses the line before the piece (InputPiece::primer), so its first line reads as it would in
//   one stream; a cut is never placed after a line longer than the line limit (whose text could
//   not be primed from a short window);
// - kubectl --prefix pods: each piece names its pods; the replay maps them to one source per pod,
//   in order of first appearance;
// - first/last lines and "first wins" records: the condensed form keeps the first and last lines
//   of every process in each piece, and pieces are replayed in input order.
//
// Not split: stdin and pipes, gzip files (the compressed stream cannot be entered in the middle:
// they are read whole by one worker), files below 2 × piece_bytes, and everything when jobs < 2.
#ifndef NCCLSCOPE_ANALYSIS_INPUT_PIECES_H_
#define NCCLSCOPE_ANALYSIS_INPUT_PIECES_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ncclscope/base/status.h"
#include "ncclscope/input/byte_source.h"
#include "ncclscope/input/input_set.h"

namespace ncclscope {

struct InputPiece {
  static constexpr uint64_t kToEnd = std::numeric_limits<uint64_t>::max();
  size_t input = 0;   ///< Index into the inputs.
  bool whole = true;  ///< The whole input (opened as usual); else bytes [begin, end).
  uint64_t begin = 0;
  uint64_t end = kToEnd;  ///< kToEnd: to the end of the file, however long it is by then.
  bool first = true;      ///< The input's first piece.
  std::string primer;     ///< Raw bytes of the line before `begin` (with its newline).
};

/// Default piece size: big enough that a piece costs far more than starting it (about 0.3 M
/// instructions: buffers, parser), small enough that the condensed pieces in flight stay small
/// even when nearly every line is kept (a log of communicator setups).
inline constexpr uint64_t kPieceBytes = 4 * 1024 * 1024;

/// The pieces of `inputs`, in input order. Inputs that cannot be examined stay whole (reading
/// them reports the problem as usual).
std::vector<InputPiece> PlanPieces(const std::vector<InputPath>& inputs, unsigned jobs,
                                   uint64_t piece_bytes = kPieceBytes);

/// Opens a part piece: the bytes [begin, end) of the file. nullptr and *err when it cannot.
std::unique_ptr<ByteSource> OpenPieceBytes(const InputPath& input, const InputPiece& piece,
                                           Status* err);

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_INPUT_PIECES_H_
