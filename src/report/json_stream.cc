#include "ncclscope/report/json_stream.h"

#include <array>
#include <cassert>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "ncclscope/base/byte_words.h"
#include "ncclscope/base/cpu_features.h"

#if defined(NCCLSCOPE_HAVE_AVX2)
#include <immintrin.h>
#endif

namespace ncclscope {
namespace {

constexpr int kIndent = 2;  // nlohmann::json::dump(2)

/// 0x80 in each byte of `w` that cannot be written between quotes as it is: a control byte
/// (< 0x20), DEL or a byte >= 0x80 (UTF-8, checked by the slow path), '"' or '\'.
uint64_t UnsafeBytes(uint64_t w) {
  using byte_words::kHigh;
  using byte_words::kLow7;
  using byte_words::kOnes;
  // The low seven bits plus 0x60 reach 0x80 exactly when they are >= 0x20 (no carry out of a
  // byte); bytes >= 0x80 are marked by their own high bit.
  const uint64_t control = ~((w & kLow7) + kOnes * 0x60) & kHigh;
  return control | (w & kHigh) | byte_words::BytesEqual(w, 0x7f) | byte_words::BytesEqual(w, '"') |
         byte_words::BytesEqual(w, '\\');
}

#if defined(NCCLSCOPE_HAVE_AVX2)
/// Whether any of the 32 bytes at `p` is unsafe (as UnsafeBytes).
__attribute__((target("avx2"))) inline bool UnsafeChunk32(const char* p) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  // Bytes <= 0x1f (min(v, 0x1f) == v) or >= 0x80 (the sign bit movemask reads), '"', '\', DEL.
  const __m256i control =
      _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v), v);
  const __m256i listed =
      _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')),
                      _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')),
                                      _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7f))));
  return _mm256_movemask_epi8(_mm256_or_si256(control, listed)) != 0;
}

/// IsPlain of n >= 32 bytes, 32 at a time, the last chunk overlapping the one before.
__attribute__((target("avx2"))) bool IsPlainAvx2(const char* p, size_t n) {
  for (size_t i = 0; i + 32 <= n; i += 32) {
    if (UnsafeChunk32(p + i)) return false;
  }
  return !UnsafeChunk32(p + n - 32);
}
#endif

/// The bytes UnsafeBytes marks, as a table for strings shorter than a word.
constexpr std::array<bool, 256> kUnsafeByte = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = c < 0x20 || c >= 0x7f || c == '"' || c == '\\';
  return t;
}();

/// True if `s` can be written between quotes as it is: printable ASCII without '"' or '\'.
/// Eight (or 32) bytes at a time: keys and quoted log lines are most of a large report's bytes.
bool IsPlain(std::string_view s) {
  const char* p = s.data();
  const size_t n = s.size();
#if defined(NCCLSCOPE_HAVE_AVX2)
  if (n >= 32 && CpuHasAvx2()) return IsPlainAvx2(p, n);
#endif
  if (n >= 8) {
    // Whole words, then the last eight bytes (overlapping the last word read).
    for (size_t i = 0; i + 8 <= n; i += 8) {
      if (UnsafeBytes(byte_words::Load8(p + i)) != 0) return false;
    }
    return UnsafeBytes(byte_words::Load8(p + n - 8)) == 0;
  }
  // Short keys ("line", "rank"): byte by byte through a table.
  for (size_t i = 0; i < n; ++i) {
    if (kUnsafeByte[static_cast<unsigned char>(p[i])]) return false;
  }
  return true;
}

}  // namespace

void JsonStream::Indent(int level) { out_->append(static_cast<size_t>(level * kIndent), ' '); }

void JsonStream::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  Frame& f = stack_.back();
  assert(!f.object && "a value inside an object needs a Key() first");
  out_->append(f.empty ? "\n" : ",\n");
  f.empty = false;
  Indent(level_ + static_cast<int>(stack_.size()));
}

