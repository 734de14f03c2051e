// JSON form of nccl-tests output (-J FILE, nccl-tests 2.17+): one object per run with "args"
// (args[0] is the test binary), "config" (nthreads, ngpus, minimum_bytes, maximum_bytes,
// devices), "results" (size, count, type, redop, root, out_of_place/in_place {time, alg_bw,
// bus_bw, nwrong}), "out_of_bounds" {count}, "average_bus_bandwidth" {bandwidth}, "errors".
#include <nlohmann/json.hpp>

#include "ncclscope/base/text_tokens.h"
#include "ncclscope/bench/bench_parser.h"

namespace ncclscope {
namespace {

using nlohmann::json;

// A number, or a string holding one ("    -1"); nullopt otherwise (null, "N/A", missing).
std::optional<double> NumberAt(const json& obj, const char* key) {
  if (!obj.is_object()) return std::nullopt;
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) return ParseDouble(TrimWhitespace(it->get_ref<const std::string&>()));
  return std::nullopt;
}

// NumberAt as an integer; nullopt when absent or outside ±2^53 (exact doubles only).
std::optional<int64_t> IntAt(const json& obj, const char* key) {
  std::optional<double> v = NumberAt(obj, key);
  constexpr double kLimit = 9007199254740992.0;  // 2^53
  if (!v || *v < -kLimit || *v > kLimit) return std::nullopt;
  return static_cast<int64_t>(*v);
}

int SmallIntAt(const json& obj, const char* key) {
  std::optional<int64_t> v = IntAt(obj, key);
  return v && *v >= -1000000000 && *v <= 1000000000 ? static_cast<int>(*v) : 0;
}

std::string StringAt(const json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

BenchPlacement PlacementAt(const json& obj, const char* key) {
  BenchPlacement p;
  if (!obj.is_object() || !obj.contains(key)) return p;
  const json& v = obj.at(key);
  p.time_us = NumberAt(v, "time");
  p.algbw_gbps = NumberAt(v, "alg_bw");
  p.busbw_gbps = NumberAt(v, "bus_bw");
  p.wrong = NumberAt(v, "nwrong");
  return p;
}

std::string TestNameFromArgs(const json& doc) {
  auto it = doc.find("args");
  if (it == doc.end() || !it->is_array() || it->empty() || !(*it)[0].is_string()) return "";
  std::string bin = (*it)[0].get<std::string>();
  size_t slash = bin.rfind('/');
  return slash == std::string::npos ? bin : bin.substr(slash + 1);
}

void ReadRun(const json& doc, BenchTest* t) {
  t->source_format = "json";
  t->name = TestNameFromArgs(doc);
  const json empty = json::object();
  const json& config = doc.contains("config") ? doc.at("config") : empty;
  t->nthreads = SmallIntAt(config, "nthreads");
  t->ngpus = SmallIntAt(config, "ngpus");
  t->min_bytes = IntAt(config, "minimum_bytes").value_or(0);
  t->max_bytes = IntAt(config, "maximum_bytes").value_or(0);
  if (config.is_object() && config.contains("devices") && config.at("devices").is_array()) {
    for (const json& d : config.at("devices")) {
      BenchDevice dev;
      dev.rank = SmallIntAt(d, "rank");
      dev.group = SmallIntAt(d, "group");
      dev.pid = IntAt(d, "pid").value_or(0);
      dev.host = StringAt(d, "hostname");
      dev.device = SmallIntAt(d, "device");
      dev.bus_id = StringAt(d, "device_hex");
      dev.name = StringAt(d, "device_info");
      t->devices.push_back(std::move(dev));
    }
  }
  for (const json& r : doc.at("results")) {
    BenchRow row;
    row.size_bytes = IntAt(r, "size").value_or(0);
    row.count = IntAt(r, "count").value_or(0);
    row.type = StringAt(r, "type");
    row.redop = StringAt(r, "redop");
    row.root = IntAt(r, "root");
    row.out_of_place = PlacementAt(r, "out_of_place");
    row.in_place = PlacementAt(r, "in_place");
    t->rows.push_back(std::move(row));
  }
  if (doc.contains("out_of_bounds")) {
    t->out_of_bounds = IntAt(doc.at("out_of_bounds"), "count");
  }
  if (doc.contains("average_bus_bandwidth")) {
    t->avg_busbw_gbps = NumberAt(doc.at("average_bus_bandwidth"), "bandwidth");
  }
  t->concluded = t->out_of_bounds.has_value() || t->avg_busbw_gbps.has_value();
  if (doc.contains("errors") && doc.at("errors").is_array()) {
    for (const json& e : doc.at("errors")) {
      if (e.is_string() && !TrimWhitespace(e.get_ref<const std::string&>()).empty()) {
        t->errors.push_back(e.get<std::string>());
      }
    }
  }
}

}  // namespace

Status ParseBenchJson(std::string_view text, std::vector<BenchTest>* out) {
  out->clear();
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidInput("malformed JSON (not nccl-tests -J output)");
  std::vector<const json*> runs;
  if (doc.is_array()) {
    for (const json& d : doc) runs.push_back(&d);
  } else {
    runs.push_back(&doc);
  }
  for (const json* run : runs) {
    if (!run->is_object() || !run->contains("results") || !run->at("results").is_array()) {
      return Status::InvalidInput("JSON without a \"results\" array (not nccl-tests -J output)");
    }
    BenchTest t;
    ReadRun(*run, &t);
    out->push_back(std::move(t));
  }
  if (out->empty()) return Status::InvalidInput("JSON array without nccl-tests runs");
  return Status::Ok();
}

}  // namespace ncclscope
