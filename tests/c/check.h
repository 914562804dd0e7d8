/* The C unit tests' one assertion: CHECK counts a failed condition and goes
 * on, so a run reports every failure; check_exit_status() ends main. */
#ifndef KILN_TESTS_CHECK_H
#define KILN_TESTS_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

/* main's return value: 0 when every check passed. */
static inline int check_exit_status(void) {
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}

#endif
