// The knowledge tables, one per family group (src/rules/knowledge_<group>.cc); knowledge.cc
// joins them into KnowledgeBase().
#ifndef NCCLSCOPE_SRC_RULES_KNOWLEDGE_TABLES_H_
#define NCCLSCOPE_SRC_RULES_KNOWLEDGE_TABLES_H_

#include <span>

#include "ncclscope/rules/knowledge.h"

namespace ncclscope::knowledge_internal {

/// connection, bootstrap-interface, socket-fallback.
std::span<const KnownMessage> ConnectionKnowledge();
/// ib, gdr.
std::span<const KnownMessage> RdmaKnowledge();
/// net-plugin (aws-ofi-nccl, other plugins).
std::span<const KnownMessage> PluginKnowledge();
/// cuda, p2p, nvls-collnet, shm.
std::span<const KnownMessage> GpuKnowledge();
/// config, version-mismatch, framework errors, known-harmless messages.
std::span<const KnownMessage> ConfigKnowledge();

}  // namespace ncclscope::knowledge_internal

#endif  // NCCLSCOPE_SRC_RULES_KNOWLEDGE_TABLES_H_
