// TransportClass: what a peer link really runs over, the unit every report and rule speaks in.
#ifndef NCCLSCOPE_MODEL_TRANSPORT_CLASS_H_
#define NCCLSCOPE_MODEL_TRANSPORT_CLASS_H_

#include <optional>
#include <string_view>

namespace ncclscope {

enum class TransportClass : unsigned char {
  kNVL,        ///< P2P over NVLink/NVSwitch (proven by GRAPH lines, --topo, or NCCL_P2P_LEVEL=NVL).
  kP2P,        ///< P2P over PCIe, or P2P whose path is not established.
  kSHM,        ///< Host shared memory.
  kNetSocket,  ///< NET/Socket: TCP.
  kNetIB,      ///< NET/IB (InfiniBand/RoCE verbs, incl. IBext plugins).
  kNetLibfabric,  ///< aws-ofi-nccl / EFA ("Libfabric", "AWS Libfabric", "OFI").
  kNetOther,      ///< Any other net plugin.
  kCollNet,       ///< COLLNET (SHARP, ...).
  kNVLS,          ///< NVLink SHARP.
  kUnknown,
};

/// Stable names used in JSON and text: "NVL", "P2P", "SHM", "NET/Socket", "NET/IB",
/// "NET/Libfabric", "NET/other", "CollNet", "NVLS", "unknown".
std::string_view TransportClassName(TransportClass c);
/// Inverse of TransportClassName (case-insensitive); nullopt for an unknown name.
std::optional<TransportClass> ParseTransportClass(std::string_view name);
/// Bandwidth rank: higher is faster. The slowest class on a ring sets its pace.
int TransportClassSpeedRank(TransportClass c);
/// Indicative per-direction bandwidth range in GB/s per GPU, for reports and docs.
struct BandwidthRange {
  double low_gbps;
  double high_gbps;
};
BandwidthRange IndicativeBandwidth(TransportClass c);
/// True for the NET/* classes.
bool IsNetClass(TransportClass c);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_TRANSPORT_CLASS_H_
