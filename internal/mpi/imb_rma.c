//go:build cgo

// imb_rma.c: IMB-RMA's kernels (IMB 2021 src_c/IMB_rma_put.c,
// IMB_rma_get.c, IMB_rma_atomic.c) and its window.
//
// Each size has one window, made as IMB_init_transfer makes it for
// IMB-RMA: over the receive buffer for puts and atomics, over the send
// buffer for gets, as long as the larger buffer, the element size as
// displacement unit, and no fence (passive target only). gomb_rma_window
// makes it before IMB's pre-run; gomb_ext_window_free (job.c) frees it
// after the size, before the buffers.
//
// One call runs one of IMB's benchmark functions: two MPI_Barrier (IMB-RMA
// calls MPI_Barrier itself, whatever -imb_barrier says), the origins'
// epochs (MPI_Win_lock shared, or MPI_Win_lock_all), the timed loop, the
// unlock, one MPI_Barrier. The loop:
//  - non-aggregate: each operation completes before the next
//    (MPI_Win_flush, or MPI_Win_flush_local for the _local benchmarks);
//    every repetition is stamped (samples);
//  - aggregate: the operations of all repetitions, then one flush (no
//    time per repetition).
// The benchmarks IMB runs in one mode only (Put_all_local, One_put_all,
// All_put_all, ... ) have one loop shape, the all-targets ones aggregate.
// Ranks that issue nothing return a negative time, as IMB's -1.
// Truly_passive_put: the origin times put + flush + barrier per repetition
// twice, first with the target in MPI_Barrier, then with the target
// running IMB's CPU exploit for the first loop's time before each barrier.
#include "loops.h"
#include "pattern.h"

static int rma_get(int op) {
    switch (op) {
    case GOMB_IRMA_UNIDIR_GET:
    case GOMB_IRMA_BIDIR_GET:
    case GOMB_IRMA_GET_LOCAL:
    case GOMB_IRMA_GET_ALL_LOCAL:
    case GOMB_IRMA_ONE_GET_ALL:
    case GOMB_IRMA_ALL_GET_ALL:
    case GOMB_IRMA_EXCHANGE_GET: return 1;
    }
    return 0;
}

// local: completion by MPI_Win_flush_local(_all) (the origin's buffer is
// free again), not MPI_Win_flush (the operation is done at the target).
static int rma_local(int op) {
    return op == GOMB_IRMA_PUT_LOCAL || op == GOMB_IRMA_GET_LOCAL || op == GOMB_IRMA_PUT_ALL_LOCAL ||
           op == GOMB_IRMA_GET_ALL_LOCAL;
}

int gomb_rma_window(gomb_job *j) {
    gomb_ext_window_free(j);
    if (j->comm == MPI_COMM_NULL) return MPI_SUCCESS;
    size_t sz = j->s_cap > j->r_cap ? j->s_cap : j->r_cap;
    char *base = rma_get(j->win.imb_rma_op) ? j->sbuf : j->rbuf;
    int rc = MPI_Win_create(base, (MPI_Aint)sz, gomb_dtype_size(j->dtype), MPI_INFO_NULL, j->comm, &j->win.win);
    if (rc == MPI_SUCCESS) j->win.made = 1;
    return rc;
}

static int barriers(gomb_job *j, int k) {
    int rc = MPI_SUCCESS;
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++) rc = MPI_Barrier(j->comm);
    return rc;
}

