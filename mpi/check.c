//go:build cgo

// check.c: run-time validation (gomb imb -check).
//
// One untimed call of the kernel with known data: every sender writes a
// pattern that depends on its rank, the byte position in its send buffer and
// the check iteration; every receiver compares what arrived with what the
// senders must have written. Reductions use small integers, exact in every
// element type, and compare element by element.
#include "gomb.h"

#include <string.h>

MPI_Datatype gomb_mpi_dtype(int dtype);

static int fault_corrupt;

void gomb_set_fault_corrupt(int on) { fault_corrupt = on; }

static inline unsigned char pat(int r, size_t x, int it) {
    return (unsigned char)((unsigned)(r + 1) * 131u + (unsigned)x * 7u + (unsigned)(x >> 8) * 3u +
                           (unsigned)it * 29u);
}

static inline long val(int r, size_t e, int it) { return (long)((r + e + (size_t)it) % 5 + 1); }

static void store(char *buf, int dtype, size_t e, long v) {
    switch (dtype) {
    case GOMB_DT_CHAR: ((char *)buf)[e] = (char)v; break;
    case GOMB_DT_INT: ((int *)buf)[e] = (int)v; break;
    case GOMB_DT_FLOAT: ((float *)buf)[e] = (float)v; break;
    case GOMB_DT_DOUBLE: ((double *)buf)[e] = (double)v; break;
    default: ((unsigned char *)buf)[e] = (unsigned char)v; break;
    }
}

static double load(const char *buf, int dtype, size_t e) {
    switch (dtype) {
    case GOMB_DT_CHAR: return (double)((const char *)buf)[e];
    case GOMB_DT_INT: return (double)((const int *)buf)[e];
    case GOMB_DT_FLOAT: return (double)((const float *)buf)[e];
    case GOMB_DT_DOUBLE: return ((const double *)buf)[e];
    default: return (double)((const unsigned char *)buf)[e];
    }
}

// as_type gives the value v takes once stored in the element type (a sum of
// many small values wraps in a char).
static double as_type(int dtype, long v) {
    switch (dtype) {
    case GOMB_DT_CHAR: return (double)(char)v;
    case GOMB_DT_BYTE: return (double)(unsigned char)v;
    default: return (double)v;
    }
}

typedef struct {
    long bad, first;
    double got, want;
    long pos; /* running element index over all compared regions */
} tally;

static void miss(tally *t, double got, double want) {
    if (t->bad == 0) {
        t->first = t->pos;
        t->got = got;
        t->want = want;
    }
    t->bad++;
}

// expect_bytes compares len bytes at buf with the pattern sender src wrote at
// offset off of its send buffer.
static void expect_bytes(tally *t, const char *buf, size_t len, int src, size_t off, int it) {
    const unsigned char *b = (const unsigned char *)buf;
    for (size_t x = 0; x < len; x++, t->pos++) {
        unsigned char w = pat(src, off + x, it);
        if (b[x] != w) miss(t, b[x], w);
    }
}

// expect_sum compares count elements at buf with the sum over all np
// senders of the values they put at element offset off + e.
static void expect_sum(tally *t, const char *buf, int dtype, size_t count, int np, size_t off,
                       int it) {
    for (size_t e = 0; e < count; e++, t->pos++) {
        long s = 0;
        for (int r = 0; r < np; r++) s += val(r, off + e, it);
        double w = as_type(dtype, s), g = load(buf, dtype, e);
        if (g != w) miss(t, g, w);
    }
}

static int is_reduction(int k) {
    return k == GOMB_K_REDUCE || k == GOMB_K_REDUCE_LOCAL || k == GOMB_K_REDUCE_SCATTER ||
           k == GOMB_K_REDUCE_SCATTER_BLOCK || k == GOMB_K_ALLREDUCE;
}

