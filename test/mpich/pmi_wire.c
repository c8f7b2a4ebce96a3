/*
 * pmi_wire.c - a PMI-1 client speaking the wire protocol itself over
 * PMI_FD, to test what MPICH cannot show: every command's answer, a PMI
 * rank and a PMIx rank sharing data, and what bad input does.
 *
 *   pmi_wire attrs        every PMI-1 command, checked; PASS line per rank
 *                         (the appnum expected is WANT_APPNUM's, else 0)
 *   pmi_wire interop      rank 0 speaks PMIx, the others PMI-1; each reads
 *                         what the other kind put
 *   pmi_wire v2           every PMI-2 command, checked; PASS line per rank
 *   pmi_wire spawn1|spawn2 DIR
 *                         rank 0 spawns two children (pmi_wire child1 or
 *                         child2, found through the path info key in DIR)
 *                         in /tmp with a preput key, over PMI-1 or PMI-2
 *   pmi_wire port         connects to PMI_PORT and says its PMI_ID, as
 *                         MPICH does without PMI_FD
 *   pmi_wire latency N    puts a key, fences, then times N gets of another
 *                         rank's key (for bench/mpich); also under hydra
 *   pmi_wire tinybuf      with the smallest send buffer, commands one by
 *                         one, many before any answer is read, and one a
 *                         byte at a time: all answered (the server holds a
 *                         few commands' bytes on the socket)
 *   pmi_wire flood        sends 2000 commands before reading an answer,
 *                         more than the socket holds, then idles: the
 *                         server (its parent's process) must idle too
 *   pmi_wire spawnhost DIR HOST RC
 *                         spawns one child with the host info key, expects
 *                         the answer rc=RC
 *   pmi_wire bad KIND     sends bad input, expects the server to hang up
 *   pmi_wire abort CODE   asks the job to end with CODE
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "pmicheck.h"
#include "pmix.h"

static int fd = -1, size;

static void send_text(const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            die("write: %s", strerror(errno));
        }
        text += n;
        len -= (size_t)n;
    }
}

/* One reply line, without its newline; NULL at the end of the stream.
 * Read in blocks, as MPICH's PMI client reads (up to 1023 bytes a call):
 * a byte per read would time the client's system calls, not the server.
 * What follows the line waits for the next call. */
static char *recv_line(void)
{
    static char buf[4096], line[4096];
    static size_t have;
    for (;;) {
        char *nl = memchr(buf, '\n', have);
        if (NULL != nl) {
            size_t len = (size_t)(nl - buf);
            memcpy(line, buf, len);
            line[len] = '\0';
            have -= len + 1;
            memmove(buf, nl + 1, have);
            return line;
        }
        if (have >= sizeof(buf) - 1) {
            die("reply line too long");
        }
        size_t room = sizeof(buf) - 1 - have;
        ssize_t n = read(fd, buf + have, room < 1023 ? room : 1023);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            return NULL;
        }
        have += (size_t)n;
    }
}

/* Send a command, return its one-line answer. */
static char *ask(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    send_text(cmd, (size_t)n);
    char *reply = recv_line();
    if (NULL == reply) {
        die("no answer to %s", cmd);
    }
    return reply;
}

static void expect(const char *got, const char *want)
{
    if (NULL == got) {
        die("the connection closed, expected '%s'", want);
    }
    if (0 != strcmp(got, want)) {
        die("got '%s', expected '%s'", got, want);
    }
}

static void pmi_init_version(int version)
{
    const char *env = getenv("PMI_FD");
    if (NULL == env || NULL == getenv("PMI_RANK") || NULL == getenv("PMI_SIZE")) {
        die("PMI_FD, PMI_RANK or PMI_SIZE missing");
    }
    fd = atoi(env);
    rank = atoi(getenv("PMI_RANK"));
    size = atoi(getenv("PMI_SIZE"));
    if (1 == version) {
        expect(ask("cmd=init pmi_version=1 pmi_subversion=1\n"),
               "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0");
    } else {
        expect(ask("cmd=init pmi_version=2 pmi_subversion=0\n"),
               "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0");
    }
}

static void pmi_init(void)
{
    pmi_init_version(1);
}

