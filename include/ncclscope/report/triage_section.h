// The triage section of the text report: the watchdog table per process group, the suspects,
// ranks stuck in init, slow bootstrap/init ranks and the first errors in time order.
#ifndef NCCLSCOPE_REPORT_TRIAGE_SECTION_H_
#define NCCLSCOPE_REPORT_TRIAGE_SECTION_H_

#include <ostream>

#include "ncclscope/model/job.h"

namespace ncclscope {

/// Writes "Triage" and its blocks; writes nothing when the job has nothing to triage (no
/// watchdog records, no errors, no stuck or slow init).
void WriteTriageSection(const Job& job, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_TRIAGE_SECTION_H_
