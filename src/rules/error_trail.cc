#include "ncclscope/rules/error_trail.h"

#include <algorithm>
#include <set>
#include <utility>

#include "rule_util.h"

namespace ncclscope {
namespace {

/// Case-sensitive substring test: NCCL's file names are lower case in every version.
bool PathHas(std::string_view location, std::string_view part) {
  return location.find(part) != std::string_view::npos;
}

/// The file name of "external/nccl_archive/src/transport/net.cc:515" → "net.cc".
std::string_view FileName(std::string_view location) {
  location = location.substr(0, location.rfind(':'));
  const size_t slash = location.rfind('/');
  return slash == std::string_view::npos ? location : location.substr(slash + 1);
}

}  // namespace

std::string_view NcclResultName(int code) {
  static constexpr std::string_view kNames[] = {
      "ncclSuccess",         "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
      "ncclInvalidArgument", "ncclInvalidUsage",       "ncclRemoteError", "ncclInProgress"};
  return code >= 0 && code < static_cast<int>(std::size(kNames)) ? kNames[code]
                                                                 : std::string_view();
}

std::string_view NcclResultMeaning(int code) {
  switch (code) {
    case 0:
      return "success";
    case 1:
      return "a CUDA call failed";
    case 2:
      return "a system call or an external library failed, such as a socket, the network "
             "plugin, verbs, memory or a file";
    case 3:
      return "NCCL's own consistency check failed (often after an earlier failure)";
    case 4:
      return "an NCCL call got an invalid argument";
    case 5:
      return "NCCL was used wrongly (ranks disagree, a communicator used after an error)";
    case 6:
      return "a remote process exited or the network between them failed";
    case 7:
      return "a non-blocking call is still in progress";
    default:
      return {};
  }
}

bool IsFailureCode(int code) { return code >= 1 && code <= 6; }

std::string_view TrailAreaName(TrailArea area) {
  switch (area) {
    case TrailArea::kNetwork:
      return "network";
    case TrailArea::kInfiniBand:
      return "InfiniBand";
    case TrailArea::kCuda:
      return "CUDA";
    case TrailArea::kShm:
      return "shared memory";
    case TrailArea::kNccl:
      return "NCCL";
  }
  return "NCCL";
}

TrailArea AreaOfTrail(std::string_view location, int code) {
  if (code == 1) return TrailArea::kCuda;
  const std::string_view file = FileName(location);
  if (PathHas(file, "net_ib") || PathHas(file, "ibvwrap") || PathHas(file, "ibvcore") ||
      PathHas(file, "ibvsymbols") || PathHas(file, "ib_plugin") || PathHas(location, "net_ib/")) {
    return TrailArea::kInfiniBand;
  }
  // The net transport and its plugin interface (include/net.h, transport/net.cc and its .cu
  // spelling before 2.9), sockets, the bootstrap and the proxy that runs network operations.
  if (file == "net.h" || file == "net.cc" || file == "net.cu" || PathHas(file, "socket") ||
      PathHas(file, "bootstrap") || PathHas(file, "proxy") || PathHas(file, "net_v") ||
      PathHas(location, "plugin/net")) {
    return TrailArea::kNetwork;
  }
  if (code == 6) return TrailArea::kNetwork;
  if (PathHas(file, "shm")) return TrailArea::kShm;
  if (PathHas(file, "cudawrap") || PathHas(file, "cuda")) return TrailArea::kCuda;
  return TrailArea::kNccl;
}

std::string_view NetPluginOfTrail(std::string_view location) {
  const std::string_view file = FileName(location);
  if (PathHas(file, "ucx_plugin") || PathHas(file, "ucx_rma_plugin") ||
      PathHas(file, "ucx_uct_plugin")) {
    return "the UCX net plugin (nccl-rdma-sharp-plugins, HPC-X)";
  }
  if (PathHas(file, "sharp_plugin")) return "the SHARP CollNet plugin (nccl-rdma-sharp-plugins)";
  if (PathHas(file, "nccl_ofi")) return "aws-ofi-nccl";
  if (PathHas(file, "tcpx") || PathHas(file, "fastsocket")) return "GCP's TCPX/FastSocket plugin";
  return {};
}

namespace {

/// A set of (source, line) positions: filled, sealed (sorted) once, then searched.
class LineSet {
 public:
  void Add(uint32_t source, uint64_t line) { lines_.emplace_back(source, line); }
  void Seal() { std::sort(lines_.begin(), lines_.end()); }
  bool Has(uint32_t source, uint64_t line) const {
    return std::binary_search(lines_.begin(), lines_.end(), std::make_pair(source, line));
  }

