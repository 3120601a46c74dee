//go:build cgo

// imb_p2p.c: IMB-P2P's benchmarks (IMB 2021 src_c/P2P/imb_p2p_*.c). One
// call runs one message size of one benchmark over the job's communicator
// (MPI_COMM_WORLD, as IMB-P2P's), as IMB-P2P's size loop does: -pause
// (usleep), IMB-P2P's own barrier, the warm-up iterations (j->skip), the
// barrier, the timed iterations (j->n), -pause, the barrier. elapsed is
// this rank's loop time, messages the messages it sent and received in
// the loop (the random and stencil benchmarks count them; the others'
// rows need none). With record, every iteration is stamped (Unirandom's
// and Birandom's: every np inner iterations, IMB's np*n).
//
// -msgwr and -msgrd touch a byte of every 64-byte line of the buffer
// before a send and after a receive, with IMB's running dummy value.
#include "loops.h"

#include <unistd.h>

#define P2P_LINE 64
#define P2P_BARRIER_TAG 1000

static size_t p2p_dummy; // IMB's imb_p2p_config.payload.dummy

static inline void touch_send(const gomb_job *j, size_t size, char *b) {
    if (!j->p2p.touch_send) return;
    size_t d = p2p_dummy;
    for (size_t i = 0; i < size; i += P2P_LINE) b[i] = (char)d++;
    p2p_dummy = d;
}

static inline void touch_recv(const gomb_job *j, size_t size, const char *b) {
    if (!j->p2p.touch_recv) return;
    size_t d = p2p_dummy;
    for (size_t i = 0; i < size; i += P2P_LINE) d += b[i];
    p2p_dummy = d;
}

// p2p_barrier is imb_p2p_barrier: a dissemination barrier of empty
// MPI_Sendrecv.
static int p2p_barrier(gomb_job *j) {
    int tmp = 0, rc = MPI_SUCCESS;
    for (int mask = 1; mask < j->np && rc == MPI_SUCCESS; mask <<= 1) {
        int dst = (j->rank + mask) % j->np, src = (j->rank - mask + j->np) % j->np;
        rc = MPI_Sendrecv(&tmp, 0, MPI_BYTE, dst, P2P_BARRIER_TAG, &tmp, 0, MPI_BYTE, src, P2P_BARRIER_TAG, j->comm,
                          MPI_STATUS_IGNORE);
    }
    return rc;
}

static void p2p_pause(const gomb_job *j) {
    if (j->p2p.pause_us >= 0) usleep((useconds_t)j->p2p.pause_us);
}

// next_random is get_next_random: the same sequence on every rank.
static inline uint32_t next_random(uint64_t *seed) {
    uint64_t n = *seed * 7560690468208412377ull + 4343336064253945357ull;
    *seed = n;
    return (uint32_t)(n >> 24);
}

// TIMED runs BODY n times between two MPI_Wtime reads, stamping every
// iteration when recording; rc stops it.
#define TIMED(BODY)                                                                                                    \
    do {                                                                                                               \
        uint64_t k0_ = gomb_tick();                                                                                    \
        double t0_ = MPI_Wtime();                                                                                      \
        for (int it = 0; it < n && rc == MPI_SUCCESS; it++) {                                                          \
            BODY;                                                                                                      \
            if (rec) j->ticks[it] = gomb_tick();                                                                       \
        }                                                                                                              \
        uint64_t kend_ = gomb_tick();                                                                                  \
        j->elapsed = MPI_Wtime() - t0_;                                                                                \
        if (rc == MPI_SUCCESS) gomb_loop_samples(j, k0_, kend_, n);                                                    \
    } while (0)

// WARM runs BODY w times, then the barrier.
#define WARM(BODY)                                                                                                     \
    do {                                                                                                               \
        for (int it = 0; it < w && rc == MPI_SUCCESS; it++) {                                                          \
            BODY;                                                                                                      \
        }                                                                                                              \
        if (rc == MPI_SUCCESS) rc = p2p_barrier(j);                                                                    \
    } while (0)

