//go:build cgo

// osu_rma.c: OSU's one-sided kernels (put, get, accumulate, get_accumulate,
// fetch_and_op, compare_and_swap; latency, bandwidth, bi-directional
// bandwidth) with OSU's window creation and synchronisation modes.
#include "pair.h"
#include "pattern.h"

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

// rma_prepare fills this rank's window with the check's pattern before the
// operations.
static void rma_prepare(gomb_job *j, char *base, size_t span) {
    int me = j->rank, it = j->check_iter;
    size_t esz = (size_t)gomb_dtype_size(j->dtype);
    if (rma_typed(j->rma.op)) {
        for (size_t e = 0; e < span / esz; e++) store_val(base, j->dtype, e, val(me + 3, e, it));
    } else {
        fill_pattern((unsigned char *)base, span, me, 0, it);
    }
}

// rma_verify checks what the operations left in the window (target) and
// fetched into the send buffer's second half (origin).
static void rma_verify(gomb_job *j, char *base, size_t span, int peer, int lower) {
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
            double g = load_val(base, dt, 0), w = as_type(dt, val(peer, 0, it));
            t.pos++;
            if (g != w) miss(&t, g, w);
        }
        if (origin && ne > 0) {
            double g = load_val(j->sbuf + span, dt, 0), w = as_type(dt, val(peer + 3, 0, it));
            t.pos++;
            if (g != w) miss(&t, g, w);
        }
        break;
    default: // accumulate, get_accumulate, fetch_and_op: SUM into the target
        if (target)
            for (size_t e = 0; e < ne; e++, t.pos++) {
                double g = load_val(base, dt, e), w = as_type(dt, val(j->rank + 3, e, it) + val(peer, e, it));
                if (g != w) miss(&t, g, w);
            }
        if (origin && j->rma.op != GOMB_RMA_ACC)
            for (size_t e = 0; e < ne; e++, t.pos++) {
                double g = load_val(j->sbuf + span, dt, e), w = as_type(dt, val(peer + 3, e, it));
                if (g != w) miss(&t, g, w);
            }
        break;
    }
    keep(j, &t);
}

typedef struct {
    MPI_Win win;
    char *base;        // the window's memory on this rank
    MPI_Aint disp;     // the target's displacement of byte 0 (dynamic windows: its address)
    MPI_Group peer_g;  // the partner, for PSCW
} rma_win;

static int win_open(gomb_job *j, rma_win *w, size_t bytes, int peer) {
    int rc;
    MPI_Group g;
    // A window per size, of the size's bytes, as OSU's
    // allocate_memory_one_sided makes it; at least a page when allocated
    // (MPICH 4.0 misplaces operations on shared-memory windows of a few
    // bytes).
    if (bytes < 4096 && j->rma.win_mode == GOMB_WIN_ALLOCATE) bytes = 4096;
    if (bytes == 0) bytes = 8;
    memset(w, 0, sizeof(*w));
    switch (j->rma.win_mode) {
    case GOMB_WIN_ALLOCATE:
        rc = MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, j->comm, &w->base, &w->win);
        break;
    case GOMB_WIN_DYNAMIC: {
        MPI_Aint mine;
        rc = MPI_Win_create_dynamic(MPI_INFO_NULL, j->comm, &w->win);
        if (OK) rc = MPI_Win_attach(w->win, j->rbuf, (MPI_Aint)bytes);
        w->base = j->rbuf;
        if (OK) rc = MPI_Get_address(j->rbuf, &mine);
        if (OK)
            rc = MPI_Sendrecv(&mine, 1, MPI_AINT, peer, 7, &w->disp, 1, MPI_AINT, peer, 7, j->comm,
                              MPI_STATUS_IGNORE);
        break;
    }
    default:
        rc = MPI_Win_create(j->rbuf, (MPI_Aint)bytes, 1, MPI_INFO_NULL, j->comm, &w->win);
        w->base = j->rbuf;
        break;
    }
    if (!OK) return rc;
    MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
    if (OK) rc = MPI_Comm_group(j->comm, &g);
    if (OK) rc = MPI_Group_incl(g, 1, &peer, &w->peer_g);
    MPI_Group_free(&g);
    return rc;
}

static void win_close(gomb_job *j, rma_win *w) {
    if (j->rma.win_mode == GOMB_WIN_DYNAMIC) MPI_Win_detach(w->win, j->rbuf);
    MPI_Win_free(&w->win);
    MPI_Group_free(&w->peer_g);
}

