/* Captured output is bytes; stream messages are JSON, which needs valid UTF-8.
 * Output is cut into messages wherever a flush happens, so a multi-byte character split across
 * two reads is held back until it is whole, and bytes that are not UTF-8 (binary written by C
 * code) become U+FFFD instead of making the whole message invalid. A NUL is a character Python
 * prints like any other: in a JSON string it is \u0000. */
#include "kernel/kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t kn_utf8_complete_prefix(const unsigned char *s, size_t n) {
    size_t i = n, back = 0;
    while (i > 0 && back < 4 && (s[i - 1] & 0xC0) == 0x80) i--, back++;
    if (i == 0) return n;
    unsigned char lead = s[i - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return (lead >= 0xC0 && back + 1 < need) ? i - 1 : n;
}

/* Length of the valid sequence at s[0..left), or 0. Rejects overlong forms, surrogates and
 * code points past U+10FFFF, as Python's decoder does. */
static size_t valid_sequence(const unsigned char *s, size_t left) {
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || len > left || (len == 2 && c < 0xC2) || c > 0xF4) return 0;
    for (size_t j = 1; j < len; j++)
        if ((s[j] & 0xC0) != 0x80) return 0;
    if (len == 3 && ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0))) return 0;
    if (len == 4 && ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))) return 0;
    return len;
}

char *kn_utf8_json_string(const unsigned char *s, size_t n) {
    char *out = malloc(6 * n + 3), *o = out; /* each byte grows to at most 6 (\u001f) */
    if (!out) return NULL;
    *o++ = '"';
    for (size_t i = 0; i < n;) {
        size_t len = valid_sequence(s + i, n - i);
        unsigned char c = s[i];
        if (!len) {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
            continue;
        }
        if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        } else if (c == '\n') {
            memcpy(o, "\\n", 2);
            o += 2;
        } else if (c < 0x20) {
            o += sprintf(o, "\\u%04x", c);
        } else {
            memcpy(o, s + i, len);
            o += len;
        }
        i += len;
    }
    *o++ = '"';
    *o = '\0';
    return out;
}
