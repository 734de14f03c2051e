// ReadWholeFile: a small text file (a tool's output) read into memory in one go.
#ifndef NCCLSCOPE_BASE_WHOLE_FILE_H_
#define NCCLSCOPE_BASE_WHOLE_FILE_H_

#include <string>

#include "ncclscope/base/status.h"

namespace ncclscope {

/// Reads all of `path` ("-" = stdin) into *out. NotFound/IoError name the path.
Status ReadWholeFile(const std::string& path, std::string* out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_WHOLE_FILE_H_
