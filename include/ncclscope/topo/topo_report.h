// Topology report: what `ncclscope topo FILE [--format json]` prints about a TopoMatrix.
#ifndef NCCLSCOPE_TOPO_TOPO_REPORT_H_
#define NCCLSCOPE_TOPO_TOPO_REPORT_H_

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ncclscope/base/status.h"
#include "ncclscope/model/transport_class.h"
#include "ncclscope/topo/topo_matrix.h"

namespace ncclscope {

/// GPU pairs (GPU numbers, a < b) that share one printed path such as "NV18" or "NODE".
struct TopoPairGroup {
  std::string path;
  TopoPathKind kind = TopoPathKind::kSys;
  std::vector<std::pair<int, int>> pairs;
};

/// The NICs closest to one GPU (all NICs that share the best path rank).
struct GpuNicAffinity {
  int gpu = 0;
  std::string path;              ///< Best path from this GPU to a NIC, e.g. "PIX".
  std::vector<int> nic_indices;  ///< Indices into TopoMatrix::devices.
};

/// What the report says, computed once for both renderings.
struct TopoSummary {
  int gpus = 0;
  int nics = 0;
  std::vector<TopoPairGroup> groups;  ///< Best path first.
  bool nvlink_all_pairs = false;      ///< Every GPU pair has NVLink (false with fewer than 2 GPUs).
  std::vector<std::pair<int, int>> pcie_only_pairs;  ///< GPU pairs without NVLink.
  std::vector<GpuNicAffinity> nic_affinity;          ///< One per GPU when the matrix has NICs.
};

/// Transport NCCL picks by default between two GPUs on this path: NVL for NV#, P2P for PIX/PXB,
/// SHM from PHB on (NCCL's default NCCL_P2P_LEVEL is PXB; AMD hosts with 2 GPUs differ).
TransportClass DefaultNcclTransport(TopoPathKind kind);
/// Computes the summary of a parsed matrix.
TopoSummary SummarizeTopo(const TopoMatrix& m);
/// Human-readable report; `source` names the input file in the first line.
void RenderTopoText(const TopoMatrix& m, const std::string& source, std::ostream& out);
/// JSON report (one object, keys: source, gpus, nics, pair_groups, nvlink_all_pairs,
/// pcie_only_pairs, nic_affinity, matrix).
void RenderTopoJson(const TopoMatrix& m, const std::string& source, std::ostream& out);

/// Options of `ncclscope topo`.
struct TopoCommandOptions {
  std::string path;             ///< `nvidia-smi topo -m` output file, "-" for stdin.
  std::string format = "text";  ///< "text" or "json".
};

/// Reads, parses and renders one file. Usage error for an unknown format; the parse error
/// (prefixed with the path) for input that is not a topology matrix.
Status RunTopoCommand(const TopoCommandOptions& opts, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_TOPO_TOPO_REPORT_H_