// pingpong: rank i < np/2 with i + np/2; the lower half sends first.
static int pingpong(gomb_job *j, size_t size, int w, int n, int rec) {
    int rc = MPI_SUCCESS, np = j->np, me = j->rank, partner = (me + np / 2) % np, cnt = (int)size;
    char *s = j->sbuf, *r = j->rbuf;
    MPI_Comm c = j->comm;
#define PING                                                                                                           \
    touch_send(j, size, s);                                                                                            \
    rc = MPI_Send(s, cnt, MPI_BYTE, partner, 0, c);                                                                    \
    if (rc == MPI_SUCCESS) rc = MPI_Recv(r, cnt, MPI_BYTE, partner, 0, c, MPI_STATUS_IGNORE);                          \
    touch_recv(j, size, r)
#define PONG                                                                                                           \
    rc = MPI_Recv(r, cnt, MPI_BYTE, partner, 0, c, MPI_STATUS_IGNORE);                                                 \
    touch_recv(j, size, r);                                                                                            \
    touch_send(j, size, s);                                                                                            \
    if (rc == MPI_SUCCESS) rc = MPI_Send(s, cnt, MPI_BYTE, partner, 0, c)
    if (me < np / 2) {
        WARM(PING);
        if (rc == MPI_SUCCESS) TIMED(PING);
    } else {
        WARM(PONG);
        if (rc == MPI_SUCCESS) TIMED(PONG);
    }
#undef PING
#undef PONG
    return rc;
}

// pingping: both of a pair send at once (MPI_Irecv, MPI_Send, MPI_Wait).
static int pingping(gomb_job *j, size_t size, int w, int n, int rec) {
    int rc = MPI_SUCCESS, np = j->np, partner = (j->rank + np / 2) % np, cnt = (int)size;
    char *s = j->sbuf, *r = j->rbuf;
    MPI_Comm c = j->comm;
    MPI_Request q;
#define BOTH                                                                                                           \
    rc = MPI_Irecv(r, cnt, MPI_BYTE, partner, 0, c, &q);                                                               \
    touch_send(j, size, s);                                                                                            \
    if (rc == MPI_SUCCESS) rc = MPI_Send(s, cnt, MPI_BYTE, partner, 0, c);                                             \
    if (rc == MPI_SUCCESS) rc = MPI_Wait(&q, MPI_STATUS_IGNORE);                                                       \
    touch_recv(j, size, r)
    WARM(BOTH);
    if (rc == MPI_SUCCESS) TIMED(BOTH);
#undef BOTH
    return rc;
}

// randoms: Unirandom (one of a random pair sends to the other) and
// Birandom (both send), np pairs an iteration, the pairs from IMB's
// generator started at 0 for the warm-up and again for the loop.
static int randoms(gomb_job *j, size_t size, int w, int n, int rec, int bidir) {
    int rc = MPI_SUCCESS, np = j->np, me = j->rank, cnt = (int)size;
    char *s = j->sbuf, *r = j->rbuf;
    MPI_Comm c = j->comm;
    MPI_Request q;
    uint64_t seed = 0;
    double msgs = 0;
#define PAIR                                                                                                           \
    for (int k = 0; k < np && rc == MPI_SUCCESS; k++) {                                                                \
        int r0 = (int)(next_random(&seed) % (uint32_t)np), r1;                                                         \
        do {                                                                                                           \
            r1 = (int)(next_random(&seed) % (uint32_t)np);                                                             \
        } while (r1 == r0);                                                                                            \
        if (me != r0 && me != r1) continue;                                                                            \
        int peer = me == r0 ? r1 : r0;                                                                                 \
        if (bidir) {                                                                                                   \
            rc = MPI_Irecv(r, cnt, MPI_BYTE, peer, 0, c, &q);                                                          \
            touch_send(j, size, s);                                                                                    \
            if (rc == MPI_SUCCESS) rc = MPI_Send(s, cnt, MPI_BYTE, peer, 0, c);                                        \
            if (rc == MPI_SUCCESS) rc = MPI_Wait(&q, MPI_STATUS_IGNORE);                                           \
            touch_recv(j, size, r);                                                                                    \
            msgs += 2;                                                                                                 \
        } else if (me == r0) {                                                                                         \
            touch_send(j, size, s);                                                                                    \
            rc = MPI_Send(s, cnt, MPI_BYTE, peer, 0, c);                                                               \
            msgs++;                                                                                                    \
        } else {                                                                                                       \
            rc = MPI_Recv(r, cnt, MPI_BYTE, peer, 0, c, MPI_STATUS_IGNORE);                                            \
            touch_recv(j, size, r);                                                                                    \
            msgs++;                                                                                                    \
        }                                                                                                              \
    }
    WARM(PAIR);
    seed = 0;
    msgs = 0;
    if (rc == MPI_SUCCESS) TIMED(PAIR);
#undef PAIR
    j->p2p.messages = msgs;
    return rc;
}

