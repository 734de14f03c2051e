#include "ncclscope/topo/topo_matrix.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "ncclscope/base/text_tokens.h"

namespace ncclscope {
namespace {

struct KindInfo {
  TopoPathKind kind;
  std::string_view name;
  std::string_view meaning;
};

constexpr std::array<KindInfo, 7> kKinds = {{
    {TopoPathKind::kSelf, "X", "self"},
    {TopoPathKind::kNvlink, "NV#", "NVLink (bonded set of NVLinks)"},
    {TopoPathKind::kPix, "PIX", "one PCIe switch (at most a single PCIe bridge)"},
    {TopoPathKind::kPxb, "PXB", "several PCIe switches (multiple PCIe bridges, no host bridge)"},
    {TopoPathKind::kPhb, "PHB", "PCIe host bridge (through the CPU)"},
    {TopoPathKind::kNode, "NODE", "across PCIe host bridges within a NUMA node"},
    {TopoPathKind::kSys, "SYS", "across NUMA nodes (SMP interconnect such as QPI/UPI)"},
}};

// The columns printed after the device columns, in the order nvidia-smi prints them.
constexpr std::array<std::string_view, 3> kTailColumns = {"CPU Affinity", "NUMA Affinity",
                                                          "GPU NUMA ID"};

bool IsGpuLabel(std::string_view label) {
  if (label.size() < 4 || label.substr(0, 3) != "GPU") return false;
  return std::all_of(label.begin() + 3, label.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsNicNumberLabel(std::string_view label) {
  if (label.size() < 4 || label.substr(0, 3) != "NIC") return false;
  return std::all_of(label.begin() + 3, label.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A header line starts with GPU0 and its second token is not a matrix cell.
bool IsHeaderLine(const std::vector<std::string_view>& tokens) {
  if (tokens.empty() || tokens[0] != "GPU0") return false;
  return tokens.size() == 1 || !ParseTopoPath(tokens[1]).has_value();
}

struct Header {
  std::vector<std::string> labels;
  std::vector<std::string_view> tail;  // tail column names present, in order
};

Header ParseHeader(std::string_view line) {
  Header h;
  size_t tail_start = line.size();
  std::vector<std::pair<size_t, std::string_view>> found;
  for (std::string_view name : kTailColumns) {
    size_t pos = line.find(name);
    if (pos != std::string_view::npos) {
      found.emplace_back(pos, name);
      tail_start = std::min(tail_start, pos);
    }
  }
  std::sort(found.begin(), found.end());
  for (const auto& [pos, name] : found) h.tail.push_back(name);
  for (std::string_view tok : SplitWhitespace(line.substr(0, tail_start))) {
    h.labels.emplace_back(tok);
  }
  return h;
}

void AssignTail(const std::vector<std::string_view>& names,
                const std::vector<std::string_view>& values, TopoDevice* dev) {
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) {
    std::string value(values[i]);
    if (names[i] == "CPU Affinity") {
      dev->cpu_affinity = value;
    } else if (names[i] == "NUMA Affinity") {
      dev->numa_affinity = value;
    } else {
      dev->gpu_numa_id = value;
    }
  }
}

// Reads "  NIC0: mlx5_0" legend lines into the NIC devices.
void ApplyNicLegend(const std::vector<std::string_view>& lines, TopoMatrix* m) {
  for (std::string_view line : lines) {
    std::vector<std::string_view> tokens = SplitWhitespace(line);
    if (tokens.size() != 2 || tokens[0].size() < 2 || tokens[0].back() != ':') continue;
    std::string_view label = tokens[0].substr(0, tokens[0].size() - 1);
    for (TopoDevice& dev : m->devices) {
      if (!dev.is_gpu && dev.label == label) dev.nic_name = std::string(tokens[1]);
    }
  }
}

}  // namespace

std::optional<TopoPath> ParseTopoPath(std::string_view cell) {
  TopoPath p;
  p.text = std::string(cell);
  if (cell == "X") {
    p.kind = TopoPathKind::kSelf;
  } else if (cell == "PIX") {
    p.kind = TopoPathKind::kPix;
  } else if (cell == "PXB") {
    p.kind = TopoPathKind::kPxb;
  } else if (cell == "PHB") {
    p.kind = TopoPathKind::kPhb;
  } else if (cell == "NODE") {
    p.kind = TopoPathKind::kNode;
  } else if (cell == "SYS" || cell == "SOC") {
    p.kind = TopoPathKind::kSys;
  } else if (cell.size() > 2 && cell.substr(0, 2) == "NV") {
    int n = 0;
    const char* first = cell.data() + 2;
    const char* last = cell.data() + cell.size();
    auto [ptr, ec] = std::from_chars(first, last, n);
    if (ec != std::errc() || ptr != last || n <= 0) return std::nullopt;
    p.kind = TopoPathKind::kNvlink;
    p.nvlinks = n;
  } else {
    return std::nullopt;
  }
  return p;
}

std::string_view PathMeaning(TopoPathKind kind) {
  for (const auto& k : kKinds) {
    if (k.kind == kind) return k.meaning;
  }
  return "unknown path";
}

std::string_view PathMeaning(std::string_view cell) {
  std::optional<TopoPath> p = ParseTopoPath(cell);
  return p ? PathMeaning(p->kind) : std::string_view("unknown path");
}

int PathRank(TopoPathKind kind) { return static_cast<int>(kind); }

std::string_view PathKindName(TopoPathKind kind) {
  for (const auto& k : kKinds) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

int TopoMatrix::GpuCount() const {
  return static_cast<int>(
      std::count_if(devices.begin(), devices.end(), [](const TopoDevice& d) { return d.is_gpu; }));
}

int TopoMatrix::NicCount() const { return static_cast<int>(devices.size()) - GpuCount(); }

int TopoMatrix::GpuIndex(int gpu) const {
  if (gpu < 0) return -1;
  int seen = 0;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i].is_gpu) continue;
    if (seen++ == gpu) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> TopoMatrix::NicIndices() const {
  std::vector<int> out;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i].is_gpu) out.push_back(static_cast<int>(i));
  }
  return out;
}

const TopoPath* TopoMatrix::GpuPath(int gpu_a, int gpu_b) const {
  int a = GpuIndex(gpu_a);
  int b = GpuIndex(gpu_b);
  if (a < 0 || b < 0) return nullptr;
  return &paths[a][b];
}

bool TopoMatrix::HasNvlink(int gpu_a, int gpu_b) const {
  const TopoPath* p = GpuPath(gpu_a, gpu_b);
  return p != nullptr && p->kind == TopoPathKind::kNvlink;
}

std::optional<int> TopoMatrix::NvlinkCount(int gpu_a, int gpu_b) const {
  if (!HasNvlink(gpu_a, gpu_b)) return std::nullopt;
  return GpuPath(gpu_a, gpu_b)->nvlinks;
}

std::string TopoMatrix::PathString(int gpu_a, int gpu_b) const {
  const TopoPath* p = GpuPath(gpu_a, gpu_b);
  return p == nullptr ? std::string() : p->text;
}

Status ParseTopoMatrix(std::string_view text, TopoMatrix* out) {
  *out = TopoMatrix();
  std::string clean = StripAnsiEscapes(text);
  std::vector<std::string_view> lines = SplitLines(clean);

  size_t header_line = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (IsHeaderLine(SplitWhitespace(lines[i]))) {
      header_line = i;
      break;
    }
  }
  if (header_line == lines.size()) {
    return Status::InvalidInput(
        "not `nvidia-smi topo -m` output: no header line starting with GPU0 found");
  }
  Header header = ParseHeader(lines[header_line]);
  const size_t n = header.labels.size();
  for (const std::string& label : header.labels) {
    TopoDevice dev;
    dev.label = label;
    dev.is_gpu = IsGpuLabel(label);
    if (!dev.is_gpu && !IsNicNumberLabel(label)) dev.nic_name = label;
    out->devices.push_back(std::move(dev));
  }
  std::vector<std::vector<std::optional<TopoPath>>> cells(n,
                                                          std::vector<std::optional<TopoPath>>(n));
  std::vector<bool> have_row(n, false);

