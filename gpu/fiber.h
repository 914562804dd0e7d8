/* gpu/fiber: the simulator's threads as fibers, switched by a few
 * instructions. glibc's swapcontext makes a system call (the signal mask)
 * at every switch, about a microsecond: too slow for a simulator that
 * switches threads at every racy memory access (sim_races.c), millions of
 * times in a course's kernel. Only what the C calling convention asks a
 * callee to keep is saved: callee-saved registers and the float control
 * words. AddressSanitizer is not told of the switches: the sanitizer
 * suites run no simulated kernel (a suite that does must add
 * __sanitizer_start_switch_fiber and its twin around the jump). */
#ifndef KILN_GPU_FIBER_H
#define KILN_GPU_FIBER_H

#include <stddef.h>

typedef struct {
    void *sp;              /* its saved stack pointer, while it is not running */
} kg_fiber;

/* Readies f to run start(arg) on [stack, stack + size) when first switched
 * to. start must never return: it ends by switching away for good. */
void kg_fiber_init(kg_fiber *f, char *stack, size_t size, void (*start)(void *), void *arg);

/* Saves the running code's place in from and resumes to. */
void kg_fiber_switch(kg_fiber *from, kg_fiber *to);

#endif
