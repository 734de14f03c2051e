// Bootstrap interface, network plugin loading, net selection, NIC discovery and GPU Direct RDMA
// lines (nccl-log-formats.md §3 "Bootstrap", §4).
#include <string_view>

#include "body_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

// One "[i]name:address[/LINK]" or "name:address" item.
bool ReadInterface(std::string_view item, bool ib, NetInterface* out) {
  TextCursor c(item);
  if (c.Eat('[')) {
    if (!c.ReadInt(&out->index) || !c.Eat(']')) return false;
  }
  std::string_view rest = c.rest();
  size_t colon = rest.find(':');
  if (colon == 0 || colon == std::string_view::npos) return false;
  // An alias interface keeps its label in the name ("eno1:avahi:169.254.1.2", "eth0:1:10.0.0.5"):
  // what follows the label is an IPv4 address (dots, no further colon), which an IPv6 address's
  // first group never is followed by.
  if (!ib) {
    for (size_t next = rest.find(':', colon + 1); next != std::string_view::npos;
         next = rest.find(':', colon + 1)) {
      const std::string_view after = rest.substr(next + 1);
      if (next == colon + 1 || after.find(':') != std::string_view::npos ||
          after.find('.') == std::string_view::npos) {
        break;
      }
      colon = next;
    }
  }
  out->name = rest.substr(0, colon);
  std::string_view addr = rest.substr(colon + 1);
  if (ib) {
    size_t slash = addr.rfind('/');
    if (slash != std::string_view::npos) {
      out->link_layer = addr.substr(slash + 1);
      addr = addr.substr(0, slash);
    }
  }
  out->address = addr;
  return true;
}

// Space-separated interface items; stops at "[RO]" or ';'.
void ReadInterfaces(std::string_view s, bool ib, std::vector<NetInterface>* out) {
  TextCursor c(s);
  while (true) {
    c.SkipSpaces();
    if (c.done() || c.Peek() == ';' || StartsWith(c.rest(), "[RO]")) break;
    std::string_view item = c.ReadToken();
    if (!item.empty() && item.back() == ';') item.remove_suffix(1);
    NetInterface ni;
    if (ReadInterface(item, ib, &ni)) out->push_back(ni);
  }
}

bool ParseBootstrap(std::string_view body, EventData* data) {
  TextCursor c(body);
  if (!c.Eat("Bootstrap : Using") && !c.Eat("Bootstrap: Using")) return false;
  BootstrapInterface b;
  ReadInterfaces(c.rest(), false, &b.interfaces);
  *data = std::move(b);
  return true;
}

// "GPU Direct RDMA Enabled|Disabled for ..." after an optional "NET/<name> : ".
bool ParseGdr(std::string_view net, std::string_view rest, EventData* data) {
  TextCursor c(rest);
  if (!c.Eat("GPU Direct RDMA ")) return false;
  GdrStatus g;
  g.net = net;
  if (c.Eat("Enabled")) {
    g.enabled = true;
  } else if (!c.Eat("Disabled")) {
    return false;
  }
  if (!c.Eat(" for ")) return false;
  if (c.Eat("GPU ")) {
    g.gpu = c.ReadToken();
    c.SkipSpaces();
    c.Eat("/ ");
  } else if (StartsWith(c.rest(), "GPU/")) {
    g.gpu = c.ReadToken();
    c.SkipSpaces();
  }
  if (c.Eat("HCA ")) {
    uint64_t hca = 0;
    std::string_view tok = c.ReadToken();
    if (ParseWhole(tok, &hca) || ParseWhole(tok, &hca, 16)) g.hca = static_cast<int>(hca);
    c.SkipSpaces();
    if (c.Eat('\'')) g.device = c.ReadUntil('\'');
  }
  *data = g;
  return true;
}

// The listed library names after "Could not find:" (trailing ". Using ..." removed).
std::string_view NotFoundNames(std::string_view s) {
  s = Trim(s);
  size_t dot = s.find(". ");
  if (dot != std::string_view::npos) s = s.substr(0, dot);
  if (!s.empty() && s.back() == '.') s.remove_suffix(1);
  return s;
}

