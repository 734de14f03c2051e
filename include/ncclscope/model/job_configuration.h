// JobConfiguration: what a job ran with, counted over its processes: NCCL, CUDA and plugin
// versions, settings (NCCL_* echoed by NCCL, FI_*/NCCL_* added by aws-ofi-nccl), bootstrap
// interfaces, NICs, networks, plugin outcomes, GPUDirect RDMA, and the collective algorithms the
// TUNING lines reported. Each fact is a value with the number of processes that reported it, so a
// report can say "NCCL_P2P_DISABLE=1 on 4 of 4 processes". The JSON report's "configuration"
// and `ncclscope diff` read it.
#ifndef NCCLSCOPE_MODEL_JOB_CONFIGURATION_H_
#define NCCLSCOPE_MODEL_JOB_CONFIGURATION_H_

#include <string>
#include <vector>

#include "ncclscope/model/job.h"

namespace ncclscope {

/// One value of a fact and how many processes reported it.
struct ValueCount {
  std::string value;
  int processes = 0;

  bool operator==(const ValueCount&) const = default;
};

/// One setting in effect: NAME=VALUE on `processes` processes.
struct SettingCount {
  std::string name;
  std::string value;
  /// "environment" (`NAME set by environment to V`), "nccl" (`NAME set to V`: nccl.conf or
  /// NCCL's own choice), "aws-ofi-nccl" (`NET/OFI Adding NAME=V to environment`).
  std::string origin;
  int processes = 0;

  bool operator==(const SettingCount&) const = default;
};

/// Every list is sorted by value (settings by name, value, origin); a process that did not print
/// a fact is not counted in it.
struct JobConfiguration {
  int processes = 0;                        ///< Processes that printed NCCL lines.
  std::vector<ValueCount> nccl_versions;    ///< "2.28.9"
  std::vector<ValueCount> cuda_versions;    ///< "13.0" (the version line's +cuda suffix)
  std::vector<ValueCount> cuda_drivers;     ///< "13000" (cudaDriverVersion)
  std::vector<ValueCount> plugin_versions;  ///< "aws-ofi-nccl 1.16.2", "Libfabric 2.1"
  std::vector<SettingCount> settings;
  std::vector<ValueCount> bootstrap_interfaces;  ///< "eth0" (the address is left out)
  std::vector<ValueCount> networks;              ///< "Using network X": "Socket", "IB"
  /// "NET Libfabric (v10): loaded", "NET aws-ofi-missing libnccl-net-aws-ofi-missing.so: not
  /// found", "NET IB: init failed" (TUNER/PROFILER/ENV "not found" lines are left out: no plugin
  /// is the default).
  std::vector<ValueCount> plugins;
  std::vector<ValueCount>
      ib_devices;  ///< "mlx5_0:1/IB"; "no device found" (NET/IB : No device found.)
  std::vector<ValueCount> socket_devices;  ///< "eth0" (NET/Socket devices, address left out)
  std::vector<ValueCount> ofi_providers;   ///< "efa" (aws-ofi-nccl's selected provider)
  /// Per process with GPUDirect RDMA lines: "enabled" (every NIC), "disabled" (none), "partial".
  std::vector<ValueCount> gdrdma;
  std::vector<ValueCount> coll_algos;  ///< "AllReduce RING/SIMPLE" (TUNING lines)
};

JobConfiguration BuildJobConfiguration(const Job& job);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_JOB_CONFIGURATION_H_
