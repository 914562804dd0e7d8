/* The profiler's clocks. kp_now_ns() is CLOCK_MONOTONIC. kp_ticks() is the
 * cheapest timestamp that can time a call: on x86-64 with an invariant TSC it
 * is the TSC itself (fenced rdtsc, cheaper than clock_gettime, which reads
 * the TSC and then converts), else kp_now_ns(). Ticks become nanoseconds only
 * when totals are read, at a rate measured once against CLOCK_MONOTONIC. */
#include "profiler/profiler.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

int kp_ticks_are_tsc;

static double ns_per_tick = 1.0;
static uint64_t ticks_overhead;
static pthread_once_t calibrated = PTHREAD_ONCE_INIT;

uint64_t kp_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Only a TSC that ticks at one rate through frequency and sleep states
 * (CPUID 0x80000007 EDX bit 8) measures time. */
static int tsc_is_invariant(void) {
#if defined(__x86_64__)
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) && eax >= 0x80000007u &&
        __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx))
        return (edx >> 8) & 1;
#endif
    return 0;
}

/* Counts TSC ticks across a 5 ms sleep: a rate error near 1e-5, well under
 * what a per-cell report shows; costs 5 ms once, at import. */
static void calibrate_tsc(void) {
    if (!tsc_is_invariant())
        return;
#if defined(__x86_64__)
    uint64_t ns0 = kp_now_ns(), t0 = __builtin_ia32_rdtsc();
    struct timespec pause = {0, 5000000};
    while (nanosleep(&pause, &pause) != 0)
        ;
    uint64_t ns1 = kp_now_ns(), t1 = __builtin_ia32_rdtsc();
    if (t1 > t0 && ns1 > ns0) {
        ns_per_tick = (double)(ns1 - ns0) / (double)(t1 - t0);
        kp_ticks_are_tsc = 1;
    }
#endif
}

static int by_value(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The median of what two back-to-back kp_ticks() read apart: the clock's
 * own share of every timed call (fenced TSC reads: as much as a short
 * call, bench/MEASURED.md), which kp_calls_ns takes off. */
static void measure_overhead(void) {
    enum { PAIRS = 255 };
    uint64_t apart[PAIRS];
    for (int i = 0; i < PAIRS; i++) {
        uint64_t t0 = kp_ticks();
        apart[i] = kp_ticks() - t0;
    }
    qsort(apart, PAIRS, sizeof apart[0], by_value);
    ticks_overhead = apart[PAIRS / 2];
}

static void calibrate(void) {
    calibrate_tsc();
    measure_overhead();
}

void kp_clock_init(void) { pthread_once(&calibrated, calibrate); }

double kp_ticks_to_ns(uint64_t ticks) {
    kp_clock_init();
    return (double)ticks * ns_per_tick;
}

uint64_t kp_ns_to_ticks(double ns) {
    kp_clock_init();
    return (uint64_t)(ns / ns_per_tick);
}

uint64_t kp_ticks_overhead(void) {
    kp_clock_init();
    return ticks_overhead;
}
