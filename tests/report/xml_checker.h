// A tiny XML 1.0 well-formedness checker for the tests: prolog, nested elements with matching
// tags, quoted attributes without '<', known entity and character references, no forbidden
// control characters. No DTDs, comments or CDATA (the writers emit none).
#ifndef NCCLSCOPE_TESTS_REPORT_XML_CHECKER_H_
#define NCCLSCOPE_TESTS_REPORT_XML_CHECKER_H_

#include <cctype>
#include <string>
#include <string_view>

namespace ncclscope::testing {

class XmlChecker {
 public:
  explicit XmlChecker(std::string_view text) : s_(text) {}

  /// Empty if well-formed, else what is wrong and where.
  std::string Check() {
    for (unsigned char c : s_) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return Fail("control character");
    }
    if (s_.substr(0, 5) == "<?xml") {
      size_t end = s_.find("?>");
      if (end == std::string_view::npos) return Fail("unterminated prolog");
      pos_ = end + 2;
    }
    SkipSpace();
    if (!Element()) return error_;
    SkipSpace();
    if (pos_ != s_.size()) return Fail("content after the root element");
    return "";
  }

 private:
  std::string Fail(const std::string& what) {
    if (error_.empty()) error_ = what + " at offset " + std::to_string(pos_);
    return error_;
  }
  bool Bad(const std::string& what) {
    Fail(what);
    return false;
  }
  void SkipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  std::string Name() {
    size_t start = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
            s_[pos_] == '_' || s_[pos_] == ':' || s_[pos_] == '.'))
      ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }
  bool Reference() {  // at '&'
    size_t end = s_.find(';', pos_);
    if (end == std::string_view::npos) return Bad("unterminated reference");
    std::string_view ref = s_.substr(pos_ + 1, end - pos_ - 1);
    bool ok = ref == "amp" || ref == "lt" || ref == "gt" || ref == "quot" || ref == "apos";
    if (!ok && ref.size() > 1 && ref[0] == '#') {
      ok = true;
      bool hex = ref[1] == 'x';
      for (size_t i = hex ? 2 : 1; i < ref.size(); ++i)
        ok = ok && (hex ? std::isxdigit(static_cast<unsigned char>(ref[i]))
                        : std::isdigit(static_cast<unsigned char>(ref[i])));
    }
    if (!ok) return Bad("unknown reference");
    pos_ = end + 1;
    return true;
  }
  bool Element() {
    if (pos_ >= s_.size() || s_[pos_] != '<') return Bad("expected '<'");
    ++pos_;
    std::string name = Name();
    if (name.empty()) return Bad("missing element name");
    for (;;) {
      SkipSpace();
      if (pos_ >= s_.size()) return Bad("unterminated start tag");
      if (s_.substr(pos_, 2) == "/>") {
        pos_ += 2;
        return true;
      }
      if (s_[pos_] == '>') {
        ++pos_;
        break;
      }
      if (Name().empty()) return Bad("bad attribute name");
      if (pos_ >= s_.size() || s_[pos_] != '=') return Bad("expected '='");
      ++pos_;
      if (pos_ >= s_.size() || (s_[pos_] != '"' && s_[pos_] != '\'')) return Bad("unquoted value");
      char quote = s_[pos_++];
      while (pos_ < s_.size() && s_[pos_] != quote) {
        if (s_[pos_] == '<') return Bad("'<' in attribute");
        if (s_[pos_] == '&') {
          if (!Reference()) return false;
        } else {
          ++pos_;
        }
      }
      if (pos_ >= s_.size()) return Bad("unterminated attribute");
      ++pos_;
    }
    for (;;) {  // content
      if (pos_ >= s_.size()) return Bad("unclosed <" + name + ">");
      if (s_.substr(pos_, 2) == "</") {
        pos_ += 2;
        if (Name() != name) return Bad("mismatched </...> for <" + name + ">");
        SkipSpace();
        if (pos_ >= s_.size() || s_[pos_] != '>') return Bad("bad end tag");
        ++pos_;
        return true;
      }
      if (s_[pos_] == '<') {
        if (!Element()) return false;
      } else if (s_[pos_] == '&') {
        if (!Reference()) return false;
      } else if (s_[pos_] == '>') {
        ++pos_;  // allowed in text, though the writers escape it
      } else {
        ++pos_;
      }
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

/// Empty if `text` is well-formed XML, else the first problem.
inline std::string XmlProblem(std::string_view text) { return XmlChecker(text).Check(); }

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_REPORT_XML_CHECKER_H_
