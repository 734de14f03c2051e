#include "ncclscope/cli/cli_spec.h"

#include <CLI/CLI.hpp>

namespace ncclscope::cli {
namespace {

/// CLI11's type name of a checked option is "TEXT:{a,b,c}"; the set is the choices.
std::vector<std::string> ChoicesOf(const std::string& type_name) {
  std::vector<std::string> out;
  size_t open = type_name.find('{');
  size_t close = type_name.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string item;
  for (size_t i = open + 1; i < close; ++i) {
    if (type_name[i] == ',') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else if (type_name[i] != ' ') {
      item += type_name[i];
    }
  }
  if (!item.empty()) out.push_back(item);
  return out;
}

bool IsNumeric(const std::string& type_name) {
  const std::string base = type_name.substr(0, type_name.find(':'));
  return base == "UINT" || base == "INT" || base == "FLOAT" || base == "NUMBER";
}

void ReadOptions(const CLI::App& app, std::vector<CliOptionSpec>* options,
                 CliCommandSpec* command) {
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->nonpositional()) {
      if (!command) continue;
      std::vector<std::string> choices = ChoicesOf(opt->get_type_name());
      if (choices.empty()) {
        command->takes_files = true;
      } else {
        command->positional_choices.insert(command->positional_choices.end(), choices.begin(),
                                           choices.end());
      }
      continue;
    }
    CliOptionSpec o;
    for (const auto& s : opt->get_snames()) o.names.push_back("-" + s);
    for (const auto& l : opt->get_lnames()) o.names.push_back("--" + l);
    o.description = opt->get_description();
    o.takes_value = opt->get_expected_max() > 0;  // flags expect no value
    if (o.takes_value) {
      const std::string type = opt->get_type_name();
      o.choices = ChoicesOf(type);
      o.numeric = IsNumeric(type);
    }
    options->push_back(std::move(o));
  }
}

}  // namespace

CliSpec DescribeCli(const CLI::App& app, const std::string& default_command) {
  CliSpec spec;
  spec.program = app.get_name();
  spec.default_command = default_command;
  ReadOptions(app, &spec.options, nullptr);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    CliCommandSpec c;
    c.name = sub->get_name();
    c.description = sub->get_description();
    ReadOptions(*sub, &c.options, &c);
    spec.commands.push_back(std::move(c));
  }
  return spec;
}

const CliCommandSpec* FindCommand(const CliSpec& spec, const std::string& name) {
  for (const auto& c : spec.commands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace ncclscope::cli
