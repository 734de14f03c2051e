// Version lines and environment/config echoes (nccl-log-formats.md §1, §4 "Environment echo").
#include <string_view>

#include "body_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {

bool ParseVersion(std::string_view body, EventData* data) {
  TextCursor c(body);
  if (!c.Eat("NCCL version ")) return false;
  std::string_view rest = Trim(c.rest());
  NcclVersion v;
  size_t n = 0;
  while (n < rest.size() && (IsDigit(rest[n]) || rest[n] == '.')) ++n;
  if (n == 0) return false;
  v.version = rest.substr(0, n);
  rest.remove_prefix(n);
  size_t plus = rest.find("+cuda");
  // NCCL's majors have one digit; a bare "NCCL version 21.1.4" is PyTorch's packed 2.11.4 that a
  // script printed, not NCCL's line.
  if (plus == std::string_view::npos && v.version.find('.') != 1) return false;
  if (plus == std::string_view::npos) {
    v.suffix = rest.substr(0, rest.find(' '));
  } else {
    v.suffix = rest.substr(0, plus);
    std::string_view cuda = rest.substr(plus + 5);
    v.cuda = cuda.substr(0, cuda.find(' '));
  }
  *data = v;
  return true;
}

bool ParseEnv(std::string_view body, EventData* data) {
  TextCursor c(body);
  if (c.Eat("cudaDriverVersion ")) {
    CudaDriverVersion v;
    if (!ParseWhole(Trim(c.rest()), &v.version)) return false;
    *data = v;
    return true;
  }
  if (c.Eat("Comm config ")) {
    CommConfig cfg;
    std::string_view name;
    if (!c.ReadUntilAndEat(" set to ", &name)) return false;
    cfg.name = name;
    cfg.value = c.rest();
    *data = cfg;
    return true;
  }
  // NAME set by environment to VALUE[.] / NAME set to VALUE: NAME is one token.
  std::string_view name = c.ReadToken();
  if (name.empty()) return false;
  EnvSetting env;
  env.name = name;
  if (c.Eat(" set by environment to ")) {
    env.by_environment = true;
  } else if (!c.Eat(" set to ")) {
    return false;
  }
  // Pastes often carry trailing blanks: "NCCL_IB_DISABLE set by environment to 1.      ".
  std::string_view value = Trim(c.rest());
  if (!value.empty() && value.back() == '.') value.remove_suffix(1);
  env.value = value;
  *data = env;
  return true;
}

}  // namespace ncclscope::parse_internal
