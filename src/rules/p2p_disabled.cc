// p2p-disabled: GPUs of one node use SHM (or the network) instead of P2P.
#include <map>

#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

class P2pDisabledRule : public BasicRule {
 public:
  P2pDisabledRule()
      : BasicRule("p2p-disabled", Severity::kWarning,
                  "GPUs of one node do not use P2P (NVLink/PCIe)",
                  "Remove NCCL_P2P_DISABLE=1 and any restrictive NCCL_P2P_LEVEL (e.g. LOC). "
                  "Processes in different containers need a shared IPC namespace for P2P/CUMEM "
                  "handles: run all ranks of a node in one pod, or set `hostIPC: true`. In VMs, "
                  "GPU peer-to-peer needs P2P-capable passthrough (and ACS/IOMMU settings that "
                  "allow it); check `nvidia-smi topo -p2p r`. GPUs on different CPU sockets "
                  "without NVLink may legitimately use SHM.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    Finding f = NewFinding(*this);
    std::vector<std::string> env;
    std::set<std::string> env_seen;
    for (const Process& p : job.processes) {
      for (const char* name : {"NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL"}) {
        const Setting* s = FindEnv(p, name);
        if (s == nullptr) continue;
        bool disables = std::string_view(name) == "NCCL_P2P_DISABLE"
                            ? IsTruthy(s->value)
                            : (s->value == "LOC" || s->value == "0");
        if (!disables) continue;
        std::string item = std::string(name) + "=" + s->value;
        if (env_seen.insert(item).second) env.push_back(item);
        AddEvidence(&f, s->evidence);
      }
    }
    std::map<int, size_t> shm_per_comm, net_per_comm;
    size_t shm = 0;
    for (const Link& l : job.links) {
      if (!l.intra_node.value_or(false)) continue;
      if (l.cls == TransportClass::kSHM) {
        ++shm_per_comm[l.comm];
        ++shm;
      } else if (IsNetClass(l.cls)) {
        ++net_per_comm[l.comm];
      } else {
        continue;
      }
      AddRank(&f, GlobalRank(job, l.comm, l.src));
      AddRank(&f, GlobalRank(job, l.comm, l.dst));
      if (l.reporter >= 0) AddHost(&f, HostName(job, l.reporter));
      if (l.comm >= 0) AddComm(&f, job.comms[l.comm].id);
      if (f.evidence.size() < 3) AddEvidence(&f, l.first);
    }
    // What NCCL or CUDA said about P2P (warnings, INFO notices): the explicit evidence.
    std::vector<const MessageHit*> hits;
    // NCCL's "Check P2P Type ... 0" also says 0 when a node holds a single rank: it only counts
    // where the log shows ranks sharing a node (NCCL's local ranks, or a process driving several
    // GPUs), or when the hardware check failed (isAllCudaP2p 0). With "isAllCudaP2p 1" CUDA says
    // every pair can: the 0 comes from a setting or separate processes, which the links and
    // settings above already tell.
    const bool shared_node =
        NcclSaysRanksShareNode(job).value_or(false) || ProcessDrivesSeveralGpus(job);
    for (const MessageHit* h : ctx.messages.OfRule(id())) {
      if (h->known != nullptr && h->known->id == "p2p-not-all-local" &&
          (ContainsNoCase(h->text, "isAllCudaP2p 1") ||
           (!shared_node && !ContainsNoCase(h->text, "isAllCudaP2p 0")))) {
        continue;
      }
      hits.push_back(h);
    }
    const KnownMessage* lead = nullptr;
    for (const MessageHit* h : hits) {
      if (h->known != nullptr && (lead == nullptr || h->known->severity > lead->severity)) {
        lead = h->known;
      }
    }
    AddHits(job, hits, &f);
    if (env.empty() && shm_per_comm.empty() && net_per_comm.empty() && hits.empty()) return;
    std::vector<std::string> parts;
    // Counted over all communicators, so a job with many sub-communicators stays one line.
    auto summarize = [&](const auto& per_comm, const char* what) {
      if (per_comm.empty()) return;
      uint64_t n = 0, comms = 0;
      for (const auto& [comm, k] : per_comm) {
        n += k * CommWeight(job, comm);
        comms += CommWeight(job, comm);
      }
      std::string where = comms == 1 ? "comm " + CommName(job, per_comm.begin()->first)
                                     : std::to_string(comms) + " communicators";
      parts.push_back(std::to_string(n) + " intra-node links in " + where + " use " + what);
    };
    summarize(shm_per_comm, "SHM");
    summarize(net_per_comm, "the network");
    if (!hits.empty()) parts.push_back("NCCL: \"" + std::string(hits.front()->text) + "\"");
    f.message = parts.empty() ? std::string("P2P is disabled by the environment")
                              : JoinStrings(parts, "; ");
    if (!env.empty())
      f.message += " (set: " + JoinStrings(env) + ")";
    else if (shm > 0) {
      f.message +=
          "; P2P is not disabled by an NCCL setting, so NCCL found P2P unusable "
          "(separate containers without hostIPC, virtualisation, or no P2P path)";
    }
    f.message += NvlinkWastedNote(job, [](const Link& l) {
      return l.intra_node.value_or(false) && (l.cls == TransportClass::kSHM || IsNetClass(l.cls));
    });
    f.message += ".";
    if (lead != nullptr) {
      // The explicit message decides what it means and how bad it is.
      if (lead->severity > f.severity) f.severity = lead->severity;
      if (shm_per_comm.empty() && net_per_comm.empty()) f.title = std::string(lead->title);
      f.message += " " + std::string(lead->meaning) + " " + CausesSentence(*lead);
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeP2pDisabledRule() { return std::make_unique<P2pDisabledRule>(); }

}  // namespace ncclscope::rules_internal
