// Knowledge: InfiniBand/RoCE (NET/IB) and GPUDirect RDMA.
#include "knowledge_tables.h"

namespace ncclscope::knowledge_internal {
namespace {

constexpr std::string_view kFixCompletion =
    "Check the peer's own log first: if it died, this error is fallout. Otherwise the RDMA path "
    "is broken: `ibstat`/`ibv_devinfo` (port Active, link up) on both nodes, cables and switch "
    "ports, `perftest` (ib_write_bw) between the two hosts over the same HCAs. RoCE: the GID "
    "index must select a RoCE v2 GID with an address that routes (`show_gids`; "
    "NCCL_IB_GID_INDEX, usually 3), and the fabric needs lossless settings (PFC/ECN) or "
    "NCCL_IB_TIMEOUT raised (e.g. 22). Select only healthy, connected HCAs with NCCL_IB_HCA.";

constexpr std::string_view kFixRegistration =
    "Raise the locked-memory limit for the processes: `ulimit -l unlimited` where they start "
    "(check it inside mpirun/srun/the container), /etc/security/limits.conf memlock unlimited, "
    "Docker `--ulimit memlock=-1`, Kubernetes the IPC_LOCK capability, Slurm "
    "PropagateResourceLimits/`--propagate=MEMLOCK`. For GPU memory registration load "
    "nvidia-peermem (or use DMA-BUF with a recent driver and kernel).";

constexpr std::string_view kFixGdr =
    "Enable GPUDirect RDMA: load the nvidia-peermem module (`modprobe nvidia-peermem`; GPU "
    "operator `driver.rdma.enabled=true`) or use DMA-BUF (driver 515+, kernel 5.12+, "
    "NCCL 2.13+), keep NCCL_NET_GDR_LEVEL unset (or PHB/SYS as the topology needs), and keep "
    "GPU and NIC under the same PCIe switch. On AWS use the EFA-enabled AMI and a recent "
    "aws-ofi-nccl.";

// The table is laid out by hand, one entry's id, family, rule, severity and side on its
// first line (clang-format would put each field on a line of its own).
// clang-format off
constexpr KnownMessage kRdmaEntries[] = {
    // ---- Completion errors (decoded by ibv_wc_status) --------------------------------------
    {"ib-completion-error", "ib", "ib-error", Severity::kError, FailureSide::kNone,
     {"NET/IB*Got completion from peer", "NET/IB*Got completion with error",
      "Got completion from peer * with status", "NET/IB/GIN: Got completion"},
     {},
     "InfiniBand/RoCE completion error",
     "A send or receive on an RDMA queue pair failed; the status code says how (12 = the remote "
     "never acknowledged: retry exceeded; 5 = flushed after an earlier error; 4/10 = memory "
     "protection or access errors). NCCL then aborts the operation.",
     {"the peer process died or its node went away (status 12 or 5 on the survivors)",
      "the RDMA path is broken or misconfigured: link down or flapping, wrong RoCE GID index or "
      "VLAN, no PFC on a lossy fabric",
      "memory registration/GPUDirect problems on one side (status 4, 10, 11)"},
     kFixCompletion,
     "2.4.2-2.9.9 \"Got completion with error %d\"; 2.10.3+ \"Got completion from peer %s with "
     "error %d\" / \"status=%d\"; 2.28.7+ \"status=IBV_WC_..._ERR(%d)\"",
     {"transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, "
      "vendor err 129",
      "ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.216.210.236<49892> with "
      "status=12 opcode=32616 len=0 vendor err 129 (Recv)"}},
    // ---- Asynchronous events ---------------------------------------------------------------
    {"verbs-provider-missing", "ib", "ib-error", Severity::kWarning, FailureSide::kNone,
     {"no userspace device-specific driver found for"},
     {},
     "The RDMA device has no user-space driver here (rdma-core provider missing)",
     "libibverbs sees the RDMA device but finds no user-space provider for it (libmlx5 for "
     "Mellanox/NVIDIA NICs, libefa, ...): NCCL cannot open the device, so its IB transport "
     "fails or NCCL falls back to sockets.",
     {"a container image (Singularity/Apptainer, Docker) with libibverbs but without the "
      "rdma-core providers (ibverbs-providers / libmlx5)",
      "a provider built for another rdma-core version than the libibverbs that loads it"},
     "Install the providers in the image (`ibverbs-providers` on Debian/Ubuntu, `rdma-core` / "
     "`libibverbs` with `libmlx5` on RHEL), or bind-mount the host's /etc/libibverbs.d and "
     "provider libraries; `ibv_devinfo` inside the container must list the device.",
     "libibverbs (rdma-core) warning, all NCCL versions",
     {"libibverbs: Warning: no userspace device-specific driver found for "
      "/sys/class/infiniband_verbs/uverbs0"}},
    {"ib-device-without-pci", "ib", "ib-error", Severity::kWarning, FailureSide::kNone,
     {"Could not find real path of * (/sys/class/infiniband/"},
     {},
     "An RDMA device with no PCI device behind it (software RoCE or a virtual device)",
     "NCCL uses an RDMA device that sysfs shows without a PCI device: a software RDMA device "
     "(Soft-RoCE `rxe`, `siw`) or a virtual one. Software RDMA runs on the CPU: no GPUDirect "
     "RDMA, bandwidth at or below TCP sockets, and NCCL cannot place it in the topology.",
     {"Soft-RoCE (rdma_rxe) or software iWARP (siw) set up on a host without an RDMA NIC, and "
      "NCCL_IB_HCA naming it",
      "a VM or container that sees a virtual RDMA device without its PCI function"},
     "Use the hardware RDMA NIC (NCCL_IB_HCA=mlx5_0,...); without one, use sockets "
     "(NCCL_IB_DISABLE=1) with NCCL_SOCKET_IFNAME on the fast interface.",
     "all versions (transport/net_ib.cc \"Could not find real path of %s (%s)\")",
     {"transport/net_ib.cc:115 NCCL WARN Could not find real path of rxe0 "
      "(/sys/class/infiniband/rxe0/device)"}},
    {"ib-async-subnet-event", "ib", "ib-error", Severity::kWarning, FailureSide::kNone,
     {"NET/IB*Got async event : client reregistration", "NET/IB*Got async event : port active",
      "NET/IB*Got async event : LID change", "NET/IB*Got async event : P_Key change",
      "NET/IB*Got async event : SM change", "NET/IB*Got async event : GID table change"},
     {},
     "The InfiniBand subnet manager changed this port's registration (an asynchronous event)",
     "Not an error by itself: the subnet manager restarted, failed over or changed the port's "
     "addressing and asked the clients to register again. NCCL up to 2.19 printed every "
     "asynchronous event as a WARN; traffic goes on unless other IB errors follow.",
     {"the subnet manager (opensm, UFM) restarted or failed over to another node",
      "a link that flapped, or a fabric reconfiguration"},
     "Nothing, if no other IB error follows. If jobs fail at the same moment, check the subnet "
     "manager's log for restarts and the switch ports for flapping links.",
     "≤2.19.4 \"NET/IB : Got async event : %s\" (every event, fatal or not)",
     {"transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : client reregistration"}},
    {"ib-async-fatal", "ib", "ib-error", Severity::kError, FailureSide::kNone,
     {"NET/IB*async fatal event", "NET/IB*Got async error event", "NET/IB*Got async event"},
     {},
     "The InfiniBand/RoCE device reported an asynchronous error",
     "The HCA raised an asynchronous error event (port error, local access violation, "
     "catastrophic error, QP fatal): the device or a queue pair is unusable.",
     {"a local protection or access violation: memory registration/GPUDirect problems "
      "(nvidia-peermem, IOMMU/ACS) or a bug",
      "the port went down or the HCA failed (cable, switch port, firmware)"},
     "Check `dmesg` and `ibstat` on the node for port errors and HCA resets; check "
     "nvidia-peermem/DMA-BUF and IOMMU/ACS settings for access violations; exclude a failing HCA "
     "with NCCL_IB_HCA.",
     "≤2.19.4 \"NET/IB : Got async event : %s\"; 2.20.3-2.22.3 with dev:port; 2.23.4-2.28.3 "
     "\"Got async error event\"; 2.23.4+ \"async fatal event\"",
     {"transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_0:1 Got async event : local access "
      "violation work queue error",
      "NET/IB : %s:%d async fatal event: %s"}},
    {"ib-async-nonfatal", "ib", "ib-error", Severity::kWarning, FailureSide::kNone,
     {"NET/IB*Got non-fatal async event", "NET/IB*GID table changed"},
     {},
     "The InfiniBand/RoCE device reported a non-fatal event",
     "The HCA reported an event that does not stop NCCL by itself (a port state or GID table "
     "change); repeated events point at a flapping link.",
     {"a port flapping or renegotiating (cable, switch)", "RoCE addresses changing on the port"},
     "Check `ibstat`, `dmesg` and the switch logs for link flaps on that port.", "2.28.7+",
     {"NET/IB : %s:%d Got non-fatal async event: %s(%d)"}},
    // ---- Setup failures ---------------------------------------------------------------------
    {"ib-modify-qp-failed", "ib", "ib-error", Severity::kError, FailureSide::kNetworkPath,
     {"Call to ibv_modify_qp failed", "Failed to modify to RTR", "Failed to modify to RTS"},
     {},
     "Connecting an InfiniBand/RoCE queue pair failed",
     "NCCL could not move a queue pair to the connected state (INIT -> RTR -> RTS): the two HCAs "
     "cannot reach each other with the addressing NCCL used.",
     {"RoCE: the GID index (NCCL_IB_GID_INDEX) selects a GID without a routable address or the "
      "wrong RoCE version, or a VLAN/subnet mismatch",
      "the two nodes use HCAs on different fabrics or link layers (IB on one side, RoCE on the "
      "other; NCCL_IB_HCA differs)",
      "the port is down (\"No such device\")"},
     "RoCE: pick a RoCE v2 GID with an IPv4 address (`show_gids`) and set NCCL_IB_GID_INDEX to it "
     "on every node; make both sides use HCAs of the same fabric (NCCL_IB_HCA); check that the "
     "ports are Active (`ibstat`).",
     "all versions (ibvwrap.cc); 2.29+ adds dev, states and GIDs",
     {"misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error No such device",
      "Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx_x:1, curr state "
      "INIT, next state RTR, local GID index 3"}},
    {"ib-gid-hint", "ib", "ib-error", Severity::kError, FailureSide::kNetworkPath,
     {"incorrect GID index", "NCCL_IB_GID_INDEX", "Unable to find GID", "no valid GID"},
     {},
     "The RoCE GID index is wrong",
     "NCCL hints that the RoCE GID index is the problem: the selected GID has no usable address "
     "or the wrong RoCE version, so the queue pairs cannot connect.",
     {"NCCL_IB_GID_INDEX forces an index that is not a RoCE v2 IPv4 GID on every node",
      "GID tables differ between nodes (different VLAN/addresses on the RoCE interfaces)"},
     "Find the RoCE v2 GID with the node's routable address (`show_gids` or `ibv_devinfo -v`) and "
     "set NCCL_IB_GID_INDEX to it on every node, or unset it to let NCCL choose (2.21+).",
     "2.30.7+ HINT lines; NCCL_IB_GID_INDEX all versions",
     {"HINT: In many cases this error occurs when the incorrect GID index is forced by "
      "NCCL_IB_GID_INDEX"}},
    {"ib-registration-failed", "ib", "ib-error", Severity::kError, FailureSide::kNone,
     {"Call to ibv_reg_mr", "ibv_reg_dmabuf_mr failed", "memlock limit", "RLIMIT_MEMLOCK"},
     {},
     "Registering memory with the InfiniBand/RoCE device failed",
     "NCCL could not register (pin) a buffer with the HCA: the locked-memory limit is too low, or "
     "GPU memory cannot be registered (no nvidia-peermem / DMA-BUF).",
     {"the locked-memory limit (ulimit -l) is too low inside the container or the launcher",
      "GPU memory registration is not available (nvidia-peermem not loaded, no DMA-BUF)",
      "the HCA ran out of resources (too many registrations)"},
     kFixRegistration, "all versions (ibvwrap.cc \"Call to ibv_reg_mr failed\")",
     {"misc/ibvwrap.cc:252 NCCL WARN Call to ibv_reg_mr failed",
      "misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate "
      "memory"}},
    {"ib-verbs-call-failed", "ib", "ib-error", Severity::kError, FailureSide::kNone,
     {"Call to ibv_", "NET/IB : Unable to open device", "NET/IB : Unable to query",
      "NET/IB : No IP interface found"},
     {},
     "An InfiniBand verbs call failed",
     "A libibverbs call NCCL makes to set up or use the HCA failed; the error text names how.",
     {"the HCA or port is not usable in this container (device files, permissions, port down)",
      "resource limits (locked memory, queue pairs)"},
     "Check the HCA inside the container (`ibv_devinfo`), /dev/infiniband and the IPC_LOCK "
     "capability, the memlock limit, and select working HCAs with NCCL_IB_HCA.",
     "all versions (ibvwrap.cc)",
     {"Call to ibv_create_qp failed with error %s", "NET/IB : Unable to open device %s"},
     /*fallback=*/true},
    {"ib-incompatible-devices", "ib", "ib-error", Severity::kError, FailureSide::kSidesDisagree,
     {"NET/IB*incompatible", "different link_layer", "mismatched physical devices",
      "Detected mixed local Net device counts"},
     {},
     "The nodes' RDMA devices do not match",
     "NCCL found HCAs of different link layers (InfiniBand and RoCE) or different NIC counts that "
     "it cannot connect to each other.",
     {"the nodes expose different NICs (IB on one, RoCE or none on another; NCCL_IB_HCA differs)",
      "a mixed fabric on one node without NCCL_IB_HCA restricting it"},
     "Select NICs of one link type with NCCL_IB_HCA on every node; make all nodes expose the same "
     "HCAs to the job.",
     "2.19+",
     {"NET/IB : Attempted to connect incompatible devices: [%d]%s:%d/%s and [%d]%s:%d/%s. Try "
      "selecting NICs of only one link type using NCCL_IB_HCA"}},
    {"ib-no-device", "ib", "ib-error", Severity::kInfo, FailureSide::kNone,
     {"NET/IB : No device found"},
     {},
     "NCCL found no InfiniBand/RoCE device",
     "NCCL's IB transport found no usable HCA on this node (none present, none visible in the "
     "container, or NCCL_IB_HCA selects none), so inter-node traffic goes to a network plugin or "
     "to TCP sockets.",
     {"the node has no InfiniBand/RoCE NIC (fine on Ethernet-only or EFA clusters)",
      "the HCAs are not visible in the container (no /dev/infiniband, RDMA device plugin, "
      "privileges)",
      "NCCL_IB_HCA names devices that do not exist"},
     "If the nodes have HCAs: expose them to the container (RDMA device plugin or "
     "/dev/infiniband, IPC_LOCK) and check NCCL_IB_HCA; `ibv_devinfo` inside the container must "
     "list them.",
     "all versions (INFO)",
     {"NCCL INFO NET/IB : No device found."}},
    // ---- GPUDirect RDMA ----------------------------------------------------------------------
    {"gdr-disabled-for-hca", "gdr", "no-gdrdma", Severity::kWarning, FailureSide::kNone,
     {"GPU Direct RDMA Disabled for HCA", "GPU Direct RDMA Disabled for GPU"},
     {},
     "GPUDirect RDMA is disabled",
     "The NIC cannot read and write GPU memory directly, so network data is staged through host "
     "memory: lower bandwidth, more CPU, higher latency.",
     {"the nvidia-peermem module is not loaded and DMA-BUF is not available (\"(no module)\")",
      "NCCL_NET_GDR_LEVEL (or the PCIe distance between GPU and NIC) rules it out",
      "the GPU or platform does not support it (consumer GPUs, some VMs)"},
     kFixGdr,
     "2.4 \"... (no module or not supported by GPU)\"; 2.5.6-2.12.12 \"(no module)\"; 2.13.4+ "
     "\"NET/%s : GPU Direct RDMA Disabled for HCA %d '%s'\"; per GPU \"(distance %d > %d)\"",
     {"NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'",
      "NET/IB : GPU Direct RDMA Disabled for HCA %d '%s' (no module)"}},
    {"gdr-dmabuf-failed", "gdr", "no-gdrdma", Severity::kWarning, FailureSide::kNone,
     {"Failed to register memory with DMA-BUF", "Peermem is not supported, nor DMA-BUF"},
     {},
     "DMA-BUF registration of GPU memory failed",
     "NCCL could not register GPU memory with the NIC through DMA-BUF and tries another way "
     "(nvidia-peermem, or staging through host memory).",
     {"the kernel or driver lacks DMA-BUF support for this GPU/NIC", "IOMMU settings"},
     kFixGdr, "2.13+",
     {"Failed to register memory with DMA-BUF, error=%d. Trying a different method."}},
    {"gdr-level-restricted", "gdr", "no-gdrdma", Severity::kWarning, FailureSide::kNone,
     {"NCCL_NET_GDR_LEVEL set by environment to LOC", "NCCL_NET_GDR_LEVEL set by environment to 0",
      "NCCL_IB_GDR_LEVEL"},
     {},
     "NCCL_NET_GDR_LEVEL turns GPUDirect RDMA off",
     "The setting limits GPUDirect RDMA to GPU-NIC pairs closer than the given PCIe distance; LOC "
     "or 0 disables it everywhere.",
     {"a debugging setting left in the job's environment",
      "a workaround for ACS/IOMMU problems (then fix the platform)"},
     "Unset NCCL_NET_GDR_LEVEL (or set PHB/SYS as the topology needs) once the platform supports "
     "GPUDirect RDMA.",
     "2.7.3+ (NCCL_IB_GDR_LEVEL before)",
     {"NCCL INFO NCCL_NET_GDR_LEVEL set by environment to LOC"}},
};
// clang-format on

}  // namespace

std::span<const KnownMessage> RdmaKnowledge() { return kRdmaEntries; }

}  // namespace ncclscope::knowledge_internal
