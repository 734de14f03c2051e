// Knowledge: network plugins (aws-ofi-nccl / libfabric, NCCL_NET_PLUGIN, NCCL_NET).
#include "knowledge_tables.h"

namespace ncclscope::knowledge_internal {
namespace {

constexpr std::string_view kFixEfa =
    "Make EFA usable in every pod/node: an EFA-capable instance type, the EFA device plugin and "
    "`vpc.amazonaws.com/efa: <n>` in the pod's resources (one per NIC of the instance), the EFA "
    "installer's libfabric in the image (`fi_info -p efa` inside the container must list the "
    "devices), FI_PROVIDER=efa, and a security group that allows all traffic within itself.";

constexpr std::string_view kFixPlugin =
    "Make the plugin NCCL is asked for loadable: NCCL_NET_PLUGIN must name an existing "
    "libnccl-net-<name>.so on LD_LIBRARY_PATH (or unset it), the plugin must be built for this "
    "NCCL's plugin API (upgrade the plugin with NCCL), and NCCL_NET must name a network this "
    "node has (IB needs /dev/infiniband in the container).";

// The table is laid out by hand, one entry's id, family, rule, severity and side on its
// first line (clang-format would put each field on a line of its own).
// clang-format off
constexpr KnownMessage kPluginEntries[] = {
    {"ofi-no-provider", "net-plugin", "net-plugin-failed", Severity::kError, FailureSide::kNone,
     {"NET/OFI No eligible providers", "Couldn't find any optimal provider",
      "fi_getinfo: provider efa output empty list", "NET/OFI OFI NCCL failure"},
     {},
     "aws-ofi-nccl found no usable libfabric provider (EFA)",
     "The aws-ofi-nccl plugin asked libfabric for a provider (EFA on AWS) and got none: no EFA "
     "device is usable in this container, so NCCL falls back to TCP sockets or fails.",
     {"the pod does not request `vpc.amazonaws.com/efa` resources, or the EFA device plugin is "
      "missing",
      "the instance type has no EFA (e.g. g6e.8xlarge), or FI_PROVIDER names a provider that is "
      "not there",
      "the image's libfabric lacks the efa provider (not the EFA installer's build)"},
     kFixEfa,
     "aws-ofi-nccl 1.1.0-1.8.1 \"Couldn't find any optimal provider\"; 1.14.1+ \"No eligible "
     "providers were found\"",
     {"NCCL INFO NET/OFI No eligible providers were found",
      "NET/OFI Couldn't find any optimal provider"}},
    {"cxi-no-vni", "net-plugin", "net-plugin-failed", Severity::kWarning, FailureSide::kNone,
     {"Failed to find valid default rgroup and vni", "Couldn't open a fabric access domain"},
     {},
     "libfabric's CXI provider (HPE Slingshot) has no network access for this process",
     "On HPE Slingshot the CXI provider needs a VNI (virtual network id) and a CXI service that "
     "the workload manager grants the job; without one, opening the fabric domain fails and "
     "aws-ofi-nccl cannot use the NICs (\"Couldn't open a fabric access domain. RC: -38\").",
     {"the job was not started through the workload manager's Slingshot integration (srun "
      "without a VNI, mpirun or a container outside PALS/Slurm)",
      "no CXI service for this user or VNI is configured on the node"},
     "Start the job through Slurm with a VNI (`srun --network=single_node_vni` or the site's "
     "job_vni setting) or PALS, or ask the administrators for a CXI service for the job; "
     "`cxi_service list` shows the services of a node. Use a libfabric and aws-ofi-nccl built "
     "for the Slingshot stack.",
     "libfabric cxi provider: \"cxip_nic_get_rgroup_vni(): Failed to find valid default rgroup "
     "and vni for cxi0\"; aws-ofi-nccl: \"NET/OFI Couldn't open a fabric access domain\"",
     {"libfabric:507357:1741146011::cxi:fabric:cxip_nic_get_rgroup_vni():253<warn> : Failed to "
      "find valid default rgroup and vni for cxi0",
      "NET/OFI Couldn't open a fabric access domain. RC: -38, ERROR: Function not implemented"}},
    {"ofi-init-failed", "net-plugin", "net-plugin-failed", Severity::kError, FailureSide::kNone,
     {"NET/OFI aws-ofi-nccl initialization failed", "NET/OFI Initializing plugin failed",
      "NET/OFI Unable to find a protocol that worked", "OFI fi_getinfo() call failed",
      "Couldn't open a fabric provider"},
     {},
     "aws-ofi-nccl failed to initialise",
     "The aws-ofi-nccl network plugin could not start (no working libfabric provider or "
     "protocol): NCCL falls back to its own transports (TCP sockets between nodes) or fails.",
     {"no EFA device is usable in the container (see \"No eligible providers\")",
      "libfabric or the EFA driver in the image does not match the host", "FI_* settings"},
     kFixEfa, "aws-ofi-nccl 1.9.0+ (fi_getinfo), 1.13.0+ (protocol, Initializing plugin failed)",
     {"int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):352 NCCL WARN NET/OFI "
      "aws-ofi-nccl initialization failed",
      "ncclResult_t nccl_net_ofi_init_v6(ncclDebugLogger_t):166 NCCL WARN NET/OFI Initializing "
      "plugin failed"}},
    {"ofi-registration-failed", "net-plugin", "net-plugin-failed", Severity::kError,
     FailureSide::kNone,
     {"NET/OFI Unable to register memory", "fi_mr_reg failed", "NET/OFI*register memory"},
     {},
     "aws-ofi-nccl could not register memory with the NIC",
     "libfabric could not register a buffer (GPU or host) with the EFA device: GPUDirect RDMA is "
     "not possible for that buffer and the operation fails.",
     {"GPUDirect RDMA is not available on this instance or driver (type = 2 is CUDA memory): "
      "nvidia-peermem or DMA-BUF missing",
      "the locked-memory limit is too low", "libfabric/EFA driver versions do not match"},
     "Use the EFA-enabled AMI (EFA driver with GPUDirect support), a recent aws-ofi-nccl and "
     "libfabric from the EFA installer; raise the memlock limit (IPC_LOCK, `ulimit -l "
     "unlimited`).",
     "aws-ofi-nccl, all versions",
     {"register_mr_buffers:544 NCCL WARN NET/OFI Unable to register memory (type = 2) for device "
      "0. RC: -22, Error: Invalid argument"}},
    {"ofi-request-error", "net-plugin", "net-error", Severity::kError, FailureSide::kNone,
     {"NET/OFI Request * completed with error", "NET/OFI*completed with error"},
     {},
     "An EFA (aws-ofi-nccl) transfer failed",
     "A libfabric request completed with an error: the transfer to a peer failed.",
     {"the peer died or its node went away (check the peer's log first)",
      "the EFA security group does not allow all traffic within itself (FI_EHOSTUNREACH)",
      "EFA resources not requested for every pod"},
     "Check the peer's log first; otherwise let the EFA security group allow all inbound and "
     "outbound traffic to itself, request `vpc.amazonaws.com/efa` for every pod and set "
     "FI_PROVIDER=efa.",
     "aws-ofi-nccl 1.4+ (format changes 1.10, 1.19, 1.21)",
     {"NET/OFI Request %p completed with error. RC: %d. Error: %d (%s). Completed length: %ld"}},
    {"ofi-protocol-state", "net-plugin", "net-error", Severity::kError, FailureSide::kNone,
     {"NET/OFI Unexpected status (* for message", "NET/OFI Unexpected type (* for message",
      "NET/OFI*from unexpected request type", "NET/OFI*completion with unexpected",
      "NET/OFI*has invalid status", "NET/OFI Unexpected comp_flags"},
     {},
     "aws-ofi-nccl lost track of its in-flight messages",
     "aws-ofi-nccl's RDMA protocol got a completion or a message that matches no request in the "
     "state it expected (a message number it holds no receive for, a write completion for the "
     "wrong kind of request): its bookkeeping of the transfers in flight broke, the transfer "
     "fails, and NCCL's progress thread passes the error (internal error, 3) to the next "
     "collective on that connection.",
     {"a defect of this aws-ofi-nccl version's RDMA protocol (message numbering, request states)",
      "the two ends do not run the same protocol: different aws-ofi-nccl, NCCL or libfabric "
      "versions, or different OFI_NCCL_* settings on the nodes",
      "the libfabric/EFA provider delivered a stale or duplicated completion (libfabric and EFA "
      "driver out of date)"},
     "Run the current aws-ofi-nccl and the EFA installer's libfabric on every node, with the same "
     "versions and OFI_NCCL_* settings everywhere; if it persists, report the lines to "
     "aws-ofi-nccl with its version, the NCCL version and the instance type.",
     "aws-ofi-nccl 1.7.0+ RDMA protocol (\"Write complete from unexpected request type!\" "
     "1.13-1.20, \"CQ completion (flags ...) from unexpected request type\" 1.17+)",
     {"get_req_from_imm_data:1411 NCCL WARN NET/OFI Unexpected status (0) for message 246",
      "process_completions:1648 NCCL WARN NET/OFI Write complete from unexpected request type!",
      "NET/OFI CQ completion (flags 0x%016lx) from unexpected request type %d"}},
    {"ofi-unknown-communicator", "net-plugin", "net-error", Severity::kError,
     FailureSide::kSidesDisagree,
     {"NET/OFI Received an invalid communicator ID", "NET/OFI Received * for non-existent"},
     {},
     "aws-ofi-nccl received data for a communicator it does not have",
     "A message arrived over EFA for a communicator id this process does not know: the sender "
     "and the receiver disagree about which connections exist.",
     {"the receiving side already closed the communicator (an aborted or finished job still "
      "sending)",
      "a process of an earlier attempt, or of another job, still sends to this node",
      "different aws-ofi-nccl versions on the two ends"},
     "Make sure no process of an earlier attempt survives a restart (kill the old workers "
     "before relaunching) and run the same aws-ofi-nccl everywhere; the peer's own log says why "
     "it still sent.",
     "aws-ofi-nccl 1.7.0+ RDMA protocol",
     {"NET/OFI Received an invalid communicator ID %u for device %d",
      "NET/OFI Received write-immediate message for non-existent r_comm (%u)"}},
    {"ofi-cq-read-failed", "net-plugin", "net-error", Severity::kError, FailureSide::kNone,
     {"NET/OFI Unable to read from fi_cq_readerr", "NET/OFI Unable to retrieve completion queue",
      "NET/OFI Context progress failed"},
     {},
     "aws-ofi-nccl could not read the EFA completion queue",
     "Reading completions from the NIC's completion queue (or its error entries) failed: the "
     "plugin cannot tell which transfers finished, so every operation on that endpoint fails.",
     {"the EFA device was reset or went away (check dmesg for efa errors on that node)",
      "libfabric and the EFA driver do not match (image built with another EFA installer than "
      "the host's driver)",
      "the endpoint was already torn down by an earlier error (look for the first NET/OFI line)"},
     "Look at the node's kernel log for EFA device errors first; keep the EFA driver on the host "
     "and libfabric in the image from the same EFA installer release, and aws-ofi-nccl current.",
     "aws-ofi-nccl 0.9+ (\"Context progress failed\" 1.15+)",
     {"NET/OFI Unable to retrieve completion queue entries. RC: %zd, ERROR: %s",
      "NET/OFI Unable to read from fi_cq_readerr. RC: %zd. Error: %s"}},
    {"ofi-gdr-disabled", "gdr", "no-gdrdma", Severity::kWarning, FailureSide::kNone,
     {"GDR disabled on GDR-supported instance type", "disabling GDR"},
     {},
     "aws-ofi-nccl disabled GPUDirect RDMA",
     "aws-ofi-nccl runs without GPUDirect RDMA on an instance type that supports it: every "
     "transfer is staged through host memory.",
     {"the CUDA driver or EFA driver lacks GPUDirect support (old AMI)",
      "FI_EFA_USE_DEVICE_RDMA=0 or an old aws-ofi-nccl"},
     "Use the EKS/EFA-enabled AMI and a recent aws-ofi-nccl; do not set "
     "FI_EFA_USE_DEVICE_RDMA=0.",
     "aws-ofi-nccl 1.7.0+",
     {"NET/OFI GDR disabled on GDR-supported instance type %s"}},
    {"efa-device-without-rdma", "gdr", "no-gdrdma", Severity::kWarning, FailureSide::kNone,
     {"FI_HMEM capability requires RDMA, which this device does not support"},
     {},
     "The EFA device has no RDMA: no GPUDirect over EFA",
     "libfabric's EFA provider cannot offer GPU memory (FI_HMEM) because this EFA device does "
     "not support RDMA: aws-ofi-nccl stages every transfer through host memory, or on versions "
     "that require it, cannot use the provider at all.",
     {"an instance type whose EFA lacks RDMA read (e.g. p3dn, g4dn) rather than p4d/p5",
      "an old EFA driver or libfabric that does not enable RDMA on this device"},
     "Run on an instance type whose EFA supports RDMA (p4d, p5 and later) with the current EFA "
     "installer; on others expect host-staged transfers and use an aws-ofi-nccl release that "
     "supports them.",
     "libfabric efa provider (rxr_info_to_rxr)",
     {"libfabric:462:1673041636:efa:core:rxr_info_to_rxr():506<warn> FI_HMEM capability "
      "requires RDMA, which this device does not support."}},
    {"net-plugin-missing", "net-plugin", "net-plugin-failed", Severity::kWarning,
     FailureSide::kNone,
     {"NET/Plugin*Could not find: libnccl-net-", "Plugin load returned", "Plugin load (",
      "NET/Plugin*dlerror", "NET/Plugin*cannot open shared object"},
     {},
     "A network plugin library could not be loaded",
     "NCCL looked for a network plugin library and could not load it. Without NCCL_NET_PLUGIN "
     "and without an RDMA network plugin this is normal (NCCL uses its internal IB/Socket "
     "transports); when a plugin was requested or the platform needs one (EFA), it is the reason "
     "for a fallback to TCP.",
     {"NCCL_NET_PLUGIN names a library that is not installed or not on LD_LIBRARY_PATH",
      "the plugin (aws-ofi-nccl) is missing from the image"},
     kFixPlugin,
     "2.4-2.20 \"NET/Plugin : Plugin load returned ...\"; 2.22.3+ \"NET/Plugin: Could not find:\"",
     {"NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot "
      "open shared object file: No such file or directory"}},
    {"net-plugin-init-failed", "net-plugin", "net-plugin-failed", Severity::kError,
     FailureSide::kNone,
     {"Failed to initialize any NET plugin", "Failed to initialize NET plugin",
      "Error: network * not found"},
     {},
     "No requested network could be initialised",
     "NCCL could not initialise the network it was asked for (NCCL_NET, or any network at all).",
     {"NCCL_NET names a network this node does not have (IB without /dev/infiniband, a plugin "
      "that failed)",
      "the plugin failed to initialise (see its own lines)"},
     kFixPlugin,
     "2.10.3-2.26.6 \"Error: network %s not found.\"; 2.27.3+ \"Failed to initialize any NET "
     "plugin\"",
     {"NCCL WARN Failed to initialize any NET plugin", "Error: network %s not found."}},
    {"net-plugin-api-mismatch", "net-plugin", "net-plugin-failed", Severity::kWarning,
     FailureSide::kSidesDisagree,
     {"External network plugin * is unsupported", "Failed to find ncclNetPlugin symbol",
      "ncclNetPlugin symbols v4 and lower are not supported", "has incompatible version"},
     {},
     "The network plugin was built for another NCCL plugin API",
     "The plugin library loaded but offers no plugin API version this NCCL supports, so NCCL "
     "ignores it and uses its internal transports.",
     {"the plugin is older or newer than this NCCL (aws-ofi-nccl/nccl-rdma-sharp-plugins built "
      "against another NCCL)"},
     "Install a plugin version built for this NCCL version (aws-ofi-nccl and NCCL release notes "
     "list the compatible pairs).",
     "2.19+ \"External network plugin %s is unsupported\"; \"Failed to find ncclNetPlugin "
     "symbol\"",
     {"NET/Plugin: Failed to find ncclNetPlugin symbol (>= v5). ncclNetPlugin symbols v4 and "
      "lower are not supported."}},
};
// clang-format on

}  // namespace

std::span<const KnownMessage> PluginKnowledge() { return kPluginEntries; }

}  // namespace ncclscope::knowledge_internal