// issue is repetition i's operation to target, with IMB's arguments: the
// local buffer at its -off_cache offset, the target displacement at the
// other buffer's offset (in elements for the reductions, whose window
// counts in elements; the others' windows count in bytes). Each case
// computes only what its call needs, as IMB's loops do.
static inline int issue(gomb_job *j, MPI_Datatype dt, int cnt, int target, int i) {
    MPI_Win w = j->win.win;
    switch (j->win.imb_rma_op) {
    case GOMB_IRMA_ACCUMULATE:
        return MPI_Accumulate(j->sbuf + (size_t)(i % j->s_cache_iter) * j->s_offs, cnt, dt, target,
                              (MPI_Aint)(i % j->r_cache_iter) * j->win.r_el_offs, cnt, dt, MPI_SUM, w);
    case GOMB_IRMA_GET_ACCUMULATE:
        return MPI_Get_accumulate(j->sbuf + (size_t)(i % j->s_cache_iter) * j->s_offs, cnt, dt,
                                  j->rbuf + (size_t)(i % j->r_cache_iter) * j->r_offs, cnt, dt, target,
                                  (MPI_Aint)(i % j->r_cache_iter) * j->win.r_el_offs, cnt, dt, MPI_SUM, w);
    case GOMB_IRMA_FETCH_AND_OP:
        return MPI_Fetch_and_op(j->sbuf + (size_t)(i % j->s_cache_iter) * j->s_offs,
                                j->rbuf + (size_t)(i % j->r_cache_iter) * j->r_offs, dt, target,
                                (MPI_Aint)(i % j->r_cache_iter) * j->win.r_el_offs, MPI_SUM, w);
    case GOMB_IRMA_COMPARE_AND_SWAP: {
        // one MPI_INT; origin, compare and result values in the zeroed
        // receive buffer (IMB: r_buffer + 2, + 1 and + 0 ints), the first
        // two at the send offset in non-aggregate mode, as IMB has them
        size_t ro = (size_t)(i % j->r_cache_iter) * j->r_offs;
        size_t vo = j->aggregate ? ro : (size_t)(i % j->s_cache_iter) * j->s_offs;
        return MPI_Compare_and_swap(j->rbuf + 2 * sizeof(int) + vo, j->rbuf + sizeof(int) + vo, j->rbuf + ro, MPI_INT,
                                    target, (MPI_Aint)ro, w);
    }
    }
    if (rma_get(j->win.imb_rma_op)) // (the exchanges have their own loop)
        return MPI_Get(j->rbuf + (size_t)(i % j->r_cache_iter) * j->r_offs, cnt, dt, target,
                       (MPI_Aint)((size_t)(i % j->s_cache_iter) * j->s_offs), cnt, dt, w);
    return MPI_Put(j->sbuf + (size_t)(i % j->s_cache_iter) * j->s_offs, cnt, dt, target,
                   (MPI_Aint)((size_t)(i % j->r_cache_iter) * j->r_offs), cnt, dt, w);
}

static int flush(gomb_job *j, int target) {
    return rma_local(j->win.imb_rma_op) ? MPI_Win_flush_local(target, j->win.win) : MPI_Win_flush(target, j->win.win);
}

// pair is the single-target benchmarks' origin: one shared-lock epoch on
// target, the loop in the table's mode.
static int pair(gomb_job *j, MPI_Datatype dt, int cnt, int target) {
    int n = j->n, rc = MPI_Win_lock(MPI_LOCK_SHARED, target, 0, j->win.win);
    if (rc != MPI_SUCCESS) return rc;
    uint64_t k0 = gomb_tick();
    double t0 = MPI_Wtime();
    if (j->aggregate) {
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++) rc = issue(j, dt, cnt, target, i);
        if (rc == MPI_SUCCESS) rc = flush(j, target);
    } else {
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
            rc = issue(j, dt, cnt, target, i);
            if (rc == MPI_SUCCESS) rc = flush(j, target);
            if (j->record) j->ticks[i] = gomb_tick();
        }
    }
    uint64_t kend = gomb_tick();
    j->elapsed = MPI_Wtime() - t0;
    if (rc == MPI_SUCCESS && !j->aggregate) gomb_loop_samples(j, k0, kend, n);
    int ru = MPI_Win_unlock(target, j->win.win);
    return rc != MPI_SUCCESS ? rc : ru;
}