void JsonStream::Key(std::string_view key) {
  assert(!stack_.empty() && stack_.back().object && !after_key_);
  Frame& f = stack_.back();
  assert((f.empty || key > f.last_key) && "keys must be written in byte order");
#ifndef NDEBUG
  f.last_key = std::string(key);
#endif
  const bool first = f.empty;
  f.empty = false;
  after_key_ = true;
  const size_t indent = static_cast<size_t>((level_ + static_cast<int>(stack_.size())) * kIndent);
  // Keys are short plain names: the separator, indent, quoted key and ": " go out in one append.
  char buf[160];
  const size_t need = 2 + indent + key.size() + 4;
  if (need > sizeof buf || !IsPlain(key)) {
    out_->append(first ? "\n" : ",\n");
    Indent(level_ + static_cast<int>(stack_.size()));
    Quoted(key);
    out_->append(": ");
    return;
  }
  char* p = buf;
  if (!first) *p++ = ',';
  *p++ = '\n';
  std::memset(p, ' ', indent);
  p += indent;
  *p++ = '"';
  std::memcpy(p, key.data(), key.size());
  p += key.size();
  *p++ = '"';
  *p++ = ':';
  *p++ = ' ';
  out_->append(buf, static_cast<size_t>(p - buf));
}

void JsonStream::BeginObject() {
  BeforeValue();
  out_->push_back('{');
  stack_.push_back(Frame{true, true, {}});
}

void JsonStream::BeginArray() {
  BeforeValue();
  out_->push_back('[');
  stack_.push_back(Frame{false, true, {}});
}

void JsonStream::EndObject() {
  assert(!stack_.empty() && stack_.back().object && !after_key_);
  End('}');
}

void JsonStream::EndArray() {
  assert(!stack_.empty() && !stack_.back().object);
  End(']');
}

void JsonStream::End(char close) {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) {
    out_->push_back('\n');
    Indent(level_ + static_cast<int>(stack_.size()));
  }
  out_->push_back(close);
  if (sink_ != nullptr && out_->size() > kFlushBytes) Flush();
}

void JsonStream::Flush() {
  if (sink_ == nullptr) return;
  sink_->write(out_->data(), static_cast<std::streamsize>(out_->size()));
  out_->clear();
}

void JsonStream::String(std::string_view s) {
  BeforeValue();
  Quoted(s);
}

void JsonStream::Quoted(std::string_view s) {
  if (IsPlain(s)) {
    out_->push_back('"');
    out_->append(s);
    out_->push_back('"');
    return;
  }
  // Escapes and invalid UTF-8 exactly as the rest of the report: nlohmann's own serializer.
  out_->append(nlohmann::json(std::string(s)).dump(-1, ' ', false,
                                                    nlohmann::json::error_handler_t::replace));
}

void JsonStream::Int(int64_t v) {
  BeforeValue();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_->append(buf, r.ptr);
}

void JsonStream::Uint(uint64_t v) {
  BeforeValue();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_->append(buf, r.ptr);
}

void JsonStream::Bool(bool v) {
  BeforeValue();
  out_->append(v ? "true" : "false");
}

void JsonStream::Null() {
  BeforeValue();
  out_->append("null");
}

void JsonStream::StringOrNull(std::string_view s) {
  if (s.empty()) {
    Null();
  } else {
    String(s);
  }
}

void JsonStream::IntOrNull(int64_t v) {
  if (v < 0) {
    Null();
  } else {
    Int(v);
  }
}

void JsonStream::BoolOrNull(const std::optional<bool>& v) {
  if (v) {
    Bool(*v);
  } else {
    Null();
  }
}

void JsonStream::SecondsOrNull(double v) {
  if (v < 0) {
    Null();
  } else {
    Value(nlohmann::json(v));
  }
}

void JsonStream::Value(const nlohmann::json& v) {
  // Containers member by member, so that a large value goes out through the sink like the
  // streamed parts instead of as one dumped string.
  switch (v.type()) {
    case nlohmann::json::value_t::object:
      BeginObject();
      for (const auto& [key, member] : v.items()) {
        Key(key);
        Value(member);
      }
      EndObject();
      return;
    case nlohmann::json::value_t::array:
      BeginArray();
      for (const nlohmann::json& element : v) Value(element);
      EndArray();
      return;
    case nlohmann::json::value_t::string:
      String(v.get_ref<const std::string&>());
      return;
    default:
      BeforeValue();
      out_->append(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
}

}  // namespace ncclscope
