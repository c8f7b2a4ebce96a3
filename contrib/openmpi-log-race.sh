#!/usr/bin/env bash
# openmpi-log-race.sh [LIBDIR] - make Open MPI 4.1's mpirun crash on the
# message a rank logs when it calls MPI_Abort, first with the system's
# OpenPMIx, then with the libpmix.so.2 in LIBDIR (default build/src).
#
# The race is mpirun's own: its log handler runs on the PMIx server's
# thread and sends the message to itself; that send hands the message to
# mpirun's main thread, which frees it, before copying it. A shim
# (LD_PRELOAD) sleeps right after that hand-over, and malloc fills freed
# memory with a pattern, so the copy reads freed memory every time instead
# of once in hundreds of runs. Each run printing "mpirun crashed in
# pmix_server_log_fn" shows the crash does not depend on the PMIx library.
set -euo pipefail
libdir=$(realpath "${1:-$(dirname "$0")/../build/src}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <event2/event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* After mpirun's rml posts a self-send from a thread other than its main
 * one, give the main thread time to run the send's completion. */
void event_active(struct event *ev, int res, short ncalls)
{
    static void (*real)(struct event *, int, short);
    Dl_info where;

    if (NULL == real) {
        real = (void (*)(struct event *, int, short))dlsym(RTLD_NEXT, "event_active");
    }
    real(ev, res, ncalls);
    if (syscall(SYS_gettid) != getpid() &&
        dladdr((void *)event_get_callback(ev), &where) && NULL != where.dli_fname &&
        NULL != strstr(where.dli_fname, "mca_rml_oob")) {
        usleep(20000);
    }
}
EOF
cat >"$work/abort.c" <<'EOF'
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Abort(MPI_COMM_WORLD, 3);
    return 0;
}
EOF
cc -shared -fPIC -o "$work/shim.so" "$work/shim.c" -ldl -levent_core
mpicc -o "$work/abort" "$work/abort.c"

# run LABEL [LIBRARY_PATH]
run() {
    local status
    # The subshell's stderr takes the shell's own "Segmentation fault"; the
    # crashed mpirun's session directory goes with $work.
    status=$( (TMPDIR="$work" LD_LIBRARY_PATH="${2:-}" LD_PRELOAD="$work/shim.so" MALLOC_PERTURB_=83 \
        GLIBC_TUNABLES=glibc.malloc.tcache_count=0 \
        timeout -k 5 60 mpirun --allow-run-as-root -n 1 "$work/abort" >"$work/out" 2>&1
        echo $?) 2>/dev/null)
    if grep -q pmix_server_log_fn "$work/out"; then
        echo "$1: mpirun crashed in pmix_server_log_fn (exit status $status)"
    else
        echo "$1: no crash (exit status $status)"
    fi
}
run "OpenPMIx (system libpmix.so.2)"
run "drover ($libdir)" "$libdir"