// all is the all-targets benchmarks' origin: MPI_Win_lock_all, every
// repetition one operation to every other rank (starting after itself,
// so that the origins spread over the targets), one flush for all.
static int all(gomb_job *j, MPI_Datatype dt, int cnt) {
    int n = j->n, me = j->rank, np = j->np, rc = MPI_Win_lock_all(0, j->win.win);
    if (rc != MPI_SUCCESS) return rc;
    double t0 = MPI_Wtime();
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        for (int peer = 0; peer < np && rc == MPI_SUCCESS; peer++) {
            int target = (peer + me) % np;
            if (target != me) rc = issue(j, dt, cnt, target, i);
        }
    if (rc == MPI_SUCCESS)
        rc = rma_local(j->win.imb_rma_op) ? MPI_Win_flush_local_all(j->win.win) : MPI_Win_flush_all(j->win.win);
    j->elapsed = MPI_Wtime() - t0;
    int ru = MPI_Win_unlock_all(j->win.win);
    return rc != MPI_SUCCESS ? rc : ru;
}

// exchange: every rank puts to (or gets from) both neighbours each
// repetition, the second half of the buffers for the second message,
// and flushes both (one, where the neighbours are one rank).
static int exchange(gomb_job *j, MPI_Datatype dt, int cnt) {
    int n = j->n, me = j->rank, np = j->np, rc = MPI_SUCCESS;
    int left = me == 0 ? np - 1 : me - 1, right = (me + 1) % np, get = rma_get(j->win.imb_rma_op);
    size_t size = (size_t)cnt * (size_t)gomb_dtype_size(j->dtype);
    MPI_Win w = j->win.win;
    rc = MPI_Win_lock(MPI_LOCK_SHARED, left, 0, w);
    if (rc == MPI_SUCCESS && left != right) rc = MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
    if (rc != MPI_SUCCESS) return rc;
    uint64_t k0 = gomb_tick();
    double t0 = MPI_Wtime();
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        size_t so = (size_t)(i % j->s_cache_iter) * j->s_offs, ro = (size_t)(i % j->r_cache_iter) * j->r_offs;
        if (get) {
            rc = MPI_Get(j->rbuf + ro, cnt, dt, right, (MPI_Aint)so, cnt, dt, w);
            if (rc == MPI_SUCCESS) rc = MPI_Get(j->rbuf + size + ro, cnt, dt, left, (MPI_Aint)(size + so), cnt, dt, w);
        } else {
            rc = MPI_Put(j->sbuf + so, cnt, dt, left, (MPI_Aint)ro, cnt, dt, w);
            if (rc == MPI_SUCCESS) rc = MPI_Put(j->sbuf + size + so, cnt, dt, right, (MPI_Aint)(ro + size), cnt, dt, w);
        }
        if (rc == MPI_SUCCESS) rc = MPI_Win_flush(left, w);
        if (rc == MPI_SUCCESS && left != right) rc = MPI_Win_flush(right, w);
        if (j->record) j->ticks[i] = gomb_tick();
    }
    uint64_t kend = gomb_tick();
    j->elapsed = MPI_Wtime() - t0;
    if (rc == MPI_SUCCESS) gomb_loop_samples(j, k0, kend, n);
    int ru = MPI_Win_unlock(left, w);
    if (ru == MPI_SUCCESS && left != right) ru = MPI_Win_unlock(right, w);
    return rc != MPI_SUCCESS ? rc : ru;
}

// put_origin is IMB_put_origin: put, flush, barrier per repetition; the
// loop time (the stamps with record).
static int put_origin(gomb_job *j, MPI_Datatype dt, int cnt, int dst, int record, double *t) {
    int n = j->n, rc = MPI_SUCCESS;
    uint64_t k0 = gomb_tick();
    double t0 = MPI_Wtime();
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        rc = MPI_Put(j->sbuf + (size_t)(i % j->s_cache_iter) * j->s_offs, cnt, dt, dst,
                     (MPI_Aint)((size_t)(i % j->r_cache_iter) * j->r_offs), cnt, dt, j->win.win);
        if (rc == MPI_SUCCESS) rc = MPI_Win_flush(dst, j->win.win);
        if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->comm);
        if (record) j->ticks[i] = gomb_tick();
    }
    uint64_t kend = gomb_tick();
    *t = MPI_Wtime() - t0;
    if (record && rc == MPI_SUCCESS) {
        j->elapsed = *t;
        gomb_loop_samples(j, k0, kend, n);
    }
    return rc;
}

