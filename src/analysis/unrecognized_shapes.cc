#include "ncclscope/analysis/unrecognized_shapes.h"

#include <algorithm>

#include "ncclscope/base/ascii.h"

namespace ncclscope {
namespace {

using ascii::IsDigit;
using ascii::IsHex;

}  // namespace

std::string LineShape(std::string_view text) {
  constexpr size_t kMax = 200;
  std::string out;
  out.reserve(std::min(text.size(), kMax));
  for (size_t i = 0; i < text.size() && out.size() < kMax;) {
    const char c = text[i];
    if (c == '0' && i + 2 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
        IsHex(text[i + 2])) {
      i += 2;
      while (i < text.size() && IsHex(text[i])) ++i;
      out += "0x…";
    } else if (IsDigit(c) && i > 0 && ascii::IsAlpha(text[i - 1])) {
      // Digits inside a word are part of it (p2p, mlx5, sm90), not a value.
      while (i < text.size() && IsDigit(text[i]) && out.size() < kMax) out += text[i++];
    } else if (IsDigit(c)) {
      while (i < text.size() && IsDigit(text[i])) ++i;
      out += 'N';
    } else if (c == ' ' || c == '\t') {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      out += ' ';
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

void UnrecognizedShapes::Add(const Event& e) {
  const auto* u = std::get_if<Unrecognized>(&e.data);
  if (u == nullptr) return;
  ++total_;
  std::string shape = LineShape(u->mention ? e.ctx.text : u->message);
  auto key = std::make_pair(u->mention, std::move(shape));
  auto it = index_.find(key);
  if (it == index_.end()) {
    UnrecognizedGroup g;
    g.shape = key.second;
    g.mention = u->mention;
    it = index_.emplace(std::move(key), groups_.size()).first;
    groups_.push_back(std::move(g));
  }
  UnrecognizedGroup& g = groups_[it->second];
  ++g.count;
  if (g.examples.size() < kExamples)
    g.examples.push_back(Evidence{e.ctx.source, e.ctx.line, std::string(e.ctx.text), {}});
}

std::vector<UnrecognizedGroup> UnrecognizedShapes::Groups() const {
  std::vector<UnrecognizedGroup> out = groups_;
  std::stable_sort(out.begin(), out.end(), [](const UnrecognizedGroup& a,
                                              const UnrecognizedGroup& b) {
    return a.count > b.count;
  });
  return out;
}

}  // namespace ncclscope
