#include "ncclscope/report/text_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "ncclscope/base/text_tokens.h"
#include "ncclscope/model/line_coverage.h"
#include "ncclscope/model/link_summary.h"
#include "ncclscope/model/rank_ranges.h"
#include "ncclscope/model/source_owners.h"
#include "ncclscope/report/root_cause_section.h"
#include "ncclscope/report/triage_section.h"

namespace ncclscope {
namespace {

struct Palette {
  bool on;
  std::string_view Wrap(std::string_view code) const { return on ? code : ""; }
  std::string_view bold() const { return Wrap("\x1b[1m"); }
  std::string_view dim() const { return Wrap("\x1b[2m"); }
  std::string_view red() const { return Wrap("\x1b[31m"); }
  std::string_view yellow() const { return Wrap("\x1b[33m"); }
  std::string_view green() const { return Wrap("\x1b[32m"); }
  std::string_view cyan() const { return Wrap("\x1b[36m"); }
  std::string_view reset() const { return Wrap("\x1b[0m"); }
  std::string_view ForClass(TransportClass c) const {
    if (!on) return "";
    switch (c) {
      case TransportClass::kNVL:
      case TransportClass::kNVLS:
        return "\x1b[32m";
      case TransportClass::kNetIB:
      case TransportClass::kNetLibfabric:
      case TransportClass::kCollNet:
        return "\x1b[36m";
      case TransportClass::kP2P:
        return "\x1b[34m";
      case TransportClass::kSHM:
        return "\x1b[33m";
      case TransportClass::kNetSocket:
      case TransportClass::kNetOther:
        return "\x1b[31m";
      case TransportClass::kUnknown:
        break;
    }
    return "";
  }
  std::string_view ForSeverity(Severity s) const {
    return s == Severity::kError ? red() : s == Severity::kWarning ? yellow() : cyan();
  }
};

std::string RankList(std::vector<int> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += j > i + 1 ? fmt::format("{}-{}", ranks[i], ranks[j])
           : j == i  ? std::to_string(ranks[i])
                     : fmt::format("{},{}", ranks[i], ranks[j]);
    i = j + 1;
  }
  return out;
}

std::string ClassCounts(const std::map<TransportClass, int>& m, const Palette& pal) {
  std::string out;
  for (const auto& [cls, n] : m) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{}{}{} {}", pal.ForClass(cls), TransportClassName(cls), pal.reset(), n);
  }
  return out.empty() ? "none" : out;
}

