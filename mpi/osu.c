//go:build cgo

// osu.c: the OSU Micro-Benchmarks 7 kernels (point-to-point, one-sided,
// non-blocking collectives) and gomb's own (ring sample, local copy,
// one-way latency). Same rules as kernels.c: the loop, the clock reads and
// the sample stores all happen here, in one C call per batch.
//
// OSU's warm-up is the first j->skip iterations of the same loop. OSU times
// latency and bandwidth loops per iteration on the lower rank and sums;
// these kernels do the same and keep every iteration's time as a sample.
#include "loops.h"

#include <stdlib.h>
#include <string.h>

#define OK (rc == MPI_SUCCESS)

// The buffers a transfer uses: device memory when the MPI library takes
// device pointers; host memory otherwise, with the device data staged
// through it around each transfer (-d cuda with a non-CUDA-aware MPI).
#define SEND_BUF(j) ((j)->device && !(j)->staged ? (j)->dsbuf : (j)->sbuf)
#define RECV_BUF(j) ((j)->device && !(j)->staged ? (j)->drbuf : (j)->rbuf)
#define STAGE_OUT(j, B)                                                                          \
    do {                                                                                         \
        if ((j)->staged) gomb_cuda_d2h((j)->sbuf, (j)->dsbuf, (B));                              \
    } while (0)
#define STAGE_IN(j, B)                                                                           \
    do {                                                                                         \
        if ((j)->staged) gomb_cuda_h2d((j)->drbuf, (j)->rbuf, (B));                              \
    } while (0)

// peer_of pairs the ranks: 0 with 1 (the others sit out), or with pairs
// set, rank i with i + np/2. It returns -1 for a rank without a partner.
static int peer_of(gomb_job *j, int *lower) {
    if (j->pairs) {
        int half = j->np / 2;
        if (j->rank >= 2 * half) return -1;
        *lower = j->rank < half;
        return *lower ? j->rank + half : j->rank - half;
    }
    if (j->rank > 1 || j->np < 2) return -1;
    *lower = j->rank == 0;
    return 1 - j->rank;
}

// store keeps one timed iteration: its time in the sum and as a sample.
static inline void store(gomb_job *j, int i, double dt, double *sum, int rec) {
    if (i < j->skip) return;
    *sum += dt;
    if (rec) j->samples[i - j->skip] = dt;
}

// PAIR_PROLOGUE is what the point-to-point kernels share after the
// barriers: the partner (ranks without one sit out with no time), the
// transfer buffers and the message bytes.
#define PAIR_PROLOGUE                                                                            \
    KERNEL_PROLOGUE;                                                                             \
    int lower = 0, peer = peer_of(j, &lower);                                                    \
    double sum = 0;                                                                              \
    char *sb = SEND_BUF(j), *rb = RECV_BUF(j);                                                   \
    size_t B = (size_t)cnt * (size_t)gomb_dtype_size(j->dtype);                                  \
    (void)s;                                                                                     \
    (void)r;                                                                                     \
    (void)B;                                                                                     \
    if (peer < 0) {                                                                              \
        j->elapsed = -1;                                                                         \
        return MPI_SUCCESS;                                                                      \
    }

// osu_latency / osu_multi_lat: the lower rank of a pair times every round
// trip from before MPI_Send to after MPI_Recv.
static int k_osu_latency(gomb_job *j) {
    PAIR_PROLOGUE;
    for (int i = 0; i < j->skip + n && OK; i++) {
        if (lower) {
            double t0 = MPI_Wtime();
            STAGE_OUT(j, B);
            rc = MPI_Send(sb, cnt, dt, peer, 1, j->comm);
            if (OK) rc = MPI_Recv(rb, cnt, dt, peer, 1, j->comm, MPI_STATUS_IGNORE);
            STAGE_IN(j, B);
            store(j, i, MPI_Wtime() - t0, &sum, rec);
        } else {
            rc = MPI_Recv(rb, cnt, dt, peer, 1, j->comm, MPI_STATUS_IGNORE);
            STAGE_IN(j, B);
            STAGE_OUT(j, B);
            if (OK) rc = MPI_Send(sb, cnt, dt, peer, 1, j->comm);
        }
    }
    j->elapsed = lower ? sum : -1;
    j->nsamples = lower && rec && OK ? n : 0;
    return rc;
}