// put_target is IMB_put_target: per repetition the exploit (when
// compute > 0), then the barrier that ends the origin's repetition.
static int put_target(gomb_job *j, double compute) {
    int rc = MPI_SUCCESS;
    for (int i = 0; i < j->n && rc == MPI_SUCCESS; i++) {
        if (compute > 0) gomb_imb_cpu_exploit((float)compute, 0);
        rc = MPI_Barrier(j->comm);
    }
    return rc;
}

// passive is IMB_rma_passive_put: elapsed is the second loop's time (the
// target computing), t_pure the first loop's mean (the target waiting in
// MPI_Barrier); the origin sends that mean to the target, which calibrates
// its exploit to it.
static int passive(gomb_job *j, MPI_Datatype dt, int cnt) {
    int me = j->rank, pair0 = 0, pair1 = j->np - 1, rc = MPI_Barrier(j->comm);
    double t_pure = 0, t = 0;
    if (rc != MPI_SUCCESS) return rc;
    if (me == pair0) {
        if ((rc = MPI_Win_lock(MPI_LOCK_SHARED, pair1, 0, j->win.win)) != MPI_SUCCESS) return rc;
        rc = put_origin(j, dt, cnt, pair1, 0, &t);
        t_pure = j->n > 0 ? t / j->n : 0;
        if (rc == MPI_SUCCESS) rc = MPI_Send(&t_pure, 1, MPI_DOUBLE, pair1, 1, j->comm);
        if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->comm);
        if (rc == MPI_SUCCESS) rc = put_origin(j, dt, cnt, pair1, j->record, &t);
        j->elapsed = t;
        j->t_pure = t_pure;
        int ru = MPI_Win_unlock(pair1, j->win.win);
        return rc != MPI_SUCCESS ? rc : ru;
    }
    if (me == pair1) {
        rc = put_target(j, 0);
        if (rc == MPI_SUCCESS) rc = MPI_Recv(&t_pure, 1, MPI_DOUBLE, pair0, 1, j->comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) gomb_imb_cpu_exploit((float)t_pure, 1);
        if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->comm);
        if (rc == MPI_SUCCESS) rc = put_target(j, t_pure);
    }
    return rc;
}

// gomb_run_imb_rma runs one IMB-RMA benchmark call: elapsed is the loop
// time over all repetitions on the ranks that issue operations, negative
// on the others.
int gomb_run_imb_rma(gomb_job *j) {
    int op = j->win.imb_rma_op, me = j->rank, np = j->np, rc;
    MPI_Datatype dt = gomb_mpi_dtype(j->dtype);
    int cnt = j->count;
    j->t_pure = 0;
    j->t_compute = 0;
    j->win.r_el_offs = (MPI_Aint)(j->r_offs / (size_t)gomb_dtype_size(j->dtype));
    if (!j->win.made) return MPI_ERR_WIN;
    if (op == GOMB_IRMA_TRULY_PASSIVE_PUT) {
        rc = passive(j, dt, cnt);
        if (me != 0) j->elapsed = -1;
        return rc;
    }
    if ((rc = barriers(j, 2)) != MPI_SUCCESS) return rc; // IMB's N_BARR
    j->elapsed = -1;
    int pair1 = np - 1;
    switch (op) {
    case GOMB_IRMA_UNIDIR_PUT:
    case GOMB_IRMA_UNIDIR_GET:
        if (me == 0) rc = pair(j, dt, cnt, pair1);
        break;
    case GOMB_IRMA_BIDIR_PUT:
    case GOMB_IRMA_BIDIR_GET:
        if (me == 0 || me == pair1) rc = pair(j, dt, cnt, me == 0 ? pair1 : 0);
        break;
    case GOMB_IRMA_PUT_ALL_LOCAL:
    case GOMB_IRMA_GET_ALL_LOCAL:
    case GOMB_IRMA_ONE_PUT_ALL:
    case GOMB_IRMA_ONE_GET_ALL:
        if (me == 0) rc = all(j, dt, cnt);
        break;
    case GOMB_IRMA_ALL_PUT_ALL:
    case GOMB_IRMA_ALL_GET_ALL: rc = all(j, dt, cnt); break;
    case GOMB_IRMA_EXCHANGE_PUT:
    case GOMB_IRMA_EXCHANGE_GET: rc = exchange(j, dt, cnt); break;
    default: // Put_local, Get_local and the atomics: rank 0 to the last
        if (me == 0) rc = pair(j, dt, cnt, pair1);
    }
    int rb = MPI_Barrier(j->comm);
    return rc != MPI_SUCCESS ? rc : rb;
}