void WriteHeader(const ReportInput& in, const Palette& pal, std::ostream& out) {
  const Job& job = in.job;
  std::string versions;
  for (const auto& v : job.nccl_versions) versions += (versions.empty() ? "" : ", ") + v;
  std::set<int> drivers;
  for (const auto& p : job.processes) {
    if (p.cuda_driver > 0) drivers.insert(p.cuda_driver);
  }
  std::string driver;
  for (int d : drivers) driver += (driver.empty() ? "" : ", ") + std::to_string(d);
  out << fmt::format(
      "{}ncclscope {}{}: {} input{}, {} host{}, {} process{}, {} communicator{}\n", pal.bold(),
      NCCLSCOPE_VERSION, pal.reset(), job.sources.size(), job.sources.size() == 1 ? "" : "s",
      job.hosts.size(), job.hosts.size() == 1 ? "" : "s", job.processes.size(),
      job.processes.size() == 1 ? "" : "es", job.CommunicatorCount(),
      job.CommunicatorCount() == 1 ? "" : "s");
  if (job.stats.folded_comms > 0) {
    out << fmt::format(
        "  {} ended communicators repeated the shape of an earlier one and were folded into it "
        "(counted, their ids not kept)\n",
        job.stats.folded_comms);
  }
  out << fmt::format("  NCCL {}   CUDA driver {}\n", versions.empty() ? "unknown" : versions,
                     driver.empty() ? "unknown" : driver);
  const LineCoverage cov = CoverageOf(job.stats);
  if (cov.read > 0) {
    out << fmt::format("  NCCL lines: {}{}\n", CoverageSummary(cov),
                       cov.not_understood() == 0
                           ? ""
                           : fmt::format("; {}{} not understood{} (list them: ncclscope events "
                                         "--unrecognized)",
                                         pal.yellow(), GroupThousands(cov.not_understood()),
                                         pal.reset()));
  }
  const size_t max_inputs = 8;
  const std::vector<SourceOwners> owners = OwnersOfSources(job);
  for (size_t i = 0; i < job.sources.size() && i < max_inputs; ++i) {
    const auto& s = job.sources[i];
    std::string owner;
    if (!owners[i].hosts.empty()) {
      owner = owners[i].hosts.size() == 1 ? " — host " : " — hosts ";
      // Few hosts are named; many are counted, so the header stays one short line.
      if (owners[i].hosts.size() > 4)
        owner = " — " + std::to_string(owners[i].hosts.size()) + " hosts";
      for (size_t h = 0; h < owners[i].hosts.size() && owners[i].hosts.size() <= 4; ++h) {
        owner += (h ? ", " : "") + owners[i].hosts[h];
      }
      if (!owners[i].ranks.empty()) {
        owner += fmt::format(", rank{} {}", owners[i].ranks.size() == 1 ? "" : "s",
                             RankRanges(owners[i].ranks));
      }
    }
    const uint64_t not_understood = CoverageOf(s).not_understood();
    const std::string wrapped =
        s.wrap_width == 0 ? std::string()
                          : fmt::format(", hard-wrapped at {} columns: {} lines joined again",
                                        s.wrap_width, s.rejoined_lines);
    out << fmt::format("  input {}: {} lines, {} NCCL, {} not understood{}{}{}{}\n", s.name,
                       s.lines, s.nccl_lines + s.mention_lines, not_understood,
                       s.truncated_lines ? fmt::format(", {} truncated", s.truncated_lines) : "",
                       wrapped, owner, s.problem.empty() ? "" : " — " + s.problem);
  }
  if (job.sources.size() > max_inputs)
    out << fmt::format("  ... and {} more inputs\n", job.sources.size() - max_inputs);
  for (const auto& p : in.problems)
    out << fmt::format("  {}input problem{}: {}: {}\n", pal.red(), pal.reset(), p.path, p.message);
  const size_t max_hosts = 16;
  // Hosts in rank order (their lowest global rank), not in order of first appearance.
  std::vector<std::pair<unsigned, size_t>> host_order;
  for (size_t h = 0; h < job.hosts.size(); ++h) {
    unsigned low = static_cast<unsigned>(-1);
    for (int pi : job.hosts[h].processes)
      low = std::min(low, static_cast<unsigned>(job.processes[pi].global_rank));
    host_order.emplace_back(low, h);
  }
  std::sort(host_order.begin(), host_order.end());
  for (size_t k = 0; k < host_order.size() && k < max_hosts; ++k) {
    const Host& host = job.hosts[host_order[k].second];
    std::vector<int> ranks, gpus;
    for (int pi : host.processes) {
      const Process& p = job.processes[pi];
      if (p.global_rank >= 0) ranks.push_back(p.global_rank);
      gpus.insert(gpus.end(), p.cuda_devs.begin(), p.cuda_devs.end());
    }
    std::string nodes;
    if (host.nodes.size() > 1 || (host.nodes.size() == 1 && *host.nodes.begin() != host.name)) {
      for (const auto& n : host.nodes) nodes += (nodes.empty() ? "" : ",") + n;
      nodes = " as NCCL nodes " + nodes;
    }
    out << fmt::format("  host {}{}: {} process{}, ranks {}, GPUs {}{}\n", host.name,
                       host.address.empty() ? "" : " (" + host.address + ")", host.processes.size(),
                       host.processes.size() == 1 ? "" : "es",
                       ranks.empty() ? "?" : RankList(ranks), gpus.empty() ? "?" : RankList(gpus),
                       nodes);
  }
  if (job.hosts.size() > max_hosts)
    out << fmt::format("  ... and {} more hosts\n", job.hosts.size() - max_hosts);
}