static void attrs(void)
{
    char want[512];
    const char *kvs = getenv("PMI_JOBID");

    if (NULL == kvs) {
        die("no PMI_JOBID");
    }
    pmi_init();
    expect(ask("cmd=get_maxes\n"), "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024");
    const char *appnum = getenv("WANT_APPNUM");
    snprintf(want, sizeof(want), "cmd=appnum appnum=%s", NULL != appnum ? appnum : "0");
    expect(ask("cmd=get_appnum\n"), want);
    snprintf(want, sizeof(want), "cmd=my_kvsname kvsname=%s", kvs);
    expect(ask("cmd=get_my_kvsname\n"), want);
    /* The slots of the allocation, at least the job's size (hydra says
     * -1 unless told with -usize). */
    int universe = 0;
    const char *reply = ask("cmd=get_universe_size\n");
    if (1 != sscanf(reply, "cmd=universe_size size=%d", &universe) || universe < size) {
        die("universe size: '%s'", reply);
    }
    snprintf(want, sizeof(want), "cmd=get_result rc=0 msg=success value=(vector,(0,1,%d))", size);
    expect(ask("cmd=get kvsname=%s key=PMI_process_mapping\n", kvs), want);
    expect(ask("cmd=get kvsname=%s key=nokey\n", kvs),
           "cmd=get_result rc=-1 msg=key_nokey_not_found value=unknown");
    expect(ask("cmd=put kvsname=%s key=k%d value=v%d=x\n", kvs, rank, rank),
           "cmd=put_result rc=0 msg=success");
    expect(ask("cmd=barrier_in\n"), "cmd=barrier_out");
    for (int r = 0; r < size; r++) {
        snprintf(want, sizeof(want), "cmd=get_result rc=0 msg=success value=v%d=x", r);
        expect(ask("cmd=get kvsname=%s key=k%d\n", kvs, r), want);
    }
    /* Names: rank 0 publishes, everybody finds it, rank 0 withdraws it. */
    if (0 == rank) {
        expect(ask("cmd=publish_name service=svc-%s port=tcp://x:1\n", kvs),
               "cmd=publish_result info=ok rc=0 msg=success");
    }
    expect(ask("cmd=barrier_in\n"), "cmd=barrier_out");
    expect(ask("cmd=lookup_name service=svc-%s\n", kvs),
           "cmd=lookup_result port=tcp://x:1 info=ok rc=0 msg=success");
    expect(ask("cmd=barrier_in\n"), "cmd=barrier_out");
    if (0 == rank) {
        expect(ask("cmd=unpublish_name service=svc-%s\n", kvs),
               "cmd=unpublish_result info=ok rc=0 msg=success");
        expect(ask("cmd=lookup_name service=svc-%s\n", kvs),
               "cmd=lookup_result rc=1 msg=service_not_found");
        expect(ask("cmd=unpublish_name service=svc-%s\n", kvs),
               "cmd=unpublish_result info=ok rc=1 msg=service_not_found");
    }
    expect(ask("cmd=finalize\n"), "cmd=finalize_ack");
    printf("PASS attrs rank %d\n", rank);
}

/* Connect to PMI_PORT ("host:port") instead of using PMI_FD. */
static void connect_port(void)
{
    const char *port = getenv("PMI_PORT");
    const char *colon = NULL == port ? NULL : strrchr(port, ':');
    struct sockaddr_in addr = {.sin_family = AF_INET};

    if (NULL == colon || NULL == getenv("PMI_ID")) {
        die("no PMI_PORT or PMI_ID");
    }
    char host[64];
    snprintf(host, sizeof(host), "%.*s", (int)(colon - port), port);
    addr.sin_port = htons((uint16_t)atoi(colon + 1));
    if (1 != inet_pton(AF_INET, host, &addr.sin_addr)) {
        die("PMI_PORT %s", port);
    }
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || 0 != connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
        die("connect to %s: %s", port, strerror(errno));
    }
    rank = atoi(getenv("PMI_RANK"));
    size = atoi(getenv("PMI_SIZE"));
}

