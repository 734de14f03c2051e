// JobBuilder::Finish: physical hosts, intra-node flags, P2P path evidence, final classes.
#include <algorithm>
#include <numeric>

#include "builder_state.h"

namespace ncclscope {
namespace {

int Find(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

bool IsLoopback(std::string_view addr) {
  return addr.empty() || addr.starts_with("127.") || addr == "::1";
}

/// Processes sharing a hostname, or a (non-loopback) bootstrap address, share a physical host.
void GroupHosts(Job* job) {
  const int n = static_cast<int>(job->processes.size());
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  std::map<std::string, int> by_name, by_addr;
  for (int i = 0; i < n; ++i) {
    const Process& p = job->processes[i];
    auto [it, fresh] = by_name.emplace(p.hostname, i);
    if (!fresh) parent[Find(parent, i)] = Find(parent, it->second);
    if (!IsLoopback(p.bootstrap_addr)) {
      auto [at, afresh] = by_addr.emplace(p.bootstrap_addr, i);
      if (!afresh) parent[Find(parent, i)] = Find(parent, at->second);
    }
  }
  std::map<int, int> host_of_root;
  for (int i = 0; i < n; ++i) {
    int root = Find(parent, i);
    auto [it, fresh] = host_of_root.emplace(root, static_cast<int>(job->hosts.size()));
    if (fresh) {
      Host h;
      h.name = job->processes[root].hostname;
      h.address = job->processes[root].bootstrap_addr;
      job->hosts.push_back(std::move(h));
    }
    Host& h = job->hosts[it->second];
    h.processes.push_back(i);
    h.nodes.insert(job->processes[i].node);
    if (h.address.empty()) h.address = job->processes[i].bootstrap_addr;
    job->processes[i].host = it->second;
  }
}

/// Process printing/owning rank `rank` of the link's communicator, or -1.
int OwnerOf(const Job& job, const JobBuilder::State& st, const Link& l, int rank) {
  if (l.comm >= 0) {
    const auto& ranks = job.comms[l.comm].ranks;
    auto it = ranks.find(rank);
    return it == ranks.end() ? -1 : it->second.process;
  }
  auto it = st.unknown_rank_owner.find(rank);
  return it == st.unknown_rank_owner.end() ? -1 : it->second;
}

const CommRank* RankOf(const Job& job, const Link& l, int rank) {
  if (l.comm < 0) return nullptr;
  const auto& ranks = job.comms[l.comm].ranks;
  auto it = ranks.find(rank);
  return it == ranks.end() ? nullptr : &it->second;
}

/// busId as GRAPH prints it: lower-case hex without leading zeros ("60", "1b000").
std::string NormalizeBusId(std::string bus) {
  for (char& c : bus) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t nz = bus.find_first_not_of('0');
  return nz == std::string::npos ? "0" : bus.substr(nz);
}

bool IsNvlinkEntry(std::string_view entry) { return entry.starts_with("NV"); }

/// Path between the link's two GPUs from the GRAPH path lines of the log (by PCI bus id).
P2pPath GraphPathLookup(const Job& job, const JobBuilder::State& st, const Link& l,
                        std::string* evidence) {
  if (l.reporter < 0) return P2pPath::kUnknown;
  const Process& reporter = job.processes[l.reporter];
  const CommRank* a = RankOf(job, l, l.src);
  const CommRank* b = RankOf(job, l, l.dst);
  auto host_it = st.graph_paths.find(reporter.hostname);
  std::string bus_a = a ? a->bus_id : "", bus_b = b ? b->bus_id : "";
  // 2.5-2.18 connection lines carry the bus id in brackets.
  if (bus_a.empty() && l.src_dev.size() > 2) bus_a = l.src_dev;
  if (bus_b.empty() && l.dst_dev.size() > 2) bus_b = l.dst_dev;
  if (host_it == st.graph_paths.end() || bus_a.empty() || bus_b.empty()) return P2pPath::kUnknown;
  // Not std::minmax: it returns references to the temporaries.
  std::string na = NormalizeBusId(bus_a), nb = NormalizeBusId(bus_b);
  if (nb < na) std::swap(na, nb);
  auto pit = host_it->second.find({na, nb});
  if (pit == host_it->second.end()) return P2pPath::kUnknown;
  const std::string& v = pit->second;
  *evidence = "GRAPH path GPU " + bus_a + " -> GPU " + bus_b + " (" + v + ")";
  return v.ends_with("/NVL") || v.ends_with("/NVB") ? P2pPath::kNvlink : P2pPath::kPcie;
}

/// Path between the link's two GPUs from the `nvidia-smi topo -m` matrix (by NVML index).
P2pPath TopoLookup(const Job& job, const BuildOptions& options, const Link& l,
                   std::string* evidence) {
  if (!options.topo) return P2pPath::kUnknown;
  const CommRank* a = RankOf(job, l, l.src);
  const CommRank* b = RankOf(job, l, l.dst);
  int ga = a && a->nvml_dev >= 0 ? a->nvml_dev : -1;
  int gb = b && b->nvml_dev >= 0 ? b->nvml_dev : -1;
  auto digits = [](std::string_view s) {
    return !s.empty() && s.size() <= 3 &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (ga < 0 && digits(l.src_dev)) ga = std::stoi(l.src_dev.str());
  if (gb < 0 && digits(l.dst_dev)) gb = std::stoi(l.dst_dev.str());
  if (ga < 0 || gb < 0 || ga == gb) return P2pPath::kUnknown;
  auto it = options.topo->pairs.find(std::minmax(ga, gb));
  if (it == options.topo->pairs.end()) return P2pPath::kUnknown;
  *evidence = options.topo->name + ": GPU" + std::to_string(ga) + " <-> GPU" + std::to_string(gb) +
              " " + it->second;
  return IsNvlinkEntry(it->second) ? P2pPath::kNvlink : P2pPath::kPcie;
}

void ResolveP2pPath(const Job& job, const JobBuilder::State& st, const BuildOptions& options,
                    Link* l) {
  if (l->mode == "MNNVL") {
    l->path = P2pPath::kNvlink;
    l->path_evidence = "P2P/MNNVL (multi-node NVLink)";
    return;
  }
  if (l->reporter >= 0) {
    const Process& reporter = job.processes[l->reporter];
    auto it = reporter.env.find("NCCL_P2P_LEVEL");
    if (it != reporter.env.end() && it->second.value == "NVL") {
      l->path = P2pPath::kNvlink;
      l->path_evidence = "NCCL_P2P_LEVEL=NVL allows P2P only over NVLink";
      return;
    }
  }
  // 1. GRAPH path lines of the log.
  l->path = GraphPathLookup(job, st, *l, &l->path_evidence);
  if (l->path != P2pPath::kUnknown) return;
  // 2. The communicator's GRAPH search found an NVLink pattern for intra-node rings.
  if (l->comm >= 0 && job.comms[l->comm].graph_intra_type == "NVL" &&
      l->intra_node.value_or(false)) {
    l->path = P2pPath::kNvlink;
    l->path_evidence = "GRAPH Pattern type NVL/" + job.comms[l->comm].graph_inter_type;
    return;
  }
  // 3. nvidia-smi topo -m given with --topo.
  l->path = TopoLookup(job, options, *l, &l->path_evidence);
}

/// For SHM and network links inside one physical host: what the hardware would have offered.
void ResolveHardwarePath(const Job& job, const JobBuilder::State& st, const BuildOptions& options,
                         Link* l) {
  if (!l->same_physical_host.value_or(false)) return;
  l->hardware_path = GraphPathLookup(job, st, *l, &l->path_evidence);
  if (l->hardware_path == P2pPath::kUnknown)
    l->hardware_path = TopoLookup(job, options, *l, &l->path_evidence);
}

/// Intra- vs inter-node when the processes of both ends are not both in the log, from what NCCL
/// states itself: the communicator's nNodes (1: all on one node; as many as ranks: each rank on
/// its own node) and the transport (SHM and P2P exist only within a node, MNNVL aside).
std::optional<bool> IntraNodeFromNccl(const Job& job, const Link& l) {
  if (l.comm >= 0) {
    const Communicator& c = job.comms[l.comm];
    if (c.nnodes == 1) return true;
    if (c.nnodes > 1 && c.nranks > 0 && c.nnodes == c.nranks) return false;
    if (c.nnodes > 1 && c.local_ranks == 1) return false;
  }
  if (l.cls == TransportClass::kSHM) return true;
  if (l.path != P2pPath::kNotApplicable && l.mode != "MNNVL") return true;
  return std::nullopt;
}

/// Host::gpu_path_types: the path types of NCCL's GRAPH dump between the GPUs of each host.
void NoteGpuPathTypes(Job* job, const JobBuilder::State& st) {
  for (Host& h : job->hosts) {
    for (int p : h.processes) {
      auto it = st.graph_paths.find(job->processes[p].hostname);
      if (it == st.graph_paths.end()) continue;
      for (const auto& [pair, path] : it->second) {
        h.gpu_path_types.insert(path.substr(path.rfind('/') + 1));  // "4/24.0/PHB": "PHB"
      }
    }
  }
}

}  // namespace

void FinishJob(Job* job, JobBuilder::State* st, const BuildOptions& options) {
  job->topo_given = options.topo != nullptr;
  GroupHosts(job);
  NoteGpuPathTypes(job, *st);
  for (Link& l : job->links) {
    int pa = OwnerOf(*job, *st, l, l.src);
    int pb = OwnerOf(*job, *st, l, l.dst);
    if (pa >= 0 && pb >= 0) {
      l.intra_node = job->processes[pa].node == job->processes[pb].node;
      l.same_physical_host = job->processes[pa].host == job->processes[pb].host;
    } else {
      l.intra_node = IntraNodeFromNccl(*job, l);
    }
    if (l.path != P2pPath::kNotApplicable) {
      ResolveP2pPath(*job, *st, options, &l);
      if (l.path == P2pPath::kNvlink) l.cls = TransportClass::kNVL;
      l.hardware_path = l.path;
    } else if (l.cls == TransportClass::kSHM || IsNetClass(l.cls)) {
      ResolveHardwarePath(*job, *st, options, &l);
    }
  }
}

}  // namespace ncclscope