/// Slowest class per (src, dst) cell.
void WriteMatrix(const Job& job, const CommLinkSummary& s, int nranks, const Palette& pal,
                 std::ostream& out) {
  std::vector<std::vector<std::optional<TransportClass>>> cell(
      nranks, std::vector<std::optional<TransportClass>>(nranks));
  for (int idx : s.link_indexes) {
    const Link& l = job.links[idx];
    if (l.src < 0 || l.dst < 0 || l.src >= nranks || l.dst >= nranks) continue;
    auto& c = cell[l.src][l.dst];
    if (!c || TransportClassSpeedRank(l.cls) < TransportClassSpeedRank(*c)) c = l.cls;
  }
  int w = nranks > 10 ? 3 : 2;
  out << "    src\\dst" << std::string(1, ' ');
  for (int d = 0; d < nranks; ++d) out << fmt::format("{:>{}}", d, w);
  out << "\n";
  for (int r = 0; r < nranks; ++r) {
    out << fmt::format("    {:>7} ", r);
    for (int d = 0; d < nranks; ++d) {
      if (r == d) {
        out << fmt::format("{:>{}}", "-", w);
      } else if (!cell[r][d]) {
        out << fmt::format("{:>{}}", ".", w);
      } else {
        out << std::string(w - 1, ' ') << pal.ForClass(*cell[r][d]) << ClassLetter(*cell[r][d])
            << pal.reset();
      }
    }
    out << "\n";
  }
}

/// Host × host aggregation for large communicators: slowest class between the two hosts.
void WriteHostMatrix(const Job& job, const CommLinkSummary& s, const Palette& pal,
                     std::ostream& out) {
  std::map<std::pair<int, int>, TransportClass> cell;
  std::set<int> hosts;
  for (int idx : s.link_indexes) {
    const Link& l = job.links[idx];
    int a = HostOfRank(job, l.comm, l.src), b = HostOfRank(job, l.comm, l.dst);
    if (a < 0 || b < 0) continue;
    hosts.insert(a);
    hosts.insert(b);
    auto [it, fresh] = cell.emplace(std::make_pair(a, b), l.cls);
    if (!fresh && TransportClassSpeedRank(l.cls) < TransportClassSpeedRank(it->second))
      it->second = l.cls;
  }
  if (hosts.empty()) return;
  if (hosts.size() > 32) {
    // Too many hosts for a matrix: count host pairs by their slowest class instead.
    std::map<TransportClass, int> within, between;
    for (const auto& [pair, cls] : cell) ++(pair.first == pair.second ? within : between)[cls];
    out << fmt::format("    {} hosts; within a host (slowest class per host): {}\n", hosts.size(),
                       ClassCounts(within, pal));
    out << fmt::format("    between hosts (slowest class per connected host pair): {}\n",
                       ClassCounts(between, pal));
    return;
  }
  out << "    hosts (slowest class between each pair; diagonal = within the host):\n";
  std::vector<int> hv(hosts.begin(), hosts.end());
  for (size_t i = 0; i < hv.size(); ++i)
    out << fmt::format("    h{:<3} {}\n", i, job.hosts[hv[i]].name);
  out << "         ";
  for (size_t i = 0; i < hv.size(); ++i) out << fmt::format("{:>4}", "h" + std::to_string(i));
  out << "\n";
  for (size_t i = 0; i < hv.size(); ++i) {
    out << fmt::format("    {:>4} ", "h" + std::to_string(i));
    for (size_t j = 0; j < hv.size(); ++j) {
      auto it = cell.find({hv[i], hv[j]});
      if (it == cell.end()) {
        out << "   .";
      } else {
        out << "   " << pal.ForClass(it->second) << ClassLetter(it->second) << pal.reset();
      }
    }
    out << "\n";
  }
}