static void port(void)
{
    char want[128];

    /* A refused connection may be closed before all is written: that is
     * a failed write to report, not a death by SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    connect_port();
    send_text("cmd=initack pmiid=", 18);
    send_text(getenv("PMI_ID"), strlen(getenv("PMI_ID")));
    send_text("\n", 1);
    expect(recv_line(), "cmd=initack");
    snprintf(want, sizeof(want), "cmd=set size=%d", size);
    expect(recv_line(), want);
    snprintf(want, sizeof(want), "cmd=set rank=%d", rank);
    expect(recv_line(), want);
    expect(recv_line(), "cmd=set debug=0");
    expect(ask("cmd=init pmi_version=1 pmi_subversion=1\n"),
           "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0");
    expect(ask("cmd=put kvsname=x key=port%d value=%d\n", rank, rank),
           "cmd=put_result rc=0 msg=success");
    expect(ask("cmd=barrier_in\n"), "cmd=barrier_out");
    snprintf(want, sizeof(want), "cmd=get_result rc=0 msg=success value=%d", (rank + 1) % size);
    expect(ask("cmd=get kvsname=x key=port%d\n", (rank + 1) % size), want);
    expect(ask("cmd=finalize\n"), "cmd=finalize_ack");
    printf("PASS port rank %d\n", rank);
}

/* ---- PMI-2 ---------------------------------------------------------- */

/* Send a PMI-2 command (text without its length), return the reply's
 * text. */
static char *ask2(const char *fmt, ...)
{
    static char reply[4096];
    char cmd[2048], len[7];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd, sizeof(cmd) - 6, fmt, ap);
    va_end(ap);
    snprintf(len, sizeof(len), "%-6d", n);
    send_text(len, 6);
    send_text(cmd, (size_t)n);
    size_t got = 0, want = 6;
    while (got < want) {
        ssize_t r = read(fd, reply + got, want - got);
        if (r <= 0) {
            die("no answer to %s", cmd);
        }
        got += (size_t)r;
        if (6 == want && 6 == got) {
            reply[6] = '\0';
            want = 6 + (size_t)atoi(reply);
            if (want >= sizeof(reply)) {
                die("answer too long");
            }
            got = 0;
            want -= 6;
        }
    }
    reply[got] = '\0';
    return reply;
}

static void v2(void)
{
    const char *kvs = getenv("PMI_JOBID");
    char want[512];

    pmi_init_version(2);
    snprintf(want, sizeof(want),
             "cmd=fullinit-response;pmi-version=2;pmi-subversion=0;rank=%d;size=%d;appnum=0;"
             "debugged=FALSE;pmiverbose=FALSE;rc=0;", rank, size);
    expect(ask2("cmd=fullinit;pmirank=%d;threaded=FALSE;", rank), want);
    snprintf(want, sizeof(want), "cmd=job-getid-response;thrid=t1;jobid=%s;rc=0;", kvs);
    expect(ask2("cmd=job-getid;thrid=t1;"), want);
    expect(ask2("cmd=kvs-put;key=k%d;value=a;;b%d;", rank, rank), "cmd=kvs-put-response;rc=0;");
    expect(ask2("cmd=kvs-fence;"), "cmd=kvs-fence-response;rc=0;");
    for (int r = 0; r < size; r++) {
        snprintf(want, sizeof(want), "cmd=kvs-get-response;found=TRUE;value=a;;b%d;rc=0;", r);
        expect(ask2("cmd=kvs-get;jobid=%s;srcid=-1;key=k%d;", kvs, r), want);
    }
    expect(ask2("cmd=kvs-get;key=nokey;"), "cmd=kvs-get-response;found=FALSE;rc=0;");
    snprintf(want, sizeof(want),
             "cmd=info-getjobattr-response;found=TRUE;value=(vector,(0,1,%d));rc=0;", size);
    expect(ask2("cmd=info-getjobattr;key=PMI_process_mapping;"), want);
    expect(ask2("cmd=info-getjobattr;key=k0;"),
           "cmd=info-getjobattr-response;found=TRUE;value=a;;b0;rc=0;");
    /* Rank 0 puts a node attribute a moment after the others ask to wait
     * for it. */
    if (0 == rank) {
        expect(ask2("cmd=info-getnodeattr;key=shm;"),
               "cmd=info-getnodeattr-response;found=FALSE;rc=0;");
        usleep(200000);
        expect(ask2("cmd=info-putnodeattr;key=shm;value=/dev/shm/x;"),
               "cmd=info-putnodeattr-response;rc=0;");
    }
    expect(ask2("cmd=info-getnodeattr;key=shm;wait=TRUE;"),
           "cmd=info-getnodeattr-response;found=TRUE;value=/dev/shm/x;rc=0;");
    if (0 == rank) {
        expect(ask2("cmd=name-publish;name=v2-%s;port=p;;1;", kvs),
               "cmd=name-publish-response;rc=0;");
    }
    expect(ask2("cmd=kvs-fence;"), "cmd=kvs-fence-response;rc=0;");
    expect(ask2("cmd=name-lookup;name=v2-%s;", kvs),
           "cmd=name-lookup-response;port=p;;1;found=TRUE;rc=0;");
    expect(ask2("cmd=kvs-fence;"), "cmd=kvs-fence-response;rc=0;");
    if (0 == rank) {
        expect(ask2("cmd=name-unpublish;name=v2-%s;", kvs), "cmd=name-unpublish-response;rc=0;");
        expect(ask2("cmd=name-lookup;name=v2-%s;", kvs),
               "cmd=name-lookup-response;found=FALSE;rc=1;");
    }
    expect(ask2("cmd=finalize;"), "cmd=finalize-response;rc=0;");
    printf("PASS v2 rank %d\n", rank);
}

