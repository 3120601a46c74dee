//go:build cgo

// validate.c: run-time validation (gomb imb -check, osu -c): gomb_validate,
// and the verifier of every two-sided and collective shape. IMB-EXT's,
// IMB-RMA's, IMB-IO's and OSU one-sided's verifiers sit beside their
// kernels.
//
// One untimed call of the kernel with known data: every sender writes a
// pattern that depends on its rank, the byte position in its send buffer and
// the check iteration; every receiver compares what arrived with what the
// senders must have written. Reductions use small integers, exact in every
// element type, and compare element by element.
#include "pattern.h"

#include <string.h>

static int is_reduction(int k) {
    return k == GOMB_K_REDUCE || k == GOMB_K_REDUCE_LOCAL || k == GOMB_K_REDUCE_SCATTER ||
           k == GOMB_K_REDUCE_SCATTER_BLOCK || k == GOMB_K_ALLREDUCE;
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
    case GOMB_NBC_IGATHERV: return GOMB_K_GATHERV;
    case GOMB_NBC_ISCATTERV: return GOMB_K_SCATTERV;
    case GOMB_NBC_IALLGATHERV: return GOMB_K_ALLGATHERV;
    case GOMB_NBC_IALLTOALLV: return GOMB_K_ALLTOALLV;
    case GOMB_NBC_IREDUCE_SCATTER: return GOMB_K_REDUCE_SCATTER;
    case GOMB_NBC_IREDUCE_SCATTER_BLOCK: return GOMB_K_REDUCE_SCATTER_BLOCK;
    case GOMB_NBC_IALLTOALLW: return GOMB_K_ALLTOALLW;
    case GOMB_NBC_INEIGHBOR_ALLGATHER:
    case GOMB_NBC_INEIGHBOR_ALLGATHERV:
    case GOMB_NBC_INEIGHBOR_ALLTOALL:
    case GOMB_NBC_INEIGHBOR_ALLTOALLV:
    case GOMB_NBC_INEIGHBOR_ALLTOALLW: return GOMB_K_NEIGHBOR;
    }
    return GOMB_K_BARRIER;
}

/* prepare fills the send buffer with the pattern (typed kernels: values)
 * of this rank and iteration, and poisons the receive buffer. */
static void prepare(gomb_job *j, int iter, int typed, size_t cnt, size_t B) {
    int me = j->rank, np = j->np, k = j->kernel, dt = j->dtype;
    size_t esz = (size_t)gomb_dtype_size(dt);
    if (typed) {
        size_t ne = j->s_cap / esz;
        for (size_t e = 0; e < ne; e++) store_val(j->sbuf, dt, e, val(me, e, iter));
        if (k == GOMB_K_REDUCE_LOCAL) {
            for (size_t e = 0; e < cnt; e++) store_val(j->rbuf, dt, e, val(me + 7, e, iter));
        } else if (k == GOMB_K_IMB_EXT || k == GOMB_K_IMB_RMA) { // accumulates add into a zeroed window
            memset(j->rbuf, 0, j->r_cap);
        } else {
            memset(j->rbuf, iter & 1 ? 0x5a : 0xa5, j->r_cap);
        }
        if (k == GOMB_K_RMA && j->rma.op == GOMB_RMA_CAS && np == 2)
            store_val(j->sbuf + 2 * B, dt, 0, val(1 - me + 3, 0, iter)); // compare with the target's value
    } else {
        fill_pattern((unsigned char *)j->sbuf, j->s_cap, me, 0, iter);
        memset(j->rbuf, iter & 1 ? 0x5a : 0xa5, j->r_cap);
    }
}

/* run_once makes one call of the kernel, untimed (no warm-up, no off_cache
 * cycling, no samples), between barriers; c is the job it ran, holding
 * what the kernel checked itself (RMA, Exchange's left message). */
static int run_once(gomb_job *j, gomb_job *c, int iter, int root) {
    *c = *j;
    c->n = 1;
    c->skip = 0;
    c->record = 0;
    c->s_cache_iter = c->r_cache_iter = 1;
    c->s_offs = c->r_offs = 0;
    c->root = root;
    c->root_shift = 0;
    c->nbc.compute_s = 0;
    c->nbc.overlap = 0;
    c->checking = 1;
    c->check_iter = iter;
    c->check_bad = 0;
    c->check_first = -1;
    int rc = MPI_Barrier(j->comm);
    if (rc == MPI_SUCCESS) rc = gomb_run(c);
    if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->comm);
    return rc;
}

