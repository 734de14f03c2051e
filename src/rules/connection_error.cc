// connection-error: socket connect/recv failures, peers closing connections, proxy failures.
#include "rule_factories.h"
#include "rule_util.h"
#include "warn_matchers.h"

namespace ncclscope::rules_internal {
namespace {

class ConnectionErrorRule : public BasicRule {
 public:
  ConnectionErrorRule()
      : BasicRule("connection-error", Severity::kError, "Socket connection between ranks failed",
                  "\"Connection closed by remote peer\" usually means that other rank died "
                  "first: find the first failing rank (earliest timestamp, suspect ranks) and its "
                  "own error. \"Connection refused\"/timeouts mean the peer's address is not "
                  "reachable: set NCCL_SOCKET_IFNAME to the interface that routes between nodes "
                  "(e.g. eth0, not docker0/lo), open all TCP ports between the pods/nodes "
                  "(Kubernetes NetworkPolicy, EKS security group allowing all traffic within "
                  "itself), and make sure every rank was scheduled (Slurm: check that the job "
                  "got all its nodes).") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    auto records = MatchingWarnings(ctx.job, IsConnectionWarning);
    if (records.empty()) return;
    Finding f = NewFinding(*this);
    bool closed_by_peer = false;
    for (const WarnRecord* w : records) {
      AddWarnRecord(ctx.job, *w, &f);
      if (ContainsNoCase(w->message, "closed by remote peer")) closed_by_peer = true;
    }
    f.message = std::to_string(TotalCount(records)) + " connection error(s) on " +
                std::to_string(ProcessCount(records)) + " process(es): \"" +
                records.front()->message + "\"";
    if (closed_by_peer) {
      f.message += ". A peer closed its connection: it most likely crashed or was killed first.";
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeConnectionErrorRule() { return std::make_unique<ConnectionErrorRule>(); }

}  // namespace ncclscope::rules_internal
