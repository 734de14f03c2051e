#include "ncclscope/report/job_headline.h"

namespace ncclscope {

JobHeadline MakeJobHeadline(const ReportInput& in) {
  JobHeadline h;
  for (const auto& f : in.findings) {
    switch (f.severity) {
      case Severity::kError:
        ++h.errors;
        break;
      case Severity::kWarning:
        ++h.warnings;
        break;
      case Severity::kInfo:
        ++h.infos;
        break;
    }
  }
  for (const auto& p : in.job.processes) {
    if (!p.node.empty()) h.nodes.insert(p.node);
    if (p.global_rank >= 0) h.ranks.insert(p.global_rank);
  }
  for (const auto& v : in.job.nccl_versions) h.versions += (h.versions.empty() ? "" : ", ") + v;
  return h;
}

}  // namespace ncclscope