void WriteComms(const ReportInput& in, const ReportOptions& opts, const Palette& pal,
                std::ostream& out) {
  const Job& job = in.job;
  auto summaries = SummarizeLinks(job);
  std::map<int, const CommLinkSummary*> by_comm;
  for (const auto& s : summaries) by_comm[s.comm] = &s;
  out << fmt::format("\n{}Communicators{}\n", pal.bold(), pal.reset());
  if (job.comms.empty()) out << "  none found (no Init lines in the input)\n";
  bool any_unknown_path = false;
  auto write_summary = [&](const CommLinkSummary& s, int nranks, std::ostream& out) {
    out << fmt::format("    links: {} ({} intra-node, {} inter-node{})  {}\n", s.links, s.intra,
                       s.inter,
                       s.unknown_locality ? fmt::format(", {} unknown", s.unknown_locality) : "",
                       ClassCounts(s.by_class, pal));
    if (s.bottleneck) {
      auto bw = IndicativeBandwidth(*s.bottleneck);
      out << fmt::format("    bottleneck: {}{}{} (~{:g}-{:g} GB/s per direction)\n",
                         pal.ForClass(*s.bottleneck), TransportClassName(*s.bottleneck),
                         pal.reset(), bw.low_gbps, bw.high_gbps);
    }
    if (s.p2p_path_unknown) {
      any_unknown_path = true;
      out << fmt::format("    {} P2P link{} without a proven NVLink/PCIe path\n",
                         s.p2p_path_unknown, s.p2p_path_unknown == 1 ? "" : "s");
    }
    if (nranks > 1 && nranks <= opts.matrix_max_ranks) {
      WriteMatrix(job, s, nranks, pal, out);
    } else if (nranks > opts.matrix_max_ranks) {
      WriteHostMatrix(job, s, pal, out);
    }
  };
  // Each communicator renders to a header and a body; communicators with the same shape
  // (same header apart from the id, same links and matrix) are shown once with a count, so a job
  // with a hundred identical TP groups stays short.
  struct Block {
    std::string header_rest;  // header after the id
    std::string body;
    std::vector<std::string> ids;
    uint64_t repeats = 0;  // folded communicators of the same shape, not in ids
  };
  std::vector<Block> blocks;
  std::map<std::string, size_t> block_of;
  for (size_t i = 0; i < job.comms.size(); ++i) {
    const Communicator& c = job.comms[i];
    int complete = 0;
    for (const auto& [r, cr] : c.ranks) complete += cr.completed ? 1 : 0;
    std::string state = complete == c.nranks && static_cast<int>(c.ranks.size()) == c.nranks
                            ? std::string(pal.green()) + "init complete" + std::string(pal.reset())
                            : fmt::format("{}{}/{} ranks seen, {} complete{}", pal.yellow(),
                                          c.ranks.size(), c.nranks, complete, pal.reset());
    std::string rest = fmt::format(
        "  {} ranks{}{}, {}{}{}\n", c.nranks,
        c.nnodes >= 0 ? fmt::format(", {} node{}", c.nnodes, c.nnodes == 1 ? "" : "s") : "",
        c.local_ranks >= 0 ? fmt::format(", {} local", c.local_ranks) : "", state,
        c.nchannels >= 0 ? fmt::format(", {} channels", c.nchannels) : "",
        c.parent_id.empty() ? "" : ", split of " + c.parent_id);
    std::ostringstream body;
    auto it = by_comm.find(static_cast<int>(i));
    if (it == by_comm.end()) {
      body << "    no connection lines\n";
    } else {
      write_summary(*it->second, c.nranks, body);
    }
    std::string key = rest + body.str();
    auto [bit, fresh] = block_of.emplace(key, blocks.size());
    if (fresh) blocks.push_back(Block{rest, body.str(), {}});
    blocks[bit->second].ids.push_back(c.id);
    blocks[bit->second].repeats += c.repeats;
  }
  const size_t max_blocks = 24;
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (b == max_blocks) {
      size_t rest = 0;
      for (size_t k = b; k < blocks.size(); ++k) rest += blocks[k].ids.size() + blocks[k].repeats;
      out << fmt::format("  ... and {} more communicators (see --format json)\n", rest);
      break;
    }
    const Block& blk = blocks[b];
    out << fmt::format("  {}{}{}", pal.bold(), blk.ids.front(), pal.reset()) << blk.header_rest;
    if (blk.ids.size() > 1 || blk.repeats > 0) {
      std::string more;
      for (size_t k = 1; k < blk.ids.size() && k <= 3; ++k)
        more += (k > 1 ? ", " : "") + blk.ids[k];
      if (blk.ids.size() > 4 || (blk.repeats > 0 && blk.ids.size() > 1)) more += ", ...";
      if (blk.repeats > 0) more += (more.empty() ? "" : " ") + std::string("(folded, ids not kept)");
      const uint64_t n = blk.ids.size() - 1 + blk.repeats;
      out << fmt::format("    and {} more communicator{} of the same shape: {}\n", n,
                         n == 1 ? "" : "s", more);
    }
    out << blk.body;
  }
  auto unk = by_comm.find(-1);
  if (unk != by_comm.end()) {
    out << fmt::format(
        "  {}(communicator unknown){}: these connection lines come from processes whose init "
        "lines are not in the input, so their communicator cannot be told\n",
        pal.bold(), pal.reset());
    write_summary(*unk->second, 0, out);
  }
  out << "  legend: N NVL  P P2P(PCIe/unknown path)  S SHM  T NET/Socket  I NET/IB  "
         "E NET/Libfabric  O NET/other  C CollNet  . none\n";
  if (any_unknown_path && !job.topo_given) {
    out << "  to prove NVLink vs PCIe for P2P links: pass --topo FILE (`nvidia-smi topo -m` of "
           "the node) or rerun with NCCL_DEBUG_SUBSYS=INIT,GRAPH\n";
  }
}

