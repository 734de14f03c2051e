// TorchrunLogDirFile: what the path of a file written by `torchrun --log-dir DIR --redirects` (or
// `--tee`) says of its lines: DIR/<run id>/attempt_<N>/<local rank>/{stdout,stderr}.log (and
// error.json). Every line of such a file is the worker with that local rank, in restart attempt N
// of the worker group.
#ifndef NCCLSCOPE_SRC_MODEL_TORCHRUN_LOG_DIR_H_
#define NCCLSCOPE_SRC_MODEL_TORCHRUN_LOG_DIR_H_

#include <string_view>

namespace ncclscope {

struct TorchrunLogDirFile {
  int attempt = -1;  ///< -1: the path is not such a file.
  int local_rank = -1;
};

/// The attempt and local rank of `path` when it is `.../attempt_N/R/<file>`, else {-1, -1}.
TorchrunLogDirFile ParseTorchrunLogDirPath(std::string_view path);

}  // namespace ncclscope

#endif  // NCCLSCOPE_SRC_MODEL_TORCHRUN_LOG_DIR_H_
