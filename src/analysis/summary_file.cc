// Summary files: writing (streamed, one kept line per output line) and parsing (no exceptions:
// nlohmann::json is parsed with exceptions off and every field is checked before use).
#include "ncclscope/analysis/summary_file.h"

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

#include "ncclscope/base/whole_file.h"
#include "ncclscope/input/line_stream.h"

namespace ncclscope {
namespace {

using nlohmann::json;

constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string Base64Encode(std::string_view in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = (static_cast<uint8_t>(in[i]) << 16) | (static_cast<uint8_t>(in[i + 1]) << 8) |
                 static_cast<uint8_t>(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kB64[(v >> s) & 63]);
  }
  if (i < in.size()) {
    uint32_t v = static_cast<uint8_t>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<uint8_t>(in[i + 1]) << 8;
    out.push_back(kB64[(v >> 18) & 63]);
    out.push_back(kB64[(v >> 12) & 63]);
    out.push_back(i + 1 < in.size() ? kB64[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

bool Base64Decode(std::string_view in, std::string* out) {
  out->clear();
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=') break;
    const char* p = std::strchr(kB64, c);
    if (!p || c == '\0') return false;
    acc = (acc << 6) | static_cast<uint32_t>(p - kB64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return true;
}

/// Text as a JSON string, or {"base64": ...} when it is not valid UTF-8 (kept byte for byte).
json TextValue(std::string_view s) {
  if (IsValidUtf8(s)) return std::string(s);
  return json{{"base64", Base64Encode(s)}};
}

bool ReadText(const json& v, std::string* out) {
  if (const auto* s = v.get_ptr<const std::string*>()) {
    *out = *s;
    return true;
  }
  if (v.is_object()) {
    auto it = v.find("base64");
    if (it != v.end() && it->is_string())
      return Base64Decode(it->get_ref<const std::string&>(), out);
  }
  return false;
}

json ProblemsJson(const std::vector<InputProblem>& problems) {
  json a = json::array();
  for (const auto& p : problems) a.push_back({{"path", TextValue(p.path)}, {"message", p.message}});
  return a;
}

uint64_t U64(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_number_unsigned() ? it->get<uint64_t>() : 0;
}

std::string Str(const json& o, const char* key) {
  std::string s;
  auto it = o.find(key);
  if (it != o.end()) ReadText(*it, &s);
  return s;
}

bool ReadProblems(const json& o, std::vector<InputProblem>* out) {
  auto it = o.find("problems");
  if (it == o.end()) return true;
  if (!it->is_array()) return false;
  for (const auto& p : *it) {
    if (!p.is_object()) return false;
    out->push_back(InputProblem{Str(p, "path"), Str(p, "message")});
  }
  return true;
}

}  // namespace

void WriteSummary(const CondensedSet& set, std::ostream& out) {
  out << "{\"ncclscope_summary\": " << kSummaryVersion << ",\n";
  out << "\"generator\": " << json(std::string("ncclscope ") + NCCLSCOPE_VERSION).dump() << ",\n";
  out << "\"problems\": " << ProblemsJson(set.problems).dump() << ",\n";
  out << "\"inputs\": [";
  for (size_t i = 0; i < set.inputs.size(); ++i) {
    const CondensedInput& in = set.inputs[i];
    json j = {{"path", TextValue(in.path)}, {"name", TextValue(in.name)},
              {"bytes", in.bytes},          {"sources", in.sources.size()},
              {"lines", in.lines.size()},   {"problems", ProblemsJson(in.problems)}};
    out << (i ? ",\n " : "\n ") << j.dump();
  }
  out << "],\n\"sources\": [";
  size_t n = 0;
  for (size_t i = 0; i < set.inputs.size(); ++i) {
    for (const auto& s : set.inputs[i].sources) {
      const SourceInfo& si = s.info;
      json j = {{"input", i},
                {"name", TextValue(si.name)},
                {"pod", TextValue(si.pod)},
                {"lines", si.lines},
                {"nccl_lines", si.nccl_lines},
                {"info_lines", si.info_lines},
                {"framework_lines", si.framework_lines},
                {"events", si.events},
                {"unrecognized", si.unrecognized},
                {"mention_lines", si.mention_lines},
                {"unrecognized_mentions", si.unrecognized_mentions},
                {"malformed_records", si.malformed_records},
                {"truncated_lines", si.truncated_lines},
                {"nul_lines", si.nul_lines},
                {"invalid_utf8_lines", si.invalid_utf8_lines},
                {"wrap_width", si.wrap_width},
                {"rejoined_lines", si.rejoined_lines},
                {"problem", si.problem},
                {"folded", s.folded}};
      out << (n++ ? ",\n " : "\n ") << j.dump();
    }
  }
  out << "],\n\"lines\": [";
  size_t base = 0;
  bool first = true;
  for (const auto& in : set.inputs) {
    for (const auto& l : in.lines) {
      json j = json::array({base + l.source, l.line, TextValue(l.text)});
      // Optional tail: launcher rank, timestamp, origin host, origin pid, multi-node launcher
      // (each only when it or a later one is set).
      const bool multi = l.multi_node != MultiNodePrefix::kNone;
      const bool origin = !l.origin_host.empty() || l.origin_pid != 0 || multi;
      if (l.launcher_rank >= 0 || !l.timestamp.empty() || origin) {
        j.push_back(l.launcher_rank);
        if (!l.timestamp.empty() || origin) j.push_back(TextValue(l.timestamp));
        if (origin) {
          j.push_back(TextValue(l.origin_host));
          j.push_back(l.origin_pid);
        }
        if (multi) j.push_back(static_cast<int>(l.multi_node));
      }
      out << (first ? "\n " : ",\n ") << j.dump();
      first = false;
    }
    base += in.sources.size();
  }
  out << "]}\n";
}

Status ParseSummary(std::string_view text, const std::string& name, CondensedSet* set) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto bad = [&](const std::string& why) {
    return Status::InvalidInput(name + ": not an ncclscope summary: " + why);
  };
  if (doc.is_discarded() || !doc.is_object()) return bad("invalid JSON");
  auto version = doc.find("ncclscope_summary");
  if (version == doc.end() || !version->is_number_integer()) return bad("no \"ncclscope_summary\"");
  if (version->get<int64_t>() != kSummaryVersion)
    return bad("version " + version->dump() + " (this build reads " +
               std::to_string(kSummaryVersion) + ")");
  auto inputs = doc.find("inputs");
  auto sources = doc.find("sources");
  auto lines = doc.find("lines");
  if (inputs == doc.end() || !inputs->is_array() || sources == doc.end() || !sources->is_array() ||
      lines == doc.end() || !lines->is_array())
    return bad("\"inputs\", \"sources\" or \"lines\" missing");
  if (!ReadProblems(doc, &set->problems)) return bad("\"problems\" is not a list");

  const size_t first_input = set->inputs.size();
  for (const auto& in : *inputs) {
    if (!in.is_object()) return bad("an input is not an object");
    CondensedInput c;
    c.path = Str(in, "path");
    c.name = Str(in, "name");
    c.bytes = U64(in, "bytes");
    if (!ReadProblems(in, &c.problems)) return bad("input problems are not a list");
    set->inputs.push_back(std::move(c));
  }
  // Global source index → (input, index within the input).
  std::vector<std::pair<size_t, uint32_t>> where;
  for (const auto& s : *sources) {
    if (!s.is_object()) return bad("a source is not an object");
    auto input = s.find("input");
    if (input == s.end() || !input->is_number_unsigned() ||
        input->get<uint64_t>() >= inputs->size())
      return bad("a source names no input");
    CondensedInput& c = set->inputs[first_input + input->get<size_t>()];
    CondensedSource cs;
    SourceInfo& si = cs.info;
    si.name = Str(s, "name");
    si.pod = Str(s, "pod");
    si.lines = U64(s, "lines");
    si.nccl_lines = U64(s, "nccl_lines");
    si.info_lines = U64(s, "info_lines");  // 0 in summaries written before it was counted
    si.framework_lines = U64(s, "framework_lines");
    si.events = U64(s, "events");
    si.unrecognized = U64(s, "unrecognized");
    si.mention_lines = U64(s, "mention_lines");
    si.unrecognized_mentions = U64(s, "unrecognized_mentions");
    si.malformed_records = U64(s, "malformed_records");
    si.truncated_lines = U64(s, "truncated_lines");
    si.nul_lines = U64(s, "nul_lines");
    si.invalid_utf8_lines = U64(s, "invalid_utf8_lines");
    si.wrap_width = U64(s, "wrap_width");  // 0 in summaries written before it was read
    si.rejoined_lines = U64(s, "rejoined_lines");
    si.problem = Str(s, "problem");
    auto folded = s.find("folded");
    if (folded != s.end() && folded->is_object()) {
      for (const auto& [type, n] : folded->items()) {
        if (n.is_number_unsigned()) cs.folded[type] = n.get<uint64_t>();
      }
    }
    where.emplace_back(first_input + input->get<size_t>(), static_cast<uint32_t>(c.sources.size()));
    c.sources.push_back(std::move(cs));
  }
  for (const auto& l : *lines) {
    if (!l.is_array() || l.size() < 3 || !l[0].is_number_unsigned() || !l[1].is_number_unsigned() ||
        l[0].get<uint64_t>() >= where.size())
      return bad("a line is not [source, line, text, ...]");
    auto [input, source] = where[l[0].get<size_t>()];
    CondensedLine cl;
    cl.source = source;
    cl.line = l[1].get<uint64_t>();
    TextArena& arena = set->inputs[input].arena;
    std::string text;
    if (!ReadText(l[2], &text)) return bad("a line's text is not a string");
    cl.text = arena.Add(text);
    if (l.size() > 3 && l[3].is_number_integer()) cl.launcher_rank = l[3].get<int>();
    if (l.size() > 4) {
      if (!ReadText(l[4], &text)) return bad("bad timestamp");
      cl.timestamp = arena.Add(text);
    }
    if (l.size() > 5) {
      if (!ReadText(l[5], &text)) return bad("bad origin host");
      cl.origin_host = arena.Add(text);
    }
    if (l.size() > 6) {
      if (!l[6].is_number_unsigned() || l[6].get<uint64_t>() > UINT32_MAX)
        return bad("bad origin pid");
      cl.origin_pid = static_cast<uint32_t>(l[6].get<uint64_t>());
    }
    if (l.size() > 7) {
      if (!l[7].is_number_unsigned() ||
          l[7].get<uint64_t>() > static_cast<uint64_t>(MultiNodePrefix::kSkyPilotNode))
        return bad("bad multi-node prefix");
      cl.multi_node = static_cast<MultiNodePrefix>(l[7].get<uint64_t>());
    }
    set->inputs[input].lines.push_back(std::move(cl));
  }
  return Status::Ok();
}

Status ReadSummary(const std::string& path, CondensedSet* set) {
  std::string text;
  Status s = ReadWholeFile(path, &text);
  if (!s.ok()) return s;
  return ParseSummary(text, path, set);
}

}  // namespace ncclscope
