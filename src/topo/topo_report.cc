#include "ncclscope/topo/topo_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <nlohmann/json.hpp>

#include "ncclscope/base/whole_file.h"

namespace ncclscope {
namespace {

std::string PairList(const std::vector<std::pair<int, int>>& pairs) {
  std::string s;
  for (const auto& [a, b] : pairs) {
    if (!s.empty()) s += ' ';
    s += fmt::format("{}-{}", a, b);
  }
  return s;
}

std::string NicDisplayName(const TopoDevice& d) {
  if (d.nic_name.empty() || d.nic_name == d.label) return d.label;
  return fmt::format("{} ({})", d.label, d.nic_name);
}

std::string GroupMeaning(const TopoPairGroup& g) {
  if (g.kind == TopoPathKind::kNvlink) {
    std::optional<TopoPath> p = ParseTopoPath(g.path);
    return fmt::format("NVLink, {} bonded links", p ? p->nvlinks : 0);
  }
  return std::string(PathMeaning(g.kind));
}

}  // namespace

TransportClass DefaultNcclTransport(TopoPathKind kind) {
  switch (kind) {
    case TopoPathKind::kNvlink:
      return TransportClass::kNVL;
    case TopoPathKind::kPix:
    case TopoPathKind::kPxb:
      return TransportClass::kP2P;
    case TopoPathKind::kPhb:
    case TopoPathKind::kNode:
    case TopoPathKind::kSys:
      return TransportClass::kSHM;
    case TopoPathKind::kSelf:
      break;
  }
  return TransportClass::kUnknown;
}

TopoSummary SummarizeTopo(const TopoMatrix& m) {
  TopoSummary s;
  s.gpus = m.GpuCount();
  s.nics = m.NicCount();
  for (int a = 0; a < s.gpus; ++a) {
    for (int b = a + 1; b < s.gpus; ++b) {
      const TopoPath* p = m.GpuPath(a, b);
      auto it = std::find_if(s.groups.begin(), s.groups.end(),
                             [&](const TopoPairGroup& g) { return g.path == p->text; });
      if (it == s.groups.end()) {
        s.groups.push_back(TopoPairGroup{p->text, p->kind, {}});
        it = s.groups.end() - 1;
      }
      it->pairs.emplace_back(a, b);
      if (p->kind != TopoPathKind::kNvlink) s.pcie_only_pairs.emplace_back(a, b);
    }
  }
  // Best first: path rank, then more NVLinks first.
  std::sort(s.groups.begin(), s.groups.end(), [](const TopoPairGroup& x, const TopoPairGroup& y) {
    if (x.kind != y.kind) return PathRank(x.kind) < PathRank(y.kind);
    std::optional<TopoPath> px = ParseTopoPath(x.path);
    std::optional<TopoPath> py = ParseTopoPath(y.path);
    return (px ? px->nvlinks : 0) > (py ? py->nvlinks : 0);
  });
  s.nvlink_all_pairs = s.gpus >= 2 && s.pcie_only_pairs.empty();

  std::vector<int> nics = m.NicIndices();
  if (!nics.empty()) {
    for (int g = 0; g < s.gpus; ++g) {
      int gi = m.GpuIndex(g);
      GpuNicAffinity aff;
      aff.gpu = g;
      int best = INT_MAX;
      for (int ni : nics) {
        const TopoPath& p = m.paths[gi][ni];
        if (p.text.empty()) continue;
        int rank = PathRank(p.kind);
        if (rank < best) {
          best = rank;
          aff.nic_indices.clear();
          aff.path = p.text;
        }
        if (rank == best) aff.nic_indices.push_back(ni);
      }
      s.nic_affinity.push_back(std::move(aff));
    }
  }
  return s;
}

void RenderTopoText(const TopoMatrix& m, const std::string& source, std::ostream& out) {
  TopoSummary s = SummarizeTopo(m);
  out << fmt::format("nvidia-smi topo -m: {}\n", source);
  out << fmt::format("{} GPU{}, {} NIC{}\n\n", s.gpus, s.gpus == 1 ? "" : "s", s.nics,
                     s.nics == 1 ? "" : "s");
  if (!s.groups.empty()) {
    out << "GPU pairs by path (best first):\n";
    for (const TopoPairGroup& g : s.groups) {
      out << fmt::format("  {:<5} {:<44} NCCL default {:<4} {:>3} pair{}: {}\n", g.path,
                         GroupMeaning(g), TransportClassName(DefaultNcclTransport(g.kind)),
                         g.pairs.size(), g.pairs.size() == 1 ? "" : "s", PairList(g.pairs));
    }
    out << "\n";
  }
  if (s.gpus < 2) {
    out << "P2P over NVLink: not applicable (fewer than 2 GPUs).\n";
  } else if (s.nvlink_all_pairs) {
    out << "P2P over NVLink: possible between every GPU pair.\n";
  } else if (s.pcie_only_pairs.size() == static_cast<size_t>(s.gpus * (s.gpus - 1) / 2)) {
    out << "P2P over NVLink: not possible, no GPU pair has NVLink (PCIe only); NCCL uses P2P "
           "over PCIe for PIX/PXB pairs and SHM from PHB on (NCCL_P2P_LEVEL default PXB).\n";
  } else {
    out << fmt::format("P2P over NVLink: not possible for {} GPU pair(s), PCIe only: {}\n",
                       s.pcie_only_pairs.size(), PairList(s.pcie_only_pairs));
  }
  out << "\nCPU / NUMA affinity:\n";
  for (int g = 0; g < s.gpus; ++g) {
    const TopoDevice& d = m.devices[m.GpuIndex(g)];
    out << fmt::format("  {:<5} CPUs {:<16} NUMA node {:<4} GPU NUMA ID {}\n", d.label,
                       d.cpu_affinity.empty() ? "-" : d.cpu_affinity,
                       d.numa_affinity.empty() ? "-" : d.numa_affinity,
                       d.gpu_numa_id.empty() ? "-" : d.gpu_numa_id);
  }
  out << "\nNIC affinity (nearest NICs per GPU):\n";
  if (s.nic_affinity.empty()) {
    out << "  no NICs in the matrix\n";
  }
  for (const GpuNicAffinity& a : s.nic_affinity) {
    std::string nics;
    for (int ni : a.nic_indices) {
      if (!nics.empty()) nics += ", ";
      nics += NicDisplayName(m.devices[ni]);
    }
    out << fmt::format("  GPU{:<3} {} via {} ({})\n", a.gpu, nics.empty() ? "-" : nics,
                       a.path.empty() ? "?" : a.path, PathMeaning(a.path));
  }
}

void RenderTopoJson(const TopoMatrix& m, const std::string& source, std::ostream& out) {
  using nlohmann::json;
  TopoSummary s = SummarizeTopo(m);
  auto pairs_json = [](const std::vector<std::pair<int, int>>& pairs) {
    json arr = json::array();
    for (const auto& [a, b] : pairs) arr.push_back(json::array({a, b}));
    return arr;
  };
  json j;
  j["source"] = source;
  j["gpus"] = json::array();
  j["nics"] = json::array();
  for (const TopoDevice& d : m.devices) {
    if (d.is_gpu) {
      j["gpus"].push_back({{"label", d.label},
                           {"cpu_affinity", d.cpu_affinity},
                           {"numa_affinity", d.numa_affinity},
                           {"gpu_numa_id", d.gpu_numa_id}});
    } else {
      j["nics"].push_back({{"label", d.label}, {"name", d.nic_name}});
    }
  }
  j["pair_groups"] = json::array();
  for (const TopoPairGroup& g : s.groups) {
    j["pair_groups"].push_back(
        {{"path", g.path},
         {"kind", std::string(PathKindName(g.kind))},
         {"meaning", GroupMeaning(g)},
         {"nccl_default_transport", std::string(TransportClassName(DefaultNcclTransport(g.kind)))},
         {"pairs", pairs_json(g.pairs)}});
  }
  j["nvlink_all_pairs"] = s.nvlink_all_pairs;
  j["pcie_only_pairs"] = pairs_json(s.pcie_only_pairs);
  j["nic_affinity"] = json::array();
  for (const GpuNicAffinity& a : s.nic_affinity) {
    json nics = json::array();
    for (int ni : a.nic_indices) nics.push_back(m.devices[ni].label);
    j["nic_affinity"].push_back({{"gpu", a.gpu}, {"path", a.path}, {"nearest_nics", nics}});
  }
  json labels = json::array();
  json rows = json::array();
  for (size_t r = 0; r < m.devices.size(); ++r) {
    labels.push_back(m.devices[r].label);
    json row = json::array();
    for (const TopoPath& p : m.paths[r]) row.push_back(p.text);
    rows.push_back(std::move(row));
  }
  j["matrix"] = {{"labels", labels}, {"paths", rows}};
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

Status RunTopoCommand(const TopoCommandOptions& opts, std::ostream& out) {
  if (opts.format != "text" && opts.format != "json") {
    return Status::Usage(fmt::format("unknown format '{}' (expected text or json)", opts.format));
  }
  std::string text;
  Status st = ReadWholeFile(opts.path, &text);
  if (!st.ok()) return st;
  TopoMatrix m;
  st = ParseTopoMatrix(text, &m);
  if (!st.ok()) return Status::InvalidInput(opts.path + ": " + st.message());
  if (opts.format == "json") {
    RenderTopoJson(m, opts.path, out);
  } else {
    RenderTopoText(m, opts.path, out);
  }
  return Status::Ok();
}

}  // namespace ncclscope
