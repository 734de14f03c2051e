// Where a command's report goes: stdout or -o FILE, and whether colour is on.
#ifndef NCCLSCOPE_CLI_OUTPUT_H_
#define NCCLSCOPE_CLI_OUTPUT_H_

#include <fstream>
#include <ostream>
#include <string>

#include "ncclscope/base/status.h"

namespace ncclscope::cli {

class Output {
 public:
  /// Opens `path` for writing, or uses `fallback` (stdout) when path is empty.
  Output(const std::string& path, std::ostream& fallback);
  const Status& status() const { return status_; }
  std::ostream& stream() { return file_.is_open() ? file_ : fallback_; }
  bool is_file() const { return file_.is_open(); }

 private:
  std::ofstream file_;
  std::ostream& fallback_;
  Status status_;
};

/// Colour decision for --color auto|always|never: auto = stdout is a terminal, NO_COLOR unset,
/// TERM not "dumb", and the report does not go to a file.
bool UseColor(const std::string& mode, bool to_file);

/// Base address of the docs online for rule help links: $NCCLSCOPE_DOCS_URL when set, else the
/// one built in (BuiltInDocsUrl); empty when neither is known.
std::string DocsUrl();

/// True if `stream` is std::cerr or std::cout and that file descriptor is a terminal (live
/// status and progress lines are drawn only there).
bool IsTerminal(const std::ostream& stream);

}  // namespace ncclscope::cli

#endif  // NCCLSCOPE_CLI_OUTPUT_H_
