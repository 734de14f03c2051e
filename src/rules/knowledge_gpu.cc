// Knowledge: CUDA and driver errors, GPU peer-to-peer, NVLink SHARP / CollNet, shared memory.
#include "knowledge_tables.h"

namespace ncclscope::knowledge_internal {
namespace {

constexpr std::string_view kFixShm =
    "Give the container a large /dev/shm: Kubernetes: a memory-backed emptyDir at /dev/shm "
    "(`emptyDir: {medium: Memory, sizeLimit: 8Gi}`) or `hostIPC: true`; Docker: `--shm-size=8g` "
    "or `--ipc=host`; check `df -h /dev/shm` inside the container. NCCL_SHM_DISABLE=1 avoids "
    "SHM as a last resort (traffic then goes over P2P or the network).";

constexpr std::string_view kFixP2p =
    "Let the GPUs reach each other: all ranks of a node in one container (or `hostIPC: true`, "
    "shared /dev/shm), P2P-capable passthrough in VMs, ACS disabled/IOMMU in passthrough mode "
    "on bare metal (`nvidia-smi topo -p2p r` must show OK), no NCCL_P2P_DISABLE or restrictive "
    "NCCL_P2P_LEVEL. GeForce/consumer GPUs without P2P support keep using SHM: nothing to fix.";

constexpr std::string_view kFixNvls =
    "NVLS needs NVSwitch systems with nvidia-fabricmanager running and healthy, a driver and "
    "CUDA with multicast support, and in containers the IMEX/fabric devices. If NVLS is not "
    "needed (or to confirm), set NCCL_NVLS_ENABLE=0: NCCL then uses NVLink without SHARP.";

// The table is laid out by hand, one entry's id, family, rule, severity and side on its
// first line (clang-format would put each field on a line of its own).
// clang-format off
constexpr KnownMessage kGpuEntries[] = {
    // ---- CUDA and driver -------------------------------------------------------------------
    {"cuda-oom", "cuda", "cuda-error", Severity::kError, FailureSide::kNone,
     {"Cuda failure*out of memory", "Failed to CUDA malloc", "Failed to CUDA calloc",
      "Failed to CUDA host alloc", "CUDA error: out of memory"},
     {},
     "The GPU ran out of memory inside NCCL",
     "NCCL could not allocate its buffers on the GPU (or pinned host memory): the framework "
     "already uses nearly all GPU memory, or NCCL's buffers are large.",
     {"the model/batch leaves no room for NCCL's buffers (each communicator and channel needs "
      "some)",
      "many communicators (e.g. one per process group) or a large NCCL_BUFFSIZE",
      "another process uses the same GPU"},
     "Lower the framework's memory use (batch size, activation checkpointing, "
     "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True), create fewer communicators, keep "
     "NCCL_BUFFSIZE at its default, and make sure no other process shares the GPU.",
     "all versions: \"Cuda failure 'out of memory'\", 2.19.1+ \"Cuda failure 2 'out of memory'\"",
     {"NCCL WARN Cuda failure 'out of memory'", "Failed to CUDA calloc %ld bytes"}},
    {"cuda-driver-too-old", "cuda", "cuda-error", Severity::kError, FailureSide::kNone,
     {"driver version is insufficient", "CUDA Driver version found is",
      "NCCL library is too old", "forward compatibility was attempted"},
     {},
     "The CUDA driver is too old for this CUDA runtime or NCCL",
     "The installed NVIDIA driver does not support the CUDA version NCCL (or the framework) was "
     "built for.",
     {"the container's CUDA is newer than the host driver supports",
      "a pip wheel pulled a newer CUDA/NCCL than the node's driver"},
     "Upgrade the host driver, or use an image/wheel built for the driver's CUDA version "
     "(`nvidia-smi` shows the highest CUDA it supports).",
     "all versions",
     {"Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'",
      "CUDA Driver version found is %d. Minimum requirement is %d"}},
    {"nccl-kernels-not-for-this-gpu", "cuda", "cuda-error", Severity::kError, FailureSide::kNone,
     {"named symbol not found", "no kernel image is available", "invalid device function"},
     {},
     "NCCL's GPU code was not built for this GPU",
     "CUDA found none of NCCL's kernels for this GPU's architecture: the NCCL in use was "
     "compiled for older GPU generations than the one it runs on.",
     {"an NCCL bundled with a framework build for an older CUDA (PyTorch cu118 with NCCL "
      "2.14-2.18) on a Blackwell GPU (RTX 5090, B200: sm_100/sm_120)",
      "an old libnccl.so picked up through LD_LIBRARY_PATH or the image on a newer GPU"},
     "Use an NCCL built for this GPU: a framework wheel for a CUDA that supports it (cu128+ for "
     "Blackwell) with its NCCL, or NCCL 2.26+ from pip (nvidia-nccl-cu12); check the `NCCL "
     "version ...+cudaX.Y` line.",
     "all versions (CUDA error text)",
     {"NCCL WARN Cuda failure 'named symbol not found'",
      "Cuda failure 'no kernel image is available for execution on the device'"}},
    {"cuda-device-unavailable", "cuda", "cuda-error", Severity::kError, FailureSide::kNone,
     {"busy or unavailable", "no CUDA-capable device is detected", "invalid device ordinal",
      "Cuda failure*initialization error", "Failed to create CUDA context"},
     {},
     "The GPU is not available to this process",
     "CUDA could not use the GPU: it is taken (exclusive-process compute mode), not visible, or "
     "CUDA failed to initialise in this process.",
     {"the GPU is in EXCLUSIVE_PROCESS compute mode and another process already uses it (or two "
      "ranks were given the same GPU)",
      "CUDA_VISIBLE_DEVICES/the device plugin hides the GPU this rank selects (device ordinal "
      "out of range)",
      "CUDA was initialised before fork(), or the driver/GPU is in a bad state (Xid errors)"},
     "Give every rank its own GPU (torch.cuda.set_device(local_rank), matching "
     "CUDA_VISIBLE_DEVICES/`nvidia.com/gpu`), check `nvidia-smi -q -d COMPUTE` (set DEFAULT mode "
     "or run one process per GPU), do not initialise CUDA before forking workers, and check "
     "`dmesg` for Xid errors.",
     "all versions",
     {"misc/cudawrap.cc:33 NCCL WARN Cuda failure 'initialization error'",
      "Cuda failure 'all CUDA-capable devices are busy or unavailable'"}},
    {"kernel-shared-memory-exceeded", "cuda", "cuda-error", Severity::kError, FailureSide::kNone,
     {"ncclMaxSharedMem * exceeds device/fn maxSharedMem"},
     {},
     "NCCL's kernels need more shared memory than this GPU allows",
     "The NCCL library's kernels ask for more shared memory per block than the GPU (or the "
     "kernel function) supports, so NCCL cannot launch them and the communicator's init fails "
     "(system error): this NCCL build does not support the GPU's architecture.",
     {"an NCCL release older than the GPU (a new architecture, e.g. NCCL 2.25 on GeForce RTX "
      "50-series GPUs)",
      "an NCCL or RCCL built for other architectures (NVCC_GENCODE, a custom build)"},
     "Use a newer NCCL release that supports this GPU (update the nvidia-nccl-cu* wheel or "
     "libnccl2, and check which libnccl.so the process loads), or build NCCL with this "
     "architecture in NVCC_GENCODE.",
     "2.25+ (enqueue.cc: \"ncclMaxSharedMem %d exceeds device/fn maxSharedMem %zu\", INFO; "
     "later and RCCL: \"cudaArch %d ncclMaxSharedMem %d exceeds ...\", WARN)",
     {"NCCL INFO ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem 79856",
      "NCCL WARN cudaArch 940 ncclMaxSharedMem 32832 exceeds device/fn maxSharedMem 32768"}},
    {"nvml-peer-gpu-not-visible", "cuda", "cuda-error", Severity::kError, FailureSide::kNone,
     {"nvmlDeviceGetHandleByPciBusId() failed: Not Found"},
     {},
     "A GPU that NCCL counts on this node is not visible here (NVML cannot find its bus id)",
     "NCCL took the ranks of this node to share one host (same host hash) and looked up a peer's "
     "GPU by its PCI bus id to build the node's topology, but this process's container or "
     "cgroup does not see that GPU: the communicator's init fails.",
     {"the ranks of one node run in several containers or pods that each see only their own "
      "GPUs (one pod per GPU, NVIDIA_VISIBLE_DEVICES split between containers)",
      "a GPU hidden from one process's container or cgroup only (the device plugin, "
      "NVIDIA_VISIBLE_DEVICES; CUDA_VISIBLE_DEVICES does not hide GPUs from NVML)"},
     "Run the ranks of a node in one container that sees all of its GPUs, or give each container "
     "its own NCCL_HOSTID so NCCL treats them as separate hosts (traffic then goes over the "
     "network); check `nvidia-smi -L` inside every container.",
     "all versions (misc/nvmlwrap.cc)",
     {"misc/nvmlwrap.cc:187 NCCL WARN nvmlDeviceGetHandleByPciBusId() failed: Not Found"}},
    {"cuda-fabric-not-initialized", "cuda", "cuda-error", Severity::kError, FailureSide::kNone,
     {"system not yet initialized"},
     {},
     "The NVSwitch fabric is not initialised (Fabric Manager)",
     "On NVSwitch systems (HGX A100/H100/H200, p4d/p5) CUDA cannot use the GPUs until "
     "nvidia-fabricmanager has set up the fabric.",
     {"nvidia-fabricmanager is not running or failed (version different from the driver)"},
     "Start nvidia-fabricmanager (`systemctl enable --now nvidia-fabricmanager`, same version as "
     "the driver); on EKS use the accelerated AMI or the GPU operator, which run it.",
     "all versions",
     {"Cuda failure 'system not yet initialized'"}},
    {"cuda-library-missing", "cuda", "cuda-error", Severity::kWarning, FailureSide::kNone,
     {"Failed to find CUDA library"},
     {},
     "NCCL could not load the CUDA driver library (libcuda.so)",
     "NCCL opens libcuda.so itself (dlopen, NCCL_CUDA_PATH) to reach the driver API. Newer "
     "NCCL can still get the driver's entry points through the CUDA runtime, so the job may go "
     "on; when a CUDA error (ncclUnhandledCudaError) follows, this is its likely cause.",
     {"WSL2: the driver library is in /usr/lib/wsl/lib, which is not on the loader's path",
      "a container started without the NVIDIA container runtime (the host's driver libraries "
      "are not mounted), or only the CUDA toolkit's stub libcuda.so is found",
      "NCCL_CUDA_PATH points at a directory without libcuda.so"},
     "Make the driver's libcuda.so loadable: on WSL2 add /usr/lib/wsl/lib to LD_LIBRARY_PATH "
     "(or run ldconfig there); in containers use the NVIDIA container runtime (`--gpus all`, "
     "the GPU operator / device plugin on Kubernetes); unset NCCL_CUDA_PATH or point it at the "
     "driver's directory. `ldconfig -p | grep libcuda.so` must list the driver's library.",
     "misc/cudawrap.cc: \"Failed to find CUDA library in %s (NCCL_CUDA_PATH=%s)\" (older), "
     "\"Failed to find CUDA library %s (NCCL_CUDA_PATH='%s') : %s\" (with dlerror)",
     {"misc/cudawrap.cc:179 NCCL WARN Failed to find CUDA library libcuda.so (NCCL_CUDA_PATH='') "
      ": libcuda.so: cannot open shared object file: No such file or directory"}},
    {"cuda-failure", "cuda", "cuda-error", Severity::kError, FailureSide::kNone,
     {"Cuda failure", "unhandled cuda error", "ncclUnhandledCudaError",
      "watchdog thread terminated with exception: CUDA error"},
     {},
     "A CUDA call failed inside NCCL",
     "A CUDA runtime or driver call NCCL made failed; the error text names which failure.",
     {"a CUDA error raised earlier by the application (illegal memory access, launch failure) "
      "surfacing in NCCL",
      "GPU or driver problems (Xid errors in dmesg)"},
     "Read the CUDA error text; run with CUDA_LAUNCH_BLOCKING=1 to find the failing kernel and "
     "check `dmesg` for Xid errors.",
     "all versions: \"Cuda failure '%s'\", 2.19.1+ \"Cuda failure %d '%s'\"",
     {"NCCL WARN Cuda failure 'an illegal memory access was encountered'",
      "ncclUnhandledCudaError: Call to CUDA function failed.",
      "[PG 0 (default_pg) Rank 1] Process group watchdog thread terminated with exception: CUDA "
      "error: an illegal memory access was encountered"},
     /*fallback=*/true},
    {"duplicate-gpu", "cuda", "duplicate-gpu", Severity::kError, FailureSide::kNone,
     {"Duplicate GPU detected", "Multiple Ranks are using the same GPU"},
     {},
     "Two ranks use the same GPU",
     "NCCL found two ranks of one communicator on the same GPU and refuses to continue.",
     {"every process uses the default device 0: torch.cuda.set_device(local_rank) is missing "
      "before init_process_group",
      "CUDA_VISIBLE_DEVICES or the scheduler gives two ranks the same GPU (fewer GPUs than "
      "processes per node)"},
     "Call torch.cuda.set_device(local_rank) (or pass device_id to init_process_group) before "
     "creating the process group; launch as many processes per node as GPUs "
     "(`--nproc_per_node`, Kubernetes `nvidia.com/gpu`, Slurm `--gpus-per-task=1`).",
     "all versions: \"Duplicate GPU detected : rank %d and rank %d both on CUDA device %x\"",
     {"init.cc:748 NCCL WARN Duplicate GPU detected : rank 0 and rank 1 both on CUDA device "
      "3b000"}},
    // ---- GPU peer-to-peer ------------------------------------------------------------------
    {"p2p-disabled-nvlink", "p2p", "p2p-disabled", Severity::kError, FailureSide::kNone,
     {"P2P is disabled between NVLINK connected GPUs"},
     {},
     "P2P is disabled between NVLink-connected GPUs",
     "The driver reports that peer-to-peer access does not work between GPUs that have NVLink; "
     "NCCL stops (unhandled cuda error) unless NCCL_IGNORE_DISABLED_P2P=1.",
     {"nvidia-fabricmanager not running on an NVSwitch system",
      "a hardware or driver problem with NVLink (`nvidia-smi nvlink -s`)",
      "a VM or container that blocks peer access"},
     "Check `nvidia-smi topo -p2p r` and `nvidia-smi nvlink -s`, start nvidia-fabricmanager on "
     "NVSwitch systems, and fix the VM's P2P passthrough; NCCL_IGNORE_DISABLED_P2P=1 only hides "
     "the problem.",
     "2.12.7+ (WARN)",
     {"P2P is disabled between NVLINK connected GPUs %d and %d. This should not be the case "
      "given their connectivity, and is probably due to a hardware issue."}},
    {"p2p-disabled-pcie", "p2p", "p2p-disabled", Severity::kWarning, FailureSide::kNone,
     {"P2P is disabled between connected GPUs", "Could not enable P2P between dev"},
     {},
     "P2P is disabled between PCIe-connected GPUs",
     "The driver reports that peer-to-peer access does not work between these GPUs, so NCCL "
     "moves data between them through host shared memory (SHM), at a fraction of the bandwidth.",
     {"GeForce/consumer GPUs, whose driver disables P2P (nothing to fix)",
      "ACS enabled on PCIe switches or the IOMMU blocking peer traffic (bare metal)",
      "a VM without P2P-capable passthrough"},
     kFixP2p, "2.12.7+ (INFO)",
     {"P2P is disabled between connected GPUs 1 and 0. You can repress this message with "
      "NCCL_IGNORE_DISABLED_P2P=1."}},
    {"p2p-not-all-local", "p2p", "p2p-disabled", Severity::kWarning, FailureSide::kNone,
     {"intraNodeP2pSupport 0", "isAllDirectP2p 0", "isAllCudaP2p 0"},
     {},
     "Not all GPUs of a node can use P2P with each other",
     "NCCL's check found pairs of GPUs on this node that cannot use CUDA peer-to-peer: their "
     "traffic goes through host shared memory (SHM) or the network.",
     {"ranks of one node run in separate containers without a shared IPC namespace",
      "P2P blocked by the platform (ACS/IOMMU, VM) or unsupported (consumer GPUs)",
      "NCCL_P2P_DISABLE=1 or a restrictive NCCL_P2P_LEVEL"},
     kFixP2p,
     "2.24.3-2.26 \"Check P2P Type intraNodeP2pSupport %d directMode %d\"; 2.27.3 "
     "\"isAllDirectP2p %d directMode %d\" (0 also when a node has one rank); 2.28+ adds "
     "\"isAllCudaP2p %d\" (0: the hardware/platform cannot)",
     {"Check P2P Type intraNodeP2pSupport 0 directMode 0",
      "Check P2P Type isAllDirectP2p 0 directMode 0 isAllCudaP2p 0"}},
    {"p2p-peer-access-unsupported", "p2p", "p2p-disabled", Severity::kError, FailureSide::kNone,
     {"peer access is not supported", "peer mapping resources exhausted",
      "peer access has not been enabled"},
     {},
     "GPU peer access is not supported between these GPUs",
     "CUDA refused peer access between two GPUs that NCCL expected to connect directly.",
     {"a VM or platform without P2P support, or ACS/IOMMU settings that block it",
      "too many peers for the GPU's peer mappings (more than 8 peers on some GPUs)"},
     "Fix the platform (P2P-capable passthrough, ACS off, IOMMU passthrough) or set "
     "NCCL_P2P_DISABLE=1 (or NCCL_P2P_LEVEL) so NCCL does not try P2P on these GPUs.",
     "all versions (CUDA error text)",
     {"Cuda failure 'peer access is not supported between these two devices'"}},
    {"p2p-cuda-failure", "p2p", "p2p-disabled", Severity::kError, FailureSide::kNone,
     {"Cuda failure", "CUDA error", "failed to open CUDA IPC handle"},
     "p2p",
     "The P2P transport's CUDA setup failed",
     "A CUDA call of NCCL's P2P transport failed: exporting, importing or mapping a peer GPU's "
     "buffer (CUDA IPC or cuMem handles), so two GPUs of one node cannot connect directly.",
     {"ranks of one node in separate containers or pods without a shared IPC namespace (CUDA "
      "IPC handles do not cross them)",
      "cuMem handles (NCCL_CUMEM_ENABLE, the default from 2.19) on a driver or platform "
      "without support for their export type",
      "a VM or platform without GPU peer access"},
     "Run the ranks of a node in one container, or with `--ipc=host` / `hostIPC: true`; try "
     "NCCL_CUMEM_ENABLE=0; if the GPUs cannot reach each other directly set NCCL_P2P_DISABLE=1 "
     "(traffic then goes through SHM).",
     "all versions (transport/p2p.cc); 2.2-2.3 (transport/p2p.cu) \"failed to open CUDA IPC "
     "handle : %d %s\"",
     {"transport/p2p.cc:275 NCCL WARN Cuda failure 'invalid argument'",
      "transport/p2p.cu:526 WARN failed to open CUDA IPC handle : 11 invalid argument"}},
    // ---- NVLink SHARP and CollNet ----------------------------------------------------------
    {"nvls-cuda-failure", "nvls-collnet", "nvls-failure", Severity::kError, FailureSide::kNone,
     // 'initialization error' in nvls.cc is the multicast setup failing, not the GPU unusable
     // (vllm#9369, pytorch#130113: other CUDA work of the process ran).
     {"Cuda failure", "CUDA error", "Cuda failure*initialization error"},
     "nvls",
     "NVLink SHARP (NVLS) setup failed with a CUDA error",
     "NCCL's NVLS transport (NVSwitch multicast) failed to create or map multicast memory: the "
     "NVSwitch fabric, Fabric Manager or driver does not support it in this configuration.",
     {"nvidia-fabricmanager not running, failed, or a version different from the driver",
      "the driver/CUDA lacks multicast support, or IMEX/fabric devices are missing in the "
      "container",
      "not enough GPU memory for NVLS buffers"},
     kFixNvls, "2.17.1+ (transport/nvls.cc)",
     {"transport/nvls.cc:598 NCCL WARN Cuda failure 1 'invalid argument'",
      "transport/nvls.cc:254 NCCL WARN Cuda failure 401 'the operation cannot be performed in "
      "the present state'"}},
    {"nvls-bind-failed", "nvls-collnet", "nvls-failure", Severity::kWarning, FailureSide::kNone,
     {"Failed to bind NVLink SHARP", "Multicast support requested * but none available",
      "multicast-bind"},
     {},
     "NVLink SHARP multicast memory could not be bound",
     "NCCL could not bind NVSwitch multicast memory; it continues without NVLS (slower "
     "collectives on NVSwitch systems) or fails when NVLS was forced.",
     {"a Fabric Manager or NVSwitch configuration problem", "NCCL_NVLS_ENABLE=1 forced on a "
      "system without working multicast"},
     kFixNvls, "2.19+",
     {"Failed to bind NVLink SHARP (NVLS) Multicast memory of size %ld : CUDA error %d '%s'. "
      "Proceeding without NVLS support."}},
    {"mnnvl-not-working", "nvls-collnet", "nvls-failure", Severity::kError, FailureSide::kNone,
     {"MNNVL * is available but not working", "MNNVL is not supported"},
     {},
     "Multi-node NVLink is available but not working",
     "The system offers multi-node NVLink (GB200 NVL72 class) but NCCL cannot use it: the IMEX "
     "channel configuration is missing or wrong.",
     {"IMEX daemon/channels not configured (/dev/nvidia-caps-imex-channels not in the "
      "container)"},
     "Configure IMEX (`nvidia-imex-ctl -N`) and expose the IMEX channel devices to the "
     "container, or set NCCL_MNNVL_ENABLE=0.",
     "2.20.3+",
     {"MNNVL (cliqueSize %d) is available but not working on this system. Check the IMEX channel "
      "configuration (/dev/nvidia-caps-imex-channels). Set NCCL_MNNVL_ENABLE=0 to ignore this "
      "issue."}},
    {"collnet-failure", "nvls-collnet", "collnet-failure", Severity::kWarning, FailureSide::kNone,
     {"CollNet is not supported or fails to initialize", "CollNet currently only supports",
      "Detected mixed local CollNet device counts", "SHARP plugin", "SHARP * failed"},
     {},
     "CollNet (in-network reduction, SHARP) is not used",
     "NCCL could not set up CollNet (SHARP in-network reductions) and continues without it, or "
     "ignores a request for it.",
     {"the SHARP plugin (nccl-rdma-sharp-plugins) or the SHARP daemons are missing",
      "more GPUs per node than CollNet supports, or nodes with different CollNet devices"},
     "Install and configure the SHARP plugin and daemons (sharp_am on the fabric), or set "
     "NCCL_COLLNET_ENABLE=0 and remove COLLNET from NCCL_ALGO.",
     "2.6.4+",
     {"CollNet is not supported or fails to initialize, ignoring NCCL_ALGO=COLLNET"}},
    // ---- Shared memory ---------------------------------------------------------------------
    {"shm-cuda-failure", "shm", "shm-failure", Severity::kError, FailureSide::kNone,
     {"Cuda failure", "CUDA error", "failed to register host buffer"},
     "shm",
     "Registering shared memory with CUDA failed (SHM transport)",
     "A CUDA call on NCCL's /dev/shm segment failed (registering or mapping host shared memory "
     "for the SHM transport), so ranks of one node cannot exchange data through it.",
     {"/dev/shm is small or restricted in the container (memlock or size limits)",
      "cuMem host allocations (NCCL_CUMEM_HOST_ENABLE) on GPUs without peer access: set "
      "NCCL_CUMEM_HOST_ENABLE=0",
      "separate containers without a shared IPC namespace"},
     kFixShm,
     "all versions (include/shm.h, transport/shm.cc); 2.2-2.3 \"failed to register host buffer "
     "%p : %s\"",
     {"include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'",
      "include/shm.h:46 WARN failed to register host buffer 0x7f685140d000 : invalid argument"}},
    {"shm-attach-failed", "shm", "shm-failure", Severity::kError, FailureSide::kNone,
     {"attaching to shared memory segment", "Error while attaching to shared memory"},
     {},
     "A rank could not open a peer's /dev/shm segment",
     "The SHM transport maps a segment that the peer rank of the same node created; opening it "
     "failed (\"No such file or directory\": this rank does not see the peer's segment). That "
     "is not /dev/shm being too small.",
     {"the ranks of one node do not share /dev/shm (separate containers or pods without a "
      "shared IPC namespace)",
      "the peer already failed or exited and removed its segment: look for its earlier error",
      "ranks with different NCCL versions exchanging segment names (an empty name, `nccl-`)",
      "a regression of the NCCL release in use (NVIDIA/nccl#1589: going back to 2.21.5 fixed "
      "it)"},
     "Let the ranks of a node share /dev/shm: one container for all of them, or `--ipc=host` / "
     "`hostIPC: true` (or the same memory-backed emptyDir); check the peer's log for an earlier "
     "failure, and that every rank loads the same NCCL. NCCL_SHM_DISABLE=1 bypasses SHM (P2P or "
     "the network carry the traffic) as a last resort.",
     "2.4.2-2.15.5 \"Error while attaching to shared memory segment %s (size %d)\"; 2.22.3+ "
     "adds \", error: %s (%d)\"",
     {"misc/shmutils.cc:132 NCCL WARN Error while attaching to shared memory segment "
      "/dev/shm/nccl- (size 0), error: No such file or directory (2)"}},
    {"shm-no-space", "shm", "shm-failure", Severity::kError, FailureSide::kNone,
     {"shared memory segment", "failed to extend /dev/shm", "Call to posix_fallocate failed",
      "failed to create shared memory", "shm_open"},
     {},
     "/dev/shm is too small (shared memory allocation failed)",
     "NCCL could not create or grow a shared-memory segment in /dev/shm for the SHM transport or "
     "its proxy buffers: containers get only 64 MiB by default.",
     {"the container's /dev/shm is the 64 MiB default (Docker, Kubernetes without a "
      "memory-backed emptyDir)",
      "many ranks per node or channels need more shared memory than /dev/shm offers",
      "leftover nccl-* files of killed jobs fill /dev/shm"},
     kFixShm,
     "2.4.2-2.15.5 \"Error while %s shared memory segment %s (size %d)\"; 2.12.7+ \"Error: failed "
     "to extend %s to %d bytes\"; 2.22.3+ adds \", error: %s (%d)\"",
     {"include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device",
      "misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-WU88OE to 9637892 "
      "bytes, error: No space left on device (28)"}},
};
// clang-format on

}  // namespace

std::span<const KnownMessage> GpuKnowledge() { return kGpuEntries; }

}  // namespace ncclscope::knowledge_internal
