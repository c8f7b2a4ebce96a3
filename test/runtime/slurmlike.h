/*
 * slurmlike.h - minihost's "-s" mode: module functions that behave as
 * Slurm 22.05's mpi/pmix_v4 plugin does with the server library, and the
 * checks of what such a host relies on (slurmlike.c).
 */
#ifndef RUNTIME_SLURMLIKE_H
#define RUNTIME_SLURMLIKE_H

#include <stdint.h>

#include "pmix_server.h"

/* Put the Slurm-like functions into module. */
void slurmlike_module(pmix_server_module_t *module);

/* After PMIx_server_init: register a default event handler, as Slurm
 * does. */
void slurmlike_start(void);

/* The node and rank maps Slurm registers, for nranks ranks on host, the
 * last one placed on a second node "minihost-far": loads info[0] and
 * info[1]. */
void slurmlike_maps(const char *host, uint32_t nranks, pmix_info_t info[2]);

/* Once the ranks are done (the last one left without PMIx_Finalize): 0
 * when the host saw what Slurm relies on, else 1 with a message. */
int slurmlike_verdict(uint32_t nranks);

#endif /* RUNTIME_SLURMLIKE_H */
