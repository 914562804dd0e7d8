/* Fiber switching (gpu/fiber.h): x86-64 System V, in assembly. */
#include "gpu/fiber.h"

#include <stdint.h>

#if defined(__x86_64__)

/* kiln_fiber_jump(void **save_sp, void *load_sp): pushes the callee-saved
 * registers and MXCSR / the x87 control word, saves the stack pointer,
 * loads the other and pops the same from it. A new fiber's stack is laid
 * out as if it had called this, returning into kiln_fiber_entry. */
__asm__(".text\n"
        ".p2align 4\n"
        ".type kiln_fiber_jump,@function\n"
        "kiln_fiber_jump:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size kiln_fiber_jump, .-kiln_fiber_jump\n"
        /* the first return of a new fiber: start (r12) of arg (r13) */
        ".p2align 4\n"
        ".type kiln_fiber_entry,@function\n"
        "kiln_fiber_entry:\n"
        "  movq %r13, %rdi\n"
        "  callq *%r12\n"
        "  ud2\n"
        ".size kiln_fiber_entry, .-kiln_fiber_entry\n");

void kiln_fiber_jump(void **save_sp, void *load_sp);
void kiln_fiber_entry(void);

void kg_fiber_init(kg_fiber *f, char *stack, size_t size, void (*start)(void *), void *arg) {
    /* From the bottom: control words, r15, r14, r13, r12, rbx, rbp, return
     * address; 16-byte aligned, so that the entry's call finds rsp aligned. */
    uint64_t *sp = (uint64_t *)(((uintptr_t)(stack + size) & ~(uintptr_t)15) - 80);
    uint32_t mxcsr;
    uint16_t fpu_control;
    __asm__ volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(mxcsr), "=m"(fpu_control));
    sp[0] = mxcsr | (uint64_t)fpu_control << 32;
    sp[1] = sp[2] = sp[5] = sp[6] = 0;               /* r15, r14, rbx, rbp */
    sp[3] = (uint64_t)(uintptr_t)arg;                /* r13 */
    sp[4] = (uint64_t)(uintptr_t)start;              /* r12 */
    sp[7] = (uint64_t)(uintptr_t)kiln_fiber_entry;   /* return address */
    f->sp = sp;
}

void kg_fiber_switch(kg_fiber *from, kg_fiber *to) {
    kiln_fiber_jump(&from->sp, to->sp);
}

#else
#error "gpu/fiber.c switches fibers on x86-64 only: add this machine's kiln_fiber_jump"
#endif
