/*
 * segment.c - bootstrap: find the other images through PMIx and map their
 * shared-memory segments at the same addresses in every image.
 *
 * Each image creates /dev/shm/<namespace>.caf.<rank>.<random> (O_EXCL) and
 * publishes its name with PMIx_Put; the others find it with PMIx_Get after
 * the fence. The random part keeps another user from blocking a job with
 * files of the names it will use. The name starts with the namespace
 * because that is what a launcher sweeps after a crash: drover names its
 * jobs drover-<pid>-<n> and removes every /dev/shm/drover-<pid>-* when the
 * run ends, however it ends.
 * All images then agree on one range of virtual addresses, free in all of
 * them, big enough for every segment: they try candidates in an order fixed
 * in advance, reserve the candidate with MAP_FIXED_NOREPLACE, and exchange
 * success through a PMIx fence; the first candidate that every image could
 * reserve wins. Segment i is mapped at base + i * stride over the
 * reservation. Once every image has mapped every segment (a barrier in
 * shared memory), each image unlinks its own name, so nothing is left in
 * /dev/shm after that point even if images crash.
 *
 * Without a launcher (PMIx_Init fails) or with a job of one process, the
 * program runs as a single image in an anonymous mapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "caf.h"
#include "pmix.h"

#define KEY_SEGMENT "drover.caf.segment"
#define KEY_SIZE "drover.caf.stride"
#define HUGE_ALIGN ((size_t)2 << 20)
#define DEFAULT_HEAP ((size_t)1 << 30)

/* Candidate bases: above ASan's shadow, below where PIE executables, the
 * mmap area and the stack live. */
static const uintptr_t candidates[] = {
    0x200000000000, 0x300000000000, 0x400000000000, 0x480000000000,
};
#define NCANDIDATES (sizeof(candidates) / sizeof(candidates[0]))
#define CANDIDATE_SPAN ((size_t)0x80000000000) /* 8 TiB */

static pmix_proc_t myproc;
static char segname[PMIX_MAX_NSLEN + 64];
static size_t reserved; /* bytes reserved at caf.base */

static size_t round_up(size_t n, size_t align)
{
    return (n + align - 1) / align * align;
}

