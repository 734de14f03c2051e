#include "ncclscope/report/class_style.h"

#include <algorithm>

namespace ncclscope {

std::string_view ClassColor(TransportClass c) {
  switch (c) {
    case TransportClass::kNVLS:
      return "#1b5e20";
    case TransportClass::kNVL:
      return "#2e7d32";
    case TransportClass::kP2P:
      return "#1565c0";
    case TransportClass::kSHM:
      return "#ef6c00";
    case TransportClass::kNetIB:
      return "#00838f";
    case TransportClass::kNetLibfabric:
      return "#6a1b9a";
    case TransportClass::kCollNet:
      return "#0277bd";
    case TransportClass::kNetSocket:
      return "#c62828";
    case TransportClass::kNetOther:
      return "#6d4c41";
    case TransportClass::kUnknown:
      break;
  }
  return "#757575";
}

std::vector<TransportClass> AllTransportClasses() {
  std::vector<TransportClass> all = {TransportClass::kNVL,      TransportClass::kNVLS,
                                     TransportClass::kP2P,      TransportClass::kSHM,
                                     TransportClass::kNetIB,    TransportClass::kNetLibfabric,
                                     TransportClass::kCollNet,  TransportClass::kNetSocket,
                                     TransportClass::kNetOther, TransportClass::kUnknown};
  std::stable_sort(all.begin(), all.end(), [](TransportClass a, TransportClass b) {
    return TransportClassSpeedRank(a) > TransportClassSpeedRank(b);
  });
  return all;
}

TransportClass SlowerClass(TransportClass a, TransportClass b) {
  return TransportClassSpeedRank(b) < TransportClassSpeedRank(a) ? b : a;
}

}  // namespace ncclscope