void WriteFindings(const ReportInput& in, const Palette& pal, std::ostream& out) {
  const Job& job = in.job;
  out << fmt::format("\n{}Findings{}\n", pal.bold(), pal.reset());
  if (in.findings.empty()) out << "  none\n";
  int counts[3] = {0, 0, 0};
  // The cause's own findings first, its fallout after them.
  std::vector<const Finding*> order;
  for (const auto& f : in.findings) {
    if (f.caused_by.empty()) order.push_back(&f);
  }
  for (const auto& f : in.findings) {
    if (!f.caused_by.empty()) order.push_back(&f);
  }
  for (const Finding* fp : order) {
    const Finding& f = *fp;
    ++counts[static_cast<int>(f.severity)];
    std::string sev(SeverityName(f.severity));
    for (char& ch : sev) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    out << fmt::format("  {}{:<7}{} {}{}{}  [{}]\n", pal.ForSeverity(f.severity), sev, pal.reset(),
                       pal.bold(), f.title, pal.reset(), f.rule);
    if (!f.caused_by.empty()) out << fmt::format("          fallout of the root cause ({})\n", f.caused_by);
    if (!f.message.empty()) out << fmt::format("          {}\n", f.message);
    if (!f.suspect_ranks.empty())
      out << fmt::format("          suspect ranks: {}\n", RankList(f.suspect_ranks));
    for (const auto& e : f.evidence) {
      const std::string text = ClipText(e.text, 200);
      out << fmt::format("          {}{}:{}:{} {}\n", pal.dim(), job.SourceName(e.source), e.line,
                         pal.reset(), text);
    }
    if (!f.fix.empty())
      out << fmt::format("          {}fix:{} {}\n", pal.green(), pal.reset(), f.fix);
  }
  out << fmt::format("\n{} error{}, {} warning{}, {} info\n", counts[2], counts[2] == 1 ? "" : "s",
                     counts[1], counts[1] == 1 ? "" : "s", counts[0]);
}

}  // namespace

char ClassLetter(TransportClass c) {
  switch (c) {
    case TransportClass::kNVL:
      return 'N';
    case TransportClass::kP2P:
      return 'P';
    case TransportClass::kSHM:
      return 'S';
    case TransportClass::kNetSocket:
      return 'T';
    case TransportClass::kNetIB:
      return 'I';
    case TransportClass::kNetLibfabric:
      return 'E';
    case TransportClass::kNetOther:
      return 'O';
    case TransportClass::kCollNet:
      return 'C';
    case TransportClass::kNVLS:
      return 'V';
    case TransportClass::kUnknown:
      break;
  }
  return '?';
}

void WriteTextReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out) {
  Palette pal{opts.color};
  RootCauseReport storage;
  WriteRootCauseSection(in.job, RootCauseOf(in, &storage), out);
  WriteHeader(in, pal, out);
  WriteComms(in, opts, pal, out);
  WriteTriageSection(in.job, out);
  WriteFindings(in, pal, out);
}

}  // namespace ncclscope
