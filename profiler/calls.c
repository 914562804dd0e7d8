/* The profiler's call records: what is exact, what is sampled and why is in
 * profiler.h. The current recording is a list of the records that have
 * calls in it; starting a new recording empties the list, zeroing each
 * record and freeing those whose specialization has gone. Everything here
 * runs with the GIL held (profiler.h). */
#include "profiler/profiler.h"

#include <stdlib.h>

kp_calls_mode kp_calls_mode_now;
static int recorders, untimers;      /* users of each switch */
static kp_calls *recorded;           /* the current (or last) recording's records */
static uint64_t short_call_ticks;    /* KP_SHORT_CALL_NS in ticks, set as recording starts */
static uint64_t gap_state = 0x9e3779b97f4a7c15u;  /* xorshift64 state of the sample gaps */

kp_calls *kp_calls_new(PyObject *function, PyObject *signature) {
    kp_calls *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    Py_XINCREF(function);
    r->function = function;
    Py_XINCREF(signature);
    r->signature = signature;
    return r;
}

static void free_record(kp_calls *r) {
    Py_XDECREF(r->function);
    Py_XDECREF(r->signature);
    free(r);
}

void kp_calls_release(kp_calls *r) {
    if (!r)
        return;
    if (r->n.linked)
        r->released = true;  /* its calls stay in the report until the next recording */
    else
        free_record(r);
}

void kp_calls_link(kp_calls *r) {
    r->n.linked = true;
    r->next = recorded;
    recorded = r;
}

/* Uniform in [1, 2 * KP_SAMPLE_EVERY - 1], so one call in KP_SAMPLE_EVERY on
 * average, at positions no periodic pattern of calls can line up with. */
static uint64_t sample_gap(void) {
    gap_state ^= gap_state << 13;
    gap_state ^= gap_state >> 7;
    gap_state ^= gap_state << 17;
    return 1 + gap_state % (2 * KP_SAMPLE_EVERY - 1);
}

void kp_call_timed(kp_calls *r, uint64_t ticks) {
    struct kp_call_counts *n = &r->n;
    if (!n->linked)
        kp_calls_link(r);
    /* far over a short function's mean: interrupted, most likely, so it
     * stands only for itself (profiler.h) */
    bool interrupted = ticks > short_call_ticks && n->timed > 0 &&
                       ticks / KP_INTERRUPTED_FACTOR > n->timed_ticks / n->timed;
    n->timed++;
    n->timed_ticks += ticks;
    if (n->sampling && !interrupted) {
        n->samples++;
        n->sample_ticks += ticks;
    }
    /* Sample only once the first calls show the function short on average,
     * and only while each timed call is short too: after a long call (bigger
     * arguments?) calls are timed one by one until one is short again. */
    n->sampling = n->timed >= KP_EXACT_CALLS && ticks < short_call_ticks &&
                  n->timed_ticks / n->timed < short_call_ticks;
    n->next_timed = n->calls + (n->sampling ? sample_gap() : 1) - 1;
}

double kp_calls_ns(const kp_calls *r, bool *estimated) {
    const struct kp_call_counts *n = &r->n;
    double ticks = (double)n->timed_ticks;
    uint64_t skipped = n->calls - n->timed;
    *estimated = skipped > 0 && n->timed > 0;
    if (*estimated) {
        /* the calls between samples, at the samples' mean (the first calls'
         * mean while the first gap runs) */
        double mean = n->samples ? (double)n->sample_ticks / (double)n->samples
                                 : (double)n->timed_ticks / (double)n->timed;
        ticks += (double)skipped * mean;
    }
    /* every call's ticks, measured or estimated, include one clock overhead
     * (the sum of what is left stays unbiased: no single call is clipped) */
    double clock = (double)n->calls * (double)kp_ticks_overhead();
    return kp_ticks_to_ns(ticks > clock ? (uint64_t)(ticks - clock + 0.5) : 0);
}

/* A new recording: the last one's records start again from zero. */
static void start_recording(void) {
    kp_calls *r = recorded;
    recorded = NULL;
    while (r) {
        kp_calls *next = r->next;
        if (r->released)
            free_record(r);
        else
            r->n = (struct kp_call_counts){0};
        r = next;
    }
    if (!short_call_ticks)
        short_call_ticks = kp_ns_to_ticks(KP_SHORT_CALL_NS);
}

static int switch_count(int *count, int on) {
    if (!on && *count == 0)
        return -1;
    *count += on ? 1 : -1;
    kp_calls_mode_now = recorders <= 0 ? KP_CALLS_OFF : untimers > 0 ? KP_CALLS_UNTIMED : KP_CALLS_TIMED;
    return *count;
}

int kp_record_calls(int on) {
    if (on && recorders == 0)
        start_recording();
    return switch_count(&recorders, on);
}

int kp_untime_calls(int on) { return switch_count(&untimers, on); }

int kp_calls_each(int (*visit)(const kp_calls *record, void *ctx), void *ctx) {
    for (const kp_calls *r = recorded; r; r = r->next) {
        int stop = visit(r, ctx);
        if (stop)
            return stop;
    }
    return 0;
}