/* ---- Spawn ---------------------------------------------------------- */

/* One mcmd=spawn segment: app k of total, one process, with a host info
 * key when host is not NULL. */
static void spawn_segment(const char *dir, int k, int total, const char *host)
{
    char cmd[1024], hostinfo[300] = "";
    if (NULL != host) {
        snprintf(hostinfo, sizeof(hostinfo), "info_key_2=host\ninfo_val_2=%s\n", host);
    }
    int n = snprintf(cmd, sizeof(cmd),
                     "mcmd=spawn\nnprocs=1\nexecname=pmi_wire\ntotspawns=%d\nspawnssofar=%d\n"
                     "arg1=child1\narg2=two words\nargcnt=2\npreput_num=1\n"
                     "preput_key_0=PARENT_ROOT_PORT_NAME\npreput_val_0=tag#0$port#99$\n"
                     "info_num=%d\ninfo_key_0=wdir\ninfo_val_0=/tmp\ninfo_key_1=path\n"
                     "info_val_1=%s\n%sendcmd\n", total, k, NULL != host ? 3 : 2, dir, hostinfo);
    send_text(cmd, (size_t)n);
}

/* Spawn one process on host; the answer must be rc=<rc>. */
static void spawn_host(const char *dir, const char *host, const char *rc)
{
    char want[64];
    pmi_init();
    spawn_segment(dir, 1, 1, host);
    snprintf(want, sizeof(want), "cmd=spawn_result rc=%s", rc);
    expect(recv_line(), want);
    expect(ask("cmd=finalize\n"), "cmd=finalize_ack");
    printf("PASS spawn on %s: rc=%s\n", host, rc);
}

/* Rank 0 spawns two apps (MPI_Comm_spawn_multiple): two segments, one
 * answer after the last. */
static void spawn1(const char *dir)
{
    pmi_init();
    if (0 == rank) {
        spawn_segment(dir, 1, 2, NULL);
        spawn_segment(dir, 2, 2, NULL);
        expect(recv_line(), "cmd=spawn_result rc=0");
    }
    expect(ask("cmd=finalize\n"), "cmd=finalize_ack");
    printf("PASS spawn1 parent rank %d\n", rank);
}

static void spawn2(const char *dir)
{
    pmi_init_version(2);
    char want[256];
    snprintf(want, sizeof(want), "rank=%d;", rank);
    if (NULL == strstr(ask2("cmd=fullinit;pmirank=%d;", rank), want)) {
        die("fullinit");
    }
    if (0 == rank) {
        const char *reply =
            ask2("cmd=spawn;thrid=s;ncmds=2;preputcount=1;ppkey0=PARENT_ROOT_PORT_NAME;"
                 "ppval0=p;;2;subcmd=pmi_wire;maxprocs=1;argc=1;argv0=child2;infokeycount=2;"
                 "infokey0=path;infoval0=%s;infokey1=wdir;infoval1=/tmp;"
                 "subcmd=%s/pmi_wire;maxprocs=1;argc=1;argv0=child2;infokeycount=1;"
                 "infokey0=wdir;infoval0=/tmp;", dir, dir);
        if (0 != strncmp(reply, "cmd=spawn-response;thrid=s;jobid=", 33) ||
            NULL == strstr(reply, ";nerrs=0;rc=0;")) {
            die("spawn answer '%s'", reply);
        }
    }
    expect(ask2("cmd=finalize;"), "cmd=finalize-response;rc=0;");
    printf("PASS spawn2 parent rank %d\n", rank);
}

