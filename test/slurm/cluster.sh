# cluster.sh - (bash) a real multi-node Slurm cluster on one machine, for tests and
# benchmarks (sourced; needs root). Every node is a network and UTS
# namespace of its own, with its own hostname, /etc/hosts, /tmp and
# /dev/shm, joined to the others by veth pairs on a bridge that lives in a
# "switch" namespace this script makes: no address or interface is added
# outside the namespaces it creates. munged, slurmctld (in namespace "ctl")
# and one slurmd per node are started from a private directory.
#
# With CLUSTER_LIBPMIX set to drover's libpmix.so.2, each node's mount
# namespace has it bound over the library Debian's mpi/pmix_v4 plugin
# dlopens (/usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so, a link to
# libpmix.so.2.6.2, which Open MPI and -lpmix programs load too): the
# whole node, slurmstepd and ranks, runs drover's library. Unset, the node
# runs Debian's OpenPMIx.
#
#   cluster_start N      start N nodes (node1..nodeN), wait until idle
#   cluster_srun ARGS    srun from the controller's namespace, killed after
#                        CLUSTER_TIMEOUT seconds (60)
#   cluster_salloc ARGS  salloc from there (same limit)
#   cluster_node_pids K  the pids running in node K's namespace
#   cluster_use LIB      from the next step on, every node runs LIB (empty:
#                        OpenPMIx), for benchmarks that alternate
#   cluster_stop         kill everything, delete the namespaces and files
#                        (installed as the EXIT trap by cluster_start)

CLUSTER_SLURM_PLUGINS=/usr/lib/x86_64-linux-gnu/slurm-wlm
CLUSTER_OPENPMIX=/usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so.2.6.2
CLUSTER_PREFIX=drover-slurm-$$
CLUSTER_DIR=
CLUSTER_NODES=0
CLUSTER_MUNGED=

cluster_fail() {
    echo "cluster.sh: $*" >&2
    exit 1
}

# The directories below /tmp that a node must still see through its
# private /tmp, a line each: this checkout and the directory the tests run
# in (the build), where the programs and drover's library live.
cluster_keep() {
    local top dir
    top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
    for dir in "$top" "$(pwd -P)"; do
        case $dir in /tmp/?*) printf '%s\n' "$dir" ;; esac
    done | sort -u
}

# In namespace $1 (of ours), with the node's hostname $2 and private files:
# run the rest.
cluster_in() {
    local ns=$1 name=$2
    shift 2
    nsenter --net="/run/netns/$ns" unshare --uts --mount --propagation private \
        env CLUSTER_DIR="$CLUSTER_DIR" NAME="$name" LIB="${CLUSTER_LIBPMIX:-}" \
        OPENPMIX="$CLUSTER_OPENPMIX" KEEP="$(cluster_keep)" sh -c '
        hostname "$NAME"
        mount --bind "$CLUSTER_DIR/hosts" /etc/hosts
        mkdir -p "$CLUSTER_DIR/$NAME/tmp"
        chmod 1777 "$CLUSTER_DIR/$NAME/tmp"
        # The checkout and build below /tmp stay where they are on the node.
        printf "%s\n" "$KEEP" | while IFS= read -r dir; do
            [ -n "$dir" ] || continue
            mkdir -p "$CLUSTER_DIR/$NAME/tmp/${dir#/tmp/}"
            mount --bind "$dir" "$CLUSTER_DIR/$NAME/tmp/${dir#/tmp/}"
        done
        mount --rbind "$CLUSTER_DIR/$NAME/tmp" /tmp
        mount -t tmpfs -o mode=1777,size=256m tmpfs /dev/shm
        if [ -n "$LIB" ]; then mount --bind "$LIB" "$OPENPMIX"; fi
        exec "$@"' cluster "$@"
}

# The namespaces whose names start with $1: every process in them ended
# (TERM, then KILL), then the namespaces deleted.
cluster_remove_namespaces() {
    local ns pids
    for ns in $(ip netns list 2>/dev/null | awk -v p="$1" 'index($1, p) == 1 {print $1}'); do
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -TERM $pids 2>/dev/null
    done
    sleep 0.3
    for ns in $(ip netns list 2>/dev/null | awk -v p="$1" 'index($1, p) == 1 {print $1}'); do
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
}

# Namespaces left by a run that was killed outright (SIGKILL leaves no trap
# to run): those of a prefix whose script is no longer alive.
cluster_remove_stale() {
    local pid
    for pid in $(ip netns list 2>/dev/null | sed -n 's/^drover-slurm-\([0-9]*\)-.*/\1/p' | sort -u); do
        kill -0 "$pid" 2>/dev/null || cluster_remove_namespaces "drover-slurm-$pid-"
    done
}

cluster_stop() {
    trap - EXIT INT TERM
    cluster_remove_namespaces "$CLUSTER_PREFIX-"
    [ -n "$CLUSTER_MUNGED" ] && kill "$CLUSTER_MUNGED" 2>/dev/null && wait "$CLUSTER_MUNGED" 2>/dev/null
    CLUSTER_MUNGED=
    [ -n "$CLUSTER_DIR" ] && rm -rf "$CLUSTER_DIR"
    CLUSTER_DIR=
}

