/* rsswrap.c: run a command and report its peak memory.
 *
 * usage: rsswrap OUTDIR command [args...]
 * Appends to OUTDIR/rss.<rank> one line per run: the child's peak resident
 * set (ru_maxrss), and the peaks of its private memory (USS: Private_Clean
 * + Private_Dirty) and proportional set (PSS) sampled every 100 ms from
 * /proc/PID/smaps_rollup, all in KiB. RSS counts the pages of the program
 * file and its libraries that every rank of a node shares through the
 * page cache; USS is what each further rank adds. The rank comes from the
 * launcher's environment (Open MPI, MPICH's Hydra, Slurm). Exits with the
 * child's status. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t child;

/* forward: a signal the launcher forwards (SIGINT ends mpi-comm-bench) goes
 * on to the program, and the wrapper still reports its memory. */
static void forward(int sig) {
    if (child > 0) kill(child, sig);
}

/* sample reads the child's PSS and USS (KiB) and keeps their peaks. */
static void sample(pid_t pid, long *pss, long *uss) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return;
    long p = 0, u = 0, v;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "Pss: %ld", &v) == 1) p = v;
        else if (sscanf(line, "Private_Clean: %ld", &v) == 1) u += v;
        else if (sscanf(line, "Private_Dirty: %ld", &v) == 1) u += v;
    }
    fclose(f);
    if (p > *pss) *pss = p;
    if (u > *uss) *uss = u;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: rsswrap OUTDIR command [args...]\n");
        return 2;
    }
    signal(SIGINT, forward); /* exec gives the program the default actions back */
    signal(SIGTERM, forward);
    pid_t pid = fork();
    if (pid < 0) return 1;
    child = pid;
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("rsswrap: exec");
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    long pss = 0, uss = 0;
    struct timespec tick = {0, 100 * 1000 * 1000};
    for (;;) {
        pid_t got = wait4(pid, &status, WNOHANG, &ru);
        if (got == pid) break;
        if (got < 0 && errno != EINTR) return 1;
        sample(pid, &pss, &uss);
        nanosleep(&tick, NULL);
    }
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!rank) rank = getenv("PMI_RANK");
    if (!rank) rank = getenv("SLURM_PROCID");
    if (!rank) rank = "0";
    char path[4096];
    snprintf(path, sizeof path, "%s/rss.%s", argv[1], rank);
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%ld %ld %ld\n", ru.ru_maxrss, pss, uss);
        fclose(f);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
