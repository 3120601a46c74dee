//go:build cgo

// imb_ext.c: IMB-EXT's kernels (IMB 2021 src_c/IMB_ones_unidir.c,
// IMB_ones_bidir.c, IMB_ones_accu.c, IMB_window.c) and its window.
//
// Each size has one window, made as IMB_init_transfer makes it (over the
// receive buffer for puts and accumulates, over the send buffer for gets,
// as long as the larger buffer, the element size as displacement unit,
// then a fence) before IMB's pre-run and freed after the size, before the
// buffers (gomb_ext_window here, gomb_ext_window_free in job.c). The benchmarks run in
// IMB's two modes:
//  - non-aggregate: every operation completes with a fence of its own
//    (Accumulate: fence, operation, fence, each repetition timed alone);
//  - aggregate: one fence after all the repetitions' operations; the
//    loop time over the repetitions is the time, and there is no time per
//    repetition (no samples).
// Unidir: rank 0 puts to (or is read by) rank 1, which only fences; Bidir:
// both. Accumulate: every rank adds into rank 0's window (MPI_SUM).
// Window: per repetition create a window of size bytes over the receive
// buffer, fence, put one element to itself, fence, free.
#include "loops.h"
#include "pattern.h"

static int ext_get(int op) { return op == GOMB_EXT_UNIDIR_GET || op == GOMB_EXT_BIDIR_GET; }

int gomb_ext_window(gomb_job *j) {
    gomb_ext_window_free(j);
    if (j->comm == MPI_COMM_NULL || j->win.ext_op == GOMB_EXT_WINDOW) return MPI_SUCCESS;
    size_t sz = j->s_cap > j->r_cap ? j->s_cap : j->r_cap;
    char *base = ext_get(j->win.ext_op) ? j->sbuf : j->rbuf;
    int rc = MPI_Win_create(base, (MPI_Aint)sz, gomb_dtype_size(j->dtype), MPI_INFO_NULL, j->comm, &j->win.win);
    if (rc != MPI_SUCCESS) return rc;
    j->win.made = 1;
    return MPI_Win_fence(0, j->win.win);
}

// window: IMB_window.
static int window(gomb_job *j, int size) {
    int rc = gomb_n_barriers(j), n = j->n;
    uint64_t k0 = gomb_tick();
    double t0 = MPI_Wtime();
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        MPI_Win w;
        rc = MPI_Win_create(j->rbuf, size, 1, MPI_INFO_NULL, j->comm, &w);
        if (rc != MPI_SUCCESS) break;
        rc = MPI_Win_fence(0, w);
        if (rc == MPI_SUCCESS && size > 0) rc = MPI_Put(j->sbuf, 1, MPI_BYTE, j->rank, 0, 1, MPI_BYTE, w);
        if (rc == MPI_SUCCESS) rc = MPI_Win_fence(0, w);
        int rf = MPI_Win_free(&w);
        if (rc == MPI_SUCCESS) rc = rf;
        if (j->record) j->ticks[i] = gomb_tick();
    }
    uint64_t kend = gomb_tick();
    j->elapsed = MPI_Wtime() - t0;
    if (rc == MPI_SUCCESS) gomb_loop_samples(j, k0, kend, n);
    return rc;
}

// transfer is one put or get of repetition i (IMB_ones_put/get: the
// target displacement is the other buffer's off-cache offset, counted in
// the window's displacement units, as IMB passes it).
static int transfer(gomb_job *j, MPI_Datatype dt, int cnt, int dest, cursor *s, cursor *r, int i) {
    if (ext_get(j->win.ext_op))
        return MPI_Get(r->cur, cnt, dt, dest, (MPI_Aint)(i % j->s_cache_iter) * (MPI_Aint)j->s_offs, cnt, dt, j->win.win);
    return MPI_Put(s->cur, cnt, dt, dest, (MPI_Aint)(i % j->r_cache_iter) * (MPI_Aint)j->r_offs, cnt, dt, j->win.win);
}

// onesided: IMB_ones_put/get (non-aggregate) and _mput/_mget (aggregate)
// for the pair 0 and np-1.
static int onesided(gomb_job *j, MPI_Datatype dt, int cnt) {
    int me = j->rank, np = j->np, n = j->n, rc = MPI_SUCCESS;
    int dest = me == 0 ? np - 1 : me == np - 1 ? 0 : -1;
    // who issues: puts from rank 0 (Unidir) or both (Bidir); gets by the
    // other rank (Unidir) or both
    int op = j->win.ext_op, issues = 0;
    if (dest >= 0) {
        if (op == GOMB_EXT_BIDIR_PUT || op == GOMB_EXT_BIDIR_GET) issues = 1;
        else if (op == GOMB_EXT_UNIDIR_PUT) issues = me == 0;
        else issues = me != 0;
    }
    cursor s, r;
    cur_init(&s, j->sbuf, j->s_offs, j->s_cache_iter);
    cur_init(&r, j->rbuf, j->r_offs, j->r_cache_iter);
    if (dest < 0) { // outside the pair: IMB's rank -1, no time
        j->elapsed = -1;
        return MPI_SUCCESS;
    }
    if (!j->win.made) return MPI_ERR_WIN;
    if (j->aggregate) {
        if ((rc = MPI_Win_fence(0, j->win.win)) != MPI_SUCCESS) return rc;
        if ((rc = gomb_n_barriers(j)) != MPI_SUCCESS) return rc;
        double t0 = MPI_Wtime();
        for (int i = 0; issues && i < n && rc == MPI_SUCCESS; i++) {
            rc = transfer(j, dt, cnt, dest, &s, &r, i);
            cur_next(&s);
            cur_next(&r);
        }
        if (rc == MPI_SUCCESS) rc = MPI_Win_fence(0, j->win.win);
        j->elapsed = MPI_Wtime() - t0;
        return rc;
    }
    if ((rc = gomb_n_barriers(j)) != MPI_SUCCESS) return rc;
    uint64_t k0 = gomb_tick();
    double t0 = MPI_Wtime();
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        if (issues) rc = transfer(j, dt, cnt, dest, &s, &r, i);
        if (rc == MPI_SUCCESS) rc = MPI_Win_fence(0, j->win.win);
        if (j->record) j->ticks[i] = gomb_tick();
        cur_next(&s);
        cur_next(&r);
    }
    uint64_t kend = gomb_tick();
    j->elapsed = MPI_Wtime() - t0;
    if (rc == MPI_SUCCESS) gomb_loop_samples(j, k0, kend, n);
    return rc;
}

