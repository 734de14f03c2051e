// Which hosts and ranks each input holds lines of (from Process::sources).
#ifndef NCCLSCOPE_MODEL_SOURCE_OWNERS_H_
#define NCCLSCOPE_MODEL_SOURCE_OWNERS_H_

#include <string>
#include <vector>

#include "ncclscope/model/job.h"

namespace ncclscope {

/// The processes whose NCCL lines one input holds.
struct SourceOwners {
  std::vector<std::string> hosts;  ///< Hostnames, sorted, unique.
  std::vector<int> ranks;          ///< Global ranks, sorted, unique (unknown ranks left out).
  std::vector<int> processes;      ///< Indexes into Job::processes.
};

/// One entry per Job::sources element.
std::vector<SourceOwners> OwnersOfSources(const Job& job);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_SOURCE_OWNERS_H_
