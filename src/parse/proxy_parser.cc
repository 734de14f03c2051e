// The proxy service thread's report of a local peer's connection closing (events.h
// ProxyPeerClosed): "[Service thread] Connection closed by localRank 7" (NCCL 2.12+, proxy.cc).
#include <string_view>

#include "body_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {

bool ParseProxyPeerClosed(std::string_view body, EventData* data) {
  TextCursor c(body);
  int local_rank = -1;
  if (!c.Eat("[Service thread] Connection closed by localRank ") || !IsDigit(c.Peek()) ||
      !c.ReadInt(&local_rank)) {
    return false;
  }
  *data = ProxyPeerClosed{local_rank};
  return true;
}

}  // namespace ncclscope::parse_internal
