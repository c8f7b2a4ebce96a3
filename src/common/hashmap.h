/*
 * hashmap.h - a hash table from byte-string keys to pointers, iterated in
 * insertion order. Private to the library.
 *
 * Entries live in one dense array, in the order they were added, so a map
 * can be walked (to pack every key of a process, say) without touching
 * empty slots; an open-addressing index of 32-bit slots points into it.
 * Keys are copied and NUL-terminated, so string keys can be read back as
 * C strings. The map does no locking: its owner does.
 */
#ifndef DROVER_HASHMAP_H
#define DROVER_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hashmap_entry {
    char *key;          /* owned; keylen bytes then a NUL */
    uint32_t keylen;
    uint32_t hash;
    uint32_t flags;     /* the owner's (a put's scope, say); 0 when added */
    void *value;        /* the owner's; NULL when added */
} hashmap_entry_t;

typedef struct hashmap {
    hashmap_entry_t *entries;
    uint32_t count;
    uint32_t capacity;
    uint32_t *slots;    /* 0: empty, else index into entries + 1 */
    uint32_t nslots;    /* 0 or a power of two */
} hashmap_t;

/* An empty map; allocates nothing until the first insert. */
#define HASHMAP_INIT {NULL, 0, 0, NULL, 0}

/* Free the keys and the tables, calling release on every non-NULL value
 * first (release may be NULL). The map is empty afterwards. */
void hashmap_clear(hashmap_t *m, void (*release)(void *value));

/* The entry for key, or NULL. Borrowed, valid until the map changes. */
hashmap_entry_t *hashmap_find(const hashmap_t *m, const void *key, size_t keylen);

/* The entry for key, added with a NULL value (and *created set) when it is
 * missing. NULL when memory runs out, the map unchanged. Borrowed, valid
 * until the map changes. */
hashmap_entry_t *hashmap_insert(hashmap_t *m, const void *key, size_t keylen, bool *created);

/* Remove key and return its value (NULL when absent). Later entries keep
 * their order. */
void *hashmap_remove(hashmap_t *m, const void *key, size_t keylen);

/* String-keyed shorthands. */
hashmap_entry_t *hashmap_find_str(const hashmap_t *m, const char *key);
hashmap_entry_t *hashmap_insert_str(hashmap_t *m, const char *key, bool *created);

#endif /* DROVER_HASHMAP_H */
