/* Replay protection: the set of recent message digests.
 *
 * jupyter_client keeps the last 2**16 digests. Here: two generations of an open-addressed set of
 * 2**15 digests each; when the young one fills, it becomes the old one and the old is dropped. So
 * at least the last 2**15 and at most the last 2**16 digests are remembered, in bounded memory. */
#include "kernel/kernel.h"

#include <stdlib.h>
#include <string.h>

#define GEN_ENTRIES KN_REPLAY_GENERATION
#define GEN_SLOTS (2u * GEN_ENTRIES)

typedef struct generation {
    unsigned char (*digest)[KN_DIGEST_LEN];
    unsigned char *used;
    size_t count;
} generation;

struct kn_digest_set {
    generation gen[2]; /* gen[0] young, gen[1] old */
};

static size_t slot_of(const unsigned char *d) {
    size_t h;
    memcpy(&h, d, sizeof h); /* HMAC output is already uniformly random */
    return h & (GEN_SLOTS - 1);
}

static bool gen_contains(const generation *g, const unsigned char *d) {
    for (size_t i = slot_of(d);; i = (i + 1) & (GEN_SLOTS - 1)) {
        if (!g->used[i]) return false; /* the load stays at most 1/2: an empty slot exists */
        if (memcmp(g->digest[i], d, KN_DIGEST_LEN) == 0) return true;
    }
}

static void gen_insert(generation *g, const unsigned char *d) {
    size_t i = slot_of(d);
    while (g->used[i]) i = (i + 1) & (GEN_SLOTS - 1);
    g->used[i] = 1;
    memcpy(g->digest[i], d, KN_DIGEST_LEN);
    g->count++;
}

kn_digest_set *kn_replay_new(void) {
    kn_digest_set *set = calloc(1, sizeof *set);
    if (!set) return NULL;
    for (int i = 0; i < 2; i++) {
        set->gen[i].digest = calloc(GEN_SLOTS, KN_DIGEST_LEN);
        set->gen[i].used = calloc(GEN_SLOTS, 1);
        if (!set->gen[i].digest || !set->gen[i].used) {
            kn_replay_free(set);
            return NULL;
        }
    }
    return set;
}

void kn_replay_free(kn_digest_set *set) {
    if (!set) return;
    for (int i = 0; i < 2; i++) {
        free(set->gen[i].digest);
        free(set->gen[i].used);
    }
    free(set);
}

bool kn_replay_add(kn_digest_set *set, const unsigned char d[KN_DIGEST_LEN]) {
    if (gen_contains(&set->gen[0], d) || gen_contains(&set->gen[1], d)) return false;
    if (set->gen[0].count == GEN_ENTRIES) {
        generation old = set->gen[1];
        set->gen[1] = set->gen[0];
        memset(old.used, 0, GEN_SLOTS);
        old.count = 0;
        set->gen[0] = old;
    }
    gen_insert(&set->gen[0], d);
    return true;
}
