// Connect retries: the INFO lines NCCL prints while a socket connect to a peer keeps failing
// (nccl-log-formats.md, Sockets/bootstrap). NCCL <= 2.8 printed "Call to connect returned
// <errno>, retrying"; 2.24.3+ prints one line per retry, "socketPollConnect: connect returned
// Connection refused, retrying (18/34) after sleep for 1800 msec", and from 2.27.3 the line names
// the peer ("... connect to 10.29.224.148<52333> returned ..."). A process whose last line is one
// of them stalled on that connect.
#ifndef NCCLSCOPE_PARSE_CONNECT_RETRY_H_
#define NCCLSCOPE_PARSE_CONNECT_RETRY_H_

#include <string_view>

namespace ncclscope {

struct ConnectRetry {
  std::string_view peer;   ///< "10.29.224.148<52333>"; empty when the line names none.
  std::string_view error;  ///< "Connection refused"; empty when not printed.
};

/// True if the INFO message body `body` (the text after "NCCL INFO ") is a connect retry; fills
/// *out (which may be null).
bool ParseConnectRetry(std::string_view body, ConnectRetry* out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_PARSE_CONNECT_RETRY_H_
