// Shell completion generators: every command, option and value of the command line reaches the
// bash, zsh and fish scripts; flags take no value; words a script cannot hold are left out.
// tests/install/completion_test.sh runs the generated scripts in the shells themselves.
#include "ncclscope/cli/completion.h"

#include <gtest/gtest.h>

namespace ncclscope::cli {
namespace {

CliSpec SmallSpec() {
  CliSpec spec;
  spec.program = "ncclscope";
  spec.default_command = "analyze";
  spec.options = {{{"-h", "--help"}, "Print help", false, {}, false},
                  {{"-V", "--version"}, "Print the version", false, {}, false}};
  CliCommandSpec analyze;
  analyze.name = "analyze";
  analyze.description = "Analyse a job's logs";
  analyze.options = {{{"-f", "--format"}, "Report format", true, {"text", "json", "sarif"}, false},
                     {{"-o", "--output"}, "Write to FILE", true, {}, false},
                     {{"-j", "--jobs"}, "Threads", true, {}, true},
                     {{"--follow"}, "Live [stream]: it's", false, {}, false},
                     {{"--bad option"}, "not a word", false, {}, false}};
  analyze.takes_files = true;
  CliCommandSpec completion;
  completion.name = "completion";
  completion.description = "Print the completion script";
  completion.positional_choices = {"bash", "zsh", "fish"};
  spec.commands = {analyze, completion};
  return spec;
}

bool Has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

TEST(BashCompletion, CompletesCommandsOptionsAndValuesAndRegistersTheFunction) {
  std::string s = BashCompletion(SmallSpec());
  EXPECT_TRUE(Has(s, "      analyze|completion) cmd=${COMP_WORDS[1]} ;;")) << s;
  EXPECT_TRUE(Has(s, "-f|--format) COMPREPLY=($(compgen -W 'text json sarif' -- \"$cur\"))"));
  EXPECT_TRUE(Has(s, "-o|--output) _ncclscope_files; return ;;"));
  EXPECT_TRUE(Has(s, "-j|--jobs) COMPREPLY=(); return ;;"));
  EXPECT_FALSE(Has(s, "--follow)")) << "a flag takes no value";
  EXPECT_TRUE(Has(s, "opts='-f --format -o --output -j --jobs --follow'"));
  EXPECT_TRUE(Has(s, "words='bash zsh fish'"));
  EXPECT_TRUE(Has(s, "cmd=analyze"));
  EXPECT_TRUE(Has(s, "compgen -W '-h --help -V --version'\" $opts\""));
  EXPECT_TRUE(Has(s, "\ncomplete -F _ncclscope ncclscope\n"));
  EXPECT_FALSE(Has(s, "bad option"));
}

TEST(ZshCompletion, OneArgumentsFunctionPerCommandWithEscapedDescriptions) {
  std::string s = ZshCompletion(SmallSpec());
  EXPECT_EQ(s.rfind("#compdef ncclscope\n", 0), 0u);
  EXPECT_TRUE(Has(s, "_ncclscope_analyze() {\n  _arguments -s -S"));
  EXPECT_TRUE(Has(s, "'(-f --format)'{-f,--format}'[Report format]:value:(text json sarif)'"));
  EXPECT_TRUE(Has(s, "'(-o --output)'{-o,--output}'[Write to FILE]:file:_files'"));
  EXPECT_TRUE(Has(s, "'(-j --jobs)'{-j,--jobs}'[Threads]:number: '"));
  // Brackets would end the description; a quote would end the word.
  EXPECT_TRUE(Has(s, "'--follow[Live stream: it'\\''s]'")) << s;
  EXPECT_TRUE(Has(s, "'*:file:_files'"));
  EXPECT_TRUE(Has(s, "':argument:(bash zsh fish)'"));
  EXPECT_TRUE(Has(s, "'analyze:Analyse a job'\\''s logs'"));
  EXPECT_TRUE(Has(s, "    (analyze|completion)\n"));
  EXPECT_TRUE(Has(s, "_ncclscope \"$@\"\n"));
}

TEST(FishCompletion, ConditionsPerCommandAndValueKinds) {
  std::string s = FishCompletion(SmallSpec());
  EXPECT_TRUE(Has(s, "complete -c ncclscope -f\n"));
  EXPECT_TRUE(Has(s, "complete -c ncclscope -n '__fish_use_subcommand' -a analyze -d 'Analyse a "
                     "job\\'s logs'"))
      << s;
  EXPECT_TRUE(Has(s, "complete -c ncclscope -n '__ncclscope_command analyze' -s f -l format -x "
                     "-a 'text json sarif'"));
  EXPECT_TRUE(Has(s, "-s o -l output -r -F"));
  EXPECT_TRUE(Has(s, "-s j -l jobs -x -d 'Threads'"));
  EXPECT_TRUE(Has(s, "complete -c ncclscope -n '__ncclscope_command analyze' -F\n"));
  EXPECT_TRUE(Has(s, "complete -c ncclscope -n '__ncclscope_command completion' -a 'bash zsh fish'"));
  EXPECT_TRUE(Has(s, "-s V -l version"));
}

TEST(CompletionScript, UnknownShellGivesNothing) {
  EXPECT_FALSE(CompletionScript(SmallSpec(), "bash").empty());
  EXPECT_TRUE(CompletionScript(SmallSpec(), "powershell").empty());
}

}  // namespace
}  // namespace ncclscope::cli
