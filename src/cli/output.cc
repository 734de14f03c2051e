#include "ncclscope/cli/output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "ncclscope/base/build_info.h"

namespace ncclscope::cli {

Output::Output(const std::string& path, std::ostream& fallback) : fallback_(fallback) {
  if (path.empty() || path == "-") return;
  file_.open(path, std::ios::binary | std::ios::trunc);
  if (!file_.is_open()) status_ = Status::IoError(path + ": cannot write: " + std::strerror(errno));
}

bool UseColor(const std::string& mode, bool to_file) {
  if (mode == "always") return true;
  if (mode == "never" || to_file) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return isatty(STDOUT_FILENO) != 0;
}

std::string DocsUrl() {
  const char* env = std::getenv("NCCLSCOPE_DOCS_URL");
  if (env && *env) return env;
  return std::string(BuiltInDocsUrl());
}

bool IsTerminal(const std::ostream& stream) {
  if (&stream == &std::cerr) return isatty(STDERR_FILENO) != 0;
  if (&stream == &std::cout) return isatty(STDOUT_FILENO) != 0;
  return false;
}

}  // namespace ncclscope::cli