 private:
  std::vector<std::pair<uint32_t, uint64_t>> lines_;
};

}  // namespace

bool IsProxyOperationReport(std::string_view m) {
  return (m.starts_with("[Proxy Service ") &&
          m.find("Failed to execute operation") != std::string_view::npos) ||
         (m.starts_with("Proxy Call to rank ") && m.find(" failed") != std::string_view::npos) ||
         m.starts_with("[Service thread] Error encountered progressing operation");
}

std::vector<const ErrorTrailRecord*> SilentFailingTrails(const Job& job) {
  if (job.error_trails.empty()) return {};
  LineSet trail_lines, warn_lines, moved_on, switched_off;
  for (const ErrorTrailRecord& t : job.error_trails) {
    trail_lines.Add(t.evidence.source, t.evidence.line);
  }
  for (const WarnRecord& w : job.warnings) {
    if (IsProxyOperationReport(w.message)) continue;  // says that it failed, not why
    for (const Evidence& e : w.evidence) warn_lines.Add(e.source, e.line);
  }
  // Lines that say NCCL went on without what failed: "Failed to initialize NET plugin IB" (IB
  // disabled or absent), "Initialized NET plugin Socket", "Using network Socket".
  for (const Process& p : job.processes) {
    for (const PluginNote& n : p.plugins) moved_on.Add(n.evidence.source, n.evidence.line);
    if (!p.network_evidence.text.empty()) {
      moved_on.Add(p.network_evidence.source, p.network_evidence.line);
    }
    // "NCCL_IBEXT_DISABLE set by environment to 1." then `net.cc:55 -> 3`: the plugin (or
    // transport) was told to stay off, and its init says so with a code.
    for (const auto& [name, setting] : p.env) {
      if (name.ends_with("_DISABLE") && rules_internal::IsTruthy(setting.value) &&
          setting.evidence.line > 0) {
        switched_off.Add(setting.evidence.source, setting.evidence.line);
      }
    }
  }
  trail_lines.Seal();
  warn_lines.Seal();
  moved_on.Seal();
  switched_off.Seal();
  auto explained = [&](const ErrorTrailRecord& t) {
    const uint32_t source = t.evidence.source;
    uint64_t start = t.evidence.line;
    while (start > 1 && trail_lines.Has(source, start - 1)) --start;
    if (start > 1 && warn_lines.Has(source, start - 1)) return true;
    if (start > 1 && switched_off.Has(source, start - 1)) return true;
    uint64_t end = t.evidence.line;
    while (trail_lines.Has(source, end + 1)) ++end;
    if (moved_on.Has(source, end + 1)) return true;  // a probe NCCL recovered from
    // A warning of this process whose later occurrences were not kept (records keep the first
    // few): it may be the one before this chain.
    for (const WarnRecord& w : job.warnings) {
      if (w.processes.count(t.process) && w.count > w.evidence.size() && !w.evidence.empty() &&
          w.evidence.front().source == source && w.evidence.front().line < t.evidence.line) {
        return true;
      }
    }
    return false;
  };
  std::vector<const ErrorTrailRecord*> out;
  std::set<int> done;
  for (const ErrorTrailRecord& t : job.error_trails) {
    if (!IsFailureCode(t.code) || done.count(t.process) || explained(t)) continue;
    done.insert(t.process);
    out.push_back(&t);
  }
  return out;
}

}  // namespace ncclscope
