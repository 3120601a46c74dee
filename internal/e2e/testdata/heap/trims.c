/* trims.c: an LD_PRELOAD shim for TestHeapNeverTrims. It counts how often
 * free() gives the main heap's top back to the kernel (the program break
 * moves down), and at exit writes the count to $GOMB_TRIMS_DIR/<pid> when
 * the program is gomb. A timed loop whose MPI's temporaries are trimmed
 * and faulted in again on every call counts about one per iteration. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void __libc_free(void *);

static long trims;

/* The program break, read by the system call itself (brk(0) moves
 * nothing and returns it), not by sbrk(0): UCX's memory hooks, under
 * MPICH's UCX netmod, replace sbrk, and with sbrk here 2 MPICH jobs of
 * 150 (a core busy) died of a SIGSEGV at a heap address in
 * Reduce_scatter_block at 64 KiB; with the system call 0 of 300, and 0
 * of 200 without the shim. */
static char *brk_now(void) { return (char *)syscall(SYS_brk, 0); }

void free(void *p) {
    char *before = brk_now();
    __libc_free(p);
    if (brk_now() < before) trims++;
}

__attribute__((destructor)) static void report(void) {
    const char *dir = getenv("GOMB_TRIMS_DIR");
    if (!dir || strncmp(program_invocation_short_name, "gomb", 4) != 0) return;
    char path[4096], line[64];
    snprintf(path, sizeof path, "%s/%d", dir, (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    int n = snprintf(line, sizeof line, "%ld\n", trims);
    if (write(fd, line, n) != n) errno = 0;
    close(fd);
}
