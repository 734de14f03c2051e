// The JSON report's "configuration": JobConfiguration as JSON (docs/json-output.md).
#include "ncclscope/model/job_configuration.h"
#include "ncclscope/report/json_report.h"

namespace ncclscope {
namespace {

using nlohmann::json;

json Values(const std::vector<ValueCount>& values) {
  json arr = json::array();
  for (const auto& v : values) arr.push_back({{"value", v.value}, {"processes", v.processes}});
  return arr;
}

}  // namespace

json JsonConfiguration(const Job& job) {
  const JobConfiguration c = BuildJobConfiguration(job);
  json settings = json::array();
  for (const auto& s : c.settings) {
    settings.push_back(
        {{"name", s.name}, {"value", s.value}, {"origin", s.origin}, {"processes", s.processes}});
  }
  return json{{"processes", c.processes},
              {"nccl_versions", Values(c.nccl_versions)},
              {"cuda_versions", Values(c.cuda_versions)},
              {"cuda_drivers", Values(c.cuda_drivers)},
              {"plugin_versions", Values(c.plugin_versions)},
              {"settings", std::move(settings)},
              {"bootstrap_interfaces", Values(c.bootstrap_interfaces)},
              {"networks", Values(c.networks)},
              {"plugins", Values(c.plugins)},
              {"ib_devices", Values(c.ib_devices)},
              {"socket_devices", Values(c.socket_devices)},
              {"ofi_providers", Values(c.ofi_providers)},
              {"gdrdma", Values(c.gdrdma)},
              {"coll_algos", Values(c.coll_algos)}};
}

}  // namespace ncclscope
