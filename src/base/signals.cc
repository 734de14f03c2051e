#include "ncclscope/base/signals.h"

#include <cctype>

#include "ncclscope/base/ascii.h"

namespace ncclscope {
namespace {

struct SignalInfo {
  int number;
  std::string_view name;
  std::string_view description;  ///< strsignal()/launcher wording ("Killed").
  std::string_view meaning;
};

constexpr SignalInfo kSignals[] = {
    {1, "SIGHUP", "Hangup", "the terminal or session of the launcher went away"},
    {2, "SIGINT", "Interrupt", "Ctrl-C"},
    {4, "SIGILL", "Illegal instruction", "a crash in native code"},
    {6, "SIGABRT", "Aborted", "abort(): a failed check or an uncaught C++ exception"},
    {7, "SIGBUS", "Bus error",
     "often a full or too small /dev/shm behind a shared-memory mapping"},
    {8, "SIGFPE", "Floating point exception",
     "an arithmetic fault such as an integer division by zero in native code"},
    {9, "SIGKILL", "Killed", "the OOM killer or an external kill -9"},
    {11, "SIGSEGV", "Segmentation fault", "a crash in native code"},
    {13, "SIGPIPE", "Broken pipe", "a peer or the output went away"},
    {15, "SIGTERM", "Terminated", "asked to stop, usually by the launcher or the scheduler"},
};

using ascii::EqualsNoCase;

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && EqualsNoCase(s.substr(0, prefix.size()), prefix);
}

}  // namespace

std::string_view SignalName(int signal) {
  for (const SignalInfo& s : kSignals) {
    if (s.number == signal) return s.name;
  }
  return {};
}

std::string_view SignalMeaning(int signal) {
  for (const SignalInfo& s : kSignals) {
    if (s.number == signal) return s.meaning;
  }
  return {};
}

int SignalFromText(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  for (const SignalInfo& s : kSignals) {
    // "SIGKILL", "KILL", "Killed", "Segmentation fault (core dumped)".
    if (StartsWithNoCase(text, s.name) || StartsWithNoCase(text, s.description)) {
      const bool by_name = StartsWithNoCase(text, s.name);
      const size_t n = by_name ? s.name.size() : s.description.size();
      // Several words ("Floating point exception") need no word boundary after them.
      const bool phrase = !by_name && s.description.find(' ') != std::string_view::npos;
      if (phrase || text.size() == n || !std::isalpha(static_cast<unsigned char>(text[n]))) {
        return s.number;
      }
    }
    const std::string_view bare = s.name.substr(3);
    if (StartsWithNoCase(text, bare) &&
        (text.size() == bare.size() || !std::isalpha(static_cast<unsigned char>(text[bare.size()])))) {
      return s.number;
    }
  }
  return 0;
}

std::optional<int> SignalFromExitCode(int exit_code) {
  if (exit_code < 0 && exit_code > -65) return -exit_code;
  if (exit_code > 128 && exit_code < 160) return exit_code - 128;
  return std::nullopt;
}

}  // namespace ncclscope
