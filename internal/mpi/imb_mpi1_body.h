/* imb_mpi1_body.h: IMB-MPI1's loops whose messages are one count each
 * (PingPong, PingPing, Sendrecv, Exchange, Uniband, Biband and the
 * collectives of one count: Bcast, Scatter, Gather, Allgather, Alltoall,
 * Reduce, Reduce_local, Reduce_scatter_block, Allreduce), written once and
 * compiled twice: by imb_mpi1.c with MPI's int counts, and by large.c (MPI
 * 4.0 and later) with MPI_Count counts through the large-count calls
 * (MPI_Send_c, ...), for messages past INT_MAX. The including file defines
 *   KCOUNT, KCOUNT_FIELD  the count's type and gomb_job field (loops.h)
 *   KCALL(f)              the MPI call named f (f, or f##_c)
 *   KNAME(f)              the kernel function's name (f, or f##_c)
 * Only the message calls change; barriers, acknowledgements and waits are
 * the same calls in both. */
#ifndef GOMB_KERNELS_BODY_H
#define GOMB_KERNELS_BODY_H

#include "loops.h"

#ifndef KCALL
#define KCALL(f) f
#define KNAME(f) f
#endif

// PingPong and PingPing: ranks 0 and np-1 of the communicator; the others
// only take part in the barriers.
static int KNAME(k_pingpong)(gomb_job *j) {
    KERNEL_PROLOGUE;
    int pair0 = 0, pair1 = j->np - 1;
    int s_tag = 1, r_tag = j->source == GOMB_SRC_SPECIFIC ? s_tag : MPI_ANY_TAG;
    if (j->rank != pair0 && j->rank != pair1) {
        j->elapsed = -1; /* not a timing rank */
        return MPI_SUCCESS;
    }
    int peer = j->rank == pair0 ? pair1 : pair0;
    int src = j->source == GOMB_SRC_ANY ? MPI_ANY_SOURCE : peer;
    MPI_Status st; /* IMB receives with a status, not MPI_STATUS_IGNORE */
    if (j->rank == pair0) {
        TIMED_LOOP(rc = KCALL(MPI_Send)(s.cur, cnt, dt, peer, s_tag, j->comm),
                   if (OK) rc = KCALL(MPI_Recv)(r.cur, cnt, dt, src, r_tag, j->comm, &st));
    } else {
        TIMED_LOOP(rc = KCALL(MPI_Recv)(r.cur, cnt, dt, src, r_tag, j->comm, &st);
                   if (OK) rc = KCALL(MPI_Send)(s.cur, cnt, dt, peer, s_tag, j->comm), );
    }
    return rc;
}

static int KNAME(k_pingping)(gomb_job *j) {
    KERNEL_PROLOGUE;
    int pair0 = 0, pair1 = j->np - 1;
    int s_tag = 1, r_tag = j->source == GOMB_SRC_SPECIFIC ? s_tag : MPI_ANY_TAG;
    MPI_Request req;
    if (j->rank != pair0 && j->rank != pair1) {
        j->elapsed = -1; /* not a timing rank */
        return MPI_SUCCESS;
    }
    int peer = j->rank == pair0 ? pair1 : pair0;
    int src = j->source == GOMB_SRC_ANY ? MPI_ANY_SOURCE : peer;
    MPI_Status st;
    TIMED_LOOP(rc = KCALL(MPI_Isend)(s.cur, cnt, dt, peer, s_tag, j->comm, &req),
               if (OK) rc = KCALL(MPI_Recv)(r.cur, cnt, dt, src, r_tag, j->comm, &st);
               if (OK) rc = MPI_Wait(&req, &st));
    return rc;
}

static int KNAME(k_sendrecv)(gomb_job *j) {
    KERNEL_PROLOGUE;
    int right = (j->rank + 1) % j->np, left = (j->rank - 1 + j->np) % j->np;
    MPI_Status st;
    TIMED_LOOP(rc = KCALL(MPI_Sendrecv)(s.cur, cnt, dt, right, 1, r.cur, cnt, dt, left, MPI_ANY_TAG, j->comm,
                                 &st), );
    return rc;
}

// Exchange, as IMB's: send the first half of the send buffer right and the
// second half left; receive from the left, then from the right, both into
// the start of the one-message receive buffer. While checking (-check),
// the left neighbour's message is verified before the right one lands on it.
static int KNAME(k_exchange)(gomb_job *j) {
    KERNEL_PROLOGUE;
    int right = (j->rank + 1) % j->np, left = (j->rank - 1 + j->np) % j->np;
    size_t half = (size_t)cnt * (size_t)gomb_dtype_size(j->dtype);
    MPI_Request req[2];
    MPI_Status st[2];
    TIMED_LOOP(rc = KCALL(MPI_Isend)(s.cur, cnt, dt, right, 1, j->comm, &req[0]);
               if (OK) rc = KCALL(MPI_Isend)(s.cur + half, cnt, dt, left, 1, j->comm, &req[1]),
               if (OK) rc = KCALL(MPI_Recv)(r.cur, cnt, dt, left, MPI_ANY_TAG, j->comm, st);
               if (OK && j->checking) gomb_exchange_verify(j, r.cur, left);
               if (OK) rc = KCALL(MPI_Recv)(r.cur, cnt, dt, right, MPI_ANY_TAG, j->comm, st);
               if (OK) rc = MPI_Waitall(2, req, st));
    return rc;
}

