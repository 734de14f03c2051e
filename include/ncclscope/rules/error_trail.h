// NCCL's return-code trail: the `file:line -> N` INFO lines NCCLCHECK prints on the way up from a
// failed call (`include/net.h:25 -> 2`, `transport/net.cc:515 -> 2`, bazel's
// `external/nccl_archive/src/init.cc:310 -> 2`). NCCL prints the WARN that says why just before
// the first of them; when an excerpt holds only the trail, the trail still says that a call
// failed, with which ncclResult_t, and in which part of NCCL it started.
#ifndef NCCLSCOPE_RULES_ERROR_TRAIL_H_
#define NCCLSCOPE_RULES_ERROR_TRAIL_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "ncclscope/model/job.h"

namespace ncclscope {

/// "ncclSystemError" for 2 (nccl.h's ncclResult_t, 0-7); "" for other codes.
std::string_view NcclResultName(int code);
/// What the code means in plain words ("a system call or an external library failed ...");
/// "" for other codes.
std::string_view NcclResultMeaning(int code);
/// Whether a trail with this code reports a failure: 1-6. 0 is success and 7 (ncclInProgress)
/// is a non-blocking call still running.
bool IsFailureCode(int code);

/// The part of NCCL a failing trail starts in, which names the family of the failure.
enum class TrailArea : uint8_t {
  kNetwork,     ///< Sockets, bootstrap, proxy, the net transport and plugins: a peer or the path.
  kInfiniBand,  ///< The IB verbs transport (net_ib, ibvwrap, an IB plugin).
  kCuda,        ///< A CUDA call failed (code 1, or CUDA wrappers).
  kShm,         ///< The shared-memory transport (/dev/shm).
  kNccl,        ///< Anywhere else: NCCL's own checks, usage, arguments.
};
/// "network", "InfiniBand", "CUDA", "shared memory", "NCCL".
std::string_view TrailAreaName(TrailArea area);
/// The area of a trail line from its location (any path prefix: bazel, build trees) and code.
TrailArea AreaOfTrail(std::string_view location, int code);

/// The external network plugin a trail line's source file belongs to ("the HPC-X UCX plugin
/// (nccl-rdma-sharp-plugins)" for ucx_plugin.c, "aws-ofi-nccl" for nccl_ofi_*.c), or "" when
/// the file is NCCL's own or an IB plugin's (those are InfiniBand failures).
std::string_view NetPluginOfTrail(std::string_view location);

/// A proxy's report that an operation failed ("[Proxy Service 14] Failed to execute operation
/// Connect from rank 14, retcode 2", "Proxy Call to rank 14 failed (Connect)", "[Service thread]
/// Error encountered progressing operation=Connect, res=3, closing connection"): it says that an
/// operation failed, not why; the error it wraps is printed by the same process.
bool IsProxyOperationReport(std::string_view message);

/// The first failing trail line of each process that no WARN explains, in input order (at most
/// one per process). A trail is explained when a WARN is printed on the line before its chain
/// (the consecutive trail lines it belongs to; a proxy's operation report does not count): NCCL's
/// own account of that failure, e.g. a
/// known-harmless probe ("lib wrapper not initialized" then `gdr.cc:56 -> 3`) or a plugin that
/// failed before NCCL fell back ("aws-ofi-nccl initialization failed" then `net.cc:56 -> 2`);
/// and when the line after the chain says NCCL went on without what failed (`net_ib.cc:852 ->
/// 3` then "Failed to initialize NET plugin IB" with NCCL_IB_DISABLE=1, then sockets).
std::vector<const ErrorTrailRecord*> SilentFailingTrails(const Job& job);

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_ERROR_TRAIL_H_
