// ExpandInputs: turns command-line arguments into a list of readable inputs plus problems.
#include "ncclscope/input/input_set.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>
#include <utility>

namespace ncclscope {
namespace {

namespace fs = std::filesystem;

using DirId = std::pair<dev_t, ino_t>;

/// Checks that a regular file can be opened for reading. Returns an empty string if it can,
/// else the reason.
std::string CheckReadable(const std::string& path) {
  int fd;
  do {
    fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return std::strerror(errno);
  close(fd);
  return "";
}

void AddFile(const std::string& path, ExpandedInputs* out) {
  std::string why = CheckReadable(path);
  if (why.empty()) {
    out->inputs.push_back({path, path});
  } else {
    out->problems.push_back({path, std::move(why)});
  }
}

/// Adds every regular file under `dir`, sorted by name, descending into subdirectories
/// (followed through symlinks, but each directory only once, so loops end).
void AddDirectory(const fs::path& dir, std::set<DirId>* seen, ExpandedInputs* out) {
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) {
    out->problems.push_back({dir.string(), std::strerror(errno)});
    return;
  }
  if (!seen->insert({st.st_dev, st.st_ino}).second) return;  // Already visited (symlink loop).

  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    out->problems.push_back({dir.string(), ec.message()});
    return;
  }
  // Sorted by name as strings: for names of one directory the same order as comparing the
  // paths, without parsing every path into components per comparison (4,096 per-rank files).
  std::vector<std::string> names;
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) break;
    names.push_back(it->path().filename().native());
  }
  if (ec) out->problems.push_back({dir.string(), ec.message()});
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const fs::path entry = dir / name;
    std::error_code sec;
    fs::file_status status = fs::status(entry, sec);  // Follows symlinks.
    if (sec) {
      out->problems.push_back({entry.string(), sec.message()});
    } else if (fs::is_directory(status)) {
      AddDirectory(entry, seen, out);
    } else if (fs::is_regular_file(status)) {
      AddFile(entry.string(), out);
    }  // Sockets, FIFOs, devices inside directories are skipped.
  }
}

}  // namespace

ExpandedInputs ExpandInputs(const std::vector<std::string>& args) {
  ExpandedInputs out;
  if (args.empty()) {
    out.inputs.push_back({"-", "<stdin>"});
    return out;
  }
  std::set<DirId> seen;
  for (const std::string& arg : args) {
    if (arg == "-") {
      out.inputs.push_back({"-", "<stdin>"});
      continue;
    }
    std::error_code ec;
    fs::file_status status = fs::status(arg, ec);
    if (ec || !fs::exists(status)) {
      out.problems.push_back({arg, ec ? ec.message() : std::string(std::strerror(ENOENT))});
    } else if (fs::is_directory(status)) {
      AddDirectory(arg, &seen, &out);
    } else if (fs::is_regular_file(status)) {
      AddFile(arg, &out);
    } else {
      // A pipe or device named explicitly (`<(kubectl logs ...)`): opening it to test would
      // consume the writer, so it is passed on as is.
      out.inputs.push_back({arg, arg});
    }
  }
  return out;
}

}  // namespace ncclscope