// corandom: every iteration a random ring of all ranks (IMB's shuffle of
// 0..np-1), each rank receiving from its predecessor and sending to its
// successor.
static int corandom(gomb_job *j, size_t size, int w, int n, int rec) {
    int rc = MPI_SUCCESS, np = j->np, me = j->rank, cnt = (int)size, *ring = j->cnt_a;
    char *s = j->sbuf, *r = j->rbuf;
    MPI_Comm c = j->comm;
    MPI_Request q;
    uint64_t seed = 0;
    double msgs = 0;
    for (int i = 0; i < np; i++) ring[i] = i;
#define RING                                                                                                           \
    for (int i = 0; i < np; i++) {                                                                                     \
        int x = (int)(next_random(&seed) % (uint32_t)np), t = ring[i];                                                 \
        ring[i] = ring[x];                                                                                             \
        ring[x] = t;                                                                                                   \
    }                                                                                                                  \
    int at = 0;                                                                                                        \
    while (ring[at] != me) at++;                                                                                       \
    rc = MPI_Irecv(r, cnt, MPI_BYTE, ring[(at + np - 1) % np], 0, c, &q);                                              \
    touch_send(j, size, s);                                                                                            \
    if (rc == MPI_SUCCESS) rc = MPI_Send(s, cnt, MPI_BYTE, ring[(at + 1) % np], 0, c);                                 \
    if (rc == MPI_SUCCESS) rc = MPI_Wait(&q, MPI_STATUS_IGNORE);                                                       \
    touch_recv(j, size, r);                                                                                            \
    msgs += 2
    WARM(RING);
    for (int i = 0; i < np; i++) ring[i] = i;
    seed = 0;
    msgs = 0;
    if (rc == MPI_SUCCESS) TIMED(RING);
#undef RING
    j->p2p.messages = msgs;
    return rc;
}

// stencil: Stencil2D and Stencil3D, a buffer each way per neighbour
// (stride bytes apart), all receives posted, then all sends, one Waitall.
static int stencil(gomb_job *j, size_t size, int w, int n, int rec) {
    int rc = MPI_SUCCESS, k = j->p2p.nnbr, cnt = (int)size;
    MPI_Comm c = j->comm;
    MPI_Request q[2 * GOMB_P2P_MAX_NBR];
    double msgs = 0;
#define HALO                                                                                                           \
    for (int i = 0; i < k; i++) touch_send(j, size, j->sbuf + (size_t)i * j->p2p.stride);                                  \
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)                                                                   \
        rc = MPI_Irecv(j->rbuf + (size_t)i * j->p2p.stride, cnt, MPI_BYTE, j->p2p.nbr[i], 0, c, &q[i]);                         \
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)                                                                   \
        rc = MPI_Isend(j->sbuf + (size_t)i * j->p2p.stride, cnt, MPI_BYTE, j->p2p.nbr[i], 0, c, &q[k + i]);                     \
    if (rc == MPI_SUCCESS) rc = MPI_Waitall(2 * k, q, MPI_STATUSES_IGNORE);                                            \
    for (int i = 0; i < k; i++) touch_recv(j, size, j->rbuf + (size_t)i * j->p2p.stride);                                  \
    msgs += 2 * k
    WARM(HALO);
    msgs = 0;
    if (rc == MPI_SUCCESS) TIMED(HALO);
