/*
 * protocol.h - the frames drover's clients and servers exchange.
 *
 * Every message is one frame: a 16-byte header, then a payload made of
 * tagged groups exactly as PMIx_Data_pack writes them (bfrops_pack_tagged),
 * so every field is type-checked and bounds-checked when it is read.
 * docs/protocol.md ("Client and server") is the byte-level reference and
 * lists each command's payload.
 *
 * The magic and the version sit at the start of the header and will stay
 * there in every future version, so a peer speaking another version gets a
 * clear PMIX_ERR_NOT_SUPPORTED reply rather than misread bytes.
 */
#ifndef DROVER_PROTOCOL_H
#define DROVER_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

#include "pmix_common.h"

#define PROTOCOL_MAGIC 0x31565244u      /* the bytes "DRV1" */
#define PROTOCOL_VERSION 1
#define PROTOCOL_HEADER_SIZE 16
#define PROTOCOL_MAX_PAYLOAD (256u << 20)
/* The most a server takes from a peer before its HELLO: room for the name,
 * the pid and the directives PMIx_Init or PMIx_tool_init was given, but
 * not for a stranger's 256 MiB. */
#define PROTOCOL_HELLO_MAX_PAYLOAD (16u << 10)

/* A reply carries its request's command with this bit set, and its tag. */
#define PROTOCOL_REPLY 0x8000u

/* Requests a client sends (tag != 0 when it expects a reply) and messages
 * the server sends on its own (tag 0). Payloads: docs/protocol.md. */
typedef enum {
    PROTOCOL_HELLO = 1,      /* c->s: who I am; reply: my job's data */
    PROTOCOL_FINALIZE,       /* c->s: PMIx_Finalize */
    PROTOCOL_ABORT,          /* c->s: PMIx_Abort */
    PROTOCOL_COMMIT,         /* c->s: PMIx_Commit, no reply */
    PROTOCOL_FENCE,          /* c->s: PMIx_Fence */
    PROTOCOL_GET,            /* c->s: PMIx_Get of data not held locally */
    PROTOCOL_NOTIFY,         /* c->s: PMIx_Notify_event */
    PROTOCOL_EVENT,          /* s->c: an event for this client */
    PROTOCOL_QUERY,          /* c->s: PMIx_Query_info */
    PROTOCOL_JOB_CONTROL,    /* c->s: PMIx_Job_control */
    PROTOCOL_LOG,            /* c->s: PMIx_Log */
    PROTOCOL_CONNECT,        /* c->s: PMIx_Connect */
    PROTOCOL_DISCONNECT,     /* c->s: PMIx_Disconnect */
    PROTOCOL_PUBLISH,        /* c->s: PMIx_Publish */
    PROTOCOL_LOOKUP,         /* c->s: PMIx_Lookup */
    PROTOCOL_UNPUBLISH,      /* c->s: PMIx_Unpublish */
    PROTOCOL_SPAWN,          /* c->s: PMIx_Spawn */
    PROTOCOL_GROUP_CONSTRUCT, /* c->s: PMIx_Group_construct */
    PROTOCOL_GROUP_DESTRUCT, /* c->s: PMIx_Group_destruct */
    PROTOCOL_GROUP_INVITE,   /* c->s: PMIx_Group_invite */
    PROTOCOL_GROUP_JOIN,     /* c->s: PMIx_Group_join */
    PROTOCOL_GROUP_LEAVE,    /* c->s: PMIx_Group_leave */
    PROTOCOL_ALLOCATE,       /* c->s: PMIx_Allocation_request */
    PROTOCOL_MONITOR,        /* c->s: PMIx_Process_monitor */
    PROTOCOL_FABRIC,         /* c->s: PMIx_Fabric_register/update */
    PROTOCOL_GET_CREDENTIAL, /* c->s: PMIx_Get_credential */
    PROTOCOL_VALIDATE_CREDENTIAL, /* c->s: PMIx_Validate_credential */
    PROTOCOL_IOF_PULL,       /* c->s: PMIx_IOF_pull */
    PROTOCOL_IOF_DEREGISTER, /* c->s: PMIx_IOF_deregister */
    PROTOCOL_IOF_PUSH,       /* c->s: PMIx_IOF_push */
    PROTOCOL_IOF,            /* s->c: forwarded output for this process */
    PROTOCOL_COMMAND_MAX
} protocol_command_t;

typedef struct protocol_header {
    uint32_t magic;
    uint16_t version;
    uint16_t command;        /* protocol_command_t, | PROTOCOL_REPLY */
    uint32_t tag;            /* matches a reply to its request; 0: none */
    uint32_t length;         /* payload bytes that follow */
} protocol_header_t;

/* Encode a header into 16 bytes. */
void protocol_encode_header(const protocol_header_t *h, uint8_t raw[PROTOCOL_HEADER_SIZE]);

