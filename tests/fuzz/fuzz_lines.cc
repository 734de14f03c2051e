// libFuzzer target over the input decoders and the line parser: bytes → LineStream (container
// records, partial joins, CR splits, prefixes) → LineParser (locator, glued, headless, cut
// messages) → JobBuilder, and the prefix stripper and record decoder on their own. Build with
// clang: cmake -DNCCLSCOPE_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ (see docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/input/container_record.h"
#include "ncclscope/input/line_stream.h"
#include "ncclscope/input/prefix.h"
#include "ncclscope/parse/line_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ncclscope;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The whole pipeline with a small line limit, so cut lines and capped joins are reached.
  {
    LineStream stream(MemoryByteSource(text.data(), text.size()), 0, /*max_line=*/512);
    LineParser parser;
    Line line;
    Event event;
    while (stream.Next(&line)) {
      if (parser.Parse(line, &event) != ParseOutcome::kEvent) continue;
      while (parser.ParseMore(&event)) {
      }
    }
  }
  // Each piece alone, on the raw bytes as one line.
  {
    LineMeta meta;
    std::string scratch;
    (void)StripPrefixes(text, &meta, &scratch);
    ContainerDecoder decoder;
    ContainerRecord record;
    (void)decoder.Decode(text, &record);
  }
  // The model and the rules, on small inputs.
  if (size < 4096) (void)AnalyzeText(text);
  return 0;
}
