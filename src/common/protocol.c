/*
 * protocol.c - framing of the messages between drover clients and servers.
 *
 * The header is encoded by hand, byte by byte, so its layout does not
 * depend on the host's struct padding or byte order. Payload fields go
 * through the datatype registry like any PMIx_Data_pack'ed data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "bfrops.h"
#include "errno_status.h"
#include "pmix.h"
#include "protocol.h"

static void put_le(uint8_t *p, uint64_t v, size_t width)
{
    for (size_t i = 0; i < width; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static uint64_t get_le(const uint8_t *p, size_t width)
{
    uint64_t v = 0;
    for (size_t i = 0; i < width; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

void protocol_encode_header(const protocol_header_t *h, uint8_t raw[PROTOCOL_HEADER_SIZE])
{
    put_le(raw, h->magic, 4);
    put_le(raw + 4, h->version, 2);
    put_le(raw + 6, h->command, 2);
    put_le(raw + 8, h->tag, 4);
    put_le(raw + 12, h->length, 4);
}

pmix_status_t protocol_decode_header(const uint8_t raw[PROTOCOL_HEADER_SIZE],
                                     protocol_header_t *h)
{
    h->magic = (uint32_t)get_le(raw, 4);
    h->version = (uint16_t)get_le(raw + 4, 2);
    h->command = (uint16_t)get_le(raw + 6, 2);
    h->tag = (uint32_t)get_le(raw + 8, 4);
    h->length = (uint32_t)get_le(raw + 12, 4);
    if (PROTOCOL_MAGIC != h->magic) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (PROTOCOL_VERSION != h->version) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (h->length > PROTOCOL_MAX_PAYLOAD) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    return PMIX_SUCCESS;
}

static size_t unread(const pmix_data_buffer_t *payload)
{
    if (NULL == payload || NULL == payload->unpack_ptr) {
        return 0;
    }
    return payload->bytes_used - (size_t)(payload->unpack_ptr - payload->base_ptr);
}

static void make_header(protocol_header_t *h, uint16_t command, uint32_t tag, size_t length)
{
    h->magic = PROTOCOL_MAGIC;
    h->version = PROTOCOL_VERSION;
    h->command = command;
    h->tag = tag;
    h->length = (uint32_t)length;
}

pmix_status_t protocol_send(int fd, uint16_t command, uint32_t tag,
                            const pmix_data_buffer_t *payload)
{
    protocol_header_t h;
    uint8_t raw[PROTOCOL_HEADER_SIZE];
    size_t length = unread(payload);
    struct iovec iov[2];
    struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};

    if (length > PROTOCOL_MAX_PAYLOAD) {
        return PMIX_ERR_BAD_PARAM;
    }
    make_header(&h, command, tag, length);
    protocol_encode_header(&h, raw);
    iov[0] = (struct iovec){.iov_base = raw, .iov_len = sizeof(raw)};
    iov[1] = (struct iovec){.iov_base = length ? payload->unpack_ptr : NULL, .iov_len = length};
    while (msg.msg_iovlen > 0) {
        ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);
        if (n < 0) {
            if (EINTR == errno) {
                continue;
            }
            return EPIPE == errno || ECONNRESET == errno ? PMIX_ERR_LOST_CONNECTION
                                                         : errno_status(errno);
        }
        /* Skip what went out: whole iovecs, then part of the next. */
        while (msg.msg_iovlen > 0 && (size_t)n >= msg.msg_iov->iov_len) {
            n -= (ssize_t)msg.msg_iov->iov_len;
            msg.msg_iov++;
            msg.msg_iovlen--;
        }
        if (msg.msg_iovlen > 0) {
            msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + n;
            msg.msg_iov->iov_len -= (size_t)n;
        }
    }
    return PMIX_SUCCESS;
}

/* Read exactly len bytes. */
static pmix_status_t read_all(int fd, void *dest, size_t len)
{
    char *p = dest;
    while (len > 0) {
        ssize_t n = recv(fd, p, len, 0);
        if (0 == n) {
            return PMIX_ERR_LOST_CONNECTION;
        }
        if (n < 0) {
            if (EINTR == errno) {
                continue;
            }
            return ECONNRESET == errno ? PMIX_ERR_LOST_CONNECTION : errno_status(errno);
        }
        p += n;
        len -= (size_t)n;
    }
    return PMIX_SUCCESS;
}

pmix_status_t protocol_recv(int fd, protocol_header_t *h, pmix_data_buffer_t *payload)
{
    uint8_t raw[PROTOCOL_HEADER_SIZE];
    pmix_byte_object_t bo = {.bytes = NULL, .size = 0};
    pmix_status_t rc;

    PMIX_DATA_BUFFER_CONSTRUCT(payload);
    if (PMIX_SUCCESS != (rc = read_all(fd, raw, sizeof(raw)))) {
        return rc;
    }
    if (PMIX_SUCCESS != (rc = protocol_decode_header(raw, h))) {
        return rc;
    }
    if (0 == h->length) {
        return PMIX_SUCCESS;
    }
    if (NULL == (bo.bytes = malloc(h->length))) {
        return PMIX_ERR_NOMEM;
    }
    bo.size = h->length;
    if (PMIX_SUCCESS != (rc = read_all(fd, bo.bytes, bo.size))) {
        free(bo.bytes);
        return rc;
    }
    /* The buffer takes the bytes over. */
    return PMIx_Data_load(payload, &bo);
}

/* Room for at least this much more each read; grown for big frames. */
#define INBUF_CHUNK 16384

static size_t max_payload(const protocol_inbuf_t *b)
{
    return 0 == b->max_payload ? PROTOCOL_MAX_PAYLOAD : b->max_payload;
}

