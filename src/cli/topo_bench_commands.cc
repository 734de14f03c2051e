// `ncclscope topo` and `ncclscope bench`: companion inputs.
#include "ncclscope/cli/commands.h"
#include "ncclscope/topo/topo_report.h"

namespace ncclscope::cli {

int RunTopo(const TopoCommandOptionsCli& opts, std::ostream& out, std::ostream& err) {
  TopoCommandOptions t;
  t.path = opts.path;
  t.format = opts.format;
  Status s = RunTopoCommand(t, out);
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace ncclscope::cli
