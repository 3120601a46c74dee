//go:build cgo

// checks.c: the verification that runs inside the kernels while -check
// calls them (the one-sided window, Exchange's left message); the kernels
// call it, and it calls nothing of theirs.
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


// rma_roles says whether this rank was the target and the origin of a
// one-sided check call: rank 0 (lower) is the origin, rank 1 the target;
// bi-directional bandwidth and PSCW or fence latency go both ways.
static void rma_roles(gomb_job *j, int lower, int *target, int *origin) {
    int both = j->rma.kind == GOMB_RMA_BIBW ||
               (j->rma.kind == GOMB_RMA_LAT &&
                (j->rma.sync_mode == GOMB_SYNC_PSCW || j->rma.sync_mode == GOMB_SYNC_FENCE));
    *target = !lower || both;
    *origin = lower || both;
}

// keep adds what a kernel-time verification found to the job's check tally.
static void keep(gomb_job *j, const tally *t) {
    j->check_bad += t->bad;
    if (t->bad && j->check_first < 0) {
        j->check_first = t->first;
        j->check_got = t->got;
        j->check_want = t->want;
    }
}

void gomb_rma_prepare(gomb_job *j, char *base, size_t span) {
    int me = j->rank, it = j->check_iter;
    size_t esz = (size_t)gomb_dtype_size(j->dtype);
    if (rma_typed(j->rma.op)) {
        for (size_t e = 0; e < span / esz; e++) store(base, j->dtype, e, val(me + 3, e, it));
    } else {
        for (size_t x = 0; x < span; x++) ((unsigned char *)base)[x] = pat(me, x, it);
    }
}

void gomb_rma_verify(gomb_job *j, char *base, size_t span, int peer, int lower) {
    tally t = {0, -1, 0, 0, 0};
    int it = j->check_iter, dt = j->dtype, target, origin;
    size_t esz = (size_t)gomb_dtype_size(dt), ne = span / esz;
    rma_roles(j, lower, &target, &origin);
    if (gomb_fault_corrupt && span > 0) ((unsigned char *)(target ? base : j->sbuf))[0] ^= 0xff;
    switch (j->rma.op) {
    case GOMB_RMA_PUT:
        if (target) expect_bytes(&t, base, span, peer, 0, it);
        break;
    case GOMB_RMA_GET:
        if (origin) expect_bytes(&t, j->sbuf, span, peer, 0, it);
        break;
    case GOMB_RMA_CAS:
        // the compare value matched the target's: the origin's value is swapped in
        if (target && ne > 0) {
            double g = load(base, dt, 0), w = as_type(dt, val(peer, 0, it));
            t.pos++;
            if (g != w) miss(&t, g, w);
        }
        if (origin && ne > 0) {
            double g = load(j->sbuf + span, dt, 0), w = as_type(dt, val(peer + 3, 0, it));
            t.pos++;
            if (g != w) miss(&t, g, w);
        }
        break;
    default: // accumulate, get_accumulate, fetch_and_op: SUM into the target
        if (target)
            for (size_t e = 0; e < ne; e++, t.pos++) {
                double g = load(base, dt, e), w = as_type(dt, val(j->rank + 3, e, it) + val(peer, e, it));
                if (g != w) miss(&t, g, w);
            }
        if (origin && j->rma.op != GOMB_RMA_ACC)
            for (size_t e = 0; e < ne; e++, t.pos++) {
                double g = load(j->sbuf + span, dt, e), w = as_type(dt, val(peer + 3, e, it));
                if (g != w) miss(&t, g, w);
            }
        break;
    }
    keep(j, &t);
}

// gomb_exchange_verify checks, inside the Exchange kernel, the message from
// the left neighbour before the one from the right overwrites it.
void gomb_exchange_verify(gomb_job *j, const char *rbuf, int left) {
    tally t = {0, -1, 0, 0, 0};
    size_t B = (size_t)j->count_c * (size_t)gomb_dtype_size(j->dtype);
    expect_bytes(&t, rbuf, B, left, 0, j->check_iter);
    keep(j, &t);
}

