/* kiln-kernel: `kiln-kernel -f CONNECTION_FILE` (how Jupyter starts it), `kiln-kernel install`,
 * `kiln-kernel --sysinfo`, `kiln-kernel --version`. The first and third go on in
 * /usr/bin/python3 (kernel/launch.c). */
#include "kernel/kernel.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out) {
    fprintf(out,
            "usage: kiln-kernel -f CONNECTION_FILE     run as a Jupyter kernel\n"
            "       kiln-kernel install [--user | --prefix DIR | --sys-prefix]\n"
            "                                           install the \"kiln\" kernelspec\n"
            "       kiln-kernel --sysinfo               describe this machine for Kiln\n"
            "       kiln-kernel --version               print Kiln's version\n");
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "install") == 0) return kn_install_main(argc - 1, argv + 1);
    if (argc == 2 && strcmp(argv[1], "--sysinfo") == 0) return kn_launch("--sysinfo", NULL);
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("kiln-kernel %s\n", KILN_VERSION);
        return 0;
    }
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "-f") == 0) return kn_launch("-f", argv[2]);
    if (argc == 2 && strncmp(argv[1], "--f=", 4) == 0) return kn_launch("-f", argv[1] + 4);
    usage(stderr);
    return 2;
}
