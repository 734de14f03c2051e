// TopoMatrix: the connection matrix printed by `nvidia-smi topo -m`, and its reader.
#ifndef NCCLSCOPE_TOPO_TOPO_MATRIX_H_
#define NCCLSCOPE_TOPO_TOPO_MATRIX_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/base/status.h"

namespace ncclscope {

/// Kind of a connection between two devices, from best to worst.
enum class TopoPathKind : unsigned char {
  kSelf,    ///< "X": the device itself.
  kNvlink,  ///< "NV#": a bonded set of # NVLinks.
  kPix,     ///< At most one PCIe bridge.
  kPxb,     ///< Several PCIe bridges, no host bridge.
  kPhb,     ///< Through a PCIe host bridge (the CPU).
  kNode,    ///< Across PCIe host bridges within one NUMA node.
  kSys,     ///< Across NUMA nodes (SMP interconnect: QPI/UPI/xGMI). "SOC" in old drivers.
};

/// One cell of the matrix.
struct TopoPath {
  TopoPathKind kind = TopoPathKind::kSys;
  int nvlinks = 0;   ///< Number of bonded NVLinks for kNvlink, else 0.
  std::string text;  ///< The cell as printed: "NV18", "PIX", "SOC", ...
};

/// Parses one matrix cell ("X", "NV12", "PIX", ..., "SOC"); nullopt if it is none of these.
std::optional<TopoPath> ParseTopoPath(std::string_view cell);
/// One-line meaning of a path kind, e.g. "NVLink" or "one PCIe switch".
std::string_view PathMeaning(TopoPathKind kind);
/// Meaning of a printed cell such as "NV18" or "NODE"; "unknown path" when unrecognized.
std::string_view PathMeaning(std::string_view cell);
/// Rank of a path: lower is closer/faster (X=0, NV#=1, PIX=2, PXB=3, PHB=4, NODE=5, SYS=6).
int PathRank(TopoPathKind kind);
/// Canonical short name of a kind: "X", "NV#", "PIX", "PXB", "PHB", "NODE", "SYS".
std::string_view PathKindName(TopoPathKind kind);

/// A row/column of the matrix: a GPU or a NIC.
struct TopoDevice {
  std::string label;  ///< As in the header: "GPU0", "NIC1", or an old-style "mlx5_0".
  bool is_gpu = false;
  std::string nic_name;       ///< For NICs, the legend name ("mlx5_0"), or the label if it is one.
  std::string cpu_affinity;   ///< "0-23,48-71"; empty when absent.
  std::string numa_affinity;  ///< "0"; empty when absent.
  std::string gpu_numa_id;    ///< "N/A" usually; empty when absent.
};

/// The whole matrix. paths[i][j] is the connection between devices[i] and devices[j].
struct TopoMatrix {
  std::vector<TopoDevice> devices;
  std::vector<std::vector<TopoPath>> paths;

  /// Number of GPU devices.
  int GpuCount() const;
  /// Number of NIC devices.
  int NicCount() const;
  /// Index into devices of GPU number n (the n-th GPU), or -1.
  int GpuIndex(int gpu) const;
  /// Indices into devices of all NICs, in order.
  std::vector<int> NicIndices() const;
  /// Path between GPU a and GPU b (GPU numbers, not device indices); nullptr if out of range.
  const TopoPath* GpuPath(int gpu_a, int gpu_b) const;
  /// True if GPUs a and b are connected by NVLink.
  bool HasNvlink(int gpu_a, int gpu_b) const;
  /// Number of bonded NVLinks between GPUs a and b; nullopt if not NVLink or out of range.
  std::optional<int> NvlinkCount(int gpu_a, int gpu_b) const;
  /// Printed path string between GPUs a and b ("NV18", "NODE"); empty if out of range.
  std::string PathString(int gpu_a, int gpu_b) const;
};

/// Parses the text of `nvidia-smi topo -m`. Tolerates ANSI escape codes, tabs or spaces,
/// a leading "# nvidia-smi topo -m" comment, the legend, and missing NIC rows. Returns
/// InvalidInput naming the problem (no header, bad cell, row width) on anything else.
Status ParseTopoMatrix(std::string_view text, TopoMatrix* out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_TOPO_TOPO_MATRIX_H_