#undef HALO
    j->p2p.messages = msgs;
    return rc;
}

// sendrecv_replace: MPI_Sendrecv_replace to the next rank from the
// previous; no barrier between the warm-up and the loop, and the buffer
// read after each (the second inside the timer), as IMB has them.
static int sendrecv_replace(gomb_job *j, size_t size, int w, int n, int rec) {
    int rc = MPI_SUCCESS, np = j->np, cnt = (int)size;
    int dst = (j->rank + 1) % np, src = (j->rank + np - 1) % np;
    char *b = j->sbuf;
    for (int it = 0; it < w && rc == MPI_SUCCESS; it++) {
        touch_send(j, size, b);
        rc = MPI_Sendrecv_replace(b, cnt, MPI_BYTE, dst, 0, src, 0, j->comm, MPI_STATUS_IGNORE);
    }
    touch_recv(j, size, b);
    if (rc != MPI_SUCCESS) return rc;
    uint64_t k0 = gomb_tick();
    double t0 = MPI_Wtime();
    for (int it = 0; it < n && rc == MPI_SUCCESS; it++) {
        touch_send(j, size, b);
        rc = MPI_Sendrecv_replace(b, cnt, MPI_BYTE, dst, 0, src, 0, j->comm, MPI_STATUS_IGNORE);
        if (rec) j->ticks[it] = gomb_tick();
    }
    touch_recv(j, size, b);
    uint64_t kend = gomb_tick();
    j->elapsed = MPI_Wtime() - t0;
    if (rc == MPI_SUCCESS) gomb_loop_samples(j, k0, kend, n);
    return rc;
}

int gomb_run_imb_p2p(gomb_job *j) {
    size_t size = (size_t)j->count;
    int w = j->skip, n = j->n, rec = j->record, rc;
    j->p2p.messages = 0;
    if (j->p2p.op == GOMB_P2P_CORANDOM && !j->cnt_a) return MPI_ERR_NO_MEM;
    if ((j->p2p.op == GOMB_P2P_STENCIL2D || j->p2p.op == GOMB_P2P_STENCIL3D) &&
        (j->p2p.nnbr <= 0 || j->p2p.nnbr > GOMB_P2P_MAX_NBR))
        return MPI_ERR_ARG;
    p2p_pause(j);
    if ((rc = p2p_barrier(j)) != MPI_SUCCESS) return rc;
    switch (j->p2p.op) {
    case GOMB_P2P_PINGPONG: rc = pingpong(j, size, w, n, rec); break;
    case GOMB_P2P_PINGPING: rc = pingping(j, size, w, n, rec); break;
    case GOMB_P2P_UNIRANDOM: rc = randoms(j, size, w, n, rec, 0); break;
    case GOMB_P2P_BIRANDOM: rc = randoms(j, size, w, n, rec, 1); break;
    case GOMB_P2P_CORANDOM: rc = corandom(j, size, w, n, rec); break;
    case GOMB_P2P_STENCIL2D:
    case GOMB_P2P_STENCIL3D: rc = stencil(j, size, w, n, rec); break;
    case GOMB_P2P_SENDRECV_REPLACE: rc = sendrecv_replace(j, size, w, n, rec); break;
    default: return MPI_ERR_ARG;
    }
    if (rc != MPI_SUCCESS) return rc;
    p2p_pause(j);
    return p2p_barrier(j);
}
