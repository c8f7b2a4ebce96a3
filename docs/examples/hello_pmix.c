/*
 * hello_pmix.c - the smallest complete PMIx job: every rank publishes a
 * greeting, the job exchanges them in one fence, and each rank reads its
 * right-hand neighbour's.
 *
 *     drover run -n 4 ./hello_pmix
 */
#include <pmix.h>
#include <stdio.h>

int main(void)
{
    pmix_proc_t me, peer;
    pmix_value_t greeting, *size = NULL, *got = NULL;
    pmix_info_t collect;
    char text[64];
    bool yes = true;
    pmix_status_t rc;

    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fprintf(stderr, "PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIX_LOAD_PROCID(&peer, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&peer, PMIX_JOB_SIZE, NULL, 0, &size);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "PMIx_Get(%s): %s\n", PMIX_JOB_SIZE, PMIx_Error_string(rc));
        PMIx_Finalize(NULL, 0);
        return 1;
    }

    snprintf(text, sizeof(text), "hello from rank %u", me.rank);
    greeting.type = PMIX_STRING;
    greeting.data.string = text;
    PMIx_Put(PMIX_GLOBAL, "example.greeting", &greeting);
    PMIx_Commit();
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &collect, 1);

    peer.rank = (me.rank + 1) % size->data.uint32;
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Get(&peer, "example.greeting", NULL, 0, &got);
    }
    if (PMIX_SUCCESS == rc) {
        printf("rank %u of %u in %s: rank %u says \"%s\"\n", me.rank, size->data.uint32,
               me.nspace, peer.rank, got->data.string);
        PMIX_VALUE_RELEASE(got);
    } else {
        fprintf(stderr, "rank %u: exchange failed: %s\n", me.rank, PMIx_Error_string(rc));
    }
    PMIX_VALUE_RELEASE(size);
    PMIX_INFO_DESTRUCT(&collect);
    PMIx_Finalize(NULL, 0);
    return PMIX_SUCCESS == rc ? 0 : 1;
}
