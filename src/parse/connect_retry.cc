#include "ncclscope/parse/connect_retry.h"

#include "text_cursor.h"

namespace ncclscope {
namespace {

/// The error between " returned " and ", retrying" ("Connection refused").
std::string_view ErrorBefore(std::string_view after_returned) {
  const size_t comma = after_returned.find(", retrying");
  return comma == std::string_view::npos ? std::string_view() : after_returned.substr(0, comma);
}

}  // namespace

bool ParseConnectRetry(std::string_view body, ConnectRetry* out) {
  using parse_internal::StartsWith;
  ConnectRetry r;
  constexpr std::string_view kOld = "Call to connect returned ";
  if (StartsWith(body, kOld)) {
    r.error = ErrorBefore(body.substr(kOld.size()));
    if (r.error.empty()) return false;
  } else {
    // "<function>: connect [to <peer>] returned <error>, retrying ...": socketPollConnect,
    // socketStartConnect, ncclOsSocketPollConnect, ncclSocket...
    if (!(StartsWith(body, "socket") || StartsWith(body, "ncclSocket") ||
          StartsWith(body, "ncclOsSocket"))) {
      return false;
    }
    const size_t colon = body.find(": ");
    if (colon == std::string_view::npos) return false;
    std::string_view rest = body.substr(colon + 2);
    if (StartsWith(rest, "connect to ") || StartsWith(rest, "Connect to ")) {
      rest.remove_prefix(11);
      const size_t returned = rest.find(" returned ");
      if (returned == std::string_view::npos) return false;
      r.peer = rest.substr(0, returned);
      rest.remove_prefix(returned + 1);
    } else if (!StartsWith(rest, "connect ")) {
      return false;
    } else {
      rest.remove_prefix(8);
    }
    if (!StartsWith(rest, "returned ")) return false;
    r.error = ErrorBefore(rest.substr(9));
    if (r.error.empty()) return false;
  }
  if (out != nullptr) *out = r;
  return true;
}

}  // namespace ncclscope