// Uniband / Biband: rank i pairs with i + np/2. Per iteration a window of
// non-blocking messages, then a one-byte acknowledgement from the upper rank.
static int KNAME(k_band)(gomb_job *j, int bidir) {
    KERNEL_PROLOGUE;
    int w = j->window, half = j->np / 2;
    char ack = 0;
    if (j->rank >= 2 * half) { /* odd np: the last rank has no partner */
        j->elapsed = -1;
        return MPI_SUCCESS;
    }
    int lower = j->rank < half;
    int peer = lower ? j->rank + half : j->rank - half;
    int nr = 0;
    TIMED_LOOP(nr = 0;
               if (!lower || bidir) for (int k = 0; k < w && OK; k++)
                   rc = KCALL(MPI_Irecv)(r.cur, cnt, dt, peer, 10, j->comm, &j->reqs[nr++]);
               if (lower || bidir) for (int k = 0; k < w && OK; k++)
                   rc = KCALL(MPI_Isend)(s.cur, cnt, dt, peer, 10, j->comm, &j->reqs[nr++]),
               if (OK) rc = MPI_Waitall(nr, j->reqs, MPI_STATUSES_IGNORE);
               if (OK && lower) rc = MPI_Recv(&ack, 1, MPI_BYTE, peer, 11, j->comm, MPI_STATUS_IGNORE);
               if (OK && !lower) rc = MPI_Send(&ack, 1, MPI_BYTE, peer, 11, j->comm));
    return rc;
}

// k_coll1: the collectives of one count, timed as IMB times collectives
// (COLL_LOOP).
static int KNAME(k_coll1)(gomb_job *j) {
    KERNEL_PROLOGUE;
    int me = j->rank;
    (void)me;
    switch (j->kernel) {
    case GOMB_K_BCAST:
        COLL_LOOP(KCALL(MPI_Bcast)(me == root ? s.cur : r.cur, cnt, dt, root, j->comm));
        break;
    case GOMB_K_SCATTER:
        COLL_LOOP(KCALL(MPI_Scatter)(s.cur, cnt, dt, IP_ROOT(r.cur), cnt, dt, root, j->comm));
        break;
    case GOMB_K_GATHER:
        COLL_LOOP(KCALL(MPI_Gather)(IP_ROOT(s.cur), cnt, dt, r.cur, cnt, dt, root, j->comm));
        break;
    case GOMB_K_ALLGATHER:
        COLL_LOOP(KCALL(MPI_Allgather)(IP(s.cur), cnt, dt, r.cur, cnt, dt, j->comm));
        break;
    case GOMB_K_ALLTOALL:
        COLL_LOOP(KCALL(MPI_Alltoall)(IP(s.cur), cnt, dt, r.cur, cnt, dt, j->comm));
        break;
    case GOMB_K_REDUCE:
        COLL_LOOP(KCALL(MPI_Reduce)(IP_ROOT(s.cur), r.cur, cnt, dt, MPI_SUM, root, j->comm));
        break;
    case GOMB_K_REDUCE_LOCAL:
        COLL_LOOP(KCALL(MPI_Reduce_local)(s.cur, r.cur, cnt, dt, MPI_SUM));
        break;
    case GOMB_K_REDUCE_SCATTER_BLOCK:
        COLL_LOOP(KCALL(MPI_Reduce_scatter_block)(IP(s.cur), r.cur, cnt, dt, MPI_SUM, j->comm));
        break;
    case GOMB_K_ALLREDUCE:
        COLL_LOOP(KCALL(MPI_Allreduce)(IP(s.cur), r.cur, cnt, dt, MPI_SUM, j->comm));
        break;
    default:
        return MPI_ERR_ARG;
    }
    return rc;
}

// one_count_kernel reports whether this file has kernel k.
static inline int one_count_kernel(int k) {
    switch (k) {
    case GOMB_K_PINGPONG ... GOMB_K_BIBAND:
    case GOMB_K_BCAST:
    case GOMB_K_SCATTER:
    case GOMB_K_GATHER:
    case GOMB_K_ALLGATHER:
    case GOMB_K_ALLTOALL:
    case GOMB_K_REDUCE:
    case GOMB_K_REDUCE_LOCAL:
    case GOMB_K_REDUCE_SCATTER_BLOCK:
    case GOMB_K_ALLREDUCE: return 1;
    }
    return 0;
}

// k_one_count runs one call of this file's kernel k (one_count_kernel);
// Uniband and Biband get their window's requests first.
static int KNAME(k_one_count)(gomb_job *j) {
    if (j->kernel == GOMB_K_UNIBAND || j->kernel == GOMB_K_BIBAND) {
        int rc = gomb_job_requests(j, 2 * j->window);
        if (rc != MPI_SUCCESS) return rc;
    }
    switch (j->kernel) {
    case GOMB_K_PINGPONG: return KNAME(k_pingpong)(j);
    case GOMB_K_PINGPING: return KNAME(k_pingping)(j);
    case GOMB_K_SENDRECV: return KNAME(k_sendrecv)(j);
    case GOMB_K_EXCHANGE: return KNAME(k_exchange)(j);
    case GOMB_K_UNIBAND: return KNAME(k_band)(j, 0);
    case GOMB_K_BIBAND: return KNAME(k_band)(j, 1);
    }
    return one_count_kernel(j->kernel) ? KNAME(k_coll1)(j) : MPI_ERR_ARG;
}

#endif