// "<KIND>/Plugin: ..." or "<KIND>/Plugin : ..." lines.
bool ParsePluginSlash(std::string_view body, EventData* data) {
  size_t slash = body.find("/Plugin");
  if (slash == std::string_view::npos || slash == 0 || slash > 16) return false;
  PluginEvent p;
  p.kind = body.substr(0, slash);
  TextCursor c(body.substr(slash + 7));
  c.SkipSpaces();
  if (!c.Eat(':')) return false;
  c.SkipSpaces();
  std::string_view msg = c.rest();
  size_t pos;
  if (StartsWith(msg, "Could not find:")) {
    p.action = PluginAction::kNotFound;
    p.name = NotFoundNames(msg.substr(15));
  } else if ((pos = msg.find("No plugin found")) != std::string_view::npos) {
    p.action = PluginAction::kNotFound;
    std::string_view r = msg.substr(pos + 15);
    size_t open = r.find('(');
    size_t close = r.find(')');
    if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
      p.name = r.substr(open + 1, close - open - 1);
    }
  } else if (StartsWith(msg, "Loaded ")) {
    p.action = PluginAction::kLoaded;
    TextCursor l(msg.substr(7));
    std::string_view what = l.ReadToken();  // net / coll / collnet
    if (what == "coll" || what == "collnet") p.kind = "COLL";
    l.SkipSpaces();
    l.Eat("plugin ");
    p.name = Trim(l.rest());
  } else if (StartsWith(msg, "Using tuner plugin ") || StartsWith(msg, "Using profiler plugin ")) {
    p.action = PluginAction::kLoaded;
    p.name = Trim(msg.substr(msg.find(" plugin ") + 8));
  } else if (StartsWith(msg, "Plugin name set by env to ")) {
    p.action = PluginAction::kNameFromEnv;
    p.name = Trim(msg.substr(26));
  } else if (StartsWith(msg, "Using internal")) {
    p.action = PluginAction::kUsingInternal;
  } else if (StartsWith(msg, "Failed to find ") && msg.find(" symbol") != std::string_view::npos) {
    p.action = PluginAction::kSymbolMissing;
    TextCursor s(msg.substr(15));
    p.name = s.ReadToken();
  } else if (StartsWith(msg, "Closing ")) {
    return false;  // ENV plugin teardown: noise
  } else {
    // "Plugin load returned ...", "Plugin load (lib) returned ...", "lib: dlerror", "dlerror".
    p.action = PluginAction::kLoadError;
    p.name = msg;
  }
  *data = p;
  return true;
}

// "Initialized NET plugin X", "Failed to initialize NET plugin X", "Assigned NET plugin X to comm",
// "Failed to initialize any NET plugin", "Successfully loaded external plugin X".
bool ParsePluginWords(std::string_view body, EventData* data) {
  TextCursor c(body);
  PluginEvent p;
  if (c.Eat("Initialized ")) {
    p.action = PluginAction::kInitialized;
  } else if (c.Eat("Failed to initialize any ")) {
    p.action = PluginAction::kAllFailed;
    p.kind = c.ReadToken();
    *data = p;
    return true;
  } else if (c.Eat("Failed to initialize ")) {
    p.action = PluginAction::kInitFailed;
  } else if (c.Eat("Assigned ")) {
    p.action = PluginAction::kAssigned;
  } else if (c.Eat("Successfully loaded external plugin ")) {
    p.action = PluginAction::kLoaded;
    p.kind = "NET";
    p.name = Trim(c.rest());
    *data = p;
    return true;
  } else {
    return false;
  }
  p.kind = c.ReadToken();
  if (!c.Eat(" plugin ")) return false;
  std::string_view name = c.rest();
  if (p.action == PluginAction::kAssigned && EndsWith(name, " to comm")) {
    name.remove_suffix(8);
  }
  p.name = Trim(name);
  *data = p;
  return true;
}

// "NET/<name> : ..." lines (IB/Socket device lists, GDR per NIC).
bool ParseNetSlash(std::string_view body, EventData* data) {
  std::string_view rest = body.substr(4);
  size_t sep = rest.find(" : ");
  size_t sep_len = 3;
  if (sep == std::string_view::npos) {
    sep = rest.find(": ");  // 2.22+ "NET/IB: ..." spellings
    sep_len = 2;
    if (sep == std::string_view::npos) {
      // A plugin's own word that it is up: "NET/FastSocket plugin initialized" (Google's).
      constexpr std::string_view kUp = " plugin initialized";
      const std::string_view name = Trim(rest);
      if (!EndsWith(name, kUp) || name.size() == kUp.size() ||
          name.substr(0, name.size() - kUp.size()).find(' ') != std::string_view::npos) {
        return false;
      }
      PluginEvent p;
      p.action = PluginAction::kInitialized;
      p.kind = "NET";
      p.name = name.substr(0, name.size() - kUp.size());
      *data = p;
      return true;
    }
  }
  std::string_view net = rest.substr(0, sep);
  if (net.find('/') != std::string_view::npos) return false;
  std::string_view msg = rest.substr(sep + sep_len);
  if (StartsWith(msg, "GPU Direct RDMA ")) return ParseGdr(net, msg, data);
  if (net == "IB") {
    if (StartsWith(msg, "No device found")) {
      IbDevices d;
      d.none_found = true;
      *data = std::move(d);
      return true;
    }
    if (StartsWith(msg, "[")) {  // 2.3: "NET/IB: [0] mlx5_0:1/IB" (one line per device)
      IbDevices d;
      std::string_view items = msg;
      size_t close = items.find("] ");
      if (close != std::string_view::npos) {
        std::string_view item = Trim(items.substr(close + 2));
        NetInterface ni;
        if (ReadInterface(item, true, &ni)) d.devices.push_back(ni);
      }
      if (d.devices.empty()) return false;
      *data = std::move(d);
      return true;
    }
    if (StartsWith(msg, "Using")) {
      IbDevices d;
      std::string_view items = msg.substr(5);
      ReadInterfaces(items, true, &d.devices);
      size_t oob = items.find("OOB ");
      if (oob != std::string_view::npos) d.oob = Trim(items.substr(oob + 4));
      *data = std::move(d);
      return true;
    }
    return false;
  }
  if (net == "Socket" && StartsWith(msg, "Using")) {
    SocketDevices d;
    ReadInterfaces(msg.substr(5), false, &d.devices);
    *data = std::move(d);
    return true;
  }
  return false;
}

}  // namespace

