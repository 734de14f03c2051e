// Argument parsing only: CLI11 describes every subcommand into its options struct, then one
// runner is called. `ncclscope FILE...` and `... | ncclscope` mean `ncclscope analyze`.
// DescribeCli (cli_spec.h) lives here too: this is the one file that includes CLI11, whose header
// alone costs about 8 s of compile time per translation unit.
#include "ncclscope/cli/main.h"

#include <CLI/CLI.hpp>
#include <cstring>
#include <iostream>
#include <string_view>

#include "ncclscope/base/build_info.h"
#include "ncclscope/cli/cli_spec.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/completion.h"
#include "ncclscope/report/report.h"

namespace ncclscope::cli {
namespace {

constexpr std::string_view kSubcommands[] = {
    "analyze", "events",    "ranks", "timeline", "rules",       "explain",   "topo",
    "bench",   "summarize", "merge", "diff",     "kube-status", "completion"};

constexpr const char* kExitCodesHelp =
    "Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it; 2 usage error or "
    "an input could not be read; 3 the input holds no NCCL debug lines at all (and no failed job).";

std::string FormatList() {
  std::string names;
  for (const auto& f : ReportFormats()) names += (names.empty() ? "" : "|") + std::string(f.name);
  return names;
}

/// The report options analyze and merge share (everything but inputs and --jobs).
void DescribeReport(CLI::App* cmd, AnalyzeCommandOptions* o) {
  cmd->add_option("-f,--format", o->format, "Report format: " + FormatList())
      ->check(CLI::IsMember([] {
        std::vector<std::string> v;
        for (const auto& f : ReportFormats()) v.emplace_back(f.name);
        return v;
      }()));
  cmd->add_option("-o,--output", o->output, "Write the report to FILE instead of stdout");
  cmd->add_option("--color", o->color, "Colour: auto|always|never (NO_COLOR is honoured)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_option("--fail-on", o->fail_on,
                  "Exit 1 when a finding has this severity or higher: error|warning|info|never")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  cmd->add_option("--policy", o->policy, "JSON policy for CI gates (docs/policy.md)");
  cmd->add_option("--topo", o->topo, "`nvidia-smi topo -m` output of the nodes (NVLink proof)");
  cmd->add_option("--slow-init", o->slow_init_seconds, "slow-init threshold in seconds");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress or notes on stderr");
  cmd->add_flag("--follow", o->follow,
                "Live stream (kubectl logs -f ... | ncclscope --follow): print each new finding "
                "as soon as it is known, the full report at end of input or Ctrl-C");
  cmd->add_flag("--stats", o->stats, "Print parser statistics to stderr");
  cmd->add_flag("--keep-all-comms", o->keep_all_comms,
                "List every communicator: do not fold ended ones that repeat an earlier shape "
                "(jobs with over 1,024; memory then grows with them)");
  cmd->add_flag("-v,--verbose", o->verbose, "Text report: more detail");
  cmd->footer(kExitCodesHelp);
}

void DescribeAnalyze(CLI::App* cmd, AnalyzeCommandOptions* o) {
  cmd->add_option("inputs", o->inputs, "Log files, directories or - for stdin (default: stdin)");
  cmd->add_option("-j,--jobs", o->jobs,
                  "Threads (default: one per core): several inputs or pieces of a large file "
                  "in parallel, or one stream parsed and modelled on two threads; 1: one "
                  "thread");
  DescribeReport(cmd, o);
}

void DescribeDiff(CLI::App* cmd, DiffCommandOptions* o) {
  cmd->add_option("before", o->before,
                  "The run that worked: log file, directory, JSON report "
                  "or summary file")
      ->required();
  cmd->add_option("after", o->after, "The run to check, in any of the same forms")->required();
  cmd->add_option("-f,--format", o->format, "Output format: text|markdown|json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  cmd->add_option("-o,--output", o->output, "Write the diff to FILE instead of stdout");
  cmd->add_option("--color", o->color, "Colour: auto|always|never (NO_COLOR is honoured)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_option("--fail-on", o->fail_on,
                  "Exit 1 on: regression (slower links, new warnings/errors, busbw drop; the "
                  "default), change (also any other difference but versions), any, never")
      ->check(CLI::IsMember({"regression", "change", "any", "never"}));
  cmd->add_option("--busbw-tolerance", o->busbw_tolerance_percent,
                  "nccl-tests bus bandwidth change (percent) below which it is not reported")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--policy", o->policy, "JSON policy (docs/policy.md) applied to both runs");
  cmd->add_option("--topo", o->topo, "`nvidia-smi topo -m` output of the nodes, for both runs");
  cmd->add_option("--slow-init", o->slow_init_seconds, "slow-init threshold in seconds");
  cmd->add_option("-j,--jobs", o->jobs, "Threads reading inputs (default: one per core)");
  cmd->add_flag("-q,--quiet", o->quiet, "No notes on stderr");
  cmd->footer(
      "Exit codes: 0 nothing --fail-on counts; 1 a regression (or what --fail-on names); 2 "
      "usage error or a run that cannot be read or holds nothing to compare.");
}

/// Inserts "analyze" when the first argument is not a subcommand (ncclscope FILE, ncclscope -f
/// json).
std::vector<std::string> WithDefaultCommand(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  if (!args.empty()) {
    const std::string& a = args.front();
    for (auto sub : kSubcommands) {
      if (a == sub) return args;
    }
    if (a == "-h" || a == "--help" || a == "--version" || a == "-V") return args;
  }
  args.insert(args.begin(), "analyze");
  return args;
}

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

int Main(int argc, char** argv) {
  CLI::App app{
      "ncclscope: reads NCCL debug logs (NCCL_DEBUG=INFO) of distributed training jobs, "
      "classifies every peer link and flags misconfigurations.",
      "ncclscope"};
  app.set_version_flag("-V,--version", VersionLine());
  app.require_subcommand(1);
  app.footer(std::string("Without a command, `ncclscope [OPTIONS] [INPUT...]` runs analyze.\n") +
             kExitCodesHelp);

  AnalyzeCommandOptions analyze;
  DescribeAnalyze(app.add_subcommand("analyze", "Analyse a job's logs (default command)"),
                  &analyze);

  SummarizeCommandOptions summarize;
  auto* su = app.add_subcommand(
      "summarize", "Write the condensed form of logs (what the analysis needs) as a summary file");
  su->add_option("inputs", summarize.inputs, "Log files, directories or - for stdin");
  su->add_option("-o,--output", summarize.output, "Write the summary to FILE instead of stdout");
  su->add_option("-j,--jobs", summarize.jobs, "Threads reading inputs (default: one per core)");
  su->add_option("--shard", summarize.shard,
                 "K/N: only the K-th (0-based) of N contiguous parts of the inputs, for N "
                 "workers; merge the N summaries in shard order");

  AnalyzeCommandOptions merge;
  auto* me = app.add_subcommand(
      "merge", "Analyse summary files together: the report of one run over all their inputs");
  me->add_option("summaries", merge.inputs, "Summary files written by summarize")->required();
  DescribeReport(me, &merge);

  EventsCommandOptions events;
  auto* ev = app.add_subcommand("events", "Print every parsed event as JSON Lines");
  ev->add_option("inputs", events.inputs, "Log files, directories or - for stdin");
  ev->add_option("-o,--output", events.output, "Write to FILE instead of stdout");
  ev->add_option("--type", events.type, "Only these event types (comma-separated)");
  ev->add_flag("--stats", events.stats, "Print line and event counts to stderr");
  ev->add_flag("--unrecognized", events.unrecognized,
               "List the lines that mention NCCL but that nothing understood, grouped by shape");
  ev->add_option("-f,--format", events.format, "With --unrecognized: text|json")
      ->check(CLI::IsMember({"text", "json"}));

  RanksCommandOptions ranks;
  auto* rk = app.add_subcommand("ranks", "Per-rank table: host, pid, GPU, state, last line");
  rk->add_option("inputs", ranks.inputs, "Log files, directories or - for stdin");
  rk->add_option("-f,--format", ranks.format, "text|json")->check(CLI::IsMember({"text", "json"}));
  rk->add_option("-o,--output", ranks.output, "Write to FILE instead of stdout");

  TimelineCommandOptions timeline;
  auto* tl = app.add_subcommand(
      "timeline", "Failures on one time axis: exits, signals, exceptions, NCCL errors, timeouts");
  tl->add_option("inputs", timeline.inputs, "Log files, directories or - for stdin");
  tl->add_option("-f,--format", timeline.format, "text|json")
      ->check(CLI::IsMember({"text", "json"}));
  tl->add_option("-o,--output", timeline.output, "Write to FILE instead of stdout");

  RulesCommandOptions rules;
  auto* ru = app.add_subcommand(
      "rules",
      "List every rule: id, severity, title, fix, and the messages it reads (meaning, fix)");
  ru->add_option("-f,--format", rules.format, "text|json|markdown (the docs/rules.md section)")
      ->check(CLI::IsMember({"text", "json", "markdown"}));

  ExplainCommandOptions explain;
  auto* ex = app.add_subcommand(
      "explain",
      "What an NCCL message means, its likely causes and the fix (paste a WARN or error line, "
      "or name a rule or message id; no argument reads stdin)");
  ex->add_option("text", explain.text,
                 "The message (any prefix around it), a rule id or a message id");
  ex->add_option("-f,--format", explain.format, "text|json")
      ->check(CLI::IsMember({"text", "json"}));
  ex->footer(
      "Exit codes: 0 explained; 1 not a known message (the closest ones are listed); 2 "
      "usage error.");

  TopoCommandOptionsCli topo;
  auto* tp = app.add_subcommand("topo", "Read `nvidia-smi topo -m` output");
  tp->add_option("file", topo.path, "File with the matrix")->required();
  tp->add_option("-f,--format", topo.format, "text|json")->check(CLI::IsMember({"text", "json"}));

  BenchCommandOptionsCli bench;
  auto* bn = app.add_subcommand("bench", "Read nccl-tests results and judge the bandwidth");
  bn->add_option("inputs", bench.inputs, "nccl-tests output files (text or -J JSON)")->required();
  bn->add_option("--expect", bench.expect, "Expected transport class: NVL|P2P|SHM|NET/IB|...");
  bn->add_option("--log", bench.log, "NCCL log of the same run: expected class from its links");
  bn->add_option("-f,--format", bench.format, "text|json")->check(CLI::IsMember({"text", "json"}));

  DiffCommandOptions diff;
  DescribeDiff(app.add_subcommand("diff",
                                  "Compare two runs (logs, directories, JSON reports or "
                                  "summaries): what changed, and whether it got worse"),
               &diff);

  KubeStatusCommandOptions kube;
  auto* ks =
      app.add_subcommand("kube-status",
                         "Pod state from `kubectl get pods/events -o json` as log lines to analyse "
                         "beside the pods' logs (used by kubectl-ncclscope)");
  ks->add_option("pods", kube.pods, "`kubectl get pods -o json` output");
  ks->add_option("events", kube.events, "`kubectl get events -o json` outputs");
  ks->add_option("-c,--container", kube.container, "Only this container of each pod");
  ks->add_option("--target", kube.target,
                 "The workload (KIND/NAME, e.g. job/train): its Warning events too");
  ks->add_option("-o,--output", kube.output, "Write to FILE instead of stdout");
  ks->add_option("--split", kube.split_dir,
                 "Write one file per container, DIR/POD.CONTAINER.status, and DIR/cluster.events");
  ks->add_flag("--list", kube.list, "Print POD<TAB>CONTAINER<TAB>NODE per container instead");
  ks->add_option("--selector-of", kube.selector_of,
                 "Print the pod label selector of a workload (`kubectl get job/NAME -o json` "
                 "output) instead");

  std::string shell;
  auto* co = app.add_subcommand(
      "completion", "Print the shell completion script for bash, zsh or fish (see ncclscope(1))");
  co->add_option("shell", shell, "bash|zsh|fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));

  std::vector<std::string> args = WithDefaultCommand(argc, argv);
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector.
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (app.got_subcommand("analyze")) {
    return analyze.follow ? RunFollow(analyze, std::cout, std::cerr)
                          : RunAnalyze(analyze, std::cout, std::cerr);
  }
  if (app.got_subcommand("events")) return RunEvents(events, std::cout, std::cerr);
  if (app.got_subcommand("ranks")) return RunRanks(ranks, std::cout, std::cerr);
  if (app.got_subcommand("timeline")) return RunTimeline(timeline, std::cout, std::cerr);
  if (app.got_subcommand("rules")) return RunRulesList(rules, std::cout, std::cerr);
  if (app.got_subcommand("explain")) return RunExplain(explain, std::cin, std::cout, std::cerr);
  if (app.got_subcommand("topo")) return RunTopo(topo, std::cout, std::cerr);
  if (app.got_subcommand("bench")) return RunBench(bench, std::cout, std::cerr);
  if (app.got_subcommand("summarize")) return RunSummarize(summarize, std::cout, std::cerr);
  if (app.got_subcommand("merge")) return RunMerge(merge, std::cout, std::cerr);
  if (app.got_subcommand("diff")) return RunDiffCommand(diff, std::cout, std::cerr);
  if (app.got_subcommand("kube-status")) return RunKubeStatus(kube, std::cout, std::cerr);
  if (app.got_subcommand("completion")) {
    std::cout << CompletionScript(DescribeCli(app, "analyze"), shell);
    return kExitOk;
  }
  std::cerr << app.help();
  return kExitUsage;
}

}  // namespace ncclscope::cli
