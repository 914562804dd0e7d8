/* kj_module_has_loops, which picks the code generator (jit/engine/engine.c): a
 * loop-free module takes the fast path, so a loop it missed would compile
 * a loop without the vectorizer. Each case is IR text of the shape Kiln
 * emits: a shared cleanup block that many earlier-placed blocks jump to
 * is not a loop, a back edge anywhere is. */
#include <llvm-c/IRReader.h>
#include <stdbool.h>
#include <string.h>

#include "jit/lower/cfg_loops.h"

#include "tests/c/check.h"

static int has_loops(LLVMContextRef ctx, const char *ir) {
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "case");
    LLVMModuleRef mod = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {   /* takes buf */
        fprintf(stderr, "bad test IR: %s\n", msg);
        LLVMDisposeMessage(msg);
        return -1;
    }
    int found = kj_module_has_loops(mod);
    LLVMDisposeModule(mod);
    return found;
}

/* if/else joined, with an error exit to a block placed before both arms */
static const char diamond[] =
    "define i32 @f(i1 %c, i1 %bad) {\n"
    "entry:\n  br i1 %bad, label %cleanup, label %test\n"
    "cleanup:\n  %s = phi i32 [ 1, %entry ], [ 1, %then ], [ 0, %join ]\n  ret i32 %s\n"
    "test:\n  br i1 %c, label %then, label %else\n"
    "then:\n  br i1 %bad, label %cleanup, label %join\n"
    "else:\n  br label %join\n"
    "join:\n  br label %cleanup\n"
    "}\n";

/* a counted loop whose latch sits after its exit block */
static const char counted[] =
    "define void @f(i64 %n) {\n"
    "entry:\n  br label %cond\n"
    "cond:\n  %i = phi i64 [ 0, %entry ], [ %next, %latch ]\n"
    "  %more = icmp slt i64 %i, %n\n  br i1 %more, label %latch, label %done\n"
    "done:\n  ret void\n"
    "latch:\n  %next = add i64 %i, 1\n  br label %cond\n"
    "}\n";

/* a block that branches to itself */
static const char self_loop[] =
    "define void @f(i64 %n) {\n"
    "entry:\n  br label %spin\n"
    "spin:\n  %i = phi i64 [ 0, %entry ], [ %next, %spin ]\n  %next = add i64 %i, 1\n"
    "  %more = icmp slt i64 %next, %n\n  br i1 %more, label %spin, label %done\n"
    "done:\n  ret void\n"
    "}\n";

/* straight code calling a declared function, then a second function that
 * loops: any function's loop counts */
static const char second_function[] =
    "declare double @sqrt(double)\n"
    "define double @g(double %x) {\n  %r = call double @sqrt(double %x)\n  ret double %r\n}\n"
    "define void @h(i1 %c) {\n"
    "entry:\n  br label %body\n"
    "body:\n  br i1 %c, label %body, label %out\n"
    "out:\n  ret void\n"
    "}\n";

/* a loop that only an unreachable block closes is never run: no loop */
static const char unreachable_cycle[] =
    "define void @f() {\n"
    "entry:\n  ret void\n"
    "dead:\n  br label %dead2\n"
    "dead2:\n  br label %dead\n"
    "}\n";

/* a switch fanning out to many blocks that meet again: wide, no cycle */
static const char switch_fan[] =
    "define i32 @f(i32 %k) {\n"
    "entry:\n  switch i32 %k, label %d [ i32 0, label %a i32 1, label %b i32 2, label %c ]\n"
    "a:\n  br label %d\n"
    "b:\n  br label %d\n"
    "c:\n  br label %a\n"
    "d:\n  %r = phi i32 [ 0, %entry ], [ 1, %a ], [ 2, %b ]\n  ret i32 %r\n"
    "}\n";

int main(void) {
    LLVMContextRef ctx = LLVMContextCreate();
    CHECK(has_loops(ctx, diamond) == 0);
    CHECK(has_loops(ctx, counted) == 1);
    CHECK(has_loops(ctx, self_loop) == 1);
    CHECK(has_loops(ctx, second_function) == 1);
    CHECK(has_loops(ctx, unreachable_cycle) == 0);
    CHECK(has_loops(ctx, switch_fan) == 0);
    LLVMContextDispose(ctx);
    return check_exit_status();
}