bool ParseNet(std::string_view body, EventData* data) {
  if (body.empty()) return false;
  switch (body.front()) {
    case 'B':
      return ParseBootstrap(body, data);
    case 'U':
      if (StartsWith(body, "Using network ")) {
        UsingNetwork u;
        u.name = Trim(body.substr(14));
        *data = u;
        return true;
      }
      if (StartsWith(body, "Using internal Network ")) {  // 2.3: "Using internal Network Socket"
        UsingNetwork u;
        u.name = Trim(body.substr(23));
        *data = u;
        return true;
      }
      return false;
    case 'G':
      // 2.28+ GPU-initiated networking plugin: "GIN/Plugin: Could not find: libnccl-gin.so".
      if (StartsWith(body, "GIN/Plugin")) return ParsePluginSlash(body, data);
      return ParseGdr({}, body, data);
    case 'F':
      if (StartsWith(body, "Failed to open libibverbs")) {  // no verbs library: no IB, as
        IbDevices none;                                     // "NET/IB : No device found."
        none.none_found = true;
        *data = std::move(none);
        return true;
      }
      return ParsePluginWords(body, data);
    case 'I':
    case 'A':
    case 'S':
      return ParsePluginWords(body, data);
    case 'N':
      if (StartsWith(body, "NET/OFI ")) return ParseOfi(body, data);
      if (StartsWith(body, "No network plugin found")) {  // 2.3: no libnccl-net.so
        PluginEvent p;
        p.kind = "NET";
        p.action = PluginAction::kNotFound;
        *data = p;
        return true;
      }
      if (StartsWith(body, "Net/IB: call to devices() returned ")) {  // 2.3's IB device count
        TextCursor c(body.substr(35));
        int n = -1;
        if (!c.ReadInt(&n) || !c.Eat(" device")) return false;
        if (n == 0) {
          IbDevices none;  // as "NET/IB : No device found."
          none.none_found = true;
          *data = std::move(none);
        } else {
          *data = KnownNoise{"ib"};  // the devices follow, one line each
        }
        return true;
      }
      if (StartsWith(body, "NET/Plugin")) return ParsePluginSlash(body, data);
      if (StartsWith(body, "NET : Using interface")) {  // NCCL <= 2.4's socket interface
        BootstrapInterface b;
        ReadInterfaces(body.substr(21), false, &b.interfaces);
        *data = std::move(b);
        return true;
      }
      if (StartsWith(body, "NET/")) return ParseNetSlash(body, data);
      if (StartsWith(body, "NET : Using interface ")) {  // 2.3-2.4: one line per interface
        SocketDevices d;
        ReadInterfaces(body.substr(22), false, &d.devices);
        *data = std::move(d);
        return true;
      }
      return false;
    default:
      if (body.substr(0, 20).find("/Plugin") != std::string_view::npos) {
        return ParsePluginSlash(body, data);
      }
      // nccl-rdma-sharp-plugins (HPC-X's libnccl-net.so) names itself as NCCL starts it:
      // "Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so": an external net
      // plugin was loaded.
      if (StartsWith(body, "Plugin Path : ")) {
        PluginEvent p;
        p.kind = "NET";
        p.action = PluginAction::kLoaded;
        p.name = Trim(body.substr(14));
        *data = p;
        return true;
      }
      return false;
  }
}

}  // namespace ncclscope::parse_internal
