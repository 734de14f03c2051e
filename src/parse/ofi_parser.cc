// aws-ofi-nccl "NET/OFI ..." messages (nccl-log-formats.md §6).
#include <string_view>

#include "body_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

// "Selected Provider is efa (found 4 nics)" / "Selected provider is efa, fabric is efa (found 4
// nics)"
void ReadProvider(std::string_view rest, OfiEvent* e) {
  size_t end = rest.find_first_of(", (");
  e->value = Trim(rest.substr(0, end));
  size_t fabric = rest.find("fabric is ");
  if (fabric != std::string_view::npos) {
    std::string_view f = rest.substr(fabric + 10);
    e->fabric = Trim(f.substr(0, f.find_first_of(" ,(")));
  }
  size_t found = rest.find("(found ");
  if (found != std::string_view::npos) {
    TextCursor c(rest.substr(found + 7));
    c.ReadInt(&e->nics);
  }
}

}  // namespace

bool ParseOfi(std::string_view body, EventData* data) {
  TextCursor c(body);
  if (!c.Eat("NET/OFI ")) return false;
  std::string_view msg = Trim(c.rest());
  OfiEvent e;
  e.value = msg;
  if (StartsWith(msg, "Initializing ") && !Contains(msg, "failed")) {
    e.kind = OfiKind::kInitializing;
    std::string_view v = msg.substr(13);
    if (StartsWith(v, "aws-ofi-nccl ")) v.remove_prefix(13);
    e.value = v;
  } else if (StartsWith(msg, "Using Libfabric version ")) {
    e.kind = OfiKind::kLibfabricVersion;
    e.value = msg.substr(24);
  } else if (StartsWith(msg, "Selected Provider is ") || StartsWith(msg, "Selected provider is ")) {
    e.kind = OfiKind::kProviderSelected;
    ReadProvider(msg.substr(21), &e);
  } else if (StartsWith(msg, "No eligible providers") ||
             StartsWith(msg, "Couldn't find any optimal provider")) {
    e.kind = OfiKind::kNoEligibleProviders;
  } else if (Contains(msg, "Initializing plugin failed") ||
             Contains(msg, "initialization failed") ||
             StartsWith(msg, "Unable to find a protocol that worked") ||
             Contains(msg, "fi_getinfo() call failed") ||
             StartsWith(msg, "Couldn't open a fabric")) {
    e.kind = OfiKind::kInitFailed;
  } else if (StartsWith(msg, "Running on ")) {
    e.kind = OfiKind::kPlatform;
    std::string_view v = msg.substr(11);
    e.value = v.substr(0, v.find(' '));
  } else if (StartsWith(msg, "Setting provider_filter to ")) {
    e.kind = OfiKind::kProviderFilter;
    e.value = msg.substr(27);
  } else if (StartsWith(msg, "Using transport protocol ")) {
    e.kind = OfiKind::kProtocol;
    std::string_view v = msg.substr(25);
    e.value = v.substr(0, v.find(' '));
  } else if (StartsWith(msg, "Adding ") && EndsWith(msg, " to environment")) {
    e.kind = OfiKind::kEnvAdded;
    e.value = msg.substr(7, msg.size() - 7 - 15);
  } else if (StartsWith(msg, "GDR disabled on GDR-supported instance type ")) {
    e.kind = OfiKind::kGdrDisabled;
    e.value = msg.substr(44);
  } else if (Contains(msg, "disabling GDR")) {
    e.kind = OfiKind::kGdrDisabled;
  } else if (StartsWith(msg, "Request ") && Contains(msg, "completed with error")) {
    e.kind = OfiKind::kRequestError;
  } else {
    e.kind = OfiKind::kOther;
  }
  *data = e;
  return true;
}

}  // namespace ncclscope::parse_internal
