// connection-error: socket connections between ranks failed. The messages tell two stories
// apart (the third, ranks that disagree, is ranks-disagree's): the peer died (then it is named
// and suspected) or the network path is wrong (interface, firewall, routing). Generic failures
// and proxy fallout join the story the other lines tell; one finding per story.
#include <map>

#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"
#include "silent_trail.h"

namespace ncclscope::rules_internal {
namespace {

struct Story {
  std::string_view title;
  std::string_view meaning;
};

Story StoryOf(FailureSide side) {
  switch (side) {
    case FailureSide::kPeerDied:
      return {"A peer died: ranks lost their connections to it",
              "Ranks lost their socket connections to a peer that closed or reset them: that "
              "peer most likely exited, crashed or was killed first, and these errors are "
              "fallout."};
    case FailureSide::kNetworkPath:
      return {"Ranks cannot reach each other: the network path is wrong",
              "Ranks could not open socket connections to each other (refused, timed out or "
              "unreachable): the address a rank advertised does not route from the others "
              "(interface, subnet), a firewall drops the ports, or the peer was not running."};
    default:
      return {"Socket connection between ranks failed",
              "A socket operation between ranks failed."};
  }
}

/// True unless every NCCL version the log names is 2.27.3 or later: before 2.27.3 a connection
/// to the bootstrap port that closes before sending NCCL's magic fails the bootstrap.
bool StrayConnectionFailsBootstrap(const Job& job) {
  for (const std::string& v : job.nccl_versions) {
    const auto parsed = ParseNcclVersion(v);
    if (!parsed || *parsed < std::array<int, 3>{2, 27, 3}) return true;
  }
  return job.nccl_versions.empty();
}

/// The first error trail through NCCL's bootstrap code, or nullptr.
const ErrorTrailRecord* BootstrapTrail(const Job& job) {
  for (const ErrorTrailRecord& t : job.error_trails) {
    if (t.code != 0 && ContainsNoCase(t.location, "bootstrap")) return &t;
  }
  return nullptr;
}

class ConnectionErrorRule : public BasicRule {
 public:
  ConnectionErrorRule()
      : BasicRule("connection-error", Severity::kError, "Socket connection between ranks failed",
                  "\"Connection closed by remote peer\"/\"reset by peer\" mean that peer died "
                  "first: find the first failing rank (the peer named, the earliest error) and "
                  "its own error. \"Connection refused\"/timeouts/unreachable mean the peer's "
                  "address is not reachable: set NCCL_SOCKET_IFNAME to the interface that routes "
                  "between nodes (e.g. eth0, not docker0/lo), open all TCP ports between the "
                  "pods/nodes (Kubernetes NetworkPolicy, security groups allowing all traffic "
                  "within themselves), and make sure every rank was scheduled and started.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    if (hits.empty()) {
      const size_t before = out->size();
      SilentSocketFailure(job, out);
      // No socket trail either: a trail through the net transport, bootstrap or proxy.
      if (out->size() == before) {
        if (auto f = SilentTrailFinding(*this, job, TrailArea::kNetwork)) out->push_back(*f);
      }
      return;
    }
    std::map<FailureSide, std::vector<const MessageHit*>> stories;
    std::vector<const MessageHit*> generic;
    for (const MessageHit* h : hits) {
      FailureSide side = h->known != nullptr ? h->known->side : FailureSide::kNone;
      if (side == FailureSide::kNone) {
        generic.push_back(h);
      } else {
        stories[side].push_back(h);
      }
    }
    // Generic failures and proxy fallout belong to the story the other lines tell (the peer's
    // death first: it explains the others); alone they make the generic finding.
    if (!generic.empty()) {
      auto& into = stories.count(FailureSide::kPeerDied) ? stories[FailureSide::kPeerDied]
                   : stories.count(FailureSide::kNetworkPath) ? stories[FailureSide::kNetworkPath]
                                                              : stories[FailureSide::kNone];
      into.insert(into.end(), generic.begin(), generic.end());
    }
    for (auto& [side, group] : stories) out->push_back(StoryFinding(job, side, group));
  }

