//go:build cgo

// ompenv.c: OMP_NUM_THREADS read before libgomp reads it.
//
// libgomp (linked for IMB-MT's OpenMP teams, imb_mt.c) parses
// OMP_NUM_THREADS in its constructor, when the program is loaded: a value
// it refuses ("abc", "0", "4x") makes it print "libgomp: Invalid value for
// environment variable OMP_NUM_THREADS" from every rank of every gomb
// command, before gomb runs a line of its own. The executable's
// preinit_array runs before any shared library's constructor: there a
// value libgomp would refuse is renamed, in place, GOMB_OMPTHREADS
// (the same length), so that libgomp does not see it and gomb imb-mt
// says what is wrong with it (internal/bench/mt's checkThreads).
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

// omp_list_ok says whether libgomp takes s as OMP_NUM_THREADS: positive
// whole numbers separated by commas, blanks about each.
static int omp_list_ok(const char *s) {
    for (;;) {
        while (isspace((unsigned char)*s)) s++;
        if (!isdigit((unsigned char)*s)) return 0;
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (v == 0 || v > 0x7fffffffUL) return 0;
        s = end;
        while (isspace((unsigned char)*s)) s++;
        if (*s == '\0') return 1;
        if (*s++ != ',') return 0;
    }
}

static void gomb_omp_env(int argc, char **argv, char **envp) {
    static const char name[] = "OMP_NUM_THREADS=";
    (void)argc;
    (void)argv;
    for (char **e = envp; e && *e; e++) {
        if (strncmp(*e, name, sizeof name - 1) == 0 && !omp_list_ok(*e + sizeof name - 1)) {
            memcpy(*e, "GOMB_OMPTHREADS", sizeof name - 2);
        }
    }
}

__attribute__((section(".preinit_array"), used)) static void (*gomb_omp_env_p)(int, char **, char **) = gomb_omp_env;
