/*
 * stats.c - the resource-usage samples: PMIX_PROC_STATS, PMIX_DISK_STATS,
 * PMIX_NET_STATS and PMIX_NODE_STATS.
 *
 * Design notes:
 *  - Each is a table of members (fields.h) in declaration order. Floats go
 *    through PMIX_FLOAT, so they travel as their IEEE bit patterns and come
 *    back bit for bit.
 *  - A node sample owns its node name and its arrays of ndiskstats disk
 *    samples and nnetstats interface samples; the others own their name
 *    strings only.
 *  - pmix_proc_stats_t.state is a char, moved as a PMIX_BYTE of the same
 *    size.
 */
#include "fields.h"

static const fields_field_t proc_stats_fields[] = {
    FIELDS_MEMBER(pmix_proc_stats_t, node, PMIX_STRING),
    FIELDS_MEMBER(pmix_proc_stats_t, proc, PMIX_PROC),
    FIELDS_MEMBER(pmix_proc_stats_t, pid, PMIX_PID),
    FIELDS_MEMBER(pmix_proc_stats_t, cmd, PMIX_STRING),
    FIELDS_MEMBER(pmix_proc_stats_t, state, PMIX_BYTE),
    FIELDS_MEMBER(pmix_proc_stats_t, time, PMIX_TIMEVAL),
    FIELDS_MEMBER(pmix_proc_stats_t, percent_cpu, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_proc_stats_t, priority, PMIX_INT32),
    FIELDS_MEMBER(pmix_proc_stats_t, num_threads, PMIX_UINT16),
    FIELDS_MEMBER(pmix_proc_stats_t, pss, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_proc_stats_t, vsize, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_proc_stats_t, rss, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_proc_stats_t, peak_vsize, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_proc_stats_t, processor, PMIX_UINT16),
    FIELDS_MEMBER(pmix_proc_stats_t, sample_time, PMIX_TIMEVAL),
};
static const fields_layout_t proc_stats_layout =
    FIELDS_LAYOUT(pmix_proc_stats_t, proc_stats_fields);
FIELDS_DATATYPE(proc_stats, PMIX_PROC_STATS, pmix_proc_stats_t, 81, 0, proc_stats_layout)

static const fields_field_t disk_stats_fields[] = {
    FIELDS_MEMBER(pmix_disk_stats_t, disk, PMIX_STRING),
    FIELDS_MEMBER(pmix_disk_stats_t, num_reads_completed, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, num_reads_merged, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, num_sectors_read, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, milliseconds_reading, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, num_writes_completed, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, num_writes_merged, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, num_sectors_written, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, milliseconds_writing, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, num_ios_in_progress, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, milliseconds_io, PMIX_UINT64),
    FIELDS_MEMBER(pmix_disk_stats_t, weighted_milliseconds_io, PMIX_UINT64),
};
static const fields_layout_t disk_stats_layout =
    FIELDS_LAYOUT(pmix_disk_stats_t, disk_stats_fields);
FIELDS_DATATYPE(disk_stats, PMIX_DISK_STATS, pmix_disk_stats_t, 92, 0, disk_stats_layout)

static const fields_field_t net_stats_fields[] = {
    FIELDS_MEMBER(pmix_net_stats_t, net_interface, PMIX_STRING),
    FIELDS_MEMBER(pmix_net_stats_t, num_bytes_recvd, PMIX_UINT64),
    FIELDS_MEMBER(pmix_net_stats_t, num_packets_recvd, PMIX_UINT64),
    FIELDS_MEMBER(pmix_net_stats_t, num_recv_errs, PMIX_UINT64),
    FIELDS_MEMBER(pmix_net_stats_t, num_bytes_sent, PMIX_UINT64),
    FIELDS_MEMBER(pmix_net_stats_t, num_packets_sent, PMIX_UINT64),
    FIELDS_MEMBER(pmix_net_stats_t, num_send_errs, PMIX_UINT64),
};
static const fields_layout_t net_stats_layout = FIELDS_LAYOUT(pmix_net_stats_t, net_stats_fields);
FIELDS_DATATYPE(net_stats, PMIX_NET_STATS, pmix_net_stats_t, 52, 0, net_stats_layout)

static const fields_field_t node_stats_fields[] = {
    FIELDS_MEMBER(pmix_node_stats_t, node, PMIX_STRING),
    FIELDS_MEMBER(pmix_node_stats_t, la, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, la5, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, la15, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, total_mem, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, free_mem, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, buffers, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, cached, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, swap_cached, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, swap_total, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, swap_free, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, mapped, PMIX_FLOAT),
    FIELDS_MEMBER(pmix_node_stats_t, sample_time, PMIX_TIMEVAL),
    FIELDS_ARRAY_MEMBER(pmix_node_stats_t, diskstats, ndiskstats, PMIX_DISK_STATS),
    FIELDS_ARRAY_MEMBER(pmix_node_stats_t, netstats, nnetstats, PMIX_NET_STATS),
};
static const fields_layout_t node_stats_layout =
    FIELDS_LAYOUT(pmix_node_stats_t, node_stats_fields);
FIELDS_DATATYPE(node_stats, PMIX_NODE_STATS, pmix_node_stats_t, 72, 0, node_stats_layout)
