// Helpers shared by the rule implementations (internal to src/rules/).
#ifndef NCCLSCOPE_SRC_RULES_RULE_UTIL_H_
#define NCCLSCOPE_SRC_RULES_RULE_UTIL_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/base/ascii.h"
#include "ncclscope/model/job.h"
#include "ncclscope/rules/finding.h"
#include "ncclscope/rules/rule.h"

namespace ncclscope::rules_internal {

/// A Rule whose id, severity, title and fix are fixed strings (string literals).
class BasicRule : public Rule {
 public:
  BasicRule(std::string_view id, Severity severity, std::string_view title, std::string_view fix)
      : id_(id), severity_(severity), title_(title), fix_(fix) {}
  std::string_view id() const override { return id_; }
  Severity default_severity() const override { return severity_; }
  std::string_view title() const override { return title_; }
  std::string_view fix() const override { return fix_; }

 private:
  std::string_view id_;
  Severity severity_;
  std::string_view title_;
  std::string_view fix_;
};

/// Most evidence lines a finding carries.
inline constexpr size_t kMaxEvidence = 5;

/// A finding pre-filled with the rule's id, default severity, title and fix.
Finding NewFinding(const Rule& rule);
/// Appends `ev` unless it is empty, already present, or the finding has kMaxEvidence lines.
void AddEvidence(Finding* f, const Evidence& ev);
/// Inserts into a vector kept sorted and unique.
void AddRank(Finding* f, int rank);
void AddSuspectRank(Finding* f, int rank);
void AddHost(Finding* f, const std::string& host);
void AddSuspectHost(Finding* f, const std::string& host);
void AddComm(Finding* f, const std::string& comm);

/// Hostname of a process ("?" when out of range or empty).
std::string HostName(const Job& job, int process);
/// Global rank of a communicator rank: the rank its process holds in its first (world)
/// communicator; falls back to the communicator-local rank when unknown.
int GlobalRank(const Job& job, int comm, int comm_rank);
/// Process index of a communicator rank, or -1.
int ProcessOfRank(const Job& job, int comm, int comm_rank);
/// "host:pid" (plus " rank N" when the global rank is known).
std::string ProcessLabel(const Job& job, int process);
/// Id of a communicator, or "(unknown comm)".
std::string CommName(const Job& job, int comm);
/// How many communicators `comm` stands for: itself and the later ones of the same shape folded
/// into it (Communicator::repeats); 1 for an unknown communicator (-1). Counts of links and
/// communicators in messages weigh each by it.
uint64_t CommWeight(const Job& job, int comm);

/// The setting of a process, or nullptr.
const Setting* FindEnv(const Process& p, std::string_view name);
/// The setting when the process set it to a value that means "on" (IsTruthy), else nullptr.
const Setting* FindEnvOn(const Process& p, std::string_view name);
/// True if any process echoes `name`; `value` (if non-null) receives the first value.
bool AnyEnv(const Job& job, std::string_view name, std::string* value = nullptr);

/// "0,1,2" / "a, b".
std::string JoinInts(const std::vector<int>& v);
std::string JoinStrings(const std::vector<std::string>& v, std::string_view sep = ", ");
/// Case-insensitive substring test (ASCII letters).
using ascii::ContainsNoCase;
/// Case-insensitive equality (ASCII letters).
using ascii::EqualsNoCase;
/// True if `value` means "on" (1, true, yes) / "off" (0, false, no).
bool IsTruthy(std::string_view value);
bool IsFalsy(std::string_view value);

/// An NCCL version "2.18.3" (anything may follow the patch: "2.18.3+cuda12.2") as (major, minor,
/// patch); nullopt when it does not start with three numbers.
std::optional<std::array<int, 3>> ParseNcclVersion(const std::string& version);

/// Number of inter-node links (intra_node == false).
size_t CountInterNodeLinks(const Job& job);
/// True if the job spans more than one NCCL node (comm nnodes > 1 or inter-node links).
bool IsMultiNode(const Job& job);

/// What NCCL's own "nNodes N localRanks L" lines say (communicators, or the lines alone in an
/// excerpt): whether the job spans nodes / whether ranks share a node; nullopt when no line says.
std::optional<bool> NcclSaysMultiNode(const Job& job);
std::optional<bool> NcclSaysRanksShareNode(const Job& job);
/// True when one process of the job drives two or more GPUs (its ranks' cudaDev, or the devices
/// in its lines' heads): its ranks share a node, whatever NCCL said.
bool ProcessDrivesSeveralGpus(const Job& job);

/// What the launchers' line prefixes say about the job spanning nodes (Job::launch): a prefix
/// only multi-node launches write (pdsh, SkyPilot's node prefix), or two or more origin hosts.
struct LaunchSpread {
  std::string reason;  ///< In words, for a finding's message; empty when the prefixes say nothing.
  Evidence evidence;
};
LaunchSpread LauncherSaysMultiNode(const Job& job);
/// A communicator with more ranks than a node has GPUs (`kGpusPerLargestNode`): it spans
/// several nodes whatever the input shows of them (an excerpt of one rank of a 16-rank job).
/// Empty when no communicator is that large.
LaunchSpread CommSizeSaysMultiNode(const Job& job);
/// The most GPUs a common node holds (HGX/DGX: 8): a larger communicator spans nodes.
inline constexpr int kGpusPerLargestNode = 8;

/// Adds the processes of a warning record (ranks, hosts) and its evidence to a finding.
void AddWarnRecord(const Job& job, const WarnRecord& w, Finding* f);
/// Adds a process's global rank and host to a finding.
void AddProcess(const Job& job, int process, Finding* f);
/// The warnings matching `pred`.
template <typename Pred>
std::vector<const WarnRecord*> MatchingWarnings(const Job& job, Pred pred) {
  std::vector<const WarnRecord*> out;
  for (const WarnRecord& w : job.warnings) {
    if (pred(w)) out.push_back(&w);
  }
  return out;
}
/// Total count of the records (each record counts its repetitions).
uint64_t TotalCount(const std::vector<const WarnRecord*>& records);
/// Number of distinct processes of the records.
size_t ProcessCount(const std::vector<const WarnRecord*>& records);

/// "; N of these links join GPUs that have NVLink (evidence)" for SHM/NET links whose GPUs the
/// GRAPH lines or --topo show to be NVLink-connected; empty when none are known to be.
std::string NvlinkWastedNote(const Job& job, bool (*selected)(const Link&));

}  // namespace ncclscope::rules_internal

#endif  // NCCLSCOPE_SRC_RULES_RULE_UTIL_H_
