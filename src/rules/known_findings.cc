#include "known_findings.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

/// Host part of "ip-172-31-45-209.eu-north-1.compute.internal": NCCL prints host names cut at
/// the first '.', but addresses keep their dots.
std::string_view ShortHost(std::string_view host) {
  bool numeric = !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == ':';
  });
  if (numeric) return host;
  return host.substr(0, host.find('.'));
}

bool AddressListHas(const std::vector<std::string>& devices, std::string_view host) {
  for (const std::string& d : devices) {
    // "eth0:10.0.0.2<0>"
    size_t colon = d.find(':');
    if (colon == std::string::npos) continue;
    std::string_view addr = std::string_view(d).substr(colon + 1);
    addr = addr.substr(0, addr.find('<'));
    if (addr == host) return true;
  }
  return false;
}

}  // namespace

void AddHits(const Job& job, const std::vector<const MessageHit*>& hits, Finding* f) {
  for (const MessageHit* h : hits) {
    if (h->record != nullptr) AddWarnRecord(job, *h->record, f);
    if (h->framework != nullptr) {
      AddRank(f, h->framework->rank);
      AddEvidence(f, h->framework->evidence);
    }
  }
}

uint64_t HitLineCount(const std::vector<const MessageHit*>& hits) {
  uint64_t n = 0;
  for (const MessageHit* h : hits) n += h->record != nullptr ? std::max<uint64_t>(h->record->count, 1) : 1;
  return n;
}

size_t HitProcessCount(const Job& job, const std::vector<const MessageHit*>& hits) {
  std::set<int> procs, ranks;
  for (const MessageHit* h : hits) {
    if (h->record != nullptr) procs.insert(h->record->processes.begin(), h->record->processes.end());
    if (h->framework != nullptr && h->framework->rank >= 0) ranks.insert(h->framework->rank);
  }
  for (int p : procs) {
    if (p >= 0 && static_cast<size_t>(p) < job.processes.size())
      ranks.erase(job.processes[p].global_rank);
  }
  return procs.size() + ranks.size();
}

int PeerProcess(const Job& job, std::string_view peer_host) {
  if (peer_host.empty()) return -1;
  std::string_view shorter = ShortHost(peer_host);
  for (size_t i = 0; i < job.processes.size(); ++i) {
    const Process& p = job.processes[i];
    if (p.hostname == shorter || p.bootstrap_addr == peer_host ||
        AddressListHas(p.socket_devices, peer_host)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

std::string PeerLabel(const Job& job, std::string_view peer_host) {
  int p = PeerProcess(job, peer_host);
  if (p < 0) return "";
  // Several processes share a host: name the host only.
  int on_host = 0;
  for (const Process& q : job.processes) on_host += q.hostname == job.processes[p].hostname;
  if (on_host > 1) return "host " + HostName(job, p);
  return ProcessLabel(job, p);
}

std::string DetailsClause(const Job& job, const std::vector<const MessageHit*>& hits) {
  std::vector<std::string> peers, devices, codes, errors;
  std::set<std::string> seen;
  auto add_once = [&](std::vector<std::string>* v, const std::string& s, size_t cap) {
    if (s.empty() || !seen.insert(s).second) return;
    if (v->size() < cap) v->push_back(s);
  };
  for (const MessageHit* h : hits) {
    const MessageDetails& d = h->details;
    if (!d.peer.empty()) {
      std::string label = PeerLabel(job, d.peer_host);
      add_once(&peers, label.empty() ? d.peer : d.peer + " (" + label + ")", 4);
    }
    add_once(&devices, d.device, 4);
    if (d.ib_status >= 0) {
      std::string s = "status " + std::to_string(d.ib_status);
      std::string_view name = IbvStatusName(d.ib_status);
      if (!name.empty()) {
        s += " = " + std::string(name) + " (" + std::string(IbvStatusMeaning(d.ib_status)) + ")";
      }
      if (d.vendor_error >= 0) {
        char hex[32];
        std::snprintf(hex, sizeof(hex), "0x%lx", d.vendor_error);
        s += ", vendor error " + std::to_string(d.vendor_error) + " (" + hex +
             ", the NIC's own syndrome: quote it to the fabric or NIC vendor)";
      }
      add_once(&codes, s, 3);
    }
    if (!d.cuda_error.empty()) add_once(&errors, "CUDA error '" + d.cuda_error + "'", 3);
    else if (!d.os_error.empty()) add_once(&errors, "\"" + d.os_error + "\"", 3);
  }
  std::vector<std::string> parts;
  if (!peers.empty()) parts.push_back((peers.size() == 1 ? "peer " : "peers ") + JoinStrings(peers));
  if (!devices.empty()) {
    parts.push_back((devices.size() == 1 ? "device " : "devices ") + JoinStrings(devices));
  }
  for (std::string& c : codes) parts.push_back(std::move(c));
  if (!errors.empty()) parts.push_back("error " + JoinStrings(errors));
  return JoinStrings(parts, "; ");
}

std::string CausesSentence(const KnownMessage& k) {
  std::vector<std::string> causes;
  for (std::string_view c : k.causes) {
    if (!c.empty()) causes.push_back("(" + std::to_string(causes.size() + 1) + ") " + std::string(c));
  }
  if (causes.empty()) return "";
  return (causes.size() == 1 ? "Likely cause: " : "Likely causes, most likely first: ") +
         JoinStrings(causes, "; ") + ".";
}

Finding FindingForEntry(const Rule& rule, const Job& job, const KnownMessage* known,
                        const std::vector<const MessageHit*>& hits) {
  Finding f = NewFinding(rule);
  AddHits(job, hits, &f);
  const std::string_view first = hits.empty() ? std::string_view() : hits.front()->text;
  std::string msg;
  if (known != nullptr) {
    f.severity = known->severity;
    f.title = std::string(known->title);
    f.fix = std::string(known->fix);
    msg = std::string(known->meaning);
  }
  std::string details = DetailsClause(job, hits);
  if (!details.empty()) {
    if (!msg.empty()) msg += " ";
    msg += "The log names " + details + ".";
  }
  const uint64_t lines = HitLineCount(hits);
  const size_t procs = HitProcessCount(job, hits);
  if (!msg.empty()) msg += " ";
  msg += std::to_string(lines) + (lines == 1 ? " line" : " lines");
  if (procs > 0) msg += " on " + std::to_string(procs) + (procs == 1 ? " process" : " processes");
  // A framework line can hold a whole pasted traceback: quote its start.
  constexpr size_t kMaxQuote = 300;
  msg += ": \"" + std::string(first.substr(0, kMaxQuote)) + (first.size() > kMaxQuote ? "...\"." : "\".");
  if (known != nullptr) {
    std::string causes = CausesSentence(*known);
    if (!causes.empty()) msg += " " + causes;
  }
  f.message = std::move(msg);
  return f;
}

void ReportHitsByEntry(const Rule& rule, const Job& job, const std::vector<const MessageHit*>& hits,
                       std::vector<Finding>* out) {
  // Hits without an entry (claimed by their category) share the rule's generic finding.
  std::vector<const KnownMessage*> order;
  std::map<const KnownMessage*, std::vector<const MessageHit*>> groups;
  for (const MessageHit* h : hits) {
    auto [it, fresh] = groups.try_emplace(h->known);
    if (fresh) order.push_back(h->known);
    it->second.push_back(h);
  }
  for (const KnownMessage* k : order) out->push_back(FindingForEntry(rule, job, k, groups[k]));
}

}  // namespace ncclscope::rules_internal