/* DROVER_CAF_HEAP: bytes for each heap, with an optional K, M or G. */
static int heap_size(size_t *out)
{
    const char *env = getenv("DROVER_CAF_HEAP");
    if (NULL == env || '\0' == *env) {
        *out = DEFAULT_HEAP;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(env, &end, 10);
    int shift = 0;
    if ('K' == *end || 'k' == *end) {
        shift = 10;
    } else if ('M' == *end || 'm' == *end) {
        shift = 20;
    } else if ('G' == *end || 'g' == *end) {
        shift = 30;
    }
    if (shift) {
        end++;
    }
    if (errno || end == env || '\0' != *end || 0 == n || n > ((1ULL << 40) >> shift)) {
        fprintf(stderr, "libcaf_drover: DROVER_CAF_HEAP='%s' is not a size "
                        "(bytes with an optional K, M or G suffix, at most 1T)\n", env);
        return -1;
    }
    *out = (size_t)(n << shift);
    return 0;
}

/* Lays out one segment; sets caf.slot_offset and caf.stride. */
static int plan_layout(void)
{
    size_t heap;
    if (0 != heap_size(&heap)) {
        return -1;
    }
    heap = round_up(heap, HUGE_ALIGN);
    size_t ctl = round_up(sizeof(caf_ctl_t) + (size_t)caf.n * sizeof(uint32_t), 4096);
    caf.slot_offset = ctl;
    size_t heaps = round_up(ctl + CAF_SCRATCH_BYTES, HUGE_ALIGN);
    caf.stride = heaps + 2 * heap;
    return 0;
}

static void setup_heaps(void)
{
    char *seg = caf_segment(caf.me);
    size_t heap = (caf.stride - round_up(caf.slot_offset + CAF_SCRATCH_BYTES, HUGE_ALIGN)) / 2;
    char *sym = seg + round_up(caf.slot_offset + CAF_SCRATCH_BYTES, HUGE_ALIGN);
    caf_heap_init(&caf.sym, sym, heap);
    caf_heap_init(&caf.local, sym + heap, heap);
}

static int single_image(void)
{
    caf.n = 1;
    caf.me = 0;
    if (0 != plan_layout()) {
        return -1;
    }
    void *mem = mmap(NULL, caf.stride, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (MAP_FAILED == mem) {
        fprintf(stderr, "libcaf_drover: cannot map %zu bytes: %s\n", caf.stride, strerror(errno));
        return -1;
    }
    caf.base = mem;
    reserved = caf.stride;
    return 0;
}

static int get_uint32(const pmix_proc_t *proc, const char *key, uint32_t *out)
{
    pmix_value_t *val = NULL;
    if (PMIX_SUCCESS != PMIx_Get(proc, key, NULL, 0, &val) || NULL == val) {
        return -1;
    }
    int rc = -1;
    if (PMIX_UINT32 == val->type) {
        *out = val->data.uint32;
        rc = 0;
    }
    PMIx_Value_destruct(val);
    free(val);
    return rc;
}

static int put_value(const char *key, pmix_data_type_t type, const void *data)
{
    pmix_value_t val;
    memset(&val, 0, sizeof(val));
    val.type = type;
    if (PMIX_STRING == type) {
        val.data.string = (char *)data;
    } else if (PMIX_UINT64 == type) {
        val.data.uint64 = *(const uint64_t *)data;
    } else {
        val.data.flag = *(const bool *)data;
    }
    return PMIX_SUCCESS == PMIx_Put(PMIX_LOCAL, key, &val) ? 0 : -1;
}

static int fence(void)
{
    pmix_info_t info;
    bool collect = true;
    memset(&info, 0, sizeof(info));
    PMIx_Info_load(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_proc_t all;
    memset(&all, 0, sizeof(all));
    memcpy(all.nspace, myproc.nspace, sizeof(all.nspace));
    all.rank = PMIX_RANK_WILDCARD;
    pmix_status_t rc = PMIx_Commit();
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Fence(&all, 1, &info, 1);
    }
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "libcaf_drover: PMIx fence failed: %s\n", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

static pmix_value_t *get_peer(int rank, const char *key, pmix_data_type_t type)
{
    pmix_proc_t peer;
    memset(&peer, 0, sizeof(peer));
    memcpy(peer.nspace, myproc.nspace, sizeof(peer.nspace));
    peer.rank = (pmix_rank_t)rank;
    pmix_value_t *val = NULL;
    if (PMIX_SUCCESS != PMIx_Get(&peer, key, NULL, 0, &val) || NULL == val) {
        return NULL;
    }
    if (type != val->type) {
        PMIx_Value_destruct(val);
        free(val);
        return NULL;
    }
    return val;
}

static void release(pmix_value_t *val)
{
    if (NULL != val) {
        PMIx_Value_destruct(val);
        free(val);
    }
}

/* Creates this image's segment file; leaves its name in segname. The name
 * ends in a random part and is made with O_EXCL, so another user can
 * neither guess it beforehand to block the job nor have prepared it. */
static int create_segment(void)
{
    char ns[PMIX_MAX_NSLEN + 1];
    size_t i;
    for (i = 0; i < PMIX_MAX_NSLEN && myproc.nspace[i]; i++) {
        char c = myproc.nspace[i];
        int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    '-' == c || '_' == c || '.' == c;
        ns[i] = plain ? c : '_';
    }
    ns[i] = '\0';
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; attempt++) {
        uint64_t random;
        if (sizeof(random) != getrandom(&random, sizeof(random), 0)) {
            break;
        }
        snprintf(segname, sizeof(segname), "/%s.caf.%d.%016" PRIx64, ns, caf.me, random);
        fd = shm_open(segname, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0 && EEXIST != errno) {
            break;
        }
    }
    if (fd < 0 || 0 != ftruncate(fd, (off_t)caf.stride)) {
        fprintf(stderr, "libcaf_drover: cannot create /dev/shm%s of %zu bytes: %s\n", segname,
                caf.stride, strerror(errno));
        if (fd >= 0) {
            close(fd);
            shm_unlink(segname);
        }
        segname[0] = '\0';
        return -1;
    }
    close(fd);
    return 0;
}

/* Agrees with every image on a free address range; sets caf.base. */
static int reserve_range(void)
{
    size_t total = (size_t)caf.n * caf.stride;
    if (total > CANDIDATE_SPAN) {
        fprintf(stderr, "libcaf_drover: %d images of %zu bytes do not fit in %zu bytes of "
                        "address space; lower DROVER_CAF_HEAP\n", caf.n, caf.stride, CANDIDATE_SPAN);
        return -1;
    }
    for (size_t round = 0; round < NCANDIDATES; round++) {
        void *want = (void *)candidates[round];
        void *got = mmap(want, total, PROT_NONE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        bool ok = got == want;
        if (MAP_FAILED != got && !ok) {
            munmap(got, total); /* a kernel that ignores MAP_FIXED_NOREPLACE */
        }
        char key[64];
        snprintf(key, sizeof(key), "drover.caf.range%zu", round);
        if (0 != put_value(key, PMIX_BOOL, &ok) || 0 != fence()) {
            if (ok) {
                munmap(want, total);
            }
            return -1;
        }
        bool everyone = ok;
        for (int r = 0; r < caf.n && everyone; r++) {
            pmix_value_t *val = r == caf.me ? NULL : get_peer(r, key, PMIX_BOOL);
            everyone = r == caf.me ? ok : (NULL != val && val->data.flag);
            release(val);
        }
        if (everyone) {
            caf.base = want;
            reserved = total;
            return 0;
        }
        if (ok) {
            munmap(want, total);
        }
    }
    fprintf(stderr, "libcaf_drover: found no address range free in every image\n");
    return -1;
}

static int map_segment(int rank, const char *name)
{
    int fd = shm_open(name, O_RDWR, 0);
    struct stat st;
    if (fd < 0) {
        fprintf(stderr, "libcaf_drover: cannot open image %d's segment /dev/shm%s: %s\n", rank + 1,
                name, strerror(errno));
        return -1;
    }
    /* The images are one user's processes: a segment of anyone else is not
     * the image's, whatever name was published. */
    if (0 != fstat(fd, &st) || st.st_uid != geteuid() || (size_t)st.st_size != caf.stride) {
        fprintf(stderr, "libcaf_drover: /dev/shm%s is not image %d's segment\n", name, rank + 1);
        close(fd);
        return -1;
    }
    void *at = caf_segment(rank);
    void *got = mmap(at, caf.stride, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    close(fd);
    if (got != at) {
        fprintf(stderr, "libcaf_drover: cannot map image %d's segment: %s\n", rank + 1,
                strerror(errno));
        return -1;
    }
    return 0;
}

static int map_all(void)
{
    for (int r = 0; r < caf.n; r++) {
        if (r == caf.me) {
            if (0 != map_segment(r, segname)) {
                return -1;
            }
            continue;
        }
        pmix_value_t *name = get_peer(r, KEY_SEGMENT, PMIX_STRING);
        pmix_value_t *stride = get_peer(r, KEY_SIZE, PMIX_UINT64);
        int rc = -1;
        if (NULL == name || NULL == stride) {
            fprintf(stderr, "libcaf_drover: image %d published no segment\n", r + 1);
        } else if (stride->data.uint64 != caf.stride) {
            fprintf(stderr, "libcaf_drover: image %d's segments are %llu bytes, image %d's %zu: "
                            "set the same DROVER_CAF_HEAP for every image\n", r + 1,
                    (unsigned long long)stride->data.uint64, caf.me + 1, caf.stride);
        } else {
            rc = map_segment(r, name->data.string);
        }
        release(name);
        release(stride);
        if (0 != rc) {
            return -1;
        }
    }
    return 0;
}

static int job_geometry(void)
{
    pmix_proc_t job;
    memset(&job, 0, sizeof(job));
    memcpy(job.nspace, myproc.nspace, sizeof(job.nspace));
    job.rank = PMIX_RANK_WILDCARD;
    uint32_t size = 1, local = 0;
    if (0 != get_uint32(&job, PMIX_JOB_SIZE, &size) || 0 == size) {
        fprintf(stderr, "libcaf_drover: the launcher gave no job size\n");
        return -1;
    }
    if (size > 1 && 0 == get_uint32(&job, PMIX_LOCAL_SIZE, &local) && local != size) {
        fprintf(stderr, "libcaf_drover: the %u images are spread over several nodes (%u here); "
                        "libcaf_drover runs all images of a job on one node\n", size, local);
        return -1;
    }
    caf.n = (int)size;
    caf.me = (int)myproc.rank;
    return 0;
}

int caf_segment_setup(void)
{
    memset(&myproc, 0, sizeof(myproc));
    caf.pmix = PMIX_SUCCESS == PMIx_Init(&myproc, NULL, 0);
    int rc;
    if (!caf.pmix) {
        rc = single_image();
    } else if (0 != job_geometry()) {
        return -1;
    } else if (1 == caf.n) {
        rc = single_image();
    } else {
        uint64_t stride;
        rc = -1;
        if (0 == plan_layout() && 0 == create_segment()) {
            stride = caf.stride;
            if (0 == put_value(KEY_SEGMENT, PMIX_STRING, segname) &&
                0 == put_value(KEY_SIZE, PMIX_UINT64, &stride) && 0 == reserve_range()) {
                rc = map_all();
            }
        }
        if (0 != rc && segname[0]) {
            shm_unlink(segname);
        }
    }
    if (0 != rc) {
        return -1;
    }
    caf_spread();
    setup_heaps();
    if (0 == caf.me && 0 != getrandom(&caf_ctl(0)->job_seed, sizeof(uint64_t), 0)) {
        caf_ctl(0)->job_seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL;
    }
    return 0;
}

void caf_segment_unlink(void)
{
    if (segname[0]) {
        shm_unlink(segname);
        segname[0] = '\0';
    }
}

void caf_segment_teardown(void)
{
    caf_heap_fini(&caf.sym);
    caf_heap_fini(&caf.local);
    if (0 != reserved) {
        munmap(caf.base, reserved);
        reserved = 0;
    }
    if (caf.pmix) {
        PMIx_Finalize(NULL, 0);
        caf.pmix = false;
    }
}

int caf_segment_abort(int code, const char *msg)
{
    if (!caf.pmix) {
        return -1;
    }
    return PMIX_SUCCESS == PMIx_Abort(code, msg, NULL, 0) ? 0 : -1;
}