 private:
  /// NCCL 2.18's socketPollConnect can fail without a WARN: only the error trail through the
  /// socket code shows it. Reported when no warning explains the failure.
  void SilentSocketFailure(const Job& job, std::vector<Finding>* out) const {
    // Another failure was reported (a WARN some rule explains): the socket errors follow it.
    bool after_failure = false;
    for (const WarnRecord& w : job.warnings) {
      after_failure = after_failure || RuleOfWarning(w) != kBenignRule;
    }
    Finding f = NewFinding(*this);
    std::set<int> procs;
    for (const ErrorTrailRecord& t : job.error_trails) {
      if (t.code == 0 || !(ContainsNoCase(t.location, "socket.cc") ||
                           ContainsNoCase(t.location, "socket.h"))) {
        continue;
      }
      procs.insert(t.process);
      AddProcess(job, t.process, &f);
      AddEvidence(&f, t.evidence);
    }
    if (procs.empty()) return;
    if (after_failure) {
      f.severity = Severity::kWarning;
      f.title = "Socket connections between ranks failed after another failure (fallout)";
      f.message = "NCCL's error trail on " + std::to_string(procs.size()) +
                  " process(es) runs through its socket code (\"" + f.evidence.front().text +
                  "\") without a socket WARN of its own: these ranks lost their connections "
                  "to ranks that had already failed. Fix the failure the other findings name "
                  "first; these errors are its fallout.";
      out->push_back(std::move(f));
      return;
    }
    f.title = "A socket operation between ranks failed (no NCCL warning printed)";
    f.message = "NCCL's error trail on " + std::to_string(procs.size()) +
                " process(es) starts in its socket code (\"" + f.evidence.front().text +
                "\") without a WARN line: a connect or transfer between ranks failed (NCCL "
                "2.18's socketPollConnect fails silently). Most often the peer was not "
                "reachable (interface, firewall) or not running.";
    out->push_back(std::move(f));
  }

  Finding StoryFinding(const Job& job, FailureSide side,
                       const std::vector<const MessageHit*>& group) const {
    // The most specific entry of the story lends its causes and fix.
    const KnownMessage* lead = nullptr;
    for (const MessageHit* h : group) {
      if (h->known != nullptr && (lead == nullptr || (lead->side == FailureSide::kNone &&
                                                      h->known->side != FailureSide::kNone))) {
        lead = h->known;
      }
    }
    Finding f = FindingForEntry(*this, job, lead, group);
    const Story story = StoryOf(side);
    f.title = std::string(story.title);
    f.severity = Severity::kError;
    // Replace the entry's own meaning by the story's, keep the rest of the message.
    if (lead != nullptr && f.message.starts_with(lead->meaning)) {
      f.message = std::string(story.meaning) + f.message.substr(lead->meaning.size());
    }
    std::set<std::string> messages;
    for (const MessageHit* h : group) messages.insert(std::string(h->text).substr(0, 80));
    if (messages.size() > 1) {
      f.message += " " + std::to_string(messages.size()) + " different messages tell this story.";
    }
    if (side == FailureSide::kPeerDied) {
      if (const ErrorTrailRecord* t = BootstrapTrail(job);
          t != nullptr && StrayConnectionFailsBootstrap(job)) {
        f.message += " The connection was lost during NCCL's bootstrap (\"" + t->evidence.text +
                     "\"): the peer may also be no rank at all. Before NCCL 2.27.3 a stray "
                     "connection to the bootstrap port (a port scanner, a health check) that "
                     "closes before sending NCCL's magic fails the bootstrap.";
        AddEvidence(&f, t->evidence);
      }
      // The peers these ranks lost are the suspects.
      for (const MessageHit* h : group) {
        int p = PeerProcess(job, h->details.peer_host);
        if (p >= 0) {
          AddSuspectRank(&f, job.processes[p].global_rank);
          AddSuspectHost(&f, HostName(job, p));
        } else if (!h->details.peer_host.empty()) {
          AddSuspectHost(&f, h->details.peer_host);
        }
      }
    }
    return f;
  }
};

}  // namespace

std::unique_ptr<Rule> MakeConnectionErrorRule() { return std::make_unique<ConnectionErrorRule>(); }

}  // namespace ncclscope::rules_internal