// osu_bw, osu_mbw_mr (pairs): a window of MPI_Isend, MPI_Waitall, then a
// 4-byte reply; osu_bibw: windows both ways. Timed per iteration on the
// lower rank of each pair.
static int k_osu_bw(gomb_job *j, int bidir) {
    PAIR_PROLOGUE;
    int w = j->window;
    char ack[4] = {0};
    for (int i = 0; i < j->skip + n && OK; i++) {
        double t0 = MPI_Wtime();
        int nr = 0;
        if (bidir || lower) STAGE_OUT(j, B);
        if (bidir || !lower)
            for (int k = 0; k < w && OK; k++)
                rc = MPI_Irecv(rb, cnt, dt, peer, 100, j->comm, &j->reqs[nr++]);
        if (bidir || lower)
            for (int k = 0; k < w && OK; k++)
                rc = MPI_Isend(sb, cnt, dt, peer, 100, j->comm, &j->reqs[nr++]);
        if (OK) rc = MPI_Waitall(nr, j->reqs, MPI_STATUSES_IGNORE);
        if (bidir || !lower) STAGE_IN(j, B);
        if (OK && !bidir) {
            if (lower)
                rc = MPI_Recv(ack, 4, MPI_CHAR, peer, 101, j->comm, MPI_STATUS_IGNORE);
            else
                rc = MPI_Send(ack, 4, MPI_CHAR, peer, 101, j->comm);
        }
        if (lower) store(j, i, MPI_Wtime() - t0, &sum, rec);
    }
    j->elapsed = lower ? sum : -1;
    j->nsamples = lower && rec && OK ? n : 0;
    return rc;
}

