#include "ncclscope/model/transport_class.h"

#include <array>

#include "ncclscope/base/ascii.h"

namespace ncclscope {
namespace {

struct ClassInfo {
  TransportClass cls;
  std::string_view name;
  int speed_rank;
  BandwidthRange bw;  // GB/s per direction per GPU, indicative
};

// Ranges: NVLink 4 (H100/H200) ~450 GB/s per direction per GPU, NVLink 3 ~300; PCIe Gen4/Gen5
// x16 ~25/50 GB/s; host shared memory is bounded by PCIe plus a host copy; EFA 100-400 Gbit/s per
// NIC (12-50 GB/s), up to 3200 Gbit/s per p5 node; InfiniBand NDR 400 Gbit/s per NIC; TCP sockets
// a few GB/s at best.
constexpr std::array<ClassInfo, 10> kClasses = {{
    {TransportClass::kNVL, "NVL", 9, {150, 450}},
    {TransportClass::kNVLS, "NVLS", 9, {150, 450}},
    {TransportClass::kP2P, "P2P", 6, {12, 50}},
    {TransportClass::kCollNet, "CollNet", 5, {12, 50}},
    {TransportClass::kNetIB, "NET/IB", 5, {12, 50}},
    {TransportClass::kNetLibfabric, "NET/Libfabric", 5, {12, 50}},
    {TransportClass::kSHM, "SHM", 4, {5, 20}},
    {TransportClass::kNetOther, "NET/other", 3, {1, 50}},
    {TransportClass::kNetSocket, "NET/Socket", 1, {0.5, 5}},
    {TransportClass::kUnknown, "unknown", 0, {0, 0}},
}};

const ClassInfo& Info(TransportClass c) {
  for (const auto& info : kClasses) {
    if (info.cls == c) return info;
  }
  return kClasses.back();
}

using ascii::EqualsNoCase;

}  // namespace

std::string_view TransportClassName(TransportClass c) { return Info(c).name; }

std::optional<TransportClass> ParseTransportClass(std::string_view name) {
  for (const auto& info : kClasses) {
    if (EqualsNoCase(info.name, name)) return info.cls;
  }
  if (EqualsNoCase(name, "NVLink")) return TransportClass::kNVL;
  if (EqualsNoCase(name, "Socket") || EqualsNoCase(name, "TCP")) return TransportClass::kNetSocket;
  if (EqualsNoCase(name, "IB")) return TransportClass::kNetIB;
  if (EqualsNoCase(name, "EFA") || EqualsNoCase(name, "Libfabric") || EqualsNoCase(name, "OFI"))
    return TransportClass::kNetLibfabric;
  return std::nullopt;
}

int TransportClassSpeedRank(TransportClass c) { return Info(c).speed_rank; }

BandwidthRange IndicativeBandwidth(TransportClass c) { return Info(c).bw; }

bool IsNetClass(TransportClass c) {
  return c == TransportClass::kNetSocket || c == TransportClass::kNetIB ||
         c == TransportClass::kNetLibfabric || c == TransportClass::kNetOther;
}

}  // namespace ncclscope