/* A spawned child: it knows it was spawned, finds the preput key, and
 * runs where and with what it was told. */
static void child(int version, char **argv)
{
    char cwd[256];
    const char *spawned = getenv("PMI_SPAWNED");
    if (NULL == spawned || 0 != strcmp(spawned, "1")) {
        die("PMI_SPAWNED is not 1");
    }
    if (NULL == getcwd(cwd, sizeof(cwd)) || 0 != strcmp(cwd, "/tmp")) {
        die("working directory %s, not /tmp", cwd);
    }
    if (1 == version) {
        if (NULL == argv[2] || 0 != strcmp(argv[2], "two words")) {
            die("arguments not passed");
        }
        pmi_init();
        expect(ask("cmd=get kvsname=%s key=PARENT_ROOT_PORT_NAME\n", getenv("PMI_JOBID")),
               "cmd=get_result rc=0 msg=success value=tag#0$port#99$");
        expect(ask("cmd=finalize\n"), "cmd=finalize_ack");
    } else {
        pmi_init_version(2);
        if (NULL == strstr(ask2("cmd=fullinit;pmirank=%d;", rank), ";spawner-jobid=")) {
            die("no spawner-jobid");
        }
        expect(ask2("cmd=info-getjobattr;key=PARENT_ROOT_PORT_NAME;"),
               "cmd=info-getjobattr-response;found=TRUE;value=p;;2;rc=0;");
        expect(ask2("cmd=finalize;"), "cmd=finalize-response;rc=0;");
    }
    printf("PASS child%d rank %d of %d\n", version, rank, size);
}

static void latency(int n)
{
    char kvs[256];
    struct timespec t0, t1;

    pmi_init();
    /* hydra gives no PMI_JOBID: ask, as MPICH does. */
    if (1 != sscanf(ask("cmd=get_my_kvsname\n"), "cmd=my_kvsname kvsname=%255s", kvs)) {
        die("no kvsname");
    }
    expect(ask("cmd=put kvsname=%s key=lat%d value=%0100d\n", kvs, rank, rank),
           "cmd=put_result rc=0 msg=success");
    expect(ask("cmd=barrier_in\n"), "cmd=barrier_out");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < n; i++) {
        if (0 != strncmp(ask("cmd=get kvsname=%s key=lat%d\n", kvs, (rank + 1) % size),
                         "cmd=get_result rc=0", 19)) {
            die("get failed");
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    expect(ask("cmd=finalize\n"), "cmd=finalize_ack");
    if (0 == rank) {
        printf("get %.2f us\n",
               ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
                   1e3 / n);
    }
}

static void tinybuf(void)
{
    static const char cmd[] = "cmd=get_maxes\n",
                      maxes[] = "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024";
    int zero = 0;

    pmi_init();
    if (0 != setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &zero, sizeof(zero))) {
        die("SO_SNDBUF: %s", strerror(errno));
    }
    for (int i = 0; i < 100; i++) {
        expect(ask(cmd), maxes);
    }
    for (int i = 0; i < 40; i++) {
        send_text(cmd, sizeof(cmd) - 1);
    }
    for (int i = 0; i < 40; i++) {
        expect(recv_line(), maxes);
    }
    for (size_t i = 0; i < sizeof(cmd) - 1; i++) {
        send_text(cmd + i, 1);
    }
    expect(recv_line(), maxes);
    expect(ask("cmd=finalize\n"), "cmd=finalize_ack");
    printf("PASS tinybuf\n");
}

/* CPU seconds the process pid (named without a ')') has used. */
static double cpu_of(pid_t pid)
{
    char path[64];
    unsigned long user = 0, sys = 0;
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    /* pid (name) state, 10 more fields, then utime and stime. */
    int got = NULL == f ? 0
                        : fscanf(f, "%*d (%*[^)]) %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
                                 &user, &sys);
    if (NULL != f) {
        fclose(f);
    }
    if (2 != got) {
        die("cannot read %s", path);
    }
    return (double)(user + sys) / (double)sysconf(_SC_CLK_TCK);
}

