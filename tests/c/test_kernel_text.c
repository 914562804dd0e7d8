/* The kernel's pure helpers, which the protocol tests cannot reach in every case: the replay
 * set remembers at least KN_REPLAY_GENERATION recent digests and forgets older ones (bounded
 * memory); UTF-8 handling holds back a split character and replaces invalid bytes and NULs.
 * The two files are compiled into this test (they need only libc). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/replay.c"
#include "kernel/utf8.c"

#include "tests/c/check.h"

static void digest_of(unsigned long n, unsigned char d[KN_DIGEST_LEN]) {
    unsigned long long x = n * 0x9E3779B97F4A7C15ULL + 1;
    for (int i = 0; i < KN_DIGEST_LEN; i++) {
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ULL;
        d[i] = (unsigned char)(x >> 56);
    }
}

static void test_replay(void) {
    kn_digest_set *set = kn_replay_new();
    CHECK(set != NULL);
    if (!set) return;
    unsigned char d[KN_DIGEST_LEN];
    const unsigned long total = 5 * KN_REPLAY_GENERATION + 123;
    for (unsigned long i = 0; i < total; i++) {
        digest_of(i, d);
        CHECK(kn_replay_add(set, d));  /* new: accepted */
        CHECK(!kn_replay_add(set, d)); /* at once again: a replay */
    }
    /* the most recent generation's worth are all still remembered */
    for (unsigned long i = total - KN_REPLAY_GENERATION; i < total; i++) {
        digest_of(i, d);
        CHECK(!kn_replay_add(set, d));
    }
    /* much older ones were forgotten: the set is bounded */
    digest_of(0, d);
    CHECK(kn_replay_add(set, d));
    kn_replay_free(set);
}

/* in as the JSON string literal the stream messages carry */
static void check_json(const char *in, size_t n, const char *want) {
    char *out = kn_utf8_json_string((const unsigned char *)in, n);
    CHECK(out && strcmp(out, want) == 0);
    if (out && strcmp(out, want) != 0) fprintf(stderr, "  got %s, want %s\n", out, want);
    free(out);
}

static void test_utf8(void) {
    const char *euro = "\xE2\x82\xAC";
    CHECK(kn_utf8_complete_prefix((const unsigned char *)"abc", 3) == 3);
    CHECK(kn_utf8_complete_prefix((const unsigned char *)euro, 3) == 3);
    CHECK(kn_utf8_complete_prefix((const unsigned char *)"a\xE2\x82", 3) == 1); /* split euro */
    CHECK(kn_utf8_complete_prefix((const unsigned char *)"a\xF0\x9F\x98", 4) == 1);
    CHECK(kn_utf8_complete_prefix((const unsigned char *)"a\xF0\x9F\x98\x80", 5) == 5);
    CHECK(kn_utf8_complete_prefix((const unsigned char *)"", 0) == 0);

    check_json("plain", 5, "\"plain\"");
    check_json(euro, 3, "\"\xE2\x82\xAC\"");
    check_json("a\0b", 3, "\"a\\u0000b\"");                             /* every byte Python wrote */
    check_json("q\"\\\n\x1f", 5, "\"q\\\"\\\\\\n\\u001f\"");              /* escapes */
    check_json("a\xFF" "b", 3, "\"a\xEF\xBF\xBD" "b\"");
    check_json("\xC0\xAF", 2, "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");                 /* overlong '/' */
    check_json("\xED\xA0\x80", 3, "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");     /* surrogate */
    check_json("\xE2\x82", 2, "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");                /* cut at the end */
    check_json("\xF4\x90\x80\x80", 4,
               "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");        /* past U+10FFFF */
}

int main(void) {
    test_replay();
    test_utf8();
    return check_exit_status();
}
