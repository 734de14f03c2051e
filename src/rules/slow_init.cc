// slow-init: bootstrap or communicator init timings above the threshold or far above the others.
#include <algorithm>
#include <cstdio>

#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

/// One timing sample: views into the job (a job of thousands of processes has thousands of
/// samples; copying their evidence lines would add megabytes at the peak of memory).
struct Sample {
  const std::string* comm = nullptr;  ///< The communicator of an init; null for a bootstrap.
  int process = -1;
  double seconds = 0;
  double recv = -1;  ///< Bootstrap recv part (waiting for other ranks).
  const Evidence* evidence = nullptr;
};

std::string What(const Sample& s) {
  return s.comm == nullptr ? std::string("bootstrap") : "init of comm " + *s.comm;
}

std::string Secs(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

/// Median of `sorted` without its element at index `skip` (0 when nothing is left). One sort for
/// all samples instead of one per sample: jobs have thousands of communicator ranks.
double MedianWithout(const std::vector<double>& sorted, size_t skip) {
  const size_t n = sorted.size() - 1;  // elements left
  if (n == 0) return 0;
  auto at = [&](size_t k) { return sorted[k < skip ? k : k + 1]; };
  return n % 2 == 1 ? at(n / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

class SlowInitRule : public BasicRule {
 public:
  SlowInitRule()
      : BasicRule("slow-init", Severity::kWarning, "Slow NCCL initialization",
                  "Bootstrap time spent in `recv` is waiting for the other ranks: they started "
                  "late (image pulls, pods scheduled one by one, slow data loading before "
                  "init_process_group) or could not connect (firewall, wrong "
                  "NCCL_SOCKET_IFNAME). On Kubernetes use gang scheduling (Kueue, Volcano, "
                  "JobSet) and pre-pulled images; on Slurm start all tasks with one srun. Slow "
                  "`topo`/`connections` phases point at the topology detection or the network "
                  "setup.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::vector<Sample> boot, init;
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const Process& p = job.processes[i];
      if (p.bootstrap_timings) {
        boot.push_back({nullptr, static_cast<int>(i), p.bootstrap_timings->total,
                        p.bootstrap_timings->recv, &p.bootstrap_timings_evidence});
      }
    }
    for (const Communicator& c : job.comms) {
      for (const auto& [r, cr] : c.ranks) {
        if (cr.init_timings) {
          init.push_back({&c.id, cr.process, cr.init_timings->total, -1, &cr.complete_evidence});
        }
      }
    }
    Finding f = NewFinding(*this);
    std::vector<std::string> parts;
    Evaluate(ctx, job, boot, &f, &parts);
    Evaluate(ctx, job, init, &f, &parts);
    if (parts.empty()) return;
    f.message = JoinStrings(parts, "; ") + ".";
    out->push_back(std::move(f));
  }

 private:
  static void Evaluate(const RuleContext& ctx, const Job& job, const std::vector<Sample>& samples,
                       Finding* f, std::vector<std::string>* parts) {
    std::vector<double> sorted;
    sorted.reserve(samples.size());
    for (const Sample& s : samples) sorted.push_back(s.seconds);
    std::sort(sorted.begin(), sorted.end());
    size_t reported = 0;
    for (size_t i = 0; i < samples.size(); ++i) {
      const Sample& s = samples[i];
      // The median of the other samples: drop one copy of this sample's value.
      const size_t at = static_cast<size_t>(
          std::lower_bound(sorted.begin(), sorted.end(), s.seconds) - sorted.begin());
      double med = MedianWithout(sorted, at);
      bool over = s.seconds > ctx.options.slow_init_seconds;
      bool outlier = samples.size() > 1 &&
                     s.seconds >= std::max(2.0, ctx.options.slow_init_seconds / 2) &&
                     s.seconds > ctx.options.slow_init_outlier_factor * std::max(med, 0.01);
      if (!over && !outlier) continue;
      AddProcess(job, s.process, f);
      AddEvidence(f, *s.evidence);
      if (++reported > 4) continue;
      std::string part =
          What(s) + " took " + Secs(s.seconds) + " on " + ProcessLabel(job, s.process);
      if (over) part += " (threshold " + Secs(ctx.options.slow_init_seconds) + ")";
      if (outlier) part += " (others: median " + Secs(med) + ")";
      if (s.recv >= 0 && s.recv > 0.8 * s.seconds) {
        part += ", " + Secs(s.recv) + " of it waiting in recv for other ranks";
      }
      parts->push_back(part);
    }
    if (reported > 4) parts->push_back("and " + std::to_string(reported - 4) + " more");
  }
};

}  // namespace

std::unique_ptr<Rule> MakeSlowInitRule() { return std::make_unique<SlowInitRule>(); }

}  // namespace ncclscope::rules_internal
