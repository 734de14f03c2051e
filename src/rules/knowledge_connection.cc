// Knowledge: socket connections between ranks, bootstrap interfaces, the TCP socket transport.
#include "knowledge_tables.h"

namespace ncclscope::knowledge_internal {
namespace {

constexpr std::string_view kFindFirstFailure =
    "Find the rank that failed first (the peer named here, the earliest error in time) and fix "
    "its own error: out of memory, an exception, a crash, a kill by the launcher or the OOM "
    "killer. This rank's error is fallout. Re-run with NCCL_DEBUG=INFO on every rank and keep "
    "every rank's log (kubectl logs --prefix, one NCCL_DEBUG_FILE per process).";

constexpr std::string_view kFixPath =
    "Make every rank advertise an address the others can reach: set NCCL_SOCKET_IFNAME to the "
    "interface that routes between the nodes (e.g. eth0, ens5, ib0; `^docker0,lo` excludes "
    "bridges and loopback), check it with `ip -br addr` inside every container, open all TCP "
    "ports between the nodes or pods (firewalld/ufw, Kubernetes NetworkPolicy, cloud security "
    "groups allowing all traffic within the group), and check that MASTER_ADDR/the NCCL root "
    "address is the same on every rank.";

constexpr std::string_view kFixDisagreeConnection =
    "Run every rank from the same image with the same NCCL (check the `NCCL version` line of "
    "every rank) and the same NCCL_* settings; make sure no process of an earlier attempt or "
    "another job is still connecting to this job's ports (fresh MASTER_PORT per attempt, kill "
    "leftover processes), and that nothing else (port scanners, health checks) talks to them.";

// The table is laid out by hand, one entry's id, family, rule, severity and side on its
// first line (clang-format would put each field on a line of its own).
// clang-format off
constexpr KnownMessage kConnectionEntries[] = {
    // ---- The peer died ---------------------------------------------------------------------
    {"conn-closed-by-peer", "connection", "connection-error", Severity::kError,
     FailureSide::kPeerDied,
     {"Connection closed by remote peer", "Net : Connection closed"},
     {},
     "A peer closed its connection: it most likely died first",
     "The process at the other end of this socket closed it while this rank still needed it: it "
     "exited, crashed or was killed, or its node went away.",
     {"the peer process died first (exception, CUDA error, out of memory, killed by the launcher "
      "or the OOM killer): its own log holds the root cause",
      "the peer's node rebooted or lost its network",
      "a foreign or stale connection (a rank of an earlier attempt, a port scanner) was dropped"},
     kFindFirstFailure,
     "2.4.2-2.9.9 \"Net : Connection closed by remote peer\"; 2.10.3-2.15.5 with the peer "
     "address; 2.16.2+ \"socketProgress: Connection closed by remote peer host<port>\"",
     {"misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node1<57557>",
      "Net : Connection closed by remote peer %s"}},
    {"connect-aborted", "connection", "connection-error", Severity::kError,
     FailureSide::kNetworkPath,
     {"Connect to*Software caused connection abort"},
     {},
     "A rank could not connect to a peer (the real error is hidden)",
     "An outgoing connection to another rank failed. NCCL 2.18-2.23 report such a failure as "
     "\"Software caused connection abort\" because of a bug in their error handling (fixed "
     "later, NVIDIA/nccl#1515): the connect failed for another reason, which the message no "
     "longer says. It is not a peer that reset the connection.",
     {"the address the peer advertised is not reachable from here (lo, a link-local or docker "
      "address, another subnet): NCCL_SOCKET_IFNAME does not select the routable interface",
      "a firewall or security group drops the port",
      "the peer was not listening (not started yet, or already exited)"},
     kFixPath,
     "2.18-2.23 (\"socketStartConnect: Connect to %s failed : Software caused connection "
     "abort\"); the error-handling bug is fixed in later releases",
     {"misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : "
      "Software caused connection abort",
      "socket.c:485 NCCL WARN socketStartConnect: Connect to 10.0.0.82<38455> failed : Software "
      "caused connection abort"}},
    {"conn-reset-by-peer", "connection", "connection-error", Severity::kError,
     FailureSide::kPeerDied,
     {"Connection reset by peer", "Broken pipe", "Software caused connection abort"},
     {},
     "A peer reset its connection: it most likely died first",
     "The connection to another rank was reset or aborted (ECONNRESET, EPIPE, ECONNABORTED): the "
     "other process went away abruptly, or something between the two dropped the connection.",
     {"the peer process crashed or was killed (its own log holds the root cause)",
      "a firewall, NAT or load balancer between the nodes dropped an idle or unexpected "
      "connection",
      "the peer's node lost its network or rebooted"},
     kFindFirstFailure,
     "all versions: \"Call to recv from ... failed : Connection reset by peer\" (2.10.3-2.15.5), "
     "\"socketProgressOpt: Call to recv from ... failed\" (2.16.2+)",
     {"socketProgressOpt: Call to recv from %s failed : Connection reset by peer"}},
    {"remote-process-exited", "connection", "connection-error", Severity::kError,
     FailureSide::kPeerDied,
     {"remote process exited or there was a network error", "ncclRemoteError",
      "process exited or there was a network error"},
     {},
     "NCCL reports that a remote rank exited or the network failed",
     "NCCL's ncclRemoteError: an operation needed another rank, and that rank exited (or the "
     "network to it failed) before it completed.",
     {"another rank died first (exception, out of memory, kill): its log holds the root cause",
      "the network between the ranks failed (IB/RoCE link errors, EFA errors)"},
     kFindFirstFailure, "2.13.4+ (ncclRemoteError, error code 6)",
     {"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
      "ProcessGroupNCCL.cpp:1970, remote process exited or there was a network error, NCCL "
      "version 2.21.5",
      "ncclRemoteError: A call failed possibly due to a network error or a remote process "
      "exiting prematurely."}},
    {"service-thread-lost-local-rank", "connection", "connection-error", Severity::kError,
     FailureSide::kPeerDied,
     {"Could not receive type from localRank", "Socket recv failed while polling for opId"},
     {},
     "A rank lost the connection to a proxy or local peer",
     "NCCL's proxy or service thread lost its socket to another rank of the node: that process "
     "most likely exited.",
     {"a rank on the same node died first", "the process ran out of file descriptors"},
     kFindFirstFailure, "2.12.7+",
     {"proxy.cc:1143 NCCL WARN Socket recv failed while polling for opId=0x7f6f18cb7f40",
      "[Service thread] Could not receive type from localRank %d, res=%u, closed=%d"}},
    // ---- The network path is wrong ---------------------------------------------------------
    {"conn-refused", "connection", "connection-error", Severity::kError,
     FailureSide::kNetworkPath,
     {"Connection refused", "returned Connection refused"},
     {},
     "Connection refused: nothing listens at the address a rank connected to",
     "A rank reached the peer's host but nothing was listening on that address and port: the "
     "address the peer advertised is wrong for this route, or the peer is not (or no longer) "
     "running.",
     {"the peer advertised an unreachable address (docker0, lo, a pod or link-local address): "
      "NCCL_SOCKET_IFNAME does not select the routable interface",
      "the peer was not running yet or had already exited (a crash, or a rank of another attempt "
      "using a stale NCCL id or MASTER_PORT)",
      "a firewall rejects the port"},
     kFixPath,
     "all versions: \"Connect to %s failed : Connection refused\", 2.24.3+ \"... returned "
     "Connection refused, exceeded error retry count\"",
     {"socketStartConnect: Connect to %s failed : Connection refused",
      "misc/socket.cc:650 NCCL WARN socketPollConnect: connect to 169.254.20.10<52597> returned "
      "Connection refused, exceeded error retry count after 35 attempts",
      "include/socket.h:185 WARN Call to connect failed : Connection refused"}},
    {"socket-family-unsupported", "connection", "connection-error", Severity::kError,
     FailureSide::kNetworkPath,
     {"Socket creation failed : Address family not supported",
      "Address family not supported by protocol"},
     {},
     "A socket of an address family this host does not support",
     "NCCL could not open a socket for the address it has to use (its own interface's or the "
     "peer's, as exchanged at bootstrap): the kernel or container does not support that address "
     "family, so the connection never starts.",
     {"the interface NCCL uses (NCCL_SOCKET_IFNAME, or its own pick) has only an IPv6 address "
      "while IPv6 is disabled in this kernel or container, or the reverse",
      "ranks run different NCCL versions or builds, so a peer's address arrives garbled"},
     kFixPath,
     "all versions (socket.h / socket.cc: \"Net : Socket creation failed : %s\")",
     {"include/socket.h:318 NCCL WARN Net : Socket creation failed : Address family not "
      "supported by protocol"}},
    {"unique-id-store-get-failed", "connection", "connection-error", Severity::kError,
     FailureSide::kNone,
     {"retrieving ncclUniqueId from * via c10d key-value store * got error"},
     {},
     "A rank could not fetch the NCCL unique id from the rank that creates it (c10d store)",
     "PyTorch passes NCCL's unique id from the group's first rank to the others through the c10d "
     "key-value store; this rank's read of it failed, so the communicator was never created. "
     "The store's error says how: the store's host went away, or its address is not usable "
     "(\"failed to format addr, unknown family\").",
     {"the rank that creates the id (rank 0 of the group) crashed or exited, or is on a host "
      "this rank cannot reach",
      "a custom process group (an RLHF weight-update group) created with a store or address "
      "that is not valid on this host"},
     "Look at the group's rank 0 first: its own log says whether it ended; then check "
     "MASTER_ADDR/MASTER_PORT (or the init_method URL) of that group from this host.",
     "PyTorch 2.2+ (ProcessGroupNCCL::broadcastUniqueNCCLID)",
     {"[1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d "
      "key-value store by key '0', but store->get('0') got error: failed to format addr, unknown "
      "family=0"},
     true},  // a wrapper: the store's own error ("Connection reset by peer") says more
    {"conn-retrying", "connection", "connection-error", Severity::kWarning,
     FailureSide::kNetworkPath,
     {"connect to * returned * retrying", "Connect to * failed * retrying",
      "returned * retrying * after sleep for", "Call to connect returned * retrying"},
     {},
     "Connecting to a peer keeps failing (NCCL retries)",
     "NCCL tries again and again to connect to a peer that refuses or does not answer; when the "
     "retries run out, init fails. Nothing listens at that address yet, or any more.",
     {"the peer is not (or no longer) running: a crashed rank, or ranks of another attempt "
      "reusing a stale NCCL id or MASTER_PORT",
      "the address is not reachable from this rank (interface, firewall)"},
     kFixPath,
     "2.24.3+ (INFO on every retry); up to 2.8 \"Call to connect returned %s, retrying\"",
     {"socketPollConnect: connect to 10.29.224.148<52333> returned Connection refused, retrying "
      "(18/34) after sleep for 1800 msec",
      "Call to connect returned Connection timed out, retrying"}},
    {"conn-timed-out", "connection", "connection-error", Severity::kError,
     FailureSide::kNetworkPath,
     {"Connection timed out", "exceeded timeouts", "exceeded retries", "exceeded error retry count",
      "Operation timed out"},
     {},
     "Connecting to a peer timed out: no route between the ranks",
     "A rank tried to connect to another and never got an answer: packets to that address are "
     "dropped (firewall, wrong interface or subnet, routing), or the peer host is down.",
     {"a firewall or security group drops NCCL's TCP ports between the nodes",
      "the peer advertised an address on an interface the others cannot route to "
      "(NCCL_SOCKET_IFNAME)",
      "the peer node is down or unreachable"},
     kFixPath,
     "2.16.2-2.23.4 \"socketStartConnect/socketPollConnect: exceeded timeouts (%d)\"; 2.24.3+ "
     "\"... exceeded error retry count\"; errno ETIMEDOUT in every version",
     {"socketPollConnect: exceeded timeouts (%d)",
      "socketStartConnect: Connect to %s failed : Connection timed out"}},
    {"conn-unreachable", "connection", "connection-error", Severity::kError,
     FailureSide::kNetworkPath,
     {"No route to host", "Network is unreachable", "Cannot assign requested address",
      "No interface found in the same subnet"},
     {},
     "No route from this rank to the peer's address",
     "The peer's address cannot be reached from this rank's interface (no route, wrong subnet, "
     "or an address that does not belong to this host).",
     {"ranks use different interfaces or subnets (NCCL_SOCKET_IFNAME picks a NIC that does not "
      "route to the peer)",
      "an IPv6 or link-local address was chosen (veth, docker0, ip6tnl)",
      "the peer host is down"},
     kFixPath, "all versions (errno EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL)",
     {"socketStartConnect: Connect to %s failed : Network is unreachable",
      "Net : Connect to %s failed : No route to host",
      "Net : No interface found in the same subnet as remote address %s"}},
    // ---- The two sides disagree ------------------------------------------------------------
    {"conn-wrong-type", "connection", "ranks-disagree", Severity::kError,
     FailureSide::kSidesDisagree,
     {"socketFinalizeAccept*wrong type", "socketFinalizeAccept*wrong magic",
      "unexpected socket type", "wrong socket state"},
     {},
     "A connection of the wrong kind reached NCCL: the two sides disagree",
     "NCCL accepted a connection whose handshake (magic number or socket type) is not what it "
     "expected: the process at the other end is not speaking the same NCCL protocol for this "
     "connection.",
     {"the two ranks run different NCCL versions or different settings, so one side opens a "
      "different kind of connection (e.g. a proxy or network connection where the other expects "
      "bootstrap)",
      "a process of an earlier attempt or another job connects to this job's port (stale NCCL "
      "unique id, MASTER_PORT reused)",
      "something else (a port scanner, a health check) connected to NCCL's listening port"},
     kFixDisagreeConnection,
     "2.16.2+ \"socketFinalizeAccept: wrong type %d != %d\" / \"wrong magic %lx != %lx\"; 2.27+ "
     "\"socketFinalizeAccept from %s: wrong type\"",
     {"misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3",
      "socketFinalizeAccept: wrong magic %lx != %lx"}},
    {"conn-message-truncated", "version-mismatch", "ranks-disagree", Severity::kError,
     FailureSide::kSidesDisagree,
     {"Message truncated", "message truncated : receiving"},
     {},
     "A peer sent a message of another size than expected: the two sides disagree",
     "NCCL received a different number of bytes than it expected from a peer: the two ranks "
     "disagree on the operation (sizes, collectives) or on NCCL settings.",
     {"ranks call different collectives or with different sizes (a program bug: mismatched "
      "collectives)",
      "ranks run with different NCCL_* settings (NCCL_PROTO, NCCL_ALGO, NCCL_BUFFSIZE) or NCCL "
      "versions",
      "a corrupting network path (rare)"},
     kFixDisagreeConnection,
     "all versions: \"Message truncated : received %d bytes instead of %d\" (bootstrap), "
     "\"NET/Socket : peer %s message truncated : receiving %d bytes instead of %d\"",
     {"Message truncated : received %d bytes instead of %d",
      "NET/Socket : peer %s message truncated : receiving %d bytes instead of %d"}},
    {"bootstrap-root-mismatch", "connection", "ranks-disagree", Severity::kError,
     FailureSide::kSidesDisagree,
     {"Bootstrap Root : mismatch", "has already checked in", "Bootstrap Root : localId"},
     {},
     "Ranks of different jobs or attempts met at one bootstrap root",
     "The bootstrap root received ranks that disagree on the job: a different number of ranks, "
     "or two processes claiming the same rank.",
     {"processes of an earlier attempt or another job use the same NCCL unique id or "
      "MASTER_ADDR:MASTER_PORT",
      "WORLD_SIZE/RANK differ between the launchers of the nodes (two processes got the same "
      "rank)"},
     kFixDisagreeConnection, "all versions (bootstrap.cc)",
     {"Bootstrap Root : rank %d of %d ranks has already checked in",
      "Bootstrap Root : mismatch in rank count from procs %d : %d"}},
    // ---- Consequences and generic socket failures ------------------------------------------
    {"proxy-operation-failed", "connection", "connection-error", Severity::kError,
     FailureSide::kNone,
     {"Failed to execute operation", "Proxy Call to rank"},
     {},
     "A proxy operation failed (fallout of the error before it)",
     "NCCL's proxy thread could not complete a connection or network operation for a rank; the "
     "WARN just before it on the same rank says why.",
     {"the error reported just before on the same rank (connection refused or closed, wrong "
      "type, network plugin error)"},
     "Fix the error reported just before this line on the same rank.", "2.12.7+",
     {"proxy.cc:1519 NCCL WARN [Proxy Service 2] Failed to execute operation Connect from rank "
      "2, retcode 3"}},
    {"socket-call-failed", "connection", "connection-error", Severity::kError,
     FailureSide::kNone,
     {"socketProgressOpt: Call to", "Net : Call to", "Call to recv * failed", "Call to send * failed",
      "Call to connect failed", "socketPollConnect"},
     {},
     "A socket operation between ranks failed",
     "A send, receive or connect on one of NCCL's TCP sockets failed; the error text after "
     "\"failed\" says how.",
     {"the peer died (reset, closed)", "the network path is wrong (refused, timed out, unreachable)"},
     kFindFirstFailure, "2.10.3+",
     {"socketProgressOpt: Call to recv from %s failed : %s"},
     /*fallback=*/true},
    // ---- Bootstrap and socket interfaces ---------------------------------------------------
    {"no-socket-interface", "bootstrap-interface", "bootstrap-interface", Severity::kError,
     FailureSide::kNetworkPath,
     {"no socket interface found", "No usable listening interface found",
      "NET/Socket : no interface found", "Could not find interface", "no device found matching"},
     {},
     "NCCL found no usable network interface",
     "NCCL could not find a network interface to bootstrap or to open sockets on: "
     "NCCL_SOCKET_IFNAME (or NCCL_OOB_NET_IFNAME) matches no interface of this host or container, "
     "or only loopback is up.",
     {"NCCL_SOCKET_IFNAME names an interface that does not exist in this container (a host NIC "
      "name in a pod network, a typo, eth0 vs ens5)",
      "the container has only loopback (network namespace without a pod network)"},
     "Set NCCL_SOCKET_IFNAME to an interface that exists on every node (`ip -br addr` inside the "
     "container; a prefix such as `eth` or `en` matches eth0/ens5), or unset it to let NCCL "
     "choose.",
     "all versions: \"Bootstrap : no socket interface found\", \"NET/Socket : No usable listening "
     "interface found\"",
     {"bootstrap.cc:114 NCCL WARN Bootstrap : no socket interface found",
      "NET/Socket : No usable listening interface found"}},
    {"socket-bad-family", "bootstrap-interface", "bootstrap-interface", Severity::kError,
     FailureSide::kNetworkPath,
     {"is neither AF_INET", "connecting to address  with family"},
     {},
     "NCCL has no address to connect to: the selected interface has none",
     "NCCL tried to connect to an empty or invalid address: the interface NCCL_SOCKET_IFNAME "
     "selects has no IPv4/IPv6 address on some node (or does not exist there), so the address "
     "exchanged at bootstrap is empty.",
     {"NCCL_SOCKET_IFNAME names an interface that is missing or has no address on some nodes",
      "ranks select different interfaces (NCCL_SOCKET_IFNAME differs between nodes)"},
     "Set NCCL_SOCKET_IFNAME to an interface that exists with an address on every node (check "
     "`ip -br addr` on each), or unset it.",
     "2.19+ (ncclSocketInit)",
     {"ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor "
      "AF_INET6(10)"}},
    {"invalid-comm-id", "bootstrap-interface", "bootstrap-interface", Severity::kError,
     FailureSide::kNetworkPath,
     {"Invalid NCCL_COMM_ID"},
     {},
     "NCCL_COMM_ID is malformed",
     "NCCL_COMM_ID must be <ipv4>:<port>, [<ipv6>]:<port> or <hostname>:<port>; NCCL could not "
     "parse it.",
     {"a typo or a missing port in NCCL_COMM_ID"},
     "Fix NCCL_COMM_ID or unset it (frameworks pass the unique id themselves).", "all versions",
     {"Invalid NCCL_COMM_ID, please use format: <ipv4>:<port> or [<ipv6>]:<port> or "
      "<hostname>:<port>"}},
    // ---- The TCP socket transport ----------------------------------------------------------
    {"using-network-socket", "socket-fallback", "socket-fallback", Severity::kWarning,
     FailureSide::kNone,
     {"Using network Socket"},
     {},
     "NCCL uses TCP sockets for traffic between nodes",
     "NCCL chose its TCP socket transport for inter-node traffic: no InfiniBand/RoCE device and "
     "no network plugin (aws-ofi-nccl for EFA) was usable. Between nodes this gives a few GB/s "
     "instead of 25-400 GB/s; within a single node it does not matter.",
     {"the RDMA NICs are not visible in the container (no /dev/infiniband, RDMA device plugin or "
      "EFA resources)",
      "the network plugin (aws-ofi-nccl) failed or is not installed",
      "NCCL_IB_DISABLE=1 or NCCL_NET=Socket is set",
      "the cluster has only Ethernet (then tune NCCL_SOCKET_IFNAME/NCCL_SOCKET_NTHREADS)"},
     "Give NCCL its RDMA network: expose the HCAs (RDMA device plugin, /dev/infiniband, IPC_LOCK) "
     "or EFA (`vpc.amazonaws.com/efa` resources, aws-ofi-nccl in the image, FI_PROVIDER=efa), "
     "and do not set NCCL_IB_DISABLE=1 or NCCL_NET=Socket.",
     "2.6.4+ \"Using network Socket\"",
     {"NCCL INFO Using network Socket"}},
};
// clang-format on

}  // namespace

std::span<const KnownMessage> ConnectionKnowledge() { return kConnectionEntries; }

}  // namespace ncclscope::knowledge_internal