static void flood(void)
{
    static const char cmd[] = "cmd=get_maxes\n",
                      maxes[] = "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024";
    enum { N = 2000 };
    static char all[N * (sizeof(cmd) - 1)];
    struct timespec pause = {0, 300000000};

    pmi_init();
    for (int i = 0; i < N; i++) {
        memcpy(all + i * (sizeof(cmd) - 1), cmd, sizeof(cmd) - 1);
    }
    send_text(all, sizeof(all));
    nanosleep(&pause, NULL);
    for (int i = 0; i < N; i++) {
        expect(recv_line(), maxes);
    }
    expect(ask(cmd), maxes);
    double before = cpu_of(getppid());
    nanosleep(&pause, NULL);
    double used = cpu_of(getppid()) - before;
    if (used > 0.15) {
        die("the server used %.2f s of CPU while the rank idled 0.3 s", used);
    }
    expect(ask("cmd=finalize\n"), "cmd=finalize_ack");
    printf("PASS flood\n");
}

static void interop_pmix(void)
{
    pmix_proc_t me, peer;
    pmix_value_t v, *got = NULL;
    pmix_info_t info;
    bool collect = true;

    if (PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        die("PMIx_Init failed");
    }
    rank = (int)me.rank;
    PMIX_VALUE_LOAD(&v, "from-pmix", PMIX_STRING);
    if (PMIX_SUCCESS != PMIx_Put(PMIX_GLOBAL, "pmix-key", &v) || PMIX_SUCCESS != PMIx_Commit()) {
        die("PMIx_Put/Commit failed");
    }
    PMIX_VALUE_DESTRUCT(&v);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    if (PMIX_SUCCESS != PMIx_Fence(NULL, 0, &info, 1)) {
        die("PMIx_Fence failed");
    }
    PMIX_LOAD_PROCID(&peer, me.nspace, 1);
    if (PMIX_SUCCESS != PMIx_Get(&peer, "pmi-key", NULL, 0, &got) ||
        PMIX_STRING != got->type || 0 != strcmp(got->data.string, "from-pmi-1")) {
        die("PMIx_Get of what PMI rank 1 put failed");
    }
    PMIX_VALUE_RELEASE(got);
    PMIx_Finalize(NULL, 0);
    printf("PASS interop pmix rank %d\n", rank);
}

static void interop_pmi(void)
{
    const char *kvs = getenv("PMI_JOBID");
    char want[256];

    pmi_init();
    expect(ask("cmd=put kvsname=%s key=pmi-key value=from-pmi-%d\n", kvs, rank),
           "cmd=put_result rc=0 msg=success");
    expect(ask("cmd=barrier_in\n"), "cmd=barrier_out");
    snprintf(want, sizeof(want), "cmd=get_result rc=0 msg=success value=from-pmix");
    expect(ask("cmd=get kvsname=%s key=pmix-key\n", kvs), want);
    expect(ask("cmd=finalize\n"), "cmd=finalize_ack");
    printf("PASS interop pmi rank %d\n", rank);
}

/* The server must hang up, within seconds. */
static void expect_hangup(const char *kind)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    char buf[256];
    for (;;) {
        if (poll(&p, 1, 20000) <= 0) {
            die("%s: the server neither answered nor hung up", kind);
        }
        ssize_t n = read(fd, buf, sizeof(buf));
        if (0 == n || (n < 0 && ECONNRESET == errno)) {
            printf("PASS bad %s rank %d\n", kind, rank);
            return;
        }
        if (n < 0) {
            die("%s: read: %s", kind, strerror(errno));
        }
    }
}