pmix_status_t protocol_inbuf_fill(protocol_inbuf_t *b, int fd)
{
    if (b->start > 0 && (b->start == b->len || b->cap - b->len < INBUF_CHUNK)) {
        /* Move the partial frame to the front before reading more. */
        memmove(b->data, b->data + b->start, b->len - b->start);
        b->len -= b->start;
        b->start = 0;
    }
    if (b->cap - b->len < INBUF_CHUNK) {
        size_t cap = b->cap + INBUF_CHUNK;
        if (cap > max_payload(b) + PROTOCOL_HEADER_SIZE + INBUF_CHUNK) {
            return PMIX_ERR_LOST_CONNECTION;
        }
        uint8_t *grown = realloc(b->data, cap);
        if (NULL == grown) {
            return PMIX_ERR_NOMEM;
        }
        b->data = grown;
        b->cap = cap;
    }
    for (;;) {
        ssize_t n = recv(fd, b->data + b->len, b->cap - b->len, MSG_DONTWAIT);
        if (n > 0) {
            b->len += (size_t)n;
            return PMIX_SUCCESS;
        }
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
            return PMIX_ERR_WOULD_BLOCK;
        }
        return PMIX_ERR_LOST_CONNECTION;
    }
}

pmix_status_t protocol_inbuf_next(protocol_inbuf_t *b, protocol_header_t *h,
                                  pmix_data_buffer_t *payload)
{
    size_t held = b->len - b->start;
    pmix_status_t rc;

    if (held < PROTOCOL_HEADER_SIZE) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    if (PMIX_SUCCESS != (rc = protocol_decode_header(b->data + b->start, h))) {
        return rc;
    }
    if (h->length > max_payload(b)) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (held - PROTOCOL_HEADER_SIZE < h->length) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(payload);
    if (h->length > 0) {
        pmix_byte_object_t bo = {.bytes = malloc(h->length), .size = h->length};
        if (NULL == bo.bytes) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(bo.bytes, b->data + b->start + PROTOCOL_HEADER_SIZE, h->length);
        PMIx_Data_load(payload, &bo);
    }
    b->start += PROTOCOL_HEADER_SIZE + h->length;
    if (b->start == b->len) {
        b->start = b->len = 0;
    }
    return PMIX_SUCCESS;
}

void protocol_inbuf_free(protocol_inbuf_t *b)
{
    free(b->data);
    *b = (protocol_inbuf_t){0};
}

pmix_status_t protocol_frame(pmix_data_buffer_t *out, uint16_t command, uint32_t tag,
                             const pmix_data_buffer_t *payload)
{
    protocol_header_t h;
    uint8_t raw[PROTOCOL_HEADER_SIZE];
    size_t length = unread(payload);
    pmix_byte_object_t bo;

    if (length > PROTOCOL_MAX_PAYLOAD) {
        return PMIX_ERR_BAD_PARAM;
    }
    make_header(&h, command, tag, length);
    protocol_encode_header(&h, raw);
    if (NULL == (bo.bytes = malloc(sizeof(raw) + length))) {
        return PMIX_ERR_NOMEM;
    }
    bo.size = sizeof(raw) + length;
    memcpy(bo.bytes, raw, sizeof(raw));
    if (length > 0) {
        memcpy(bo.bytes + sizeof(raw), payload->unpack_ptr, length);
    }
    PMIX_DATA_BUFFER_CONSTRUCT(out);
    return PMIx_Data_load(out, &bo);
}

pmix_status_t protocol_pack_procdata(pmix_data_buffer_t *buf, const pmix_proc_t *proc,
                                     const pmix_info_t *info, size_t ninfo)
{
    pmix_status_t rc = PMIx_Data_pack(NULL, buf, (void *)proc, 1, PMIX_PROC);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_pack(NULL, buf, (void *)info, (int32_t)ninfo, PMIX_INFO);
    }
    return rc;
}

pmix_status_t protocol_unpack_procdata(pmix_data_buffer_t *buf, pmix_proc_t *proc,
                                       pmix_info_t **info, size_t *ninfo)
{
    int32_t n = 1;
    pmix_status_t rc;

    *info = NULL;
    *ninfo = 0;
    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, buf, proc, &n, PMIX_PROC))) {
        return rc;
    }
    return protocol_unpack_array(buf, PMIX_INFO, (void **)info, ninfo);
}

pmix_status_t protocol_unpack_array(pmix_data_buffer_t *buf, pmix_data_type_t type,
                                    void **array, size_t *n)
{
    if (NULL == buf->base_ptr || NULL == buf->unpack_ptr) {
        /* An empty payload holds no group at all. */
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    drover_reader_t r = {.pos = (const uint8_t *)buf->unpack_ptr,
                         .end = (const uint8_t *)buf->base_ptr + buf->bytes_used};
    pmix_status_t rc = bfrops_unpack_tagged_alloc(&r, array, n, type);

    if (PMIX_SUCCESS == rc) {
        buf->unpack_ptr = (char *)r.pos;
    }
    return rc;
}

void protocol_free_array(void *array, size_t n, pmix_data_type_t type)
{
    bfrops_release(array, n, type, NULL);
    free(array);
}

pmix_status_t protocol_pack_status(pmix_data_buffer_t *buf, pmix_status_t status)
{
    return PMIx_Data_pack(NULL, buf, &status, 1, PMIX_STATUS);
}

pmix_status_t protocol_unpack_status(pmix_data_buffer_t *buf, pmix_status_t *status)
{
    int32_t n = 1;
    return PMIx_Data_unpack(NULL, buf, status, &n, PMIX_STATUS);
}