int gomb_check(gomb_job *j, int iter, long *bad, long *first_bad, double *got, double *want) {
    tally t = {0, -1, 0, 0, 0};
    *bad = 0;
    *first_bad = -1;
    *got = *want = 0;
    if (j->comm == MPI_COMM_NULL) return MPI_SUCCESS;

    int me = j->rank, np = j->np, k = j->kernel, dt = j->dtype;
    size_t esz = (size_t)gomb_dtype_size(dt);
    size_t cnt = (size_t)j->count, B = cnt * esz;
    int root = j->root_shift ? iter % np : 0;

    /* send data: the pattern (or values) over the whole send buffer */
    if (is_reduction(k)) {
        size_t ne = j->s_cap / esz;
        for (size_t e = 0; e < ne; e++) store(j->sbuf, dt, e, val(me, e, iter));
        if (k == GOMB_K_REDUCE_LOCAL) {
            for (size_t e = 0; e < cnt; e++) store(j->rbuf, dt, e, val(me + 7, e, iter));
        } else {
            memset(j->rbuf, iter & 1 ? 0x5a : 0xa5, j->r_cap);
        }
    } else {
        for (size_t x = 0; x < j->s_cap; x++) ((unsigned char *)j->sbuf)[x] = pat(me, x, iter);
        memset(j->rbuf, iter & 1 ? 0x5a : 0xa5, j->r_cap);
    }

    /* one call, untimed: no off_cache cycling, no samples */
    gomb_job c = *j;
    c.n = 1;
    c.record = 0;
    c.s_cache_iter = c.r_cache_iter = 1;
    c.s_offs = c.r_offs = 0;
    c.root = root;
    c.root_shift = 0;
    int rc = MPI_Barrier(j->comm);
    if (rc == MPI_SUCCESS) rc = gomb_run(&c);
    if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->comm);
    if (rc != MPI_SUCCESS) return rc;

    int pair0 = 0, pair1 = np - 1, left = (me - 1 + np) % np, right = (me + 1) % np;
    int half = np / 2;
    int receives = 0; /* does this rank have anything to verify? */
    switch (k) {
    case GOMB_K_PINGPONG:
    case GOMB_K_PINGPING:
        receives = (me == pair0 || me == pair1) && B > 0;
        break;
    case GOMB_K_UNIBAND: receives = me >= half && me < 2 * half && B > 0; break;
    case GOMB_K_BIBAND: receives = me < 2 * half && B > 0; break;
    case GOMB_K_BARRIER: receives = 0; break;
    case GOMB_K_BCAST: receives = me != root && B > 0; break;
    case GOMB_K_GATHER:
    case GOMB_K_GATHERV:
    case GOMB_K_REDUCE: receives = me == root && B > 0; break;
    default: receives = B > 0; break;
    }
    if (receives && fault_corrupt) ((unsigned char *)j->rbuf)[0] ^= 0xff;
    if (!receives) return MPI_SUCCESS;

    switch (k) {
    case GOMB_K_PINGPONG:
    case GOMB_K_PINGPING:
        expect_bytes(&t, j->rbuf, B, me == pair0 ? pair1 : pair0, 0, iter);
        break;
    case GOMB_K_SENDRECV: expect_bytes(&t, j->rbuf, B, left, 0, iter); break;
    case GOMB_K_EXCHANGE:
        expect_bytes(&t, j->rbuf, B, left, 0, iter);
        expect_bytes(&t, j->rbuf + B, B, right, B, iter);
        break;
    case GOMB_K_UNIBAND:
    case GOMB_K_BIBAND:
        expect_bytes(&t, j->rbuf, B, me < half ? me + half : me - half, 0, iter);
        break;
    case GOMB_K_BCAST: expect_bytes(&t, j->rbuf, B, root, 0, iter); break;
    case GOMB_K_SCATTER:
    case GOMB_K_SCATTERV: expect_bytes(&t, j->rbuf, B, root, (size_t)me * B, iter); break;
    case GOMB_K_GATHER:
    case GOMB_K_GATHERV:
    case GOMB_K_ALLGATHER:
    case GOMB_K_ALLGATHERV:
        for (int s = 0; s < np; s++) expect_bytes(&t, j->rbuf + (size_t)s * B, B, s, 0, iter);
        break;
    case GOMB_K_ALLTOALL:
    case GOMB_K_ALLTOALLV:
        for (int s = 0; s < np; s++)
            expect_bytes(&t, j->rbuf + (size_t)s * B, B, s, (size_t)me * B, iter);
        break;
    case GOMB_K_REDUCE:
    case GOMB_K_ALLREDUCE: expect_sum(&t, j->rbuf, dt, cnt, np, 0, iter); break;
    case GOMB_K_REDUCE_SCATTER:
    case GOMB_K_REDUCE_SCATTER_BLOCK:
        expect_sum(&t, j->rbuf, dt, cnt, np, (size_t)me * cnt, iter);
        break;
    case GOMB_K_REDUCE_LOCAL:
        for (size_t e = 0; e < cnt; e++, t.pos++) {
            double w = as_type(dt, val(me, e, iter) + val(me + 7, e, iter));
            double g = load(j->rbuf, dt, e);
            if (g != w) miss(&t, g, w);
        }
        break;
    default: break;
    }
    *bad = t.bad;
    *first_bad = t.first;
    *got = t.got;
    *want = t.want;
    return MPI_SUCCESS;
}
