// PrefixIdentities: launcher tags and collector pids checked against NCCL heads (see the header).
#include "prefix_identities.h"

namespace ncclscope {

void PrefixIdentities::NoteChange(const EventContext& ctx, int tag, uint32_t origin_pid) {
  if (tag >= 0) {
    auto [it, fresh] = tags_.try_emplace(Key(ctx.source, static_cast<uint32_t>(tag)));
    Cover& c = it->second;
    if (fresh || c.pid == 0) {  // the first process (an agent's line may have come first)
      c.pid = ctx.pid;
      c.dev = ctx.dev;
    } else if (ctx.pid != c.pid && ctx.dev != c.dev) {
      // Another process on another GPU. The same GPU under a new pid is the task's process
      // restarted (an elastic restart); one pid on several GPUs is one process driving them.
      c.several = true;
    }
  }
  if (origin_pid != 0 && origin_pid != ctx.pid) foreign_pids_.insert(Key(ctx.source, origin_pid));
}

}  // namespace ncclscope
