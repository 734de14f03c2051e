// The numbers every report's headline shows: findings per severity, NCCL nodes, ranks, versions.
#ifndef NCCLSCOPE_REPORT_JOB_HEADLINE_H_
#define NCCLSCOPE_REPORT_JOB_HEADLINE_H_

#include <set>
#include <string>

#include "ncclscope/report/report.h"

namespace ncclscope {

struct JobHeadline {
  int errors = 0, warnings = 0, infos = 0;
  std::set<std::string> nodes;  ///< NCCL node names (host ids, else hostnames).
  std::set<int> ranks;          ///< Global ranks seen.
  std::string versions;         ///< NCCL versions, comma-separated; empty when none seen.
};

JobHeadline MakeJobHeadline(const ReportInput& in);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_JOB_HEADLINE_H_
