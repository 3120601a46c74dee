//go:build cgo

// checks.c: what every check shares: the fault tests inject and the log
// of wrong elements (OSU's -c log:DIR). Each suite's verifier sits beside
// its kernels (validate.c holds the two-sided and collective shapes).
#include "pattern.h"

#include <stdlib.h>

int gomb_fault_corrupt;

void gomb_set_fault_corrupt(int on) { gomb_fault_corrupt = on; }

gomb_vlog_t gomb_vlog;

// gomb_vlog_enable keeps up to cap wrong elements of the checks (0: none).
int gomb_vlog_enable(long cap) {
    free(gomb_vlog.pos);
    free(gomb_vlog.got);
    free(gomb_vlog.want);
    gomb_vlog = (gomb_vlog_t){0};
    if (cap <= 0) return MPI_SUCCESS;
    gomb_vlog.pos = malloc((size_t)cap * sizeof(long));
    gomb_vlog.got = malloc((size_t)cap * sizeof(double));
    gomb_vlog.want = malloc((size_t)cap * sizeof(double));
    if (!gomb_vlog.pos || !gomb_vlog.got || !gomb_vlog.want) {
        gomb_vlog_enable(0);
        return MPI_ERR_NO_MEM;
    }
    gomb_vlog.cap = cap;
    return MPI_SUCCESS;
}

// gomb_vlog_take copies out the wrong elements kept since the last take
// (at most max) and forgets them; *dropped: those past the cap.
long gomb_vlog_take(long *pos, double *got, double *want, long max, long *dropped) {
    long n = gomb_vlog.n < max ? gomb_vlog.n : max;
    for (long i = 0; i < n; i++) {
        pos[i] = gomb_vlog.pos[i];
        got[i] = gomb_vlog.got[i];
        want[i] = gomb_vlog.want[i];
    }
    *dropped = gomb_vlog.dropped + (gomb_vlog.n - n);
    gomb_vlog.n = gomb_vlog.dropped = 0;
    return n;
}

