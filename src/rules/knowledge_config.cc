// Knowledge: NCCL settings, ranks that disagree, errors NCCL returns to the framework, and
// known-harmless probing messages.
#include "knowledge_tables.h"

namespace ncclscope::knowledge_internal {
namespace {

constexpr std::string_view kFixDisagree =
    "Make every rank run the same program path with the same settings: one image (same NCCL "
    "and plugin versions on every node), NCCL_* variables set once for the whole job (PodTemplate, "
    "batch script; check /etc/nccl.conf and ~/.nccl.conf on odd nodes), and the same sequence of "
    "collectives with the same sizes on every rank (NCCL_DEBUG_SUBSYS=COLL, or PyTorch's "
    "TORCH_DISTRIBUTED_DEBUG=DETAIL, shows which call differs).";

// The table is laid out by hand, one entry's id, family, rule, severity and side on its
// first line (clang-format would put each field on a line of its own).
// clang-format off
constexpr KnownMessage kConfigEntries[] = {
    // ---- Ranks that disagree ---------------------------------------------------------------
    {"ranks-collective-mismatch", "version-mismatch", "ranks-disagree", Severity::kError,
     FailureSide::kSidesDisagree,
     {"collective mismatch error", "Mismatched collective detected"},
     {},
     "Two ranks disagree on the operation (sizes or collectives differ)",
     "The two sides of a connection expected transfers of different sizes: the ranks either call "
     "different collectives (or the same with different sizes), or run with settings that make "
     "NCCL split the data differently.",
     {"ranks run with different NCCL_* settings (NCCL_PROTO, NCCL_ALGO, NCCL_BUFFSIZE, channels) "
      "or NCCL versions",
      "the program calls collectives in a different order or with different sizes on some ranks"},
     kFixDisagree,
     "NET/IB \"collective mismatch error, local size %d remote size %d\"; 2.24+ \"Mismatched "
     "collective detected\"",
     {"NET/IB : req 0/1 tag 0 peer 10.10.23.6<58683> collective mismatch error, local size "
      "496640 remote size 65536"}},
    {"nccl-version-mismatch-remote", "version-mismatch", "nccl-version-mismatch", Severity::kError,
     FailureSide::kSidesDisagree,
     {"NCCL version mismatch with remote peer", "Mismatched NCCL version detected"},
     {},
     "NCCL says its peer runs another NCCL version",
     "Two ranks run different NCCL versions; their wire formats differ, so NCCL stops.",
     {"nodes run different images or pip wheels (nvidia-nccl-cu*)",
      "a stray libnccl.so on LD_LIBRARY_PATH on some nodes"},
     "Run every rank from the same image (pinned digest) with the same NCCL; check the `NCCL "
     "version` line of every rank and LD_LIBRARY_PATH.",
     "2.18+",
     {"NCCL version mismatch with remote peer %s (local: %d, remote %d)"}},
    {"nccl-library-incompatible", "version-mismatch", "nccl-version-mismatch", Severity::kError,
     FailureSide::kSidesDisagree,
     {"NCCL library is not backwards compatible"},
     {},
     "The NCCL library is older than the one the program was built with",
     "The application was compiled against a newer NCCL than the libnccl it loads at run time.",
     {"LD_LIBRARY_PATH or the image provides an older libnccl.so than the framework expects"},
     "Use the NCCL the framework was built with (pip nvidia-nccl-cu* of the same release) and "
     "remove older copies from LD_LIBRARY_PATH.",
     "2.23+",
     {"NCCL library is not backwards compatible. This application was compiled with NCCL version "
      "%s, but is running with NCCL %s"}},
    // ---- Settings --------------------------------------------------------------------------
    {"graph-file-invalid", "config", "costly-setting", Severity::kError, FailureSide::kNone,
     {"XML Import Channel", "Could not open XML graph file", "XML Graph has wrong version"},
     {},
     "NCCL_GRAPH_FILE does not fit this machine",
     "NCCL was told to import a precomputed graph (NCCL_GRAPH_FILE) that names devices or a "
     "format this machine does not have, so init fails.",
     {"NCCL_GRAPH_FILE is set (environment or /etc/nccl.conf) for another machine shape (a "
      "graph for 4 GPUs on a 1-GPU VM)",
      "the file was written by another NCCL version"},
     "Unset NCCL_GRAPH_FILE (it is a debugging aid, not for production; check /etc/nccl.conf); "
     "let NCCL search the graph itself.",
     "all versions (graph/search.cc, xml.cc)",
     {"graph/search.cc:703 NCCL WARN XML Import Channel : dev 1 not found."}},
    {"topo-file-unreadable", "config", "costly-setting", Severity::kWarning, FailureSide::kNone,
     {"Could not open XML topology file", "XML Topology has wrong version",
      "XML Parse : Unexpected", "XML Parse error"},
     {},
     "NCCL_TOPO_FILE could not be read: NCCL falls back to detection",
     "NCCL was told to load a topology file (NCCL_TOPO_FILE, often set by aws-ofi-nccl or a "
     "cloud image) and could not open or parse it; it detects the topology itself instead, which "
     "may miss virtualised PCIe/NVLink paths.",
     {"NCCL_TOPO_FILE points to a path that does not exist in this container (e.g. set by a "
      "plugin or image for another instance type)",
      "the file is from another NCCL version or malformed"},
     "Point NCCL_TOPO_FILE at an existing file for this instance type (inside the container), or "
     "unset it; on AWS use the aws-ofi-nccl release that matches the image.",
     "all versions (graph/xml.cc)",
     {"Could not open XML topology file %s : %s"}},
    {"topo-file-incomplete", "config", "costly-setting", Severity::kError, FailureSide::kNone,
     {"Attribute * of node cpu not found", "Attribute * of node pci not found",
      "Attribute * of node nic not found", "Attribute * of node net not found"},
     {},
     "The topology XML lacks an attribute NCCL needs: init fails",
     "NCCL read a topology file (NCCL_TOPO_FILE, often the static one aws-ofi-nccl sets for the "
     "instance type) whose CPU, PCI or NIC node lacks an attribute it needs (the CPU's arch or "
     "vendor, a PCI link attribute); it cannot complete the node from this machine, so the "
     "communicator's init fails (internal error).",
     {"an older aws-ofi-nccl ships a static topology file (p4d/p5) without the attributes newer "
      "NCCL reads, or one that does not match a subset of the GPUs",
      "a hand-written or VM-provider topology file for another NCCL version or machine shape"},
     "Update aws-ofi-nccl (1.11+ generates the topology for the devices NCCL finds) or fix the "
     "file; or unset NCCL_TOPO_FILE (check the environment, /etc/nccl.conf and what the plugin "
     "sets) so that NCCL detects the topology itself.",
     "all versions (graph/xml.h: \"Attribute %s of node %s not found\")",
     {"graph/xml.h:101 NCCL WARN Attribute arch of node cpu not found"}},
    {"no-algorithm-available", "config", "costly-setting", Severity::kError, FailureSide::kNone,
     {"no algorithm/protocol available", "NCCL_ALGO was set to"},
     {},
     "No algorithm or protocol is allowed for an operation (NCCL_ALGO/NCCL_PROTO)",
     "NCCL found no algorithm/protocol it may use for a collective: NCCL_ALGO or NCCL_PROTO "
     "restrict the choice to ones that do not support this operation, data type or system "
     "(e.g. NVLS or CollNet forced where they are unavailable), so the call fails (invalid "
     "usage).",
     {"NCCL_ALGO/NCCL_PROTO forced to an algorithm this system or operation lacks (NVLS without "
      "NVSwitch multicast, CollNet without SHARP, NVLS for a data type it does not reduce)",
      "a setting leaked into the environment from another job or container image"},
     "Unset NCCL_ALGO/NCCL_PROTO (or allow a fallback, e.g. NCCL_ALGO=NVLS,Ring), and check where "
     "the variable comes from (image ENV, /etc/nccl.conf, launcher).",
     "2.19+ (\"Error : no algorithm/protocol available for function %s with datatype %s. "
     "NCCL_ALGO was set to %s.\"); older versions without the details",
     {"enqueue.cc:422 NCCL WARN Error : no algorithm/protocol available",
      "Error : no algorithm/protocol available for function Broadcast with datatype ncclInt8. "
      "NCCL_ALGO was set to NVLS."}},
    {"ring-not-loop-back", "config", "costly-setting", Severity::kError, FailureSide::kSidesDisagree,
     {"does not loop back to start"},
     {},
     "NCCL built an inconsistent ring: ranks disagree on the topology",
     "The rings NCCL computed do not close: the ranks do not agree on which ranks share a node "
     "or on the topology, so the ring check fails at init.",
     {"NCCL_HOSTID (or NCCL_TOPO_FILE/NCCL_GRAPH_FILE) set inconsistently, so ranks of one node "
      "claim different nodes or different layouts",
      "ranks run different NCCL versions or settings"},
     "Remove NCCL_HOSTID/NCCL_GRAPH_FILE overrides (or set them consistently on every rank), and "
     "run every rank with the same NCCL and NCCL_* settings.",
     "all versions (graph/rings.cc: \"Error : ring %d does not loop back to start (%d != %d)\")",
     {"graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop back to start (14 != 0)"}},
    {"env-invalid-value", "config", "costly-setting", Severity::kWarning, FailureSide::kNone,
     {"Invalid value * for * using default", "is being ignored because",
      "Unknown CTA policy", "set to a value greater than", "unknown value"},
     {},
     "An NCCL setting has an invalid value and is ignored",
     "NCCL rejected the value of an NCCL_* variable and uses its default instead: the setting "
     "you meant to apply is not in effect.",
     {"a typo or a value in the wrong unit/format (e.g. a size with a suffix NCCL does not "
      "parse)",
      "a value outside the allowed range"},
     "Fix the value (NCCL's environment documentation lists the accepted values) or remove the "
     "variable.",
     "all versions (\"Invalid value %s for %s, using default %lu.\")",
     {"Invalid value %s for %s, using default %lld."}},
    // ---- Errors NCCL returns to the framework ------------------------------------------------
    {"unhandled-system-error", "", "nccl-error", Severity::kError, FailureSide::kNone,
     {"unhandled system error", "ncclSystemError"},
     {},
     "NCCL failed on a system call or external library",
     "A system call (socket, shared memory, file) or an external library (network plugin, IB "
     "verbs) failed inside NCCL. The NCCL WARN line just before it on the same rank names what "
     "failed; without it, re-run with NCCL_DEBUG=INFO.",
     {"a socket connection failed (peer died, wrong interface, firewall)",
      "/dev/shm too small in a container", "a network plugin or IB verbs call failed"},
     "Read the NCCL WARN line before this error on the same rank (re-run with NCCL_DEBUG=INFO "
     "NCCL_DEBUG_SUBSYS=INIT,NET,ENV if there is none) and fix what it names.",
     "all versions (ncclSystemError, code 2)",
     {"RuntimeError: NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/"
      "ProcessGroupNCCL.cpp:1191, unhandled system error, NCCL version 2.10.3",
      "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
      "device error."}},
    {"internal-error", "", "nccl-error", Severity::kError, FailureSide::kNone,
     {"internal error - please report", "ncclInternalError", "NCCL error*internal error"},
     {},
     "NCCL hit an internal check",
     "NCCL's own consistency check failed; often a consequence of mismatched ranks or of an "
     "earlier failure, sometimes an NCCL bug.",
     {"ranks run different NCCL versions or settings, or a failed plugin left a bad state",
      "an NCCL bug (check the release notes of newer versions)"},
     "Read the NCCL WARN lines before it; make every rank run the same NCCL and settings; try a "
     "newer NCCL.",
     "all versions (ncclInternalError, code 3)",
     {"ncclInternalError: Internal check failed."}},
    {"invalid-usage", "", "nccl-error", Severity::kError, FailureSide::kNone,
     {"invalid usage", "ncclInvalidUsage", "invalid argument (run with", "ncclInvalidArgument"},
     {},
     "NCCL rejected how it was called or configured",
     "NCCL refused a call or its configuration: a requested network, interface or setting does "
     "not exist, or the program used the API wrongly (e.g. two ranks on one GPU).",
     {"a setting names something absent (NCCL_NET=IB without IB, a plugin that failed)",
      "two ranks on one GPU, or communicators used wrongly by the program"},
     "Read the NCCL WARN line before it; check NCCL_NET/NCCL_NET_PLUGIN and the GPU assignment.",
     "all versions (codes 4 and 5)",
     {"torch.distributed.DistBackendError: NCCL error in: .../NCCLUtils.cpp:93, invalid usage "
      "(run with NCCL_DEBUG=WARN for details), NCCL version 2.28.9"}},
    {"comm-used-after-failure", "other", "nccl-warn", Severity::kError, FailureSide::kNone,
     {"has already been destroyed", "root should be in the 0..-1 range"},
     {},
     "The program used a communicator that failed or was destroyed",
     "A collective ran on a communicator that is gone: it was destroyed or aborted, or its init "
     "failed, so it has no ranks (\"root should be in the 0..-1 range\"). These lines are "
     "fallout: the failure that ended the communicator comes before them.",
     {"the communicator's init failed (the first WARN or error of the rank says why) and the "
      "framework went on using it",
      "the program (or PyTorch after an error) destroyed or aborted the communicator while "
      "another thread still enqueued collectives on it"},
     "Find the first error of the rank before these lines and fix that; then check that the "
     "program stops (or recreates the process group) after a failed collective instead of "
     "issuing more on the same communicator.",
     "all versions (argcheck.cc: \"%s : invalid root %d (root should be in the 0..%d range)\"; "
     "init.cc: \"comm %p has already been destroyed\")",
     {"misc/argcheck.cc:39 NCCL WARN AllReduce : invalid root 0 (root should be in the 0..-1 "
      "range)",
      "init.cc:1137 NCCL WARN comm 0x7fd72034c4d0 has already been destroyed"}},
    {"topology-real-path", "other", "nccl-warn", Severity::kError, FailureSide::kNone,
     {"Could not find real path of"},
     {},
     "NCCL cannot read the PCI topology of a device",
     "NCCL looked up a GPU or NIC under /sys/class and found no PCI path; older versions stop "
     "(system error) when that happens.",
     {"WSL2 or a VM without PCI sysfs for the GPU (older NCCL has no WSL support)",
      "a container without /sys mounted"},
     "Use an NCCL version that supports the platform (WSL2 needs a recent NCCL), mount /sys in "
     "the container, or provide NCCL_TOPO_FILE.",
     "all versions (WARN before 2.8, INFO later)",
     {"graph/xml.cc:332 NCCL WARN Could not find real path of "
      "/sys/class/pci_bus/0000:01/../../0000:01:00.0"}},
    // ---- Known-harmless probing ------------------------------------------------------------
    {"benign-verbs-probe", "", kBenignRule, Severity::kInfo, FailureSide::kNone,
     {"Failed to open libibverbs", "dlvsym failed on", "Failed to open libmlx5",
      "Failed to open mlx5dv symbols"},
     {},
     "NCCL probed for InfiniBand libraries that are not installed (harmless)",
     "NCCL tries to load libibverbs/mlx5 to look for InfiniBand devices; on machines without "
     "them this fails and NCCL moves on to other transports.",
     {"no InfiniBand/RoCE software on this machine (normal without RDMA NICs)"},
     "Nothing to fix, unless the nodes have RDMA NICs (then install rdma-core in the image).",
     "all versions",
     {"misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]"}},
    {"benign-fastsocket", "", kBenignRule, Severity::kInfo, FailureSide::kNone,
     {"Cannot get incoming CPU", "Maximum retry reached for accept",
      "Maximum retry reached for connect"},
     {},
     "Google's FastSocket plugin could not steer a flow or retried a connection (it goes on)",
     "The FastSocket net plugin (GCP) could not read which CPU receives a socket's traffic "
     "(receive steering is not set up), or gave up waiting for its queue mapping after its retry "
     "limit; it then connects anyway (\"Connected after N retries\"), possibly without its "
     "per-CPU steering and so without its speed-up.",
     {"the VM's NIC (gVNIC) lacks the receive steering (aRFS/RSS) FastSocket expects, or the "
      "image does not set it up"},
     "Nothing to fix for correctness. If FastSocket brings no speed-up, check the gVNIC driver "
     "and the image's network tuning that Google documents for the plugin, or drop the plugin.",
     "nccl-fastsocket (net_fastsocket.cc)",
     {"net_fastsocket.cc:765 NCCL WARN Cannot get incoming CPU.",
      "net_fastsocket.cc:674 NCCL WARN Maximum retry reached for connect 3."}},
    {"benign-graph-fallback", "", kBenignRule, Severity::kInfo, FailureSide::kNone,
     {"Could not find a path for pattern * falling back to simple order"},
     "search",
     "NCCL's topology search found no path for a pattern and used a simple order (it goes on)",
     "While building its rings and trees, NCCL's search found no route through the topology "
     "that fits the pattern and fell back to ordering the GPUs by index; the communicator still "
     "works, possibly with less bandwidth than the hardware allows.",
     {"P2P disabled (NCCL_P2P_DISABLE=1, NCCL_P2P_LEVEL=LOC), so no intra-node path qualifies",
      "GPUs of different models or an unusual PCIe topology in one node",
      "a VM or container whose PCI/NUMA information NCCL cannot read"},
     "Nothing to fix for correctness. If the bandwidth is low, check the P2P settings and "
     "`nvidia-smi topo -m`.",
     "2.7+ (graph/search.cc)",
     {"graph/search.cc:890 NCCL WARN Could not find a path for pattern 4, falling back to "
      "simple order"}},
    {"benign-verbs-wrapper", "", kBenignRule, Severity::kInfo, FailureSide::kNone,
     {"lib wrapper not initialized"},
     "ibvwrap",
     "NCCL's InfiniBand wrapper is not initialised (no libibverbs; harmless)",
     "NCCL's verbs wrapper was asked for a function before libibverbs was loaded, because the "
     "library is not installed; NCCL moves on to other transports.",
     {"no InfiniBand/RoCE software on this machine (normal without RDMA NICs)"},
     "Nothing to fix, unless the nodes have RDMA NICs (then install rdma-core in the image).",
     "all versions (misc/ibvwrap.cc)",
     {"misc/ibvwrap.cc:173 NCCL WARN lib wrapper not initialized."}},
    {"benign-optional-plugin", "", kBenignRule, Severity::kInfo, FailureSide::kNone,
     {"Could not find: libnccl-env", "Could not find: libnccl-profiler",
      "Could not find: libnccl-tuner", "no plugin found * using default tuner",
      "Could not find: libnccl-gin"},
     {},
     "An optional NCCL plugin is not installed (harmless)",
     "NCCL looks for optional tuner/profiler/env/GIN plugins and uses its defaults when there "
     "is none.",
     {"no optional plugin installed (normal)"},
     "Nothing to fix.", "2.19+",
     {"TUNER/Plugin: Could not find: libnccl-tuner.so"}},
    {"integrated-gpu-nvml", "", kBenignRule, Severity::kInfo, FailureSide::kNone,
     {"nvmlDeviceGetP2PStatus(0,0,* failed: Not Supported",
      "Failed to find nvml device for busId 0000:00:00.0"},
     {},
     "NVML has no PCI device or P2P status for this GPU (integrated GPU: Jetson, DGX Spark)",
     "NCCL asks NVML for the GPU's PCI device and for its peer-to-peer status with itself. An "
     "integrated GPU (Jetson Orin, the GB10 of a DGX Spark) sits at PCI address 0000:00:00.0 "
     "without an NVML PCI device, and NVML does not support the P2P query for a GPU with itself: "
     "NCCL warns and goes on.",
     {"an integrated GPU (Jetson, DGX Spark), which has no discrete PCI device",
      "a single-GPU process, whose P2P query with itself NVML does not support"},
     "Nothing to fix on an integrated GPU. On a discrete GPU, check that the container sees the "
     "GPU through NVML (nvidia-smi inside it).",
     "2.19+ (misc/nvmlwrap.cc, init.cc)",
     {"misc/nvmlwrap.cc:164 NCCL WARN nvmlDeviceGetP2PStatus(0,0,NVML_P2P_CAPS_INDEX_READ) "
      "failed: Not Supported",
      "init.cc:471 NCCL WARN Failed to find nvml device for busId 0000:00:00.0. This may affect "
      "performance."}},
    {"rccl-system-advisory", "", kBenignRule, Severity::kInfo, FailureSide::kNone,
     {"from kernel command line which can lead to", "from environment which can lead to"},
     "init.cc",
     "RCCL's start-up advice on the host's settings (AMD GPUs; not an error)",
     "RCCL, AMD's NCCL, checks the kernel command line and environment at init and warns when a "
     "setting AMD recommends is missing; the job goes on. It is advice, not a failure: the "
     "failure of a job that ends is elsewhere in the log.",
     {"the node's kernel was booted without amd_iommu=on / iommu=pt",
      "HSA_FORCE_FINE_GRAIN_PCIE=1 is not set in the job's environment"},
     "If jobs hang or run slowly on AMD GPUs, apply ROCm's recommended kernel parameters "
     "(amd_iommu=on iommu=pt) and environment.",
     "RCCL (init.cc)",
     {"init.cc:127 NCCL WARN Missing \"iommu=pt\" from kernel command line which can lead to "
      "system instablity or hang!"}},
};
// clang-format on

}  // namespace

std::span<const KnownMessage> ConfigKnowledge() { return kConfigEntries; }

}  // namespace ncclscope::knowledge_internal
