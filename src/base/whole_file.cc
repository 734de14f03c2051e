#include "ncclscope/base/whole_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ncclscope {

Status ReadWholeFile(const std::string& path, std::string* out) {
  out->clear();
  std::ostringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
    *out = ss.str();
    return Status::Ok();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    int err = errno;
    std::string msg = path + ": " + (err != 0 ? std::strerror(err) : "cannot open");
    return err == ENOENT ? Status::NotFound(msg) : Status::IoError(msg);
  }
  ss << in.rdbuf();
  if (in.bad()) return Status::IoError(path + ": read error");
  *out = ss.str();
  return Status::Ok();
}

}  // namespace ncclscope
