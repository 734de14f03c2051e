// InstanceLookup: the process instances of a job (IncidentLog::instances) by attempt and pid, by
// attempt and rank, and by attempt and the input of their first line, so that settling the
// process of every incident (IncidentRecorder::Finish) costs a lookup, not a walk over all
// instances: a failed job of 4,096 ranks has tens of thousands of incidents.
//
// Internal to the builder (src/model).
#ifndef NCCLSCOPE_SRC_MODEL_INSTANCE_LOOKUP_H_
#define NCCLSCOPE_SRC_MODEL_INSTANCE_LOOKUP_H_

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ncclscope/model/incident.h"

namespace ncclscope {

class InstanceLookup {
 public:
  /// `instances` must outlive the lookup and not change while it is used.
  explicit InstanceLookup(const std::vector<ProcessInstance>& instances);

  /// The instances of `attempt` with `pid`, in instance order (empty when none).
  const std::vector<int>& WithPid(int attempt, int64_t pid) const;
  /// The last instance of `attempt` whose rank is `rank`, or null.
  const ProcessInstance* LastWithRank(int attempt, int rank) const;
  /// The only instance of `attempt` whose first line is in input `source`; null when there is
  /// none or several.
  const ProcessInstance* OnlyInSource(int attempt, uint32_t source) const;
  /// Every instance is on the host of the first (true when there are none).
  bool OneHost() const { return one_host_; }

  const ProcessInstance& operator[](int index) const { return instances_[index]; }

 private:
  static uint64_t Key(int attempt, uint32_t value) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(attempt)) << 32) | value;
  }

  const std::vector<ProcessInstance>& instances_;
  std::unordered_map<uint64_t, std::vector<int>> by_pid_;
  std::unordered_map<uint64_t, int> last_by_rank_;
  /// (attempt, source) → the instance, or -1 when several.
  std::unordered_map<uint64_t, int> by_source_;
  bool one_host_ = true;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_SRC_MODEL_INSTANCE_LOOKUP_H_