static void bad(const char *kind)
{
    const char *env = getenv("PMI_FD");
    fd = NULL != env ? atoi(env) : -1;
    rank = atoi(getenv("PMI_RANK"));
    if (0 == strcmp(kind, "noinit")) {
        send_text("cmd=get_maxes\n", 14);
    } else if (0 == strcmp(kind, "garbage")) {
        send_text("hello there\n", 12);
    } else if (0 == strcmp(kind, "nul")) {
        send_text("cmd=init\0 pmi_version=1\n", 24);
    } else if (0 == strcmp(kind, "long")) {
        /* More than any command may be, with no end of line. */
        static char big[100000];
        memset(big, 'x', sizeof(big));
        memcpy(big, "cmd=put key=", 12);
        send_text(big, sizeof(big));
    } else if (0 == strcmp(kind, "port-id")) {
        /* An id nobody was given. */
        connect_port();
        char cmd[64];
        int n = snprintf(cmd, sizeof(cmd), "cmd=initack pmiid=%u\n",
                         (unsigned)atoi(getenv("PMI_ID")) ^ 2u);
        send_text(cmd, (size_t)n);
    } else if (0 == strcmp(kind, "spawn-order")) {
        /* The second segment of two, first. */
        pmi_init();
        spawn_segment("/nonexistent", 2, 2, NULL);
    } else if (0 == strcmp(kind, "port-noack")) {
        connect_port();
        send_text("cmd=init pmi_version=1 pmi_subversion=1\n", 40);
    } else if (0 == strncmp(kind, "v2-", 3)) {
        pmi_init_version(2);
        if (0 == strcmp(kind, "v2-length")) {
            send_text("12a   cmd=finalize;", 19);
        } else if (0 == strcmp(kind, "v2-zero")) {
            send_text("0     ", 6);
        } else if (0 == strcmp(kind, "v2-huge")) {
            send_text("999999cmd=kvs-put;", 18);
        } else if (0 == strcmp(kind, "v2-unended")) {
            /* 12 bytes, the value never ended by ';' */
            send_text("12    cmd=finalize", 18);
        } else if (0 == strcmp(kind, "v2-rank")) {
            char cmd[64];
            int n = snprintf(cmd, sizeof(cmd), "cmd=fullinit;pmirank=%d;", rank + 1);
            char len[8];
            snprintf(len, sizeof(len), "%-6d", n);
            send_text(len, 6);
            send_text(cmd, (size_t)n);
        } else {
            die("unknown kind %s", kind);
        }
    } else {
        pmi_init();
        if (0 == strcmp(kind, "unknown")) {
            send_text("cmd=frobnicate\n", 15);
        } else if (0 == strcmp(kind, "nokey")) {
            send_text("cmd=get kvsname=x\n", 18);
        } else if (0 == strcmp(kind, "twice")) {
            send_text("cmd=init pmi_version=1 pmi_subversion=1\n", 40);
        } else {
            die("unknown kind %s", kind);
        }
    }
    expect_hangup(kind);
}

int main(int argc, char **argv)
{
    if (argc > 1 && 0 == strcmp(argv[1], "attrs")) {
        attrs();
    } else if (argc > 2 && 0 == strcmp(argv[1], "spawn1")) {
        spawn1(argv[2]);
    } else if (argc > 4 && 0 == strcmp(argv[1], "spawnhost")) {
        spawn_host(argv[2], argv[3], argv[4]);
    } else if (argc > 2 && 0 == strcmp(argv[1], "spawn2")) {
        spawn2(argv[2]);
    } else if (argc > 1 && 0 == strncmp(argv[1], "child", 5)) {
        child(atoi(argv[1] + 5), argv);
    } else if (argc > 1 && 0 == strcmp(argv[1], "port")) {
        port();
    } else if (argc > 1 && 0 == strcmp(argv[1], "flood")) {
        flood();
    } else if (argc > 1 && 0 == strcmp(argv[1], "tinybuf")) {
        tinybuf();
    } else if (argc > 2 && 0 == strcmp(argv[1], "latency")) {
        latency(atoi(argv[2]));
    } else if (argc > 1 && 0 == strcmp(argv[1], "v2")) {
        v2();
    } else if (argc > 1 && 0 == strcmp(argv[1], "interop")) {
        if (0 == atoi(getenv("PMI_RANK"))) {
            interop_pmix();
        } else {
            interop_pmi();
        }
    } else if (argc > 2 && 0 == strcmp(argv[1], "bad")) {
        bad(argv[2]);
    } else if (argc > 2 && 0 == strcmp(argv[1], "abort")) {
        pmi_init();
        char cmd[64];
        int n = snprintf(cmd, sizeof(cmd), "cmd=abort exitcode=%d\n", atoi(argv[2]));
        send_text(cmd, (size_t)n);
        pause();
    } else {
        fprintf(stderr, "usage: pmi_wire attrs|v2|port|latency N|interop|spawn1 DIR|spawn2 DIR|"
                        "spawnhost DIR HOST RC|bad KIND|abort CODE\n");
        return 2;
    }
    return 0;
}
