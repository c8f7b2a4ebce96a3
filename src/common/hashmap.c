/*
 * hashmap.c - a hash table from byte-string keys to pointers, iterated in
 * insertion order.
 *
 * Design notes:
 *  - The index has at least twice as many slots as entries and is probed
 *    linearly; FNV-1a spreads the short keys PMIx uses well enough.
 *  - Removal closes the gap in the entry array and rebuilds the index.
 *    Keys are removed rarely (a namespace going away, a lookup record
 *    consumed), so the O(n) cost buys a simpler, tombstone-free index.
 */
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"

static uint32_t hash_bytes(const void *key, size_t len)
{
    const unsigned char *p = key;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

/* The slot holding key, or the empty slot where it would go. */
static uint32_t probe(const hashmap_t *m, const void *key, size_t keylen, uint32_t hash)
{
    uint32_t mask = m->nslots - 1;
    for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
        uint32_t s = m->slots[i];
        if (0 == s) {
            return i;
        }
        const hashmap_entry_t *e = &m->entries[s - 1];
        if (e->hash == hash && e->keylen == keylen && 0 == memcmp(e->key, key, keylen)) {
            return i;
        }
    }
}

static void reindex(hashmap_t *m)
{
    memset(m->slots, 0, m->nslots * sizeof(*m->slots));
    for (uint32_t i = 0; i < m->count; i++) {
        const hashmap_entry_t *e = &m->entries[i];
        m->slots[probe(m, e->key, e->keylen, e->hash)] = i + 1;
    }
}

/* Room for one more entry, keeping the index at most half full. */
static bool reserve(hashmap_t *m)
{
    if (m->count == m->capacity) {
        uint32_t cap = 0 == m->capacity ? 8 : 2 * m->capacity;
        hashmap_entry_t *grown = realloc(m->entries, cap * sizeof(*grown));
        if (NULL == grown) {
            return false;
        }
        m->entries = grown;
        m->capacity = cap;
    }
    if (2 * (m->count + 1) > m->nslots) {
        uint32_t n = 0 == m->nslots ? 16 : 2 * m->nslots;
        uint32_t *slots = calloc(n, sizeof(*slots));
        if (NULL == slots) {
            return false;
        }
        free(m->slots);
        m->slots = slots;
        m->nslots = n;
        reindex(m);
    }
    return true;
}

void hashmap_clear(hashmap_t *m, void (*release)(void *value))
{
    for (uint32_t i = 0; i < m->count; i++) {
        if (NULL != release && NULL != m->entries[i].value) {
            release(m->entries[i].value);
        }
        free(m->entries[i].key);
    }
    free(m->entries);
    free(m->slots);
    *m = (hashmap_t)HASHMAP_INIT;
}

hashmap_entry_t *hashmap_find(const hashmap_t *m, const void *key, size_t keylen)
{
    if (0 == m->count) {
        return NULL;
    }
    uint32_t s = m->slots[probe(m, key, keylen, hash_bytes(key, keylen))];
    return 0 == s ? NULL : &m->entries[s - 1];
}

hashmap_entry_t *hashmap_insert(hashmap_t *m, const void *key, size_t keylen, bool *created)
{
    uint32_t hash = hash_bytes(key, keylen);
    if (keylen > UINT32_MAX - 1) {
        return NULL;
    }
    if (m->count > 0) {
        uint32_t s = m->slots[probe(m, key, keylen, hash)];
        if (0 != s) {
            if (NULL != created) {
                *created = false;
            }
            return &m->entries[s - 1];
        }
    }
    char *copy = malloc(keylen + 1);
    if (NULL == copy || !reserve(m)) {
        free(copy);
        return NULL;
    }
    memcpy(copy, key, keylen);
    copy[keylen] = '\0';
    hashmap_entry_t *e = &m->entries[m->count];
    *e = (hashmap_entry_t){.key = copy, .keylen = (uint32_t)keylen, .hash = hash};
    m->slots[probe(m, key, keylen, hash)] = ++m->count;
    if (NULL != created) {
        *created = true;
    }
    return e;
}

void *hashmap_remove(hashmap_t *m, const void *key, size_t keylen)
{
    hashmap_entry_t *e = hashmap_find(m, key, keylen);
    if (NULL == e) {
        return NULL;
    }
    void *value = e->value;
    size_t i = (size_t)(e - m->entries);
    free(e->key);
    memmove(e, e + 1, (m->count - i - 1) * sizeof(*e));
    m->count--;
    reindex(m);
    return value;
}

hashmap_entry_t *hashmap_find_str(const hashmap_t *m, const char *key)
{
    return hashmap_find(m, key, strlen(key));
}

hashmap_entry_t *hashmap_insert_str(hashmap_t *m, const char *key, bool *created)
{
    return hashmap_insert(m, key, strlen(key), created);
}