// rma_op issues the benchmark's operation on slot k of the window. The
// origin buffer holds the sources, then the results (get_accumulate,
// fetch_and_op, compare_and_swap), then the compare values (cas).
static inline int rma_op(gomb_job *j, rma_win *w, int target, int k, MPI_Datatype dt, int cnt,
                         size_t B, size_t span) {
    char *src = j->sbuf + (size_t)k * B;
    char *res = j->sbuf + span + (size_t)k * B;
    MPI_Aint disp = w->disp + (MPI_Aint)((size_t)k * B);
    switch (j->rma.op) {
    case GOMB_RMA_GET: return MPI_Get(src, cnt, dt, target, disp, cnt, dt, w->win);
    case GOMB_RMA_ACC: return MPI_Accumulate(src, cnt, dt, target, disp, cnt, dt, MPI_SUM, w->win);
    case GOMB_RMA_GET_ACC:
        return MPI_Get_accumulate(src, cnt, dt, res, cnt, dt, target, disp, cnt, dt, MPI_SUM, w->win);
    case GOMB_RMA_FOP: return MPI_Fetch_and_op(src, res, dt, target, disp, MPI_SUM, w->win);
    case GOMB_RMA_CAS: return MPI_Compare_and_swap(src, res + span, res, dt, target, disp, w->win);
    default: return MPI_Put(src, cnt, dt, target, disp, cnt, dt, w->win);
    }
}

// rma_verify_locked checks the data of a validation call after every rank
// is done, inside an epoch on our own window so that its public copy is
// what we read.
static int rma_verify_locked(gomb_job *j, rma_win *w, size_t span, int peer, int lower) {
    int rc = MPI_Barrier(j->comm);
    if (OK) rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, j->rank, 0, w->win);
    if (OK) {
        rma_verify(j, w->base, span, peer, lower);
        rc = MPI_Win_unlock(j->rank, w->win);
    }
    return rc;
}

#define OPS(T)                                                                                   \
    for (int k = 0; k < ops && OK; k++) rc = rma_op(j, &w, (T), k, dt, cnt, B, span)

// RMA_LOOP is OSU's one-sided loop: the warm-up is the first j->skip
// iterations, the clock starts at iteration skip and stops after the last,
// and every timed iteration is also timed on its own with MPI_Wtime (OSU
// takes these graph stamps whether or not it draws a graph, so they are
// part of what it measures); they are the samples.
#define RMA_LOOP(BODY)                                                                           \
    do {                                                                                         \
        double t_start_ = 0, tg0_ = 0;                                                           \
        for (int i = 0; i < j->skip + n && OK; i++) {                                            \
            if (i == j->skip) t_start_ = MPI_Wtime();                                            \
            if (i >= j->skip) tg0_ = MPI_Wtime();                                                \
            BODY;                                                                                \
            if (i >= j->skip) {                                                                  \
                double tg1_ = MPI_Wtime();                                                       \
                if (rec) j->samples[i - j->skip] = tg1_ - tg0_;                                  \
            }                                                                                    \
        }                                                                                        \
        j->elapsed = n > 0 ? MPI_Wtime() - t_start_ : 0;                                         \
        j->nsamples = rec && OK ? n : 0;                                                         \
    } while (0)

