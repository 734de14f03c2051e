// JsonStream: writes JSON text directly, formatted exactly as nlohmann::json::dump(2) formats the
// same value (objects with their keys in byte order, one array element per line, "[]"/"{}" when
// empty), so the large parts of a report (thousands of links) are written without building a
// document tree first. Keys must be given in increasing byte order, as nlohmann's std::map would
// print them; debug builds check it.
#ifndef NCCLSCOPE_REPORT_JSON_STREAM_H_
#define NCCLSCOPE_REPORT_JSON_STREAM_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ncclscope {

class JsonStream {
 public:
  /// Appends to *out. `level` is the indentation level of the first value (0 at the top).
  explicit JsonStream(std::string* out, int level = 0) : out_(out), level_(level) {}
  /// Moves the text to `sink` whenever a container closes and more than kFlushBytes are
  /// buffered, so a report of any size is written through a small buffer. *out then holds only
  /// the text not yet flushed; call Flush() at the end.
  void set_sink(std::ostream* sink) { sink_ = sink; }
  void Flush();
  static constexpr size_t kFlushBytes = 64 * 1024;

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  /// The next member's key (inside an object only).
  void Key(std::string_view key);

  void String(std::string_view s);
  void Int(int64_t v);
  void Uint(uint64_t v);
  void Bool(bool v);
  void Null();
  /// Any document value, as nlohmann::json::dump(2) prints it at the current level; containers
  /// are written member by member (through the sink, like everything else).
  void Value(const nlohmann::json& v);

  // The report's conventions for values that may be unknown.
  /// `s`, or null when empty.
  void StringOrNull(std::string_view s);
  /// `v`, or null when negative.
  void IntOrNull(int64_t v);
  /// `v`, or null when unknown.
  void BoolOrNull(const std::optional<bool>& v);
  /// `v` as nlohmann prints doubles, or null when negative.
  void SecondsOrNull(double v);
  /// An array of the ints of `values`, in their order.
  template <typename Ints>
  void IntArray(const Ints& values) {
    BeginArray();
    for (int v : values) Int(v);
    EndArray();
  }

 private:
  struct Frame {
    bool object = false;
    bool empty = true;
    std::string last_key;  ///< Debug builds: keys must increase.
  };
  /// Separator and indentation before a value in an array, or nothing after a key.
  void BeforeValue();
  void Indent(int level);
  /// `s` in quotes, escaped.
  void Quoted(std::string_view s);
  /// Closes the innermost container with `close`.
  void End(char close);

  std::string* out_;
  std::ostream* sink_ = nullptr;
  int level_;
  std::vector<Frame> stack_;
  bool after_key_ = false;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_JSON_STREAM_H_
