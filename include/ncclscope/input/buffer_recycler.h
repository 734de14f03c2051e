// BufferRecycler: where a LineReader takes its read buffers and leaves the ones it has moved on
// from, for a consumer that keeps lines (views into a buffer) after the reader read further
// (EventRelay: events parsed on one thread, modelled on another).
#ifndef NCCLSCOPE_INPUT_BUFFER_RECYCLER_H_
#define NCCLSCOPE_INPUT_BUFFER_RECYCLER_H_

#include <cstddef>
#include <memory>

namespace ncclscope {

class BufferRecycler {
 public:
  virtual ~BufferRecycler() = default;
  /// A buffer of `bytes` bytes (contents unspecified).
  virtual std::unique_ptr<char[]> Take(size_t bytes) = 0;
  /// The reader no longer reads into `buffer` (of `bytes` bytes, as taken or allocated); the
  /// lines it returned from it must stay valid until the recycler's consumer is done with them.
  virtual void Retire(std::unique_ptr<char[]> buffer, size_t bytes) = 0;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_BUFFER_RECYCLER_H_
