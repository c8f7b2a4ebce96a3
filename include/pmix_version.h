/*
 * pmix_version.h - the PMIx release whose interface drover provides.
 *
 * drover implements the API and ABI of OpenPMIx 4.2.2, so programs that
 * test these numbers at compile time take the same paths they would take
 * against that release. drover's own version is in DROVER_VERSION.
 */
#ifndef PMIx_VERSION_H
#define PMIx_VERSION_H

#define PMIX_VERSION_MAJOR 4L
#define PMIX_VERSION_MINOR 2L
#define PMIX_VERSION_RELEASE 2L

/* 0x00MMmmrr: one byte each for major, minor and release. */
#define PMIX_NUMERIC_VERSION 0x00040202

#endif /* PMIx_VERSION_H */
