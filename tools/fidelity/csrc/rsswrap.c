/* rsswrap.c: run a command and report its peak resident set size.
 *
 * usage: rsswrap OUTDIR command [args...]
 * Appends the child's ru_maxrss in KiB to OUTDIR/rss.<rank>, one line per
 * run; the rank comes from the launcher's environment (Open MPI, MPICH's
 * Hydra, Slurm). Exits with the
 * child's status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;

/* forward: a signal the launcher forwards (SIGINT ends mpi-comm-bench) goes
 * on to the program, and the wrapper still reports its RSS. */
static void forward(int sig) {
    if (child > 0) kill(child, sig);
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
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) return 1;
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!rank) rank = getenv("PMI_RANK");
    if (!rank) rank = getenv("SLURM_PROCID");
    if (!rank) rank = "0";
    char path[4096];
    snprintf(path, sizeof path, "%s/rss.%s", argv[1], rank);
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%ld\n", ru.ru_maxrss);
        fclose(f);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
