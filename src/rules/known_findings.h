// Findings built from the job's messages and the knowledge that explains them: one finding per
// cause (knowledge entry), never one per line or rank, with the meaning in plain words, what the
// lines name (peers, devices, decoded status codes), the likely causes in order and the fix.
#ifndef NCCLSCOPE_SRC_RULES_KNOWN_FINDINGS_H_
#define NCCLSCOPE_SRC_RULES_KNOWN_FINDINGS_H_

#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/rules/job_messages.h"
#include "ncclscope/rules/rule.h"

namespace ncclscope::rules_internal {

/// Adds the hits' processes (ranks, hosts), framework ranks and evidence lines to a finding.
void AddHits(const Job& job, const std::vector<const MessageHit*>& hits, Finding* f);

/// Total line count of the hits (each record counts its repetitions).
uint64_t HitLineCount(const std::vector<const MessageHit*>& hits);
/// Distinct processes of the hits (framework lines count their rank when no process is known).
size_t HitProcessCount(const Job& job, const std::vector<const MessageHit*>& hits);

/// "rank 3 (node-b:4411)" for the process whose host name or bootstrap/socket address is
/// `peer_host`; empty when no process of the log matches.
std::string PeerLabel(const Job& job, std::string_view peer_host);
/// The process `peer_host` names, or -1.
int PeerProcess(const Job& job, std::string_view peer_host);

/// What the lines name, as one clause: "peer 10.0.0.5<43651> (rank 3, node-b:4411); device
/// mlx5_0; status 12 = IBV_WC_RETRY_EXC_ERR (the remote never acknowledged ...), vendor error
/// 129 (0x81); CUDA error 'invalid argument'". Empty when the lines name nothing.
std::string DetailsClause(const Job& job, const std::vector<const MessageHit*>& hits);

/// "Likely causes, most likely first: (1) ...; (2) ...". Empty when the entry lists none.
std::string CausesSentence(const KnownMessage& k);

/// One finding for hits that share one knowledge entry (or, without one, one message text):
/// the entry's title, severity, meaning, details, causes and fix.
Finding FindingForEntry(const Rule& rule, const Job& job, const KnownMessage* known,
                        const std::vector<const MessageHit*>& hits);

/// Groups `hits` by knowledge entry (in job order of first appearance) and appends one finding
/// per group.
void ReportHitsByEntry(const Rule& rule, const Job& job, const std::vector<const MessageHit*>& hits,
                       std::vector<Finding>* out);

}  // namespace ncclscope::rules_internal

#endif  // NCCLSCOPE_SRC_RULES_KNOWN_FINDINGS_H_
