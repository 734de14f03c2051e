// CondensingPays: the kept share of a condensed sample from the middle of a cut input.
#include "ncclscope/analysis/piece_sampling.h"

#include <algorithm>

#include "ncclscope/analysis/condensed.h"

namespace ncclscope {

bool CondensingPays(const InputPath& input, const std::vector<InputPiece>& pieces) {
  if (pieces.size() < 2) return true;
  InputPiece sample = pieces[pieces.size() / 2];
  sample.primer.clear();  // an estimate: the parser's state across lines does not matter
  const uint64_t end = sample.begin + kPieceSampleBytes;
  sample.end = std::min(sample.end, end);  // may stop inside a line: one line of a sample
  const CondensedInput c = CondenseInput(input, sample);
  uint64_t lines = 0;
  for (const CondensedSource& s : c.sources) lines += s.info.lines;
  return 2 * static_cast<uint64_t>(c.lines.size()) < lines || lines == 0;
}

}  // namespace ncclscope
