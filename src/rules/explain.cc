#include "ncclscope/rules/explain.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "ncclscope/rules/registry.h"

namespace ncclscope {
namespace {

std::string_view TrimView(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' ||
                        s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

void Wrap(std::string* out, std::string_view text, std::string_view indent, size_t width = 96) {
  size_t col = 0;
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    if (col > indent.size() && col + 1 + word.size() > width) {
      *out += "\n";
      col = 0;
    }
    if (col == 0) {
      *out += indent;
      col = indent.size();
    } else {
      *out += ' ';
      ++col;
    }
    *out += word;
    col += word.size();
    word.clear();
  };
  for (char c : text) {
    if (c == ' ' || c == '\n') {
      flush();
    } else {
      word.push_back(c);
    }
  }
  flush();
  *out += "\n";
}

std::vector<std::string> DetailLines(const MessageDetails& d) {
  std::vector<std::string> out;
  if (!d.peer.empty()) out.push_back("peer: " + d.peer);
  if (!d.device.empty()) out.push_back("device: " + d.device);
  if (d.ib_status >= 0) {
    std::string s = "IB completion status " + std::to_string(d.ib_status);
    if (!IbvStatusName(d.ib_status).empty()) {
      s += " = " + std::string(IbvStatusName(d.ib_status)) + ": " +
           std::string(IbvStatusMeaning(d.ib_status));
    }
    out.push_back(s);
  }
  if (d.vendor_error >= 0) {
    char hex[32];
    std::snprintf(hex, sizeof(hex), "0x%lx", d.vendor_error);
    out.push_back("vendor error: " + std::to_string(d.vendor_error) + " (" + hex +
                  "), the NIC's own syndrome");
  }
  if (!d.cuda_error.empty()) out.push_back("CUDA error: " + d.cuda_error);
  if (!d.os_error.empty() && d.cuda_error.empty()) out.push_back("error: " + d.os_error);
  if (!d.setting.empty()) out.push_back("setting: " + d.setting);
  return out;
}

nlohmann::json MessageJson(const KnownMessage& m) {
  nlohmann::json causes = nlohmann::json::array();
  for (std::string_view c : m.causes) {
    if (!c.empty()) causes.push_back(std::string(c));
  }
  nlohmann::json examples = nlohmann::json::array();
  for (std::string_view e : m.examples) {
    if (!e.empty()) examples.push_back(std::string(e));
  }
  nlohmann::json patterns = nlohmann::json::array();
  for (std::string_view p : m.patterns) {
    if (!p.empty()) patterns.push_back(std::string(p));
  }
  return {{"id", std::string(m.id)},
          {"family", std::string(m.family)},
          {"rule", std::string(m.rule)},
          {"severity", std::string(SeverityName(m.severity))},
          {"side", std::string(FailureSideName(m.side))},
          {"title", std::string(m.title)},
          {"meaning", std::string(m.meaning)},
          {"causes", causes},
          {"fix", std::string(m.fix)},
          {"versions", std::string(m.versions)},
          {"patterns", patterns},
          {"examples", examples}};
}

std::string_view FirstExample(const KnownMessage& m) {
  for (std::string_view e : m.examples) {
    if (!e.empty()) return e;
  }
  return "";
}

}  // namespace

Explanation Explain(std::string_view text) {
  Explanation e;
  text = TrimView(text);
  e.input = std::string(text);
  if (const Rule* r = FindRule(text)) {
    e.kind = Explanation::Kind::kRule;
    e.rule = r;
    e.rule_messages = KnownMessagesOfRule(r->id());
    return e;
  }
  const KnownMessage* by_id = FindKnownMessage(text);
  if (const KnownMessage* m = by_id != nullptr ? by_id : MatchMessage(text)) {
    e.kind = Explanation::Kind::kMessage;
    e.message = m;
    if (by_id == nullptr) e.details = ExtractDetails(text);
    e.rule = FindRule(m->rule);
    return e;
  }
  e.kind = Explanation::Kind::kUnknown;
  e.suggestions = ClosestKnownMessages(text, 5);
  return e;
}

std::vector<Explanation> ExplainPaste(std::string_view paste) {
  std::vector<Explanation> out;
  std::set<const KnownMessage*> seen;
  size_t start = 0;
  while (start <= paste.size()) {
    size_t nl = paste.find('\n', start);
    std::string_view line =
        paste.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? paste.size() + 1 : nl + 1;
    if (TrimView(line).empty()) continue;
    Explanation e = Explain(line);
    if (e.kind == Explanation::Kind::kRule) {
      out.push_back(std::move(e));
    } else if (e.kind == Explanation::Kind::kMessage && seen.insert(e.message).second) {
      out.push_back(std::move(e));
    }
  }
  if (out.empty()) out.push_back(Explain(paste));
  return out;
}

std::string RenderExplanationText(const Explanation& e) {
  std::string out;
  switch (e.kind) {
    case Explanation::Kind::kRule: {
      const Rule& r = *e.rule;
      out += "rule " + std::string(r.id()) + " (" + std::string(SeverityName(r.default_severity())) +
             "): " + std::string(r.title()) + "\n\n";
      out += "fix:\n";
      Wrap(&out, r.fix(), "  ");
      if (e.rule_messages.empty()) {
        out += "\nThis rule reads the job model (links, settings, ranks), not one message.\n";
      } else {
        out += "\nmessages it reads (`ncclscope explain ID` for each):\n";
        for (const KnownMessage* m : e.rule_messages) {
          out += "  " + std::string(m->id) + " (" + std::string(SeverityName(m->severity)) +
                 "): " + std::string(m->title) + "\n";
          std::string_view ex = FirstExample(*m);
          if (!ex.empty()) out += "      e.g. " + std::string(ex) + "\n";
        }
      }
      out += "\nmore: docs/rules.md#" + std::string(r.id()) + "\n";
      return out;
    }
    case Explanation::Kind::kMessage: {
      const KnownMessage& m = *e.message;
      out += std::string(m.title) + "\n";
      out += "  message " + std::string(m.id) + ", family " +
             (m.family.empty() ? std::string("(general)") : std::string(m.family)) + ", " +
             (m.rule.empty() ? std::string("harmless: no rule reports it")
                             : "reported by rule " + std::string(m.rule) + " as " +
                                   std::string(SeverityName(m.severity))) +
             "\n";
      if (m.side != FailureSide::kNone) {
        out += "  connection story: " + std::string(FailureSideName(m.side)) + "\n";
      }
      out += "\nwhat it means:\n";
      Wrap(&out, m.meaning, "  ");
      std::vector<std::string> details = DetailLines(e.details);
      if (!details.empty()) {
        out += "\nwhat this line says:\n";
        for (const std::string& d : details) Wrap(&out, d, "  ");
      }
      out += "\nlikely causes, most likely first:\n";
      int n = 0;
      for (std::string_view c : m.causes) {
        if (c.empty()) continue;
        Wrap(&out, std::to_string(++n) + ". " + std::string(c), "  ");
      }
      out += "\nfix:\n";
      Wrap(&out, m.fix, "  ");
      if (!m.versions.empty()) {
        out += "\nNCCL versions:\n";
        Wrap(&out, m.versions, "  ");
      }
      return out;
    }
    case Explanation::Kind::kUnknown: {
      out += "ncclscope does not know this message";
      out += e.input.empty() ? ".\n" : ": \"" + e.input.substr(0, 200) + "\"\n";
      if (e.suggestions.empty()) {
        out += "No known message shares a word with it. `ncclscope rules` lists every rule; "
               "`ncclscope explain RULE` lists the messages a rule reads.\n";
        return out;
      }
      out += "\nclosest known messages:\n";
      for (const KnownMessage* m : e.suggestions) {
        out += "  " + std::string(m->id) + ": " + std::string(m->title) + "\n";
        std::string_view ex = FirstExample(*m);
        if (!ex.empty()) out += "      e.g. " + std::string(ex) + "\n";
      }
      out += "\n`ncclscope explain ID` explains one of them.\n";
      return out;
    }
  }
  return out;
}

std::string RenderExplanationJson(const std::vector<Explanation>& explanations) {
  nlohmann::json arr = nlohmann::json::array();
  for (const Explanation& e : explanations) {
    nlohmann::json j;
    j["input"] = e.input;
    switch (e.kind) {
      case Explanation::Kind::kRule: {
        j["kind"] = "rule";
        j["rule"] = {{"id", std::string(e.rule->id())},
                     {"severity", std::string(SeverityName(e.rule->default_severity()))},
                     {"title", std::string(e.rule->title())},
                     {"fix", std::string(e.rule->fix())}};
        nlohmann::json msgs = nlohmann::json::array();
        for (const KnownMessage* m : e.rule_messages) msgs.push_back(MessageJson(*m));
        j["messages"] = msgs;
        break;
      }
      case Explanation::Kind::kMessage: {
        j["kind"] = "message";
        j["message"] = MessageJson(*e.message);
        nlohmann::json d = nlohmann::json::object();
        if (!e.details.peer.empty()) d["peer"] = e.details.peer;
        if (!e.details.device.empty()) d["device"] = e.details.device;
        if (e.details.ib_status >= 0) {
          d["ib_status"] = e.details.ib_status;
          d["ib_status_name"] = std::string(IbvStatusName(e.details.ib_status));
          d["ib_status_meaning"] = std::string(IbvStatusMeaning(e.details.ib_status));
        }
        if (e.details.vendor_error >= 0) d["vendor_error"] = e.details.vendor_error;
        if (!e.details.cuda_error.empty()) d["cuda_error"] = e.details.cuda_error;
        if (!e.details.os_error.empty()) d["error"] = e.details.os_error;
        if (!e.details.setting.empty()) d["setting"] = e.details.setting;
        j["details"] = d;
        break;
      }
      case Explanation::Kind::kUnknown: {
        j["kind"] = "unknown";
        nlohmann::json s = nlohmann::json::array();
        for (const KnownMessage* m : e.suggestions) {
          s.push_back({{"id", std::string(m->id)},
                       {"title", std::string(m->title)},
                       {"rule", std::string(m->rule)},
                       {"example", std::string(FirstExample(*m))}});
        }
        j["suggestions"] = s;
        break;
      }
    }
    arr.push_back(std::move(j));
  }
  return arr.dump(2) + "\n";
}

}  // namespace ncclscope