/* who sends to whom */
typedef struct {
    int pair0, pair1, left, right, half;
    int osu_peer, osu_lower; /* OSU kernels: 0 with 1, or i with i + np/2 */
} peers;

static peers peers_of(const gomb_job *j) {
    int me = j->rank, np = j->np;
    peers p = {0, np - 1, (me - 1 + np) % np, (me + 1) % np, np / 2, -1, 0};
    if (j->pairs) {
        if (me < 2 * p.half) {
            p.osu_lower = me < p.half;
            p.osu_peer = p.osu_lower ? me + p.half : me - p.half;
        }
    } else if (me <= 1 && np >= 2) {
        p.osu_lower = me == 0;
        p.osu_peer = 1 - me;
    }
    return p;
}

/* receives tells whether this rank has anything to verify. */
static int receives(const gomb_job *j, const peers *p, int shape, int root, size_t B) {
    int me = j->rank;
    switch (shape) {
    case GOMB_K_PINGPONG:
    case GOMB_K_PINGPING: return (me == p->pair0 || me == p->pair1) && B > 0;
    case GOMB_K_UNIBAND: return me >= p->half && me < 2 * p->half && B > 0;
    case GOMB_K_BIBAND: return me < 2 * p->half && B > 0;
    case GOMB_K_OSU_LATENCY:
    case GOMB_K_ONEWAY:
    case GOMB_K_OSU_BIBW: return p->osu_peer >= 0 && B > 0;
    case GOMB_K_OSU_BW: return p->osu_peer >= 0 && !p->osu_lower && B > 0;
    case GOMB_K_BARRIER:
    case GOMB_K_BARRIER_CALLS: return 0;
    case GOMB_K_BCAST: return me != root && B > 0;
    case GOMB_K_GATHER:
    case GOMB_K_GATHERV:
    case GOMB_K_REDUCE: return me == root && B > 0;
    case GOMB_K_NEIGHBOR: return j->graph.in > 0 && B > 0;
    default: return B > 0;
    }
}

/* verify compares what arrived in rbuf with what the senders sent. */
static void verify(const gomb_job *j, const gomb_job *c, const peers *p, tally *t, int shape, const char *rbuf,
                   int root, size_t cnt, size_t B, int iter) {
    int me = j->rank, np = j->np, dt = j->dtype;
    switch (shape) {
    case GOMB_K_PINGPONG:
    case GOMB_K_PINGPING: expect_bytes(t, rbuf, B, me == p->pair0 ? p->pair1 : p->pair0, 0, iter); break;
    case GOMB_K_OSU_LATENCY:
    case GOMB_K_ONEWAY:
    case GOMB_K_OSU_BW:
    case GOMB_K_OSU_BIBW: expect_bytes(t, rbuf, B, p->osu_peer, 0, iter); break;
    case GOMB_K_SENDRECV:
    case GOMB_K_RING: expect_bytes(t, rbuf, B, p->left, 0, iter); break;
    case GOMB_K_MEMCPY: expect_bytes(t, rbuf, B, me, 0, iter); break;
    case GOMB_K_EXCHANGE: /* the left message was verified in the kernel */
        t->bad = c->check_bad;
        t->first = c->check_first;
        t->got = c->check_got;
        t->want = c->check_want;
        t->pos = (long)B;
        expect_bytes(t, rbuf, B, p->right, B, iter);
        break;
    case GOMB_K_UNIBAND:
    case GOMB_K_BIBAND: expect_bytes(t, rbuf, B, me < p->half ? me + p->half : me - p->half, 0, iter); break;
    case GOMB_K_BCAST: expect_bytes(t, rbuf, B, root, 0, iter); break;
    case GOMB_K_SCATTER:
    case GOMB_K_SCATTERV: expect_bytes(t, rbuf, B, root, (size_t)me * B, iter); break;
    case GOMB_K_GATHER:
    case GOMB_K_GATHERV:
    case GOMB_K_ALLGATHER:
    case GOMB_K_ALLGATHERV:
        for (int s = 0; s < np; s++) expect_bytes(t, rbuf + (size_t)s * B, B, s, 0, iter);
        break;
    case GOMB_K_ALLTOALL:
    case GOMB_K_ALLTOALLV:
    case GOMB_K_ALLTOALLW:
        for (int s = 0; s < np; s++) expect_bytes(t, rbuf + (size_t)s * B, B, s, (size_t)me * B, iter);
        break;
    case GOMB_K_NEIGHBOR: { // block l from source l: its one block, or the one it sends this rank
        int gather = j->nbc.op == GOMB_NBC_INEIGHBOR_ALLGATHER || j->nbc.op == GOMB_NBC_INEIGHBOR_ALLGATHERV;
        for (int l = 0; l < j->graph.in; l++)
            expect_bytes(t, rbuf + (size_t)l * B, B, j->graph.src[l], gather ? 0 : (size_t)j->graph.slot[l] * B, iter);
        break;
    }
    case GOMB_K_REDUCE:
    case GOMB_K_ALLREDUCE: expect_sum(t, rbuf, dt, cnt, np, 0, iter); break;
    case GOMB_K_REDUCE_SCATTER:
    case GOMB_K_REDUCE_SCATTER_BLOCK: expect_sum(t, rbuf, dt, cnt, np, (size_t)me * cnt, iter); break;
    case GOMB_K_REDUCE_SCATTER_SPLIT: {
        size_t off = 0, mine = cnt / np + ((size_t)me < cnt % np);
        for (int s = 0; s < me; s++) off += cnt / np + ((size_t)s < cnt % np);
        expect_sum(t, rbuf, dt, mine, np, off, iter);
        break;
    }
    case GOMB_K_REDUCE_LOCAL:
        for (size_t e = 0; e < cnt; e++, t->pos++) {
            double w = as_type(dt, val(me, e, iter) + val(me + 7, e, iter));
            double g = load_val(rbuf, dt, e);
            if (g != w) miss(t, g, w);
        }
        break;
    default: break;
    }
}

