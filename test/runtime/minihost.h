/*
 * minihost.h - what minihost registers that its test clients check.
 */
#ifndef RUNTIME_MINIHOST_H
#define RUNTIME_MINIHOST_H

/* A node of the job without ranks (node id 1) and its PMIX_NODE_SIZE; the
 * node of the ranks (id 0) has the number of ranks as its size. */
#define MINIHOST_OTHER_NODE "minihost-other-node"
#define MINIHOST_OTHER_NODE_SIZE 99

#endif /* RUNTIME_MINIHOST_H */
