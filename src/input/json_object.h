// A small, strict reader of one JSON object per line, for log records (docker json-file, Loki,
// Elastic, journald exports): walks the top-level members without building a document, checks
// that the whole line is one valid object, and unescapes the string values the caller asks for.
#ifndef NCCLSCOPE_INPUT_JSON_OBJECT_H_
#define NCCLSCOPE_INPUT_JSON_OBJECT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace ncclscope::input_internal {

struct JsonMember {
  enum class Kind : unsigned char { kString, kNumber, kObject, kArray, kLiteral };
  std::string_view key;  ///< As written between the quotes (log keys hold no escapes).
  Kind kind = Kind::kLiteral;
  /// kString: the text between the quotes, escapes not yet resolved; else the value as written.
  std::string_view raw;
};

/// Walks the members of the object that must make up all of `text` (surrounding blanks allowed).
class JsonObjectReader {
 public:
  explicit JsonObjectReader(std::string_view text);
  /// The next member, or false at the end of the object or on malformed input (see ok()).
  bool Next(JsonMember* member);
  /// False once the text turned out not to be one valid JSON object. Meaningful after Next()
  /// returned false: true then means the object ended properly and nothing follows it.
  bool ok() const { return ok_; }

 private:
  bool SkipValue(int depth);
  bool ReadString(std::string_view* body);
  void SkipBlanks();

  std::string_view s_;
  size_t i_ = 0;
  bool ok_ = true;
  bool done_ = false;
  bool first_ = true;
};

/// Appends the unescaped JSON string body (without quotes) to *out: \" \\ \/ \b \f \n \r \t and
/// \uXXXX with surrogate pairs, as UTF-8. False on a malformed escape.
bool AppendUnescaped(std::string_view body, std::string* out);

}  // namespace ncclscope::input_internal

#endif  // NCCLSCOPE_INPUT_JSON_OBJECT_H_
