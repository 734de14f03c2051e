#include "ncclscope/report/sarif_report.h"

#include <nlohmann/json.hpp>
#include <set>
#include <utility>
#include <vector>

#include "ncclscope/rules/policy.h"
#include "ncclscope/rules/registry.h"

namespace ncclscope {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kSchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

std::string_view Level(Severity s) {
  return s == Severity::kError ? "error" : s == Severity::kWarning ? "warning" : "note";
}

Json Text(std::string text) { return Json{{"text", std::move(text)}}; }

/// What a reportingDescriptor says about one rule.
struct RuleText {
  std::string id;
  std::string title;
  std::string fix;
  Severity severity = Severity::kWarning;
};

/// Every registry rule, the policy's rule, then ids that only findings name, in that order.
std::vector<RuleText> RuleTexts(const std::vector<Finding>& findings) {
  std::vector<RuleText> rules;
  std::set<std::string, std::less<>> seen;
  for (const auto& r : AllRules()) {
    rules.push_back({std::string(r->id()), std::string(r->title()), std::string(r->fix()),
                     r->default_severity()});
    seen.insert(rules.back().id);
  }
  rules.push_back({std::string(kPolicyRuleId), std::string(kPolicyRuleTitle),
                   std::string(kPolicyRuleFix), Severity::kError});
  seen.insert(rules.back().id);
  for (const auto& f : findings) {
    if (seen.insert(f.rule).second) rules.push_back({f.rule, f.title, f.fix, f.severity});
  }
  return rules;
}

Json Descriptor(const RuleText& r, const std::string& docs_url) {
  std::string full = r.title;
  if (!r.fix.empty()) full += ". Fix: " + r.fix;
  std::string markdown = "**" + r.title + "**";
  if (!r.fix.empty()) markdown += "\n\nFix: " + r.fix;
  Json d{{"id", r.id}, {"name", SarifRuleName(r.id)}, {"shortDescription", Text(r.title)},
         {"fullDescription", Text(full)}};
  if (!docs_url.empty()) {
    std::string uri = docs_url;
    if (uri.back() != '/') uri += '/';
    uri += "rules.md#" + r.id;
    d["helpUri"] = uri;
    markdown += "\n\n[" + r.id + " in docs/rules.md](" + uri + ")";
  } else {
    markdown += "\n\nSee `" + r.id + "` in docs/rules.md (or `ncclscope rules`).";
  }
  d["help"] = Json{{"text", r.fix.empty() ? r.title : r.fix}, {"markdown", markdown}};
  d["defaultConfiguration"] = Json{{"level", Level(r.severity)}};
  d["properties"] = Json{{"tags", Json::array({"nccl"})}};
  return d;
}

/// The artifact a source's lines come from: the input path as given (a kubectl pod split from a
/// stream points at the stream's file); stdin has no URI.
Json ArtifactLocation(const Job& job, uint32_t source) {
  if (source >= job.sources.size()) return Json{{"description", Text("unknown input")}};
  const SourceInfo& s = job.sources[source];
  std::string path = s.name;
  if (!s.pod.empty()) {
    const std::string suffix = "[pod/" + s.pod + "]";
    if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(),
                                                    suffix) == 0)
      path.resize(path.size() - suffix.size());
  }
  if (path == "<stdin>" || path == "-") return Json{{"description", Text("standard input")}};
  Json loc{{"uri", SarifUri(path)}};
  if (!s.pod.empty()) loc["description"] = Text("kubectl pod " + s.pod);
  return loc;
}

Json Location(const Job& job, const Evidence& e) {
  Json region{{"startLine", e.line > 0 ? e.line : 1}};
  if (!e.text.empty()) region["snippet"] = Text(e.text.str());
  return Json{{"physicalLocation",
               {{"artifactLocation", ArtifactLocation(job, e.source)}, {"region", region}}}};
}

