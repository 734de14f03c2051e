#include "ncclscope/model/classify.h"

#include "ncclscope/base/ascii.h"

namespace ncclscope {

TransportClass ClassifyNetName(std::string_view net) {
  if (net == "Socket") return TransportClass::kNetSocket;
  // "IB", and IB-based external plugins such as "IBext", "IBext_v8".
  if (net == "IB" || net.starts_with("IBext") || net.starts_with("IB_"))
    return TransportClass::kNetIB;
  if (ascii::ContainsNoCase(net, "Libfabric") || ascii::ContainsNoCase(net, "OFI") ||
      ascii::ContainsNoCase(net, "EFA"))
    return TransportClass::kNetLibfabric;
  if (net.empty()) return TransportClass::kUnknown;
  return TransportClass::kNetOther;
}

TransportClass ClassifyTransport(const TransportSpec& spec) {
  switch (spec.type) {
    case TransportType::kP2P:
      return TransportClass::kP2P;
    case TransportType::kSHM:
      return TransportClass::kSHM;
    case TransportType::kNET:
      return ClassifyNetName(spec.net);
    case TransportType::kCOLLNET:
      return TransportClass::kCollNet;
    case TransportType::kOther:
      break;
  }
  return TransportClass::kUnknown;
}

}  // namespace ncclscope
