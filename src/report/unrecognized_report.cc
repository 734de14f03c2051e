#include "ncclscope/report/unrecognized_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace ncclscope {
namespace {

std::string_view NameOf(const std::vector<SourceInfo>& sources, uint32_t source) {
  return source < sources.size() ? std::string_view(sources[source].name) : "?";
}

}  // namespace

void WriteUnrecognizedText(const std::vector<UnrecognizedGroup>& groups,
                           const LineCoverage& coverage, const std::vector<SourceInfo>& sources,
                           std::ostream& out) {
  out << "NCCL lines: " << CoverageSummary(coverage) << "\n";
  if (groups.empty()) {
    out << "Every line that mentions NCCL was understood.\n";
    return;
  }
  out << fmt::format("{} not understood, in {} shape{}: {} NCCL message{} of unknown format, {} "
                     "other line{} that mention NCCL.\n",
                     GroupThousands(coverage.not_understood()), groups.size(),
                     groups.size() == 1 ? "" : "s", coverage.unrecognized_messages,
                     coverage.unrecognized_messages == 1 ? "" : "s",
                     coverage.unrecognized_mentions,
                     coverage.unrecognized_mentions == 1 ? "" : "s");
  for (const auto& g : groups) {
    out << fmt::format("\n{:>7}  {}  {}\n", GroupThousands(g.count),
                       g.mention ? "mention" : "message", g.shape);
    for (const auto& e : g.examples) {
      out << fmt::format("         {}:{}: {}\n", NameOf(sources, e.source), e.line, e.text);
    }
  }
}

void WriteUnrecognizedJson(const std::vector<UnrecognizedGroup>& groups,
                           const LineCoverage& coverage, const std::vector<SourceInfo>& sources,
                           std::ostream& out) {
  using nlohmann::json;
  json list = json::array();
  for (const auto& g : groups) {
    json examples = json::array();
    for (const auto& e : g.examples)
      examples.push_back({{"input", NameOf(sources, e.source)}, {"line", e.line}, {"text", e.text}});
    list.push_back({{"shape", g.shape},
                    {"kind", g.mention ? "mention" : "message"},
                    {"count", g.count},
                    {"examples", std::move(examples)}});
  }
  json doc{{"coverage",
            {{"nccl_lines_read", coverage.read},
             {"understood", coverage.understood},
             {"not_understood", coverage.not_understood()},
             {"unrecognized_messages", coverage.unrecognized_messages},
             {"unrecognized_mentions", coverage.unrecognized_mentions},
             {"ratio", coverage.ratio()}}},
           {"groups", std::move(list)}};
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace ncclscope
