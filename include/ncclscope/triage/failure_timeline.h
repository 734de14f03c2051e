// The failure timeline: every incident of the job (exits, signals, exceptions, NCCL errors,
// timeouts) on one time axis, per attempt, with the time from the first failure ("spread").
// `ncclscope timeline` prints it; the text report shows its head under the root cause.
#ifndef NCCLSCOPE_TRIAGE_FAILURE_TIMELINE_H_
#define NCCLSCOPE_TRIAGE_FAILURE_TIMELINE_H_

#include <optional>
#include <string>
#include <vector>

#include "ncclscope/model/incident.h"
#include "ncclscope/model/job.h"
#include "ncclscope/triage/root_cause.h"

namespace ncclscope {

struct TimelineRow {
  const Incident* incident = nullptr;
  std::string time_text;  ///< Normalised; "~" prefix when inherited from an earlier line.
  std::string delta;      ///< "+0.115 s" from the attempt's first failure ("" without times).
  std::string summary;    ///< One line: "exit: killed by SIGKILL (torchrun)".
  bool first_failure = false;  ///< The incident the root cause names first.
  bool fallout = false;        ///< Listed as a consequence of the root cause.
};

/// Incidents of one attempt ordered by time (input order for lines without any).
std::vector<const Incident*> OrderedIncidents(const Job& job, int attempt);

/// The rows of one attempt, the root cause's first evidence marked.
std::vector<TimelineRow> BuildFailureTimeline(const Job& job, const AttemptCause& attempt);

}  // namespace ncclscope

#endif  // NCCLSCOPE_TRIAGE_FAILURE_TIMELINE_H_