// gomb_run_rma: one-sided latency (one operation per iteration), bandwidth (a
// window of operations) or bi-directional bandwidth, with OSU's window
// creation and synchronisation. Rank 0 is the origin and the timing rank;
// with PSCW and fence latency both ranks take turns (a round trip).
int gomb_run_rma(gomb_job *j) {
    KERNEL_PROLOGUE;
    int lower = 0, peer = peer_of(j, &lower);
    int ops = j->rma.kind == GOMB_RMA_LAT ? 1 : j->window;
    size_t B = (size_t)cnt * (size_t)gomb_dtype_size(j->dtype), span = (size_t)ops * B;
    rma_win w;
    if (peer < 0) {
        j->elapsed = -1;
        return MPI_SUCCESS;
    }
    if ((rc = win_open(j, &w, span, peer)) != MPI_SUCCESS) return rc;
    int bidir = j->rma.kind == GOMB_RMA_BIBW;
    int passive = j->rma.sync_mode <= GOMB_SYNC_LOCK_ALL;
    if (j->checking) {
        // Local stores to a window need an epoch on it to reach its public
        // copy (MPI's separate memory model); lock our own window around them.
        rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, j->rank, 0, w.win);
        rma_prepare(j, w.base, span);
        if (OK) rc = MPI_Win_unlock(j->rank, w.win);
        if (OK) rc = MPI_Barrier(j->comm);
        if (!OK) return rc;
    }
    if (passive && !lower) {
        // Passive target: nothing to do but stay in MPI until the origin is done.
        j->elapsed = -1;
        rc = MPI_Barrier(j->comm);
        if (OK && j->checking) rc = rma_verify_locked(j, &w, span, peer, lower);
        win_close(j, &w);
        return rc;
    }
    if (j->rma.sync_mode == GOMB_SYNC_FLUSH || j->rma.sync_mode == GOMB_SYNC_FLUSH_LOCAL)
        rc = MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w.win);
    if (OK) switch (j->rma.sync_mode) {
        case GOMB_SYNC_LOCK:
            RMA_LOOP(rc = MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w.win); OPS(peer);
                     if (OK) rc = MPI_Win_unlock(peer, w.win));
            break;
        case GOMB_SYNC_FLUSH:
            RMA_LOOP(OPS(peer); if (OK) rc = MPI_Win_flush(peer, w.win));
            break;
        case GOMB_SYNC_FLUSH_LOCAL:
            RMA_LOOP(OPS(peer); if (OK) rc = MPI_Win_flush_local(peer, w.win));
            break;
        case GOMB_SYNC_LOCK_ALL:
            RMA_LOOP(rc = MPI_Win_lock_all(0, w.win); OPS(peer); if (OK) rc = MPI_Win_unlock_all(w.win));
            break;
        case GOMB_SYNC_PSCW:
            if (bidir) {
                RMA_LOOP(rc = MPI_Win_post(w.peer_g, 0, w.win);
                         if (OK) rc = MPI_Win_start(w.peer_g, 0, w.win); OPS(peer);
                         if (OK) rc = MPI_Win_complete(w.win); if (OK) rc = MPI_Win_wait(w.win));
            } else if (j->rma.kind == GOMB_RMA_BW) {
                if (lower)
                    RMA_LOOP(rc = MPI_Win_start(w.peer_g, 0, w.win); OPS(peer);
                             if (OK) rc = MPI_Win_complete(w.win));
                else
                    RMA_LOOP(rc = MPI_Win_post(w.peer_g, 0, w.win); if (OK) rc = MPI_Win_wait(w.win));
            } else if (lower) { // latency: a round trip, one operation each way
                RMA_LOOP(rc = MPI_Win_start(w.peer_g, 0, w.win); OPS(peer);
                         if (OK) rc = MPI_Win_complete(w.win);
                         if (OK) rc = MPI_Win_post(w.peer_g, 0, w.win); if (OK) rc = MPI_Win_wait(w.win));
            } else {
                RMA_LOOP(rc = MPI_Win_post(w.peer_g, 0, w.win); if (OK) rc = MPI_Win_wait(w.win);
                         if (OK) rc = MPI_Win_start(w.peer_g, 0, w.win); OPS(peer);
                         if (OK) rc = MPI_Win_complete(w.win));
            }
            break;
        default: // GOMB_SYNC_FENCE
            if (bidir || (j->rma.kind == GOMB_RMA_BW && lower)) {
                RMA_LOOP(rc = MPI_Win_fence(0, w.win); OPS(peer); if (OK) rc = MPI_Win_fence(0, w.win));
            } else if (j->rma.kind == GOMB_RMA_BW) {
                RMA_LOOP(rc = MPI_Win_fence(0, w.win); if (OK) rc = MPI_Win_fence(0, w.win));
            } else if (lower) { // latency: a round trip in three fences
                RMA_LOOP(rc = MPI_Win_fence(0, w.win); OPS(peer); if (OK) rc = MPI_Win_fence(0, w.win);
                         if (OK) rc = MPI_Win_fence(0, w.win));
            } else {
                RMA_LOOP(rc = MPI_Win_fence(0, w.win); if (OK) rc = MPI_Win_fence(0, w.win); OPS(peer);
                         if (OK) rc = MPI_Win_fence(0, w.win));
            }
            break;
        }
    if (OK && (j->rma.sync_mode == GOMB_SYNC_FLUSH || j->rma.sync_mode == GOMB_SYNC_FLUSH_LOCAL))
        rc = MPI_Win_unlock(peer, w.win);
    if (passive && OK) rc = MPI_Barrier(j->comm);
    if (OK && j->checking && j->rma.sync_mode == GOMB_SYNC_FENCE)
        rc = MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win); // close the fence epochs before locking
    if (OK && j->checking) rc = rma_verify_locked(j, &w, span, peer, lower);
    if (!lower) j->elapsed = -1; // OSU reports the origin's time
    win_close(j, &w);
    return rc;
}
