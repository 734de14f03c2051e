// Link classification: from the parsed `via` text (and path evidence) to a TransportClass.
#ifndef NCCLSCOPE_MODEL_CLASSIFY_H_
#define NCCLSCOPE_MODEL_CLASSIFY_H_

#include <string_view>

#include "ncclscope/model/transport_class.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

/// The class a transport belongs to before path evidence is applied: every P2P transport is kP2P
/// here (NVL needs evidence, see PathEvidence), NET by its network name (IB/IBext* → NET/IB,
/// Socket → NET/Socket, names containing "Libfabric"/"OFI"/"EFA" → NET/Libfabric, others →
/// NET/other), COLLNET → CollNet, SHM → SHM.
TransportClass ClassifyTransport(const TransportSpec& spec);

/// Classifies a network name alone ("IB", "Socket", "AWS Libfabric", ...).
TransportClass ClassifyNetName(std::string_view net);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_CLASSIFY_H_