cluster_config() {
    local n=$1 k
    cat >"$CLUSTER_DIR/slurm.conf" <<CONF
ClusterName=drover
SlurmctldHost=ctl(10.250.0.1)
AuthType=auth/munge
AuthInfo=socket=$CLUSTER_DIR/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
PluginDir=$CLUSTER_SLURM_PLUGINS
StateSaveLocation=$CLUSTER_DIR/ctl/state
SlurmctldPidFile=$CLUSTER_DIR/ctl/slurmctld.pid
SlurmctldLogFile=$CLUSTER_DIR/ctl/slurmctld.log
SlurmdSpoolDir=$CLUSTER_DIR/%n/spool
SlurmdPidFile=$CLUSTER_DIR/%n/slurmd.pid
SlurmdLogFile=$CLUSTER_DIR/%n/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
InactiveLimit=0
KillWait=2
MessageTimeout=10
SlurmdTimeout=60
CONF
    for k in $(seq "$n"); do
        echo "NodeName=node$k NodeAddr=10.250.0.$((10 + k)) NodeHostname=node$k CPUs=8 State=UNKNOWN" \
            >>"$CLUSTER_DIR/slurm.conf"
    done
    echo "PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP" >>"$CLUSTER_DIR/slurm.conf"
    {
        echo "127.0.0.1 localhost"
        echo "10.250.0.1 ctl"
        for k in $(seq "$n"); do echo "10.250.0.$((10 + k)) node$k"; done
    } >"$CLUSTER_DIR/hosts"
}

# Join namespace $1 (made here) to the switch as $2, address $3, its end
# "eth0".
cluster_plug() {
    local ns=$CLUSTER_PREFIX-$1
    ip netns add "$ns" || cluster_fail "cannot create network namespace $ns"
    ip -n "$CLUSTER_PREFIX-sw" link add "v-$1" type veth peer name eth0 netns "$ns"
    ip -n "$CLUSTER_PREFIX-sw" link set "v-$1" master br0 up
    ip -n "$ns" addr add "$2/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
}

# The switch: a bridge in a namespace of its own, the controller and the
# nodes plugged into it.
cluster_network() {
    local k
    ip netns add "$CLUSTER_PREFIX-sw" || cluster_fail "cannot create network namespaces (root needed)"
    ip -n "$CLUSTER_PREFIX-sw" link add br0 type bridge
    ip -n "$CLUSTER_PREFIX-sw" link set br0 up
    cluster_plug ctl 10.250.0.1
    for k in $(seq "$1"); do
        cluster_plug "n$k" "10.250.0.$((10 + k))"
    done
}

cluster_start() {
    local n=$1 k i idle
    trap cluster_stop EXIT
    trap 'exit 130' INT TERM
    cluster_remove_stale
    CLUSTER_DIR=$(mktemp -d /var/tmp/drover-slurm.XXXXXX) || cluster_fail "no private directory"
    chmod 755 "$CLUSTER_DIR"
    CLUSTER_NODES=$n
    mkdir -p "$CLUSTER_DIR/munge" "$CLUSTER_DIR/ctl/state"
    chmod 700 "$CLUSTER_DIR/munge"
    dd if=/dev/urandom of="$CLUSTER_DIR/munge/key" bs=1024 count=1 2>/dev/null
    chmod 400 "$CLUSTER_DIR/munge/key"
    munged -F -f --socket="$CLUSTER_DIR/munge/socket" --key-file="$CLUSTER_DIR/munge/key" \
        --pid-file="$CLUSTER_DIR/munge/pid" --log-file="$CLUSTER_DIR/munge/log" \
        --seed-file="$CLUSTER_DIR/munge/seed" >"$CLUSTER_DIR/munge/out" 2>&1 &
    CLUSTER_MUNGED=$!
    cluster_config "$n"
    cluster_network "$n"
    export SLURM_CONF=$CLUSTER_DIR/slurm.conf
    cluster_in "$CLUSTER_PREFIX-ctl" ctl slurmctld -D -c -i -f "$SLURM_CONF" \
        >"$CLUSTER_DIR/ctl/out" 2>&1 &
    for k in $(seq "$n"); do
        mkdir -p "$CLUSTER_DIR/node$k/spool"
        cluster_in "$CLUSTER_PREFIX-n$k" "node$k" slurmd -D -N "node$k" -f "$SLURM_CONF" \
            >"$CLUSTER_DIR/node$k/out" 2>&1 &
    done
    for i in $(seq 300); do
        idle=$(cluster_in "$CLUSTER_PREFIX-ctl" ctl sinfo -h -N -t idle -o %N 2>/dev/null | wc -l)
        [ "$idle" -ge "$n" ] && return 0
        sleep 0.1
    done
    tail -n 5 "$CLUSTER_DIR"/*/slurm*.log "$CLUSTER_DIR"/*/out >&2
    cluster_fail "the $n nodes did not come up"
}

cluster_srun() {
    cluster_in "$CLUSTER_PREFIX-ctl" ctl timeout -k 5 "${CLUSTER_TIMEOUT:-60}" srun "$@"
}

cluster_salloc() {
    cluster_in "$CLUSTER_PREFIX-ctl" ctl timeout -k 5 "${CLUSTER_TIMEOUT:-60}" salloc "$@"
}

cluster_use() {
    local k pid
    for k in $(seq "$CLUSTER_NODES"); do
        pid=$(cat "$CLUSTER_DIR/node$k/slurmd.pid") || cluster_fail "no slurmd on node$k"
        nsenter -t "$pid" -m sh -c 'umount "$0" 2>/dev/null; [ -z "$1" ] || mount --bind "$1" "$0"' \
            "$CLUSTER_OPENPMIX" "$1" || cluster_fail "cannot bind $1 on node$k"
    done
}

cluster_node_pids() {
    ip netns pids "$CLUSTER_PREFIX-n$1"
}