/* gomb_validate: prepare known data, run the kernel once, verify what
 * arrived. */
int gomb_validate(gomb_job *j, int iter, long *bad, long *first_bad, double *got, double *want) {
    tally t = {0, -1, 0, 0, 0};
    *bad = 0;
    *first_bad = -1;
    *got = *want = 0;
    if (j->comm == MPI_COMM_NULL) return MPI_SUCCESS;
    if (j->kernel == GOMB_K_IMB_IO) return gomb_io_check(j, iter, bad, first_bad, got, want);

    int k = j->kernel, dt = j->dtype;
    size_t cnt = (size_t)j->count_c, B = cnt * (size_t)gomb_dtype_size(dt);
    int root = j->root_shift ? iter % j->np : j->root;
    // what the data moves like: non-blocking collectives as their blocking twin
    int shape = k == GOMB_K_NBC || k == GOMB_K_IMB_NBC ? nbc_kernel(j->nbc.op) : k;
    // OSU's osu_ireduce_scatter splits its elements over the ranks, as osu_reduce_scatter
    if (k == GOMB_K_NBC && j->nbc.op == GOMB_NBC_IREDUCE_SCATTER) shape = GOMB_K_REDUCE_SCATTER_SPLIT;
    int typed = is_reduction(shape) || shape == GOMB_K_REDUCE_SCATTER_SPLIT || (k == GOMB_K_RMA && rma_typed(j->rma.op)) ||
                (k == GOMB_K_IMB_EXT && j->win.ext_op == GOMB_EXT_ACCUMULATE) || (k == GOMB_K_IMB_RMA && gomb_imb_rma_typed(j->win.imb_rma_op));

    prepare(j, iter, typed, cnt, B);
    gomb_job c;
    int rc = run_once(j, &c, iter, root);
    if (rc != MPI_SUCCESS) return rc;
    if (k == GOMB_K_RMA) { /* the kernel verified the window itself */
        *bad = c.check_bad;
        *first_bad = c.check_first;
        *got = c.check_got;
        *want = c.check_want;
        return MPI_SUCCESS;
    }
    if (k == GOMB_K_IMB_EXT) {
        gomb_ext_verify(j, &t, cnt, B, iter);
    } else if (k == GOMB_K_IMB_RMA) {
        gomb_imb_rma_verify(j, &t, cnt, B, iter);
    } else {
        peers p = peers_of(j);
        if (!receives(j, &p, shape, root, B)) return MPI_SUCCESS;
        /* OSU's non-blocking broadcast receives into the send buffer (IMB's
         * into the receive buffer) */
        char *rbuf = k == GOMB_K_NBC && shape == GOMB_K_BCAST ? j->sbuf : j->rbuf;
        if (gomb_fault_corrupt) ((unsigned char *)rbuf)[0] ^= 0xff;
        verify(j, &c, &p, &t, shape, rbuf, root, cnt, B, iter);
    }
    *bad = t.bad;
    *first_bad = t.first;
    *got = t.got;
    *want = t.want;
    return MPI_SUCCESS;
}