/* Decode and check 16 bytes: PMIX_ERR_UNPACK_FAILURE for a wrong magic or
 * an oversized length, PMIX_ERR_NOT_SUPPORTED for another version (h is
 * filled in either case, so the version can be reported). */
pmix_status_t protocol_decode_header(const uint8_t raw[PROTOCOL_HEADER_SIZE],
                                     protocol_header_t *h);

/* Write one whole frame to a blocking socket (retrying short writes and
 * EINTR, never raising SIGPIPE). payload may be NULL for an empty one. */
pmix_status_t protocol_send(int fd, uint16_t command, uint32_t tag,
                            const pmix_data_buffer_t *payload);

/* Read one whole frame from a blocking socket. On success payload holds
 * the payload (caller destructs it with PMIX_DATA_BUFFER_DESTRUCT);
 * PMIX_ERR_LOST_CONNECTION when the peer closed the socket. */
pmix_status_t protocol_recv(int fd, protocol_header_t *h, pmix_data_buffer_t *payload);

/* Bytes read from a socket that do not yet make whole frames. Used by
 * both ends of a connection: fill it when the socket is readable, then
 * take frames out until none is complete. */
typedef struct protocol_inbuf {
    uint8_t *data;
    size_t start;            /* first byte not yet taken */
    size_t len;              /* bytes held, from data */
    size_t cap;
    size_t max_payload;      /* the largest frame taken; 0: PROTOCOL_MAX_PAYLOAD */
} protocol_inbuf_t;

/* Read what the non-blocking socket fd holds (one recv). Returns
 * PMIX_SUCCESS when bytes came, PMIX_ERR_WOULD_BLOCK when none were
 * waiting, PMIX_ERR_LOST_CONNECTION at the end of the stream or on an
 * error, PMIX_ERR_NOMEM. */
pmix_status_t protocol_inbuf_fill(protocol_inbuf_t *b, int fd);

/* Take the next whole frame out: PMIX_SUCCESS with h and payload (caller
 * destructs payload); PMIX_ERR_WOULD_BLOCK when no whole frame is held;
 * a protocol_decode_header error (h filled) for a bad header, or
 * PMIX_ERR_OUT_OF_RESOURCE for a frame over max_payload (known from its
 * header alone), which leave the frame in place. */
pmix_status_t protocol_inbuf_next(protocol_inbuf_t *b, protocol_header_t *h,
                                  pmix_data_buffer_t *payload);

/* Forget what is held and free the memory. */
void protocol_inbuf_free(protocol_inbuf_t *b);

/* Make a frame in memory: the encoded header followed by a copy of the
 * payload's unread bytes. Caller destructs out. */
pmix_status_t protocol_frame(pmix_data_buffer_t *out, uint16_t command, uint32_t tag,
                             const pmix_data_buffer_t *payload);

/* The data one or more processes hold, as sent in HELLO, FENCE and GET
 * replies: [u32 count as PMIX_UINT32] then per process [PMIX_PROC][PMIX_INFO
 * group]. protocol_pack_procdata appends one process's entry; the caller
 * packs the count first. protocol_unpack_procdata reads one entry; the
 * caller owns *info (PMIX_INFO_FREE(*info, *ninfo)). */
pmix_status_t protocol_pack_procdata(pmix_data_buffer_t *buf, const pmix_proc_t *proc,
                                     const pmix_info_t *info, size_t ninfo);
pmix_status_t protocol_unpack_procdata(pmix_data_buffer_t *buf, pmix_proc_t *proc,
                                       pmix_info_t **info, size_t *ninfo);

/* Unpack one tagged group of any count from buf into a new heap array
 * (NULL when empty), advancing buf only on success. Caller releases with
 * protocol_free_array. */
pmix_status_t protocol_unpack_array(pmix_data_buffer_t *buf, pmix_data_type_t type,
                                    void **array, size_t *n);

/* Release what protocol_unpack_array returned. Accepts NULL. */
void protocol_free_array(void *array, size_t n, pmix_data_type_t type);

/* Pack and unpack a status, the first field of every reply. */
pmix_status_t protocol_pack_status(pmix_data_buffer_t *buf, pmix_status_t status);
pmix_status_t protocol_unpack_status(pmix_data_buffer_t *buf, pmix_status_t *status);

/* The handler number of an IOF message carrying the output of a job that
 * a tool spawned with PMIX_FWD_STDOUT/STDERR/STDDIAG: the tool writes it
 * to its own stdout (stdout channel) or stderr (the others). A pull's
 * number is never this one. */
#define PROTOCOL_IOF_FORWARDED SIZE_MAX

/* The environment variable naming the server's socket, and the prefix of
 * its value ("drover://" then the socket's absolute path). */
#define PROTOCOL_URI_ENV "PMIX_SERVER_URI41"
#define PROTOCOL_URI_PREFIX "drover://"

#endif /* DROVER_PROTOCOL_H */
