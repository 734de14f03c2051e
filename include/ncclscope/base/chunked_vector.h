// ChunkedVector: a sequence kept in fixed-size chunks instead of one contiguous array.
//
// The model's big arrays (links, communicators) grow one element at a time to tens of thousands
// of records of a few hundred bytes. A std::vector doubles its buffer and moves every element
// into the new one, so while it grows it holds up to three times its contents (old buffer plus a
// new one twice as big), and afterwards up to twice. A ChunkedVector only ever adds a chunk:
// its memory is its contents rounded up to one chunk, elements never move (references stay
// valid across push_back), and indexing is a shift and a mask.
//
// The interface is the part of std::vector the model uses: push_back/emplace_back, size, empty,
// operator[], front/back, clear, insert at an index, and random-access iterators.
#ifndef NCCLSCOPE_BASE_CHUNKED_VECTOR_H_
#define NCCLSCOPE_BASE_CHUNKED_VECTOR_H_

#include <cstddef>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace ncclscope {

namespace chunked_internal {
/// log2 of the elements per chunk: the largest power of two whose chunk fits kChunkBytes, at
/// least 16 in chunks of 64 KiB and more, at least 4 in smaller ones.
template <typename T, size_t kChunkBytes>
constexpr int ChunkShift() {
  int shift = kChunkBytes >= 64 * 1024 ? 4 : 2;
  while ((sizeof(T) << (shift + 1)) <= kChunkBytes) ++shift;
  return shift;
}
}  // namespace chunked_internal

/// kChunkBytes: the chunk size to aim for. 64 KiB for the job's big arrays; small chunks where
/// there are thousands of vectors that mostly stay short (a process's memberships: a job of one
/// process per file has thousands of processes, and a first chunk is all most of them need).
template <typename T, size_t kChunkBytes = 64 * 1024>
class ChunkedVector {
  static constexpr int kShift = chunked_internal::ChunkShift<T, kChunkBytes>();
  static constexpr size_t kChunk = size_t{1} << kShift;
  static constexpr size_t kMask = kChunk - 1;

  template <bool kConst>
  class Iter {
    using Owner = std::conditional_t<kConst, const ChunkedVector, ChunkedVector>;

   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<kConst, const T*, T*>;
    using reference = std::conditional_t<kConst, const T&, T&>;

    Iter() = default;
    Iter(Owner* owner, size_t index) : owner_(owner), index_(index) {}
    operator Iter<true>() const  // NOLINT(google-explicit-constructor): as std::vector's
      requires(!kConst)
    {
      return Iter<true>(owner_, index_);
    }

    reference operator*() const { return (*owner_)[index_]; }
    pointer operator->() const { return &(*owner_)[index_]; }
    reference operator[](difference_type n) const { return (*owner_)[index_ + n]; }
    Iter& operator++() {
      ++index_;
      return *this;
    }
    Iter operator++(int) {
      Iter old = *this;
      ++index_;
      return old;
    }
    Iter& operator--() {
      --index_;
      return *this;
    }
    Iter operator--(int) {
      Iter old = *this;
      --index_;
      return old;
    }
    Iter& operator+=(difference_type n) {
      index_ += n;
      return *this;
    }
    Iter& operator-=(difference_type n) {
      index_ -= n;
      return *this;
    }
    friend Iter operator+(Iter it, difference_type n) { return it += n; }
    friend Iter operator+(difference_type n, Iter it) { return it += n; }
    friend Iter operator-(Iter it, difference_type n) { return it -= n; }
    friend difference_type operator-(const Iter& a, const Iter& b) {
      return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
    }
    friend bool operator==(const Iter& a, const Iter& b) { return a.index_ == b.index_; }
    friend auto operator<=>(const Iter& a, const Iter& b) { return a.index_ <=> b.index_; }
    size_t index() const { return index_; }

   private:
    Owner* owner_ = nullptr;
    size_t index_ = 0;
  };

 public:
  using value_type = T;
  using size_type = size_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;

  ChunkedVector() = default;
  ChunkedVector(const ChunkedVector& other) {
    for (const T& v : other) push_back(v);
  }
  ChunkedVector(ChunkedVector&& other) noexcept
      : chunks_(std::move(other.chunks_)), size_(std::exchange(other.size_, 0)) {}
  ChunkedVector& operator=(const ChunkedVector& other) {
    if (this != &other) {
      clear();
      for (const T& v : other) push_back(v);
    }
    return *this;
  }
  ChunkedVector& operator=(ChunkedVector&& other) noexcept {
    if (this != &other) {
      clear();
      chunks_ = std::move(other.chunks_);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~ChunkedVector() { clear(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// Elements per chunk (for tests).
  static constexpr size_t chunk_size() { return kChunk; }

  T& operator[](size_t i) { return Slot(i); }
  const T& operator[](size_t i) const { return const_cast<ChunkedVector*>(this)->Slot(i); }
  T& front() { return Slot(0); }
  const T& front() const { return (*this)[0]; }
  T& back() { return Slot(size_ - 1); }
  const T& back() const { return (*this)[size_ - 1]; }

  iterator begin() { return iterator(this, 0); }
  iterator end() { return iterator(this, size_); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size_); }

  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if ((size_ >> kShift) == chunks_.size()) chunks_.push_back(std::unique_ptr<Chunk>(new Chunk));  // not zeroed
    T* slot = new (Address(size_)) T(std::forward<Args>(args)...);
    ++size_;
    return *slot;
  }

  /// Inserts `v` before `pos`, moving the later elements up by one (linear, as std::vector).
  iterator insert(const_iterator pos, T v) {
    const size_t at = pos.index();
    emplace_back(std::move(v));
    for (size_t i = size_ - 1; i > at; --i) std::swap(Slot(i), Slot(i - 1));
    return iterator(this, at);
  }

  void clear() {
    for (size_t i = 0; i < size_; ++i) Slot(i).~T();
    size_ = 0;
    chunks_.clear();
  }

 private:
  struct Chunk {
    alignas(T) std::byte bytes[kChunk * sizeof(T)];
  };
  void* Address(size_t i) { return chunks_[i >> kShift]->bytes + (i & kMask) * sizeof(T); }
  T& Slot(size_t i) { return *std::launder(reinterpret_cast<T*>(Address(i))); }

  std::vector<std::unique_ptr<Chunk>> chunks_;
  size_t size_ = 0;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_CHUNKED_VECTOR_H_
