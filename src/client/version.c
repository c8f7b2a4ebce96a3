/*
 * version.c - PMIx_Get_version.
 *
 * Open MPI refuses a PMIx library whose version string sorts below "3", so
 * the string starts with our name (letters sort after digits) and names the
 * PMIx API level we implement.
 */
#include "pmix.h"

PMIX_EXPORT const char *PMIx_Get_version(void)
{
    return "drover " DROVER_VERSION " (PMIx 4.2.2 API)";
}