// accumulate: IMB_accumulate, every rank into rank 0; the target
// displacement is the receive buffer's offset in elements.
static int accumulate(gomb_job *j, MPI_Datatype dt, int cnt) {
    int n = j->n, rc = MPI_SUCCESS, esz = gomb_dtype_size(j->dtype);
    MPI_Aint r_off = (MPI_Aint)j->r_offs / esz;
    cursor s;
    cur_init(&s, j->sbuf, j->s_offs, j->s_cache_iter);
    if (!j->win.made) return MPI_ERR_WIN;
    if (j->aggregate) {
        if ((rc = gomb_n_barriers(j)) != MPI_SUCCESS) return rc;
        double t0 = MPI_Wtime();
        rc = MPI_Win_fence(MPI_MODE_NOPRECEDE, j->win.win);
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
            rc = MPI_Accumulate(s.cur, cnt, dt, 0, (i % j->r_cache_iter) * r_off, cnt, dt, MPI_SUM, j->win.win);
            cur_next(&s);
        }
        if (rc == MPI_SUCCESS) rc = MPI_Win_fence(MPI_MODE_NOSUCCEED, j->win.win);
        j->elapsed = MPI_Wtime() - t0;
        return rc;
    }
    double sum = 0;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        double t0 = MPI_Wtime();
        rc = MPI_Win_fence(MPI_MODE_NOPRECEDE, j->win.win);
        if (rc == MPI_SUCCESS)
            rc = MPI_Accumulate(s.cur, cnt, dt, 0, (i % j->r_cache_iter) * r_off, cnt, dt, MPI_SUM, j->win.win);
        if (rc == MPI_SUCCESS) rc = MPI_Win_fence(MPI_MODE_NOSUCCEED, j->win.win);
        double dt1 = MPI_Wtime() - t0;
        sum += dt1;
        if (j->record) j->samples[i] = dt1;
        cur_next(&s);
    }
    j->elapsed = sum;
    if (rc == MPI_SUCCESS && j->record) j->nsamples = n;
    return rc;
}

// gomb_run_imb_ext runs one IMB-EXT benchmark call: elapsed is the time
// over all repetitions (Accumulate non-aggregate: the sum of each
// repetition's), negative outside Unidir's and Bidir's pair.
int gomb_run_imb_ext(gomb_job *j) {
    MPI_Datatype dt = gomb_mpi_dtype(j->dtype);
    int size = j->count * gomb_dtype_size(j->dtype);
    j->elapsed = 0;
    switch (j->win.ext_op) {
    case GOMB_EXT_WINDOW: return window(j, size);
    case GOMB_EXT_ACCUMULATE: return accumulate(j, dt, j->count);
    default: return onesided(j, dt, j->count);
    }
}

/* gomb_ext_verify checks an IMB-EXT call: what a put left in the target's
 * window (the receive buffer), what a get read into the receive buffer
 * (the target's send buffer), the sum Accumulate left in rank 0's window;
 * Window moves nothing to check. */
void gomb_ext_verify(const gomb_job *j, tally *t, size_t cnt, size_t B, int iter) {
    int me = j->rank, np = j->np, op = j->win.ext_op;
    int partner = me == 0 ? np - 1 : me == np - 1 ? 0 : -1;
    char *rbuf = j->rbuf;
    if (gomb_fault_corrupt) ((unsigned char *)rbuf)[0] ^= 0xff;
    switch (op) {
    case GOMB_EXT_ACCUMULATE:
        if (me == 0) expect_sum(t, rbuf, j->dtype, cnt, np, 0, iter);
        break;
    case GOMB_EXT_UNIDIR_PUT:
    case GOMB_EXT_UNIDIR_GET: // rank np-1 receives the put, or reads rank 0
        if (me == np - 1 && B > 0) expect_bytes(t, rbuf, B, 0, 0, iter);
        break;
    case GOMB_EXT_BIDIR_PUT:
    case GOMB_EXT_BIDIR_GET:
        if (partner >= 0 && B > 0) expect_bytes(t, rbuf, B, partner, 0, iter);
        break;
    }
}
