// Loads an `nvidia-smi topo -m` file into the GPU-pair paths the link classifier uses.
#ifndef NCCLSCOPE_ANALYSIS_TOPO_PATHS_H_
#define NCCLSCOPE_ANALYSIS_TOPO_PATHS_H_

#include <string>

#include "ncclscope/base/status.h"
#include "ncclscope/model/job_builder.h"

namespace ncclscope {

/// Reads and parses the matrix; a clear Status naming the file when it cannot.
Status LoadTopoPaths(const std::string& path, TopoPaths* out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_TOPO_PATHS_H_