Json Result(const Job& job, const Finding& f, size_t rule_index) {
  std::string msg = f.title.empty() ? f.rule : f.title;
  if (!f.message.empty()) msg += ": " + f.message;
  if (!f.fix.empty()) msg += "\nFix: " + f.fix;
  Json r{{"ruleId", f.rule},
         {"ruleIndex", rule_index},
         {"level", Level(f.severity)},
         {"message", Text(msg)}};
  Json locations = Json::array();
  for (const auto& e : f.evidence) locations.push_back(Location(job, e));
  // A finding about the whole job (no evidence line) is placed on the first input.
  if (locations.empty() && !job.sources.empty())
    locations.push_back(Json{{"physicalLocation", {{"artifactLocation", ArtifactLocation(job, 0)}}}});
  r["locations"] = std::move(locations);
  Json props = Json::object();
  if (!f.ranks.empty()) props["ranks"] = f.ranks;
  if (!f.hosts.empty()) props["hosts"] = f.hosts;
  if (!f.comms.empty()) props["communicators"] = f.comms;
  if (!f.suspect_ranks.empty()) props["suspectRanks"] = f.suspect_ranks;
  if (!f.suspect_hosts.empty()) props["suspectHosts"] = f.suspect_hosts;
  if (!f.caused_by.empty()) props["causedBy"] = f.caused_by;
  if (!props.empty()) r["properties"] = std::move(props);
  return r;
}

std::string_view ExitCodeDescription(int code) {
  switch (code) {
    case 0:
      return "no finding at or above --fail-on";
    case 1:
      return "findings at or above --fail-on";
    case 2:
      return "usage error, or an input could not be read";
    case 3:
      return "the input holds no NCCL debug lines at all (and no failed job)";
    default:
      return "";
  }
}

Json Invocation(const ReportInput& in, const ReportOptions& opts) {
  Json notes = Json::array();
  for (const auto& p : in.problems) {
    Json n{{"level", "error"}, {"message", Text(p.path + ": " + p.message)}};
    if (!p.path.empty() && p.path != "-")
      n["locations"] =
          Json::array({Json{{"physicalLocation", {{"artifactLocation", {{"uri", SarifUri(p.path)}}}}}}});
    notes.push_back(std::move(n));
  }
  if (opts.exit_code == 3)
    notes.push_back(Json{{"level", "warning"},
                         {"message", Text("the input holds no NCCL debug lines: run the job with "
                                          "NCCL_DEBUG=INFO")}});
  // Findings (exit 1) are what the tool is for: the run succeeded unless an input could not be
  // read or the arguments were wrong.
  bool ok = opts.exit_code >= 0 ? opts.exit_code != 2 : in.problems.empty();
  Json inv{{"executionSuccessful", ok}};
  if (opts.exit_code >= 0) {
    inv["exitCode"] = opts.exit_code;
    std::string_view d = ExitCodeDescription(opts.exit_code);
    if (!d.empty()) inv["exitCodeDescription"] = d;
  }
  if (!notes.empty()) inv["toolExecutionNotifications"] = std::move(notes);
  return inv;
}

}  // namespace

std::string SarifUri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(path.size());
  for (char ch : path) {
    auto c = static_cast<unsigned char>(ch);
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                std::string_view("-._~/!$&'()*+,;=@").find(ch) != std::string_view::npos;
    if (keep) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string SarifRuleName(std::string_view id) {
  std::string name;
  bool upper = true;
  for (char c : id) {
    if (c == '-' || c == '_' || c == '.') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name;
}

void WriteSarifReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out) {
  const std::vector<RuleText> rules = RuleTexts(in.findings);
  Json descriptors = Json::array();
  for (const auto& r : rules) descriptors.push_back(Descriptor(r, opts.docs_url));
  Json driver{{"name", "ncclscope"},
              {"version", NCCLSCOPE_VERSION},
              {"semanticVersion", NCCLSCOPE_VERSION}};
  if (!opts.docs_url.empty()) driver["informationUri"] = opts.docs_url;
  driver["rules"] = std::move(descriptors);

  Json results = Json::array();
  for (const auto& f : in.findings) {
    size_t index = 0;
    while (index < rules.size() && rules[index].id != f.rule) ++index;
    results.push_back(Result(in.job, f, index));
  }
  Json run{{"tool", {{"driver", std::move(driver)}}},
           {"invocations", Json::array({Invocation(in, opts)})},
           {"results", std::move(results)}};
  Json log{{"$schema", kSchemaUri}, {"version", "2.1.0"}, {"runs", Json::array({std::move(run)})}};
  out << log.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace ncclscope
