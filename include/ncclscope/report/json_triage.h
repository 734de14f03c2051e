// The JSON report's triage parts, written by JsonStream instead of built as document trees: the
// root cause (a hang of thousands of ranks has a fallout entry per rank), the same per restart
// attempt, and the watchdog table (a row per rank). Keys in byte order, as in the rest of the
// report (docs/json-output.md).
#ifndef NCCLSCOPE_REPORT_JSON_TRIAGE_H_
#define NCCLSCOPE_REPORT_JSON_TRIAGE_H_

#include "ncclscope/model/evidence.h"
#include "ncclscope/model/job.h"
#include "ncclscope/report/json_stream.h"
#include "ncclscope/triage/root_cause.h"

namespace ncclscope {

/// {"line", "source", "text"} of one input line.
void WriteEvidenceJson(const Job& job, const Evidence& e, JsonStream* js);
/// The "root_cause" object of the job or of one attempt.
void WriteRootCauseJson(const Job& job, const RootCause& c, JsonStream* js);
/// The "attempts" array: each attempt's processes and root cause.
void WriteAttemptsJson(const Job& job, const RootCauseReport& r, JsonStream* js);
/// The "watchdog" array: per process group, each rank's watchdog and progress state.
void WriteWatchdogJson(const Job& job, JsonStream* js);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_JSON_TRIAGE_H_
