// The arguments of a COLL line ("sendbuff P recvbuff P count N datatype N op N root N comm P
// [nranks=N] stream P"), decoded on request: the job model needs only the communicator of a COLL
// line (Collective::comm), so the hot path keeps the rest as text (Collective::args).
#ifndef NCCLSCOPE_PARSE_COLLECTIVE_ARGS_H_
#define NCCLSCOPE_PARSE_COLLECTIVE_ARGS_H_

#include <cstdint>
#include <string_view>

namespace ncclscope {

struct CollectiveArgs {
  uint64_t count = 0;
  int datatype = -1, red_op = -1, root = -1, nranks = 0;
};

/// Decodes Collective::args: NCCL's fixed layout, else "key value" pairs in any order (keys not
/// present keep their defaults).
CollectiveArgs DecodeCollectiveArgs(std::string_view args);

}  // namespace ncclscope

#endif  // NCCLSCOPE_PARSE_COLLECTIVE_ARGS_H_
