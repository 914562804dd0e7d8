/* kiln-kernel's entry point (placeholder until the kernel lands). */
#include <stdio.h>

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "kiln-kernel: not built yet\n");
    return 1;
}
