#include "ncclscope/analysis/topo_paths.h"

#include <fstream>
#include <sstream>

#include "ncclscope/topo/topo_matrix.h"

namespace ncclscope {

Status LoadTopoPaths(const std::string& path, TopoPaths* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(path + ": cannot open topology file");
  std::ostringstream ss;
  ss << in.rdbuf();
  TopoMatrix m;
  Status s = ParseTopoMatrix(ss.str(), &m);
  if (!s.ok()) return Status::InvalidInput(path + ": " + s.message());
  out->name = path;
  const int n = m.GpuCount();
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) out->pairs[{a, b}] = m.PathString(a, b);
  }
  if (out->pairs.empty() && n < 2)
    return Status::InvalidInput(path + ": topology matrix has fewer than two GPUs");
  return Status::Ok();
}

}  // namespace ncclscope
