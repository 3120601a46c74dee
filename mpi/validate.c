//go:build cgo

// validate.c: run-time validation (gomb imb -check).
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
    case GOMB_DT_LONG_LONG: ((long long *)buf)[e] = (long long)v; break;
    default: ((unsigned char *)buf)[e] = (unsigned char)v; break;
    }
}

static double load(const char *buf, int dtype, size_t e) {
    switch (dtype) {
    case GOMB_DT_CHAR: return (double)((const char *)buf)[e];
    case GOMB_DT_INT: return (double)((const int *)buf)[e];
    case GOMB_DT_FLOAT: return (double)((const float *)buf)[e];
    case GOMB_DT_DOUBLE: return ((const double *)buf)[e];
    case GOMB_DT_LONG_LONG: return (double)((const long long *)buf)[e];
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

static int rma_typed(int op) { return op != GOMB_RMA_PUT && op != GOMB_RMA_GET; }

// rma_roles says whether this rank was the target and the origin of a
// one-sided check call: rank 0 (lower) is the origin, rank 1 the target;
// bi-directional bandwidth and PSCW or fence latency go both ways.
static void rma_roles(gomb_job *j, int lower, int *target, int *origin) {
    int both = j->rma_kind == GOMB_RMA_BIBW ||
               (j->rma_kind == GOMB_RMA_LAT &&
                (j->sync_mode == GOMB_SYNC_PSCW || j->sync_mode == GOMB_SYNC_FENCE));
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
    if (rma_typed(j->rma_op)) {
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
    if (fault_corrupt && span > 0) ((unsigned char *)(target ? base : j->sbuf))[0] ^= 0xff;
    switch (j->rma_op) {
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
        if (origin && j->rma_op != GOMB_RMA_ACC)
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
    size_t B = (size_t)j->count * (size_t)gomb_dtype_size(j->dtype);
    expect_bytes(&t, rbuf, B, left, 0, j->check_iter);
    keep(j, &t);
}

// nbc_kernel maps a non-blocking collective to the blocking kernel whose
// data movement it has, for validation.
static int nbc_kernel(int op) {
    switch (op) {
    case GOMB_NBC_IBCAST: return GOMB_K_BCAST;
    case GOMB_NBC_IREDUCE: return GOMB_K_REDUCE;
    case GOMB_NBC_IALLREDUCE: return GOMB_K_ALLREDUCE;
    case GOMB_NBC_IGATHER: return GOMB_K_GATHER;
    case GOMB_NBC_ISCATTER: return GOMB_K_SCATTER;
    case GOMB_NBC_IALLGATHER: return GOMB_K_ALLGATHER;
    case GOMB_NBC_IALLTOALL: return GOMB_K_ALLTOALL;
    }
    return GOMB_K_BARRIER;
}

int gomb_validate(gomb_job *j, int iter, long *bad, long *first_bad, double *got, double *want) {
    tally t = {0, -1, 0, 0, 0};
    *bad = 0;
    *first_bad = -1;
    *got = *want = 0;
    if (j->comm == MPI_COMM_NULL) return MPI_SUCCESS;

    int me = j->rank, np = j->np, k = j->kernel, dt = j->dtype;
    size_t esz = (size_t)gomb_dtype_size(dt);
    size_t cnt = (size_t)j->count, B = cnt * esz;
    int root = j->root_shift ? iter % np : j->root;
    // what the data moves like: non-blocking collectives as their blocking twin
    int shape = k == GOMB_K_NBC ? nbc_kernel(j->nbc_op) : k;
    int typed = is_reduction(shape) || k == GOMB_K_REDUCE_SCATTER_SPLIT || (k == GOMB_K_RMA && rma_typed(j->rma_op));

    /* send data: the pattern (or values) over the whole send buffer */
    if (typed) {
        size_t ne = j->s_cap / esz;
        for (size_t e = 0; e < ne; e++) store(j->sbuf, dt, e, val(me, e, iter));
        if (k == GOMB_K_REDUCE_LOCAL) {
            for (size_t e = 0; e < cnt; e++) store(j->rbuf, dt, e, val(me + 7, e, iter));
        } else {
            memset(j->rbuf, iter & 1 ? 0x5a : 0xa5, j->r_cap);
        }
        if (k == GOMB_K_RMA && j->rma_op == GOMB_RMA_CAS && np == 2)
            store(j->sbuf + 2 * B, dt, 0, val(1 - me + 3, 0, iter)); // compare with the target's value
    } else {
        for (size_t x = 0; x < j->s_cap; x++) ((unsigned char *)j->sbuf)[x] = pat(me, x, iter);
        memset(j->rbuf, iter & 1 ? 0x5a : 0xa5, j->r_cap);
    }

    /* one call, untimed: no warm-up, no off_cache cycling, no samples */
    gomb_job c = *j;
    c.n = 1;
    c.skip = 0;
    c.record = 0;
    c.s_cache_iter = c.r_cache_iter = 1;
    c.s_offs = c.r_offs = 0;
    c.root = root;
    c.root_shift = 0;
    c.compute_s = 0;
    c.checking = 1;
    c.check_iter = iter;
    c.check_bad = 0;
    c.check_first = -1;
    int rc = MPI_Barrier(j->comm);
    if (rc == MPI_SUCCESS) rc = gomb_run(&c);
    if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->comm);
    if (rc != MPI_SUCCESS) return rc;
    if (k == GOMB_K_RMA) {
        *bad = c.check_bad;
        *first_bad = c.check_first;
        *got = c.check_got;
        *want = c.check_want;
        return MPI_SUCCESS;
    }

    int pair0 = 0, pair1 = np - 1, left = (me - 1 + np) % np, right = (me + 1) % np;
    int half = np / 2;
    int osu_peer = -1, osu_lower = 0; /* OSU kernels: 0 with 1, or i with i + np/2 */
    if (j->pairs) {
        if (me < 2 * half) {
            osu_lower = me < half;
            osu_peer = osu_lower ? me + half : me - half;
        }
    } else if (me <= 1 && np >= 2) {
        osu_lower = me == 0;
        osu_peer = 1 - me;
    }
    int receives = 0; /* does this rank have anything to verify? */
    switch (shape) {
    case GOMB_K_PINGPONG:
    case GOMB_K_PINGPING: receives = (me == pair0 || me == pair1) && B > 0; break;
    case GOMB_K_UNIBAND: receives = me >= half && me < 2 * half && B > 0; break;
    case GOMB_K_BIBAND: receives = me < 2 * half && B > 0; break;
    case GOMB_K_OSU_LATENCY:
    case GOMB_K_ONEWAY:
    case GOMB_K_OSU_BIBW: receives = osu_peer >= 0 && B > 0; break;
    case GOMB_K_OSU_BW: receives = osu_peer >= 0 && !osu_lower && B > 0; break;
    case GOMB_K_BARRIER:
    case GOMB_K_BARRIER_CALLS: receives = 0; break;
    case GOMB_K_BCAST: receives = me != root && B > 0; break;
    case GOMB_K_GATHER:
    case GOMB_K_GATHERV:
    case GOMB_K_REDUCE: receives = me == root && B > 0; break;
    default: receives = B > 0; break;
    }
    /* a non-blocking broadcast receives into the send buffer */
    char *rbuf = k == GOMB_K_NBC && shape == GOMB_K_BCAST ? j->sbuf : j->rbuf;
    if (receives && fault_corrupt) ((unsigned char *)rbuf)[0] ^= 0xff;
    if (!receives) return MPI_SUCCESS;

    switch (shape) {
    case GOMB_K_PINGPONG:
    case GOMB_K_PINGPING:
        expect_bytes(&t, rbuf, B, me == pair0 ? pair1 : pair0, 0, iter);
        break;
    case GOMB_K_OSU_LATENCY:
    case GOMB_K_ONEWAY:
    case GOMB_K_OSU_BW:
    case GOMB_K_OSU_BIBW: expect_bytes(&t, rbuf, B, osu_peer, 0, iter); break;
    case GOMB_K_SENDRECV:
    case GOMB_K_RING: expect_bytes(&t, rbuf, B, left, 0, iter); break;
    case GOMB_K_MEMCPY: expect_bytes(&t, rbuf, B, me, 0, iter); break;
    case GOMB_K_EXCHANGE: /* the left message was verified in the kernel */
        t.bad = c.check_bad;
        t.first = c.check_first;
        t.got = c.check_got;
        t.want = c.check_want;
        t.pos = (long)B;
        expect_bytes(&t, rbuf, B, right, B, iter);
        break;
    case GOMB_K_UNIBAND:
    case GOMB_K_BIBAND: expect_bytes(&t, rbuf, B, me < half ? me + half : me - half, 0, iter); break;
    case GOMB_K_BCAST: expect_bytes(&t, rbuf, B, root, 0, iter); break;
    case GOMB_K_SCATTER:
    case GOMB_K_SCATTERV: expect_bytes(&t, rbuf, B, root, (size_t)me * B, iter); break;
    case GOMB_K_GATHER:
    case GOMB_K_GATHERV:
    case GOMB_K_ALLGATHER:
    case GOMB_K_ALLGATHERV:
        for (int s = 0; s < np; s++) expect_bytes(&t, rbuf + (size_t)s * B, B, s, 0, iter);
        break;
    case GOMB_K_ALLTOALL:
    case GOMB_K_ALLTOALLV:
        for (int s = 0; s < np; s++) expect_bytes(&t, rbuf + (size_t)s * B, B, s, (size_t)me * B, iter);
        break;
    case GOMB_K_REDUCE:
    case GOMB_K_ALLREDUCE: expect_sum(&t, rbuf, dt, cnt, np, 0, iter); break;
    case GOMB_K_REDUCE_SCATTER:
    case GOMB_K_REDUCE_SCATTER_BLOCK: expect_sum(&t, rbuf, dt, cnt, np, (size_t)me * cnt, iter); break;
    case GOMB_K_REDUCE_SCATTER_SPLIT: {
        size_t off = 0, mine = cnt / np + ((size_t)me < cnt % np);
        for (int s = 0; s < me; s++) off += cnt / np + ((size_t)s < cnt % np);
        expect_sum(&t, rbuf, dt, mine, np, off, iter);
        break;
    }
    case GOMB_K_REDUCE_LOCAL:
        for (size_t e = 0; e < cnt; e++, t.pos++) {
            double w = as_type(dt, val(me, e, iter) + val(me + 7, e, iter));
            double g = load(rbuf, dt, e);
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
