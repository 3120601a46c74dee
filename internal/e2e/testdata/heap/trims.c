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
#include <unistd.h>

extern void __libc_free(void *);

static long trims;

void free(void *p) {
    char *before = sbrk(0);
    __libc_free(p);
    if ((char *)sbrk(0) < before) trims++;
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
