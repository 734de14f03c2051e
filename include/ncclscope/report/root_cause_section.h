// The "Root cause" block that opens the text report (and its lines, shared with the markdown
// writer): which rank failed first, where, when and why, the evidence, the fallout and the head
// of the failure timeline; one block per restart attempt when the job was restarted.
#ifndef NCCLSCOPE_REPORT_ROOT_CAUSE_SECTION_H_
#define NCCLSCOPE_REPORT_ROOT_CAUSE_SECTION_H_

#include <ostream>
#include <string>

#include "ncclscope/model/job.h"
#include "ncclscope/triage/root_cause.h"

namespace ncclscope {

/// One line: "rank 1 (vm pid 631) killed by SIGKILL (signal 9): ..." or "no failure found".
std::string RootCauseHeadline(const RootCause& cause);

/// Writes the block; nothing when no attempt failed and nothing is worth saying (healthy job).
void WriteRootCauseSection(const Job& job, const RootCauseReport& report, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_ROOT_CAUSE_SECTION_H_