// ---- one-sided --------------------------------------------------------------

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
    if (bytes < 4096 && j->win_mode == GOMB_WIN_ALLOCATE) bytes = 4096;
    if (bytes == 0) bytes = 8;
    memset(w, 0, sizeof(*w));
    switch (j->win_mode) {
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
    if (j->win_mode == GOMB_WIN_DYNAMIC) MPI_Win_detach(w->win, j->rbuf);
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
    switch (j->rma_op) {
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
        gomb_rma_verify(j, w->base, span, peer, lower);
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

// k_rma: one-sided latency (one operation per iteration), bandwidth (a
// window of operations) or bi-directional bandwidth, with OSU's window
// creation and synchronisation. Rank 0 is the origin and the timing rank;
// with PSCW and fence latency both ranks take turns (a round trip).
static int k_rma(gomb_job *j) {
    KERNEL_PROLOGUE;
    int lower = 0, peer = peer_of(j, &lower);
    int ops = j->rma_kind == GOMB_RMA_LAT ? 1 : j->window;
    size_t B = (size_t)cnt * (size_t)gomb_dtype_size(j->dtype), span = (size_t)ops * B;
    rma_win w;
    if (peer < 0) {
        j->elapsed = -1;
        return MPI_SUCCESS;
    }
    if ((rc = win_open(j, &w, span, peer)) != MPI_SUCCESS) return rc;
    int bidir = j->rma_kind == GOMB_RMA_BIBW;
    int passive = j->sync_mode <= GOMB_SYNC_LOCK_ALL;
    if (j->checking) {
        // Local stores to a window need an epoch on it to reach its public
        // copy (MPI's separate memory model); lock our own window around them.
        rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, j->rank, 0, w.win);
        gomb_rma_prepare(j, w.base, span);
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
    if (j->sync_mode == GOMB_SYNC_FLUSH || j->sync_mode == GOMB_SYNC_FLUSH_LOCAL)
        rc = MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w.win);
    if (OK) switch (j->sync_mode) {
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
            } else if (j->rma_kind == GOMB_RMA_BW) {
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
            if (bidir || (j->rma_kind == GOMB_RMA_BW && lower)) {
                RMA_LOOP(rc = MPI_Win_fence(0, w.win); OPS(peer); if (OK) rc = MPI_Win_fence(0, w.win));
            } else if (j->rma_kind == GOMB_RMA_BW) {
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
    if (OK && (j->sync_mode == GOMB_SYNC_FLUSH || j->sync_mode == GOMB_SYNC_FLUSH_LOCAL))
        rc = MPI_Win_unlock(peer, w.win);
    if (passive && OK) rc = MPI_Barrier(j->comm);
    if (OK && j->checking && j->sync_mode == GOMB_SYNC_FENCE)
        rc = MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win); // close the fence epochs before locking
    if (OK && j->checking) rc = rma_verify_locked(j, &w, span, peer, lower);
    if (!lower) j->elapsed = -1; // OSU reports the origin's time
    win_close(j, &w);
    return rc;
}

// ---- non-blocking collectives ----------------------------------------------

static int nbc_start(gomb_job *j, MPI_Datatype dt, int cnt, MPI_Request *req) {
    int root = j->root;
    switch (j->nbc_op) {
    case GOMB_NBC_IBARRIER: return MPI_Ibarrier(j->comm, req);
    case GOMB_NBC_IBCAST: return MPI_Ibcast(j->sbuf, cnt, dt, root, j->comm, req);
    case GOMB_NBC_IREDUCE: return MPI_Ireduce(j->sbuf, j->rbuf, cnt, dt, MPI_SUM, root, j->comm, req);
    case GOMB_NBC_IALLREDUCE: return MPI_Iallreduce(j->sbuf, j->rbuf, cnt, dt, MPI_SUM, j->comm, req);
    case GOMB_NBC_IGATHER: return MPI_Igather(j->sbuf, cnt, dt, j->rbuf, cnt, dt, root, j->comm, req);
    case GOMB_NBC_ISCATTER: return MPI_Iscatter(j->sbuf, cnt, dt, j->rbuf, cnt, dt, root, j->comm, req);
    case GOMB_NBC_IALLGATHER: return MPI_Iallgather(j->sbuf, cnt, dt, j->rbuf, cnt, dt, j->comm, req);
    case GOMB_NBC_IALLTOALL: return MPI_Ialltoall(j->sbuf, cnt, dt, j->rbuf, cnt, dt, j->comm, req);
    }
    return MPI_ERR_ARG;
}

// k_nbc: per iteration, start the collective, compute for compute_s seconds
// (calling MPI_Test ntest times, evenly spread, timed apart), wait; OSU's
// overall, compute, init, test and wait times. With compute_s = 0 it is
// OSU's pure communication loop (start, wait).
static int k_nbc(gomb_job *j) {
    KERNEL_PROLOGUE;
    double sum = 0;
    (void)s;
    (void)r;
    j->t_init = j->t_compute = j->t_test = j->t_wait = 0;
    for (int i = 0; i < j->skip + n && OK; i++) {
        MPI_Request req;
        int flag = 0;
        double t0 = MPI_Wtime();
        rc = nbc_start(j, dt, cnt, &req);
        double t1 = MPI_Wtime(), tt = 0;
        if (OK && j->compute_s > 0) {
            double step = j->compute_s / (j->ntest + 1), next = t1 + step, end = t1 + j->compute_s;
            int tests = 0;
            for (double now = t1; now < end; now = MPI_Wtime()) {
                if (tests < j->ntest && now >= next) {
                    double a = MPI_Wtime();
                    if (!flag) rc = MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
                    tt += MPI_Wtime() - a;
                    tests++;
                    next += step;
                }
            }
        }
        double t2 = MPI_Wtime();
        if (OK && !flag) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        double t3 = MPI_Wtime();
        if (i >= j->skip) {
            j->t_init += t1 - t0;
            j->t_test += tt;
            j->t_compute += t2 - t1 - tt;
            j->t_wait += t3 - t2;
        }
        store(j, i, t3 - t0, &sum, rec);
        if (OK && j->sync) rc = gomb_job_barrier(j);
    }
    j->elapsed = sum;
    j->nsamples = rec && OK ? n : 0;
    return rc;
}

// ---- gomb's own -------------------------------------------------------------

// k_ring: one sample of the ring monitor, as mpi-comm-bench takes it:
// MPI_Barrier, then one MPI_Sendrecv to rank+1 from rank-1, timed.
static int k_ring(gomb_job *j) {
    int right = (j->rank + 1) % j->np, left = (j->rank - 1 + j->np) % j->np;
    int rc = MPI_Barrier(j->comm);
    if (!OK) return rc;
    double t0 = MPI_Wtime();
    STAGE_OUT(j, (size_t)j->count);
    rc = MPI_Sendrecv(SEND_BUF(j), j->count, MPI_BYTE, right, 0, RECV_BUF(j), j->count, MPI_BYTE, left,
                      0, j->comm, MPI_STATUS_IGNORE);
    STAGE_IN(j, (size_t)j->count);
    j->elapsed = MPI_Wtime() - t0;
    if (j->record && j->n_cap > 0) {
        j->samples[0] = j->elapsed;
        j->nsamples = 1;
    }
    return rc;
}

// k_memcpy: the ring's --mem-copy-local: one memcpy of count bytes.
static int k_memcpy(gomb_job *j) {
    double t0 = MPI_Wtime();
    if (j->device)
        gomb_cuda_d2d(j->drbuf, j->dsbuf, (size_t)j->count); /* cudaMemcpy, as mpi-comm-bench --gpu */
    else
        memcpy(j->rbuf, j->sbuf, (size_t)j->count);
    j->elapsed = MPI_Wtime() - t0;
    if (j->record && j->n_cap > 0) {
        j->samples[0] = j->elapsed;
        j->nsamples = 1;
    }
    return MPI_SUCCESS;
}

// k_oneway: a ping-pong that stamps MPI_Wtime at every send and receive:
// the lower rank before its send (a) and after its receive (d), the upper
// rank after its receive (b) and before its send (c). Stamps of timed
// iteration i land in stamps[4i .. 4i+3]; each rank fills its own two. With
// the ranks' clock offset (from 0-byte runs of the same kernel) they give
// the time of each direction.
static int k_oneway(gomb_job *j) {
    if (!j->stamps && !(j->stamps = calloc(4 * (j->n_cap > 0 ? j->n_cap : 1), sizeof(double))))
        return MPI_ERR_NO_MEM; // only this kernel needs them
    PAIR_PROLOGUE;
    for (int i = 0; i < j->skip + n && OK; i++) {
        double *st = j->stamps + 4 * (size_t)(i < j->skip ? 0 : i - j->skip);
        if (lower) {
            double a = MPI_Wtime();
            rc = MPI_Send(sb, cnt, dt, peer, 3, j->comm);
            if (OK) rc = MPI_Recv(rb, cnt, dt, peer, 3, j->comm, MPI_STATUS_IGNORE);
            double d = MPI_Wtime();
            st[0] = a;
            st[3] = d;
            store(j, i, d - a, &sum, rec);
        } else {
            rc = MPI_Recv(rb, cnt, dt, peer, 3, j->comm, MPI_STATUS_IGNORE);
            double b = MPI_Wtime();
            double c = MPI_Wtime();
            if (OK) rc = MPI_Send(sb, cnt, dt, peer, 3, j->comm);
            st[1] = b;
            st[2] = c;
        }
    }
    j->elapsed = lower ? sum : -1;
    j->nsamples = lower && rec && OK ? n : 0;
    return rc;
}

int gomb_run_osu(gomb_job *j) {
    if ((size_t)j->n > j->n_cap) return MPI_ERR_ARG;
    switch (j->kernel) {
    case GOMB_K_OSU_LATENCY: return k_osu_latency(j);
    case GOMB_K_OSU_BW: return k_osu_bw(j, 0);
    case GOMB_K_OSU_BIBW: return k_osu_bw(j, 1);
    case GOMB_K_RMA: return k_rma(j);
    case GOMB_K_NBC: return k_nbc(j);
    case GOMB_K_RING: return k_ring(j);
    case GOMB_K_MEMCPY: return k_memcpy(j);
    case GOMB_K_ONEWAY: return k_oneway(j);
    }
    return MPI_ERR_ARG;
}
