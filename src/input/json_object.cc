#include "json_object.h"

#include <cstdint>

namespace ncclscope::input_internal {
namespace {

constexpr int kMaxDepth = 64;  // Nesting deeper than this is not a log record: malformed.

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool ReadHex4(std::string_view s, size_t i, uint32_t* v) {
  if (i + 4 > s.size()) return false;
  uint32_t x = 0;
  for (size_t k = i; k < i + 4; ++k) {
    const int h = HexValue(s[k]);
    if (h < 0) return false;
    x = x << 4 | static_cast<uint32_t>(h);
  }
  *v = x;
  return true;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

}  // namespace

bool AppendUnescaped(std::string_view body, std::string* out) {
  size_t i = 0;
  while (i < body.size()) {
    const size_t bs = body.find('\\', i);
    if (bs == std::string_view::npos) {
      out->append(body.substr(i));
      return true;
    }
    out->append(body.substr(i, bs - i));
    if (bs + 1 >= body.size()) return false;
    const char e = body[bs + 1];
    i = bs + 2;
    switch (e) {
      case '"': out->push_back('"'); break;
      case '\\': out->push_back('\\'); break;
      case '/': out->push_back('/'); break;
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'u': {
        uint32_t cp = 0;
        if (!ReadHex4(body, i, &cp)) return false;
        i += 4;
        if (cp >= 0xd800 && cp <= 0xdbff) {  // high surrogate: a low one must follow
          uint32_t lo = 0;
          if (i + 6 > body.size() || body[i] != '\\' || body[i + 1] != 'u' ||
              !ReadHex4(body, i + 2, &lo) || lo < 0xdc00 || lo > 0xdfff) {
            return false;
          }
          i += 6;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        } else if (cp >= 0xdc00 && cp <= 0xdfff) {
          return false;
        }
        AppendUtf8(cp, out);
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

JsonObjectReader::JsonObjectReader(std::string_view text) : s_(text) {
  SkipBlanks();
  if (i_ >= s_.size() || s_[i_] != '{') {
    ok_ = false;
    done_ = true;
    return;
  }
  ++i_;
}

void JsonObjectReader::SkipBlanks() {
  while (i_ < s_.size() && IsBlank(s_[i_])) ++i_;
}

bool JsonObjectReader::ReadString(std::string_view* body) {
  if (i_ >= s_.size() || s_[i_] != '"') return false;
  const size_t start = ++i_;
  while (i_ < s_.size()) {
    const char c = s_[i_];
    if (c == '"') {
      *body = s_.substr(start, i_ - start);
      ++i_;
      return true;
    }
    if (static_cast<unsigned char>(c) < 0x20) return false;  // raw control character
    i_ += c == '\\' ? 2 : 1;
  }
  return false;
}

bool JsonObjectReader::SkipValue(int depth) {
  if (depth > kMaxDepth) return false;
  SkipBlanks();
  if (i_ >= s_.size()) return false;
  const char c = s_[i_];
  if (c == '"') {
    std::string_view ignored;
    return ReadString(&ignored);
  }
  if (c == '{' || c == '[') {
    const char close = c == '{' ? '}' : ']';
    ++i_;
    SkipBlanks();
    if (i_ < s_.size() && s_[i_] == close) {
      ++i_;
      return true;
    }
    for (;;) {
      if (c == '{') {
        std::string_view key;
        SkipBlanks();
        if (!ReadString(&key)) return false;
        SkipBlanks();
        if (i_ >= s_.size() || s_[i_] != ':') return false;
        ++i_;
      }
      if (!SkipValue(depth + 1)) return false;
      SkipBlanks();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == close) {
        ++i_;
        return true;
      }
      if (s_[i_] != ',') return false;
      ++i_;
    }
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    const size_t start = i_;
    while (i_ < s_.size() && (s_[i_] == '-' || s_[i_] == '+' || s_[i_] == '.' ||
                              s_[i_] == 'e' || s_[i_] == 'E' || (s_[i_] >= '0' && s_[i_] <= '9')))
      ++i_;
    return i_ > start;
  }
  for (std::string_view lit : {"true", "false", "null"}) {
    if (s_.substr(i_, lit.size()) == lit) {
      i_ += lit.size();
      return true;
    }
  }
  return false;
}

bool JsonObjectReader::Next(JsonMember* m) {
  if (done_) return false;
  SkipBlanks();
  if (i_ < s_.size() && s_[i_] == '}' && first_) {
    ++i_;
  } else {
    if (!first_) {
      if (i_ >= s_.size()) {
        ok_ = false;
        done_ = true;
        return false;
      }
      if (s_[i_] == '}') {
        ++i_;
        done_ = true;
        SkipBlanks();
        ok_ = i_ == s_.size();
        return false;
      }
      if (s_[i_] != ',') {
        ok_ = false;
        done_ = true;
        return false;
      }
      ++i_;
      SkipBlanks();
    }
    first_ = false;
    std::string_view key;
    if (!ReadString(&key)) {
      ok_ = false;
      done_ = true;
      return false;
    }
    SkipBlanks();
    if (i_ >= s_.size() || s_[i_] != ':') {
      ok_ = false;
      done_ = true;
      return false;
    }
    ++i_;
    SkipBlanks();
    const size_t start = i_;
    if (i_ >= s_.size()) {
      ok_ = false;
      done_ = true;
      return false;
    }
    const char c = s_[i_];
    m->key = key;
    if (c == '"') {
      m->kind = JsonMember::Kind::kString;
      if (!ReadString(&m->raw)) {
        ok_ = false;
        done_ = true;
        return false;
      }
      return true;
    }
    m->kind = c == '{'   ? JsonMember::Kind::kObject
              : c == '[' ? JsonMember::Kind::kArray
              : (c == '-' || (c >= '0' && c <= '9')) ? JsonMember::Kind::kNumber
                                                     : JsonMember::Kind::kLiteral;
    if (!SkipValue(1)) {
      ok_ = false;
      done_ = true;
      return false;
    }
    m->raw = s_.substr(start, i_ - start);
    return true;
  }
  // Empty object "{}".
  done_ = true;
  SkipBlanks();
  ok_ = i_ == s_.size();
  return false;
}

}  // namespace ncclscope::input_internal
