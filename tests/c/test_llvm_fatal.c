/* An LLVM fatal error (report_fatal_error: here instruction selection
 * meeting a GPU intrinsic in host code) ends the process, as LLVM must; it
 * never does so without a word: Kiln's handler (jit/engine/engine.c) says what
 * happened and that it is Kiln's bug. Run in a child, whose stderr and exit
 * status the parent checks. */
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jit/engine/engine.h"

#include "tests/c/check.h"

static const char gpu_in_host_code[] =
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "define i32 @f() {\n  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  ret i32 %t\n}\n";

static void emit_for_host(void) {
    kj_llvm_init();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(gpu_in_host_code, strlen(gpu_in_host_code), "case");
    LLVMModuleRef mod = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(ctx, buf, &mod, &msg))
        _exit(3);
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    if (LLVMGetTargetFromTriple(triple, &target, &msg))
        _exit(4);
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, "", "", LLVMCodeGenLevelDefault,
                                                      LLVMRelocDefault, LLVMCodeModelDefault);
    LLVMMemoryBufferRef obj = NULL;
    LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &obj);
    _exit(5);   /* not reached: selection fails */
}

int main(void) {
    int err[2];
    CHECK(pipe(err) == 0);
    pid_t child = fork();
    if (child == 0) {
        dup2(err[1], 2);
        emit_for_host();
    }
    close(err[1]);
    char out[4096];
    size_t n = 0;
    ssize_t got;
    while (n < sizeof out - 1 && (got = read(err[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)got;
    out[n] = 0;
    int status = 0;
    waitpid(child, &status, 0);
    /* LLVM exits or aborts after the handler; the child's own codes 3-5 mean the case went wrong */
    CHECK(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) < 3));
    CHECK(strstr(out, "kiln: LLVM stopped with a fatal error") != NULL);
    CHECK(strstr(out, "Cannot select") != NULL);
    CHECK(strstr(out, "this is a bug in Kiln, not in your code") != NULL);
    if (failures)
        fprintf(stderr, "the child's stderr:\n%s\n", out);
    return check_exit_status();
}
