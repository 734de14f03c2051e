// Notices: INFO bodies that report a degradation NCCL works around or a setting it rejected
// (events.h Notice). A first-byte switch, then literal prefixes: most INFO bodies cost one
// compare.
#include <string_view>

#include "body_parsers.h"
#include "ncclscope/parse/connect_retry.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

bool IsNoticeBody(std::string_view b) {
  switch (b.front()) {
    case 'C':
      // The P2P check line says 0 when some local pair cannot use P2P; with 1 it is noise.
      if (StartsWith(b, "Check P2P Type ")) {
        return Contains(b, "intraNodeP2pSupport 0") || Contains(b, "isAllDirectP2p 0");
      }
      // NCCL <= 2.8 reported a connect retry as "Call to connect returned <errno>, retrying".
      if (StartsWith(b, "Call to connect returned ")) return ParseConnectRetry(b, nullptr);
      return StartsWith(b, "Could not open XML topology file") ||
             StartsWith(b, "Could not open XML graph file") ||
             StartsWith(b, "Could not enable P2P between") ||
             (StartsWith(b, "Call to ibv_") && Contains(b, "failed"));
    case 'E':
      return StartsWith(b, "External network plugin") && Contains(b, "unsupported");
    case 'F':
      return StartsWith(b, "Failed to bind NVLink SHARP") ||
             StartsWith(b, "Failed to multicast-bind") ||
             StartsWith(b, "Failed to register memory with DMA-BUF");
    case 'H':
      return StartsWith(b, "HINT: ");
    case 'I':
      return StartsWith(b, "Invalid value ");
    case 'N':
      return (StartsWith(b, "NCCL_") && Contains(b, " is being ignored")) ||
             StartsWith(b, "NET/IB : There are mismatched physical devices");
    case 's':
    case 'n':
      // 2.24.3+ reports every connect retry at INFO ("..., retrying (18/34) after ...").
      return ParseConnectRetry(b, nullptr);
    case 'U':
      return StartsWith(b, "Unknown CTA policy") || StartsWith(b, "Unable to use GIN: Peermem");
    default:
      return false;
  }
}

}  // namespace

bool ParseNotice(std::string_view body, EventData* data) {
  if (body.empty() || !IsNoticeBody(body)) return false;
  *data = Notice{body};
  return true;
}

}  // namespace ncclscope::parse_internal
