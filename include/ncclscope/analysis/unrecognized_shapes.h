// The lines the parser did not understand, grouped by shape: numbers and pointers blanked out so
// that `Channel 00/1 : ...` and `Channel 07/1 : ...` fall together. `ncclscope events
// --unrecognized` prints the groups, largest first, so a user sees at once where the tool is blind.
#ifndef NCCLSCOPE_ANALYSIS_UNRECOGNIZED_SHAPES_H_
#define NCCLSCOPE_ANALYSIS_UNRECOGNIZED_SHAPES_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/model/job.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

/// `text` with hex pointers as `0x…`, digit runs as `N` and blank runs as one blank, cut at 200
/// bytes.
std::string LineShape(std::string_view text);

struct UnrecognizedGroup {
  std::string shape;
  bool mention = false;  ///< Lines that mention NCCL (not NCCL messages).
  uint64_t count = 0;
  std::vector<Evidence> examples;  ///< The first few lines of the shape.
};

class UnrecognizedShapes {
 public:
  static constexpr size_t kExamples = 3;
  /// Counts `e` if it is an Unrecognized event.
  void Add(const Event& e);
  /// The groups, largest first (ties: first seen first).
  std::vector<UnrecognizedGroup> Groups() const;
  uint64_t total() const { return total_; }

 private:
  std::map<std::pair<bool, std::string>, size_t> index_;
  std::vector<UnrecognizedGroup> groups_;
  uint64_t total_ = 0;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_UNRECOGNIZED_SHAPES_H_