  size_t i = header_line + 1;
  for (; i < lines.size(); ++i) {
    std::vector<std::string_view> tokens = SplitWhitespace(lines[i]);
    if (tokens.empty()) break;
    auto it = std::find(header.labels.begin(), header.labels.end(), tokens[0]);
    if (it == header.labels.end()) {
      if (IsGpuLabel(tokens[0]) || IsNicNumberLabel(tokens[0])) {
        return Status::InvalidInput(
            fmt::format("topology matrix line {}: row {} is not in the "
                        "header",
                        i + 1, tokens[0]));
      }
      break;  // legend or trailing text
    }
    size_t row = static_cast<size_t>(it - header.labels.begin());
    if (tokens.size() < n + 1) {
      return Status::InvalidInput(
          fmt::format("topology matrix line {}: row {} has {} cells, "
                      "expected {}",
                      i + 1, tokens[0], tokens.size() - 1, n));
    }
    for (size_t col = 0; col < n; ++col) {
      std::optional<TopoPath> p = ParseTopoPath(tokens[col + 1]);
      if (!p) {
        return Status::InvalidInput(
            fmt::format("topology matrix line {}: row {} column {}: '{}' is not a topology path "
                        "(X, NV#, PIX, PXB, PHB, NODE, SYS)",
                        i + 1, tokens[0], header.labels[col], tokens[col + 1]));
      }
      cells[row][col] = std::move(p);
    }
    std::vector<std::string_view> tail(tokens.begin() + static_cast<std::ptrdiff_t>(n) + 1,
                                       tokens.end());
    AssignTail(header.tail, tail, &out->devices[row]);
    have_row[row] = true;
  }
  for (size_t r = 0; r < n; ++r) {
    if (out->devices[r].is_gpu && !have_row[r]) {
      return Status::InvalidInput(
          fmt::format("topology matrix: row {} is missing", out->devices[r].label));
    }
  }
  // Missing NIC rows: take the cell from the transposed position; NIC-to-NIC stays unknown.
  out->paths.assign(n, std::vector<TopoPath>(n));
  for (size_t r = 0; r < n; ++r) {
    for (size_t c = 0; c < n; ++c) {
      if (cells[r][c]) {
        out->paths[r][c] = *cells[r][c];
      } else if (cells[c][r]) {
        out->paths[r][c] = *cells[c][r];
      } else if (r == c) {
        out->paths[r][c] = *ParseTopoPath("X");
      } else {
        out->paths[r][c].text = "";  // unknown: neither row was printed
      }
    }
  }
  std::vector<std::string_view> rest(lines.begin() + static_cast<std::ptrdiff_t>(i), lines.end());
  ApplyNicLegend(rest, out);
  return Status::Ok();
}

}  // namespace ncclscope
