/*
 * tool_codes.h - the events a tool and its peer rank exchange in the
 * tool tests (codes below PMIX_EXTERNAL_ERR_BASE are the user's).
 */
#ifndef RUNTIME_TOOL_CODES_H
#define RUNTIME_TOOL_CODES_H

#define RANK_READY (PMIX_EXTERNAL_ERR_BASE - 100)
#define TOOL_HELLO (PMIX_EXTERNAL_ERR_BASE - 101)
#define TOOL_DONE (PMIX_EXTERNAL_ERR_BASE - 102)

#endif
