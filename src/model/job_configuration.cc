// BuildJobConfiguration: each process's versions, settings, interfaces, plugins and algorithms,
// counted per value over the job's processes.
#include "ncclscope/model/job_configuration.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace ncclscope {
namespace {

/// Counts distinct values per process: a process adds each value of one fact at most once.
/// A process has a few values per fact, so its own are a short list; a job of thousands of
/// processes repeats the same values, counted without building a string per process.
class Tally {
 public:
  void Add(std::string_view value) {
    if (value.empty()) return;
    for (const std::string& v : seen_) {
      if (v == value) return;
    }
    seen_.emplace_back(value);
    auto it = counts_.find(value);
    if (it == counts_.end()) {
      counts_.emplace(std::string(value), 1);
    } else {
      ++it->second;
    }
  }
  void NextProcess() { seen_.clear(); }
  std::vector<ValueCount> Values() const {
    std::vector<ValueCount> out;
    for (const auto& [value, n] : counts_) out.push_back(ValueCount{value, n});
    return out;
  }

 private:
  std::map<std::string, int, std::less<>> counts_;
  std::vector<std::string> seen_;
};

/// "loaded", "not found", ... for the plugin outcomes worth comparing; empty for the rest
/// (symbol probing, the comm assignment that repeats "initialized", default plugins absent).
std::string_view PluginOutcome(const PluginNote& n) {
  switch (n.action) {
    case PluginAction::kLoaded:
      return "loaded";
    case PluginAction::kLoadError:
      return "load error";
    case PluginAction::kInitialized:
      return "initialized";
    case PluginAction::kInitFailed:
      return "init failed";
    case PluginAction::kAllFailed:
      return "all failed";
    case PluginAction::kUsingInternal:
      return "internal";
    case PluginAction::kNotFound:
      return n.kind == "NET" ? "not found" : "";
    case PluginAction::kAssigned:
    case PluginAction::kNameFromEnv:
    case PluginAction::kSymbolMissing:
      break;
  }
  return "";
}

/// "eth0" of "eth0:192.0.2.2<0>".
std::string InterfaceName(const std::string& device) { return device.substr(0, device.find(':')); }

}  // namespace

JobConfiguration BuildJobConfiguration(const Job& job) {
  JobConfiguration c;
  Tally nccl, cuda, driver, plugin_versions, bootstrap, networks, plugins, ib, sockets, providers,
      gdr, algos;
  // Views into the job's processes (names, values) and literals (origins): the job outlives the
  // count, and the strings are built once per distinct setting at the end.
  using SettingKey = std::tuple<std::string_view, std::string_view, std::string_view>;
  std::map<SettingKey, int> settings;
  Tally* all[] = {&nccl,    &cuda, &driver,  &plugin_versions, &bootstrap, &networks,
                  &plugins, &ib,   &sockets, &providers,       &gdr,       &algos};
  for (const Process& p : job.processes) {
    ++c.processes;
    for (Tally* t : all) t->NextProcess();
    nccl.Add(p.nccl_version);
    cuda.Add(p.cuda_version);
    if (p.cuda_driver >= 0) driver.Add(std::to_string(p.cuda_driver));
    std::set<SettingKey> process_settings;
    for (const auto& [name, s] : p.env)
      process_settings.emplace(name, s.value, s.by_environment ? "environment" : "nccl");
    for (const OfiNote& o : p.ofi) {
      switch (o.kind) {
        case OfiKind::kInitializing:
          plugin_versions.Add("aws-ofi-nccl " + o.value);
          break;
        case OfiKind::kLibfabricVersion:
          plugin_versions.Add("Libfabric " + o.value);
          break;
        case OfiKind::kProviderSelected:
          providers.Add(o.value);
          break;
        case OfiKind::kEnvAdded: {
          const std::string_view added = o.value;
          const size_t eq = added.find('=');
          if (eq != std::string_view::npos && eq > 0)
            process_settings.emplace(added.substr(0, eq), added.substr(eq + 1), "aws-ofi-nccl");
          break;
        }
        default:
          break;
      }
    }
    for (const auto& key : process_settings) ++settings[key];
    bootstrap.Add(p.bootstrap_if);
    networks.Add(p.network);
    for (const PluginNote& n : p.plugins) {
      std::string_view outcome = PluginOutcome(n);
      if (!outcome.empty()) plugins.Add(n.kind + " " + n.name + ": " + std::string(outcome));
    }
    if (p.ib_no_device && p.ib_devices.empty()) ib.Add("no device found");
    for (const auto& d : p.ib_devices) ib.Add(d);
    for (const auto& d : p.socket_devices) sockets.Add(InterfaceName(d));
    if (p.gdr_enabled_nics + p.gdr_disabled_nics > 0) {
      gdr.Add(p.gdr_disabled_nics == 0  ? "enabled"
              : p.gdr_enabled_nics == 0 ? "disabled"
                                        : "partial");
    }
    for (const auto& a : p.coll_algos) algos.Add(a);
  }
  c.nccl_versions = nccl.Values();
  c.cuda_versions = cuda.Values();
  c.cuda_drivers = driver.Values();
  c.plugin_versions = plugin_versions.Values();
  for (const auto& [key, n] : settings) {
    const auto& [name, value, origin] = key;
    c.settings.push_back(
        SettingCount{std::string(name), std::string(value), std::string(origin), n});
  }
  c.bootstrap_interfaces = bootstrap.Values();
  c.networks = networks.Values();
  c.plugins = plugins.Values();
  c.ib_devices = ib.Values();
  c.socket_devices = sockets.Values();
  c.ofi_providers = providers.Values();
  c.gdrdma = gdr.Values();
  c.coll_algos = algos.Values();
  return c;
}

}  // namespace ncclscope