/* gomb_imb_rma_typed: the IMB-RMA benchmarks that reduce into the window. */
int gomb_imb_rma_typed(int op) {
    return op == GOMB_IRMA_ACCUMULATE || op == GOMB_IRMA_GET_ACCUMULATE || op == GOMB_IRMA_FETCH_AND_OP;
}

/* gomb_imb_rma_verify checks an IMB-RMA call where the data that arrives is
 * defined: what rank 0's puts left in the targets' windows (the receive
 * buffers), what a get read into the receive buffer (the target's send
 * buffer), both halves of the exchanges, the sum an accumulate left in
 * the last rank's window. Where several origins write the same bytes
 * (All_put_all) or one origin reads several targets into the same bytes
 * (the get_all ones), and Compare_and_swap (which swaps zeros), nothing
 * is defined to check. */
void gomb_imb_rma_verify(const gomb_job *j, tally *t, size_t cnt, size_t B, int iter) {
    int me = j->rank, np = j->np, last = np - 1;
    int left = me == 0 ? np - 1 : me - 1, right = (me + 1) % np;
    char *rbuf = j->rbuf;
    if (gomb_fault_corrupt) ((unsigned char *)rbuf)[0] ^= 0xff;
    switch (j->win.imb_rma_op) {
    case GOMB_IRMA_UNIDIR_PUT:
    case GOMB_IRMA_PUT_LOCAL:
    case GOMB_IRMA_TRULY_PASSIVE_PUT:
        if (me == last && B > 0) expect_bytes(t, rbuf, B, 0, 0, iter);
        break;
    case GOMB_IRMA_UNIDIR_GET:
    case GOMB_IRMA_GET_LOCAL:
        if (me == 0 && B > 0) expect_bytes(t, rbuf, B, last, 0, iter);
        break;
    case GOMB_IRMA_BIDIR_PUT:
    case GOMB_IRMA_BIDIR_GET:
        if ((me == 0 || me == last) && B > 0) expect_bytes(t, rbuf, B, me == 0 ? last : 0, 0, iter);
        break;
    case GOMB_IRMA_PUT_ALL_LOCAL:
    case GOMB_IRMA_ONE_PUT_ALL:
        if (me != 0 && B > 0) expect_bytes(t, rbuf, B, 0, 0, iter);
        break;
    case GOMB_IRMA_EXCHANGE_PUT:
    case GOMB_IRMA_EXCHANGE_GET: // the first half from the right neighbour, the second from the left
        if (B > 0) {
            expect_bytes(t, rbuf, B, right, 0, iter);
            expect_bytes(t, rbuf + B, B, left, B, iter);
        }
        break;
    case GOMB_IRMA_ACCUMULATE:
    case GOMB_IRMA_GET_ACCUMULATE:
    case GOMB_IRMA_FETCH_AND_OP: // rank 0's values alone, added to zeros
        if (me == last) expect_sum(t, rbuf, j->dtype, cnt, 1, 0, iter);
        break;
    }
}
