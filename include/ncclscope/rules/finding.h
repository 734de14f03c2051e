// Finding: one problem (or noteworthy fact) a rule found in the job, with the lines that show it.
#ifndef NCCLSCOPE_RULES_FINDING_H_
#define NCCLSCOPE_RULES_FINDING_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/model/job.h"

namespace ncclscope {

enum class Severity : uint8_t { kInfo = 0, kWarning = 1, kError = 2 };

/// "info", "warning", "error".
std::string_view SeverityName(Severity s);
/// Inverse of SeverityName; nullopt for anything else.
std::optional<Severity> ParseSeverity(std::string_view name);

struct Finding {
  std::string rule;  ///< Rule id, e.g. "socket-fallback".
  Severity severity = Severity::kWarning;
  std::string title;               ///< One line, the rule's title or a specialisation of it.
  std::string message;             ///< What was found, with numbers, ranks and hosts.
  std::string fix;                 ///< What to do about it.
  std::vector<Evidence> evidence;  ///< A few lines (at most ~5), not thousands.
  std::vector<int> ranks;          ///< Ranks concerned (global ranks where known).
  std::vector<std::string> hosts;
  std::vector<std::string> comms;  ///< Communicator ids.
  std::vector<int> suspect_ranks;  ///< Triage: ranks most likely at fault (global ranks).
  std::vector<std::string> suspect_hosts;
  /// Set when the finding is a consequence of the job's root cause ("rank 1 process-killed"):
  /// reports list it as fallout after the cause (src/triage/fallout.cc).
  std::string caused_by;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_FINDING_H_
