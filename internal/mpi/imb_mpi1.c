//go:build cgo

// imb_mpi1.c: the timed loops, one function per IMB kernel (those whose
// messages are one count each are in imb_mpi1_body.h, shared with large.c;
// the barriers and samples every loop uses are loops.c's).
//
// Rules, so that gomb measures what IMB-MPI1 measures:
//  - two barriers on the kernel's communicator before the clock starts;
//  - loop-timed kernels (PingPong, PingPing, Sendrecv, Exchange, Uniband,
//    Biband, Barrier) read MPI_Wtime once before and once after the loop,
//    as IMB does; the per-iteration samples come from a cycle counter read
//    after each iteration (about 10 ns) and are scaled so that they add up
//    to the MPI_Wtime interval exactly;
//  - collectives time every call with MPI_Wtime and sum, with the -sync
//    barrier outside the timer, as IMB does;
//  - no allocation, no Go, no branches on options other than what IMB has.
#include "imb_mpi1_body.h"
#include "pattern.h"

static int k_barrier(gomb_job *j) {
    KERNEL_PROLOGUE;
    TIMED_LOOP(rc = gomb_job_barrier(j), );
    return rc;
}

// set_blocks fills counts and displacements: cnt elements per rank.
static void set_blocks(int *counts, int *displs, int np, int cnt) {
    for (int i = 0; i < np; i++) {
        counts[i] = cnt;
        displs[i] = i * cnt;
    }
}

// pcoll_op is the collective of a kernel as gomb_pcoll_init names it.
static int pcoll_op(int kernel) {
    switch (kernel) {
    case GOMB_K_BCAST: return GOMB_NBC_IBCAST;
    case GOMB_K_SCATTER: return GOMB_NBC_ISCATTER;
    case GOMB_K_SCATTERV: return GOMB_NBC_ISCATTERV;
    case GOMB_K_GATHER: return GOMB_NBC_IGATHER;
    case GOMB_K_GATHERV: return GOMB_NBC_IGATHERV;
    case GOMB_K_ALLGATHER: return GOMB_NBC_IALLGATHER;
    case GOMB_K_ALLGATHERV: return GOMB_NBC_IALLGATHERV;
    case GOMB_K_ALLTOALL: return GOMB_NBC_IALLTOALL;
    case GOMB_K_ALLTOALLV: return GOMB_NBC_IALLTOALLV;
    case GOMB_K_REDUCE: return GOMB_NBC_IREDUCE;
    case GOMB_K_ALLREDUCE: return GOMB_NBC_IALLREDUCE;
    case GOMB_K_BARRIER_CALLS: return GOMB_NBC_IBARRIER;
    case GOMB_K_REDUCE_SCATTER:
    case GOMB_K_REDUCE_SCATTER_SPLIT: return GOMB_NBC_IREDUCE_SCATTER;
    }
    return -1;
}

// k_coll_persistent: OSU's persistent collective tests (osu_<op>_persistent,
// OSU 7.3 on): the request made once a size by MPI_<op>_init over the
// first buffers with the fixed root, then COLL_LOOP's timing of MPI_Start
// and MPI_Wait, the barrier after each; freed after the size.
static int k_coll_persistent(gomb_job *j) {
    KERNEL_PROLOGUE;
    int np = j->np, op = pcoll_op(j->kernel);
    if (op < 0) return MPI_ERR_ARG;
    set_blocks(j->cnt_a, j->dsp_a, np, cnt);
    set_blocks(j->cnt_b, j->dsp_b, np, cnt);
    if (j->kernel == GOMB_K_REDUCE_SCATTER_SPLIT) // cnt elements in all, split as evenly as possible
        for (int i = 0; i < np; i++) j->cnt_b[i] = cnt / np + (i < cnt % np);
    MPI_Request req = MPI_REQUEST_NULL;
    if ((rc = gomb_pcoll_init(j, op, dt, cnt, s.base, r.base, j->root, &req)) != MPI_SUCCESS) return rc;
    COLL_LOOP(gomb_start_wait(&req));
    int rf = MPI_Request_free(&req);
    return rc != MPI_SUCCESS ? rc : rf;
}

static int k_coll(gomb_job *j) {
    if (j->persist) return k_coll_persistent(j);
    KERNEL_PROLOGUE;
    int np = j->np, me = j->rank;
    switch (j->kernel) {
    case GOMB_K_SCATTERV:
        set_blocks(j->cnt_a, j->dsp_a, np, cnt);
        COLL_LOOP(MPI_Scatterv(s.cur, j->cnt_a, j->dsp_a, dt, IP_ROOT(r.cur), cnt, dt, root, j->comm));
        break;
    case GOMB_K_GATHERV:
        set_blocks(j->cnt_a, j->dsp_a, np, cnt);
        COLL_LOOP(MPI_Gatherv(IP_ROOT(s.cur), cnt, dt, r.cur, j->cnt_a, j->dsp_a, dt, root, j->comm));
        break;
    case GOMB_K_ALLGATHERV:
        set_blocks(j->cnt_a, j->dsp_a, np, cnt);
        COLL_LOOP(MPI_Allgatherv(IP(s.cur), cnt, dt, r.cur, j->cnt_a, j->dsp_a, dt, j->comm));
        break;
    case GOMB_K_ALLTOALLV:
        set_blocks(j->cnt_a, j->dsp_a, np, cnt);
        set_blocks(j->cnt_b, j->dsp_b, np, cnt);
        COLL_LOOP(MPI_Alltoallv(IP(s.cur), j->cnt_a, j->dsp_a, dt, r.cur, j->cnt_b, j->dsp_b, dt,
                                j->comm));
        break;
    case GOMB_K_ALLTOALLW: // OSU's: every block MPI_Alltoallw's byte displacement and the one type
        if ((rc = gomb_job_blocks(j, cnt, 1)) != MPI_SUCCESS) return rc;
        COLL_LOOP(MPI_Alltoallw(IP(s.cur), j->cnt_a, j->dsp_a, j->typ, r.cur, j->cnt_b, j->dsp_b, j->typ,
                                j->comm));
        break;
    case GOMB_K_REDUCE_SCATTER:
        for (int i = 0; i < np; i++) j->cnt_a[i] = cnt;
        COLL_LOOP(MPI_Reduce_scatter(IP(s.cur), r.cur, j->cnt_a, dt, MPI_SUM, j->comm));
        break;
    case GOMB_K_BARRIER_CALLS:
        COLL_LOOP(MPI_Barrier(j->comm));
        break;
    case GOMB_K_REDUCE_SCATTER_SPLIT: /* cnt elements in all, split as evenly as possible */
        for (int i = 0; i < np; i++) j->cnt_a[i] = cnt / np + (i < cnt % np);
        COLL_LOOP(MPI_Reduce_scatter(IP(s.cur), r.cur, j->cnt_a, dt, MPI_SUM, j->comm));
        break;
    default:
        return MPI_ERR_ARG;
    }
    return rc;
}

// k_neighbor: OSU's neighbourhood collectives (osu_neighbor_*): the call on
// the distributed graph (gomb_job_set_nbr), timed as the other collectives,
// the barrier after each on the job's communicator (OSU's omb_comm); a
// block per neighbour, one after another.
static int k_neighbor(gomb_job *j) {
    KERNEL_PROLOGUE;
    MPI_Comm g = j->graph.comm;
    if (g == MPI_COMM_NULL) return MPI_ERR_COMM;
    if ((rc = gomb_job_blocks(j, cnt, 0)) != MPI_SUCCESS) return rc;
    switch (j->nbc.op) {
    case GOMB_NBC_INEIGHBOR_ALLGATHER:
        COLL_LOOP(MPI_Neighbor_allgather(s.cur, cnt, dt, r.cur, cnt, dt, g));
        break;
    case GOMB_NBC_INEIGHBOR_ALLGATHERV:
        COLL_LOOP(MPI_Neighbor_allgatherv(s.cur, cnt, dt, r.cur, j->cnt_b, j->dsp_b, dt, g));
        break;
    case GOMB_NBC_INEIGHBOR_ALLTOALL:
        COLL_LOOP(MPI_Neighbor_alltoall(s.cur, cnt, dt, r.cur, cnt, dt, g));
        break;
    case GOMB_NBC_INEIGHBOR_ALLTOALLV:
        COLL_LOOP(MPI_Neighbor_alltoallv(s.cur, j->cnt_a, j->dsp_a, dt, r.cur, j->cnt_b, j->dsp_b, dt, g));
        break;
    case GOMB_NBC_INEIGHBOR_ALLTOALLW:
        COLL_LOOP(MPI_Neighbor_alltoallw(s.cur, j->cnt_a, j->adsp_a, j->typ, r.cur, j->cnt_b, j->adsp_b, j->typ, g));
        break;
    default:
        return MPI_ERR_ARG;
    }
    return rc;
}

// gomb_run_imb runs one call of an IMB-MPI1 kernel (dispatch.c checked j).
int gomb_run_imb(gomb_job *j) {
    if (one_count_kernel(j->kernel) && !j->persist) return k_one_count(j);
    switch (j->kernel) {
    case GOMB_K_BARRIER: return k_barrier(j);
    case GOMB_K_BCAST ... GOMB_K_ALLTOALLV:
    case GOMB_K_BARRIER_CALLS:
    case GOMB_K_REDUCE_SCATTER_SPLIT:
    case GOMB_K_ALLTOALLW: return k_coll(j);
    case GOMB_K_NEIGHBOR: return k_neighbor(j);
    default: return MPI_ERR_ARG;
    }
}

// gomb_exchange_verify checks, inside the Exchange kernel, the message from
// the left neighbour before the one from the right overwrites it.
void gomb_exchange_verify(gomb_job *j, const char *rbuf, int left) {
    tally t = {0, -1, 0, 0, 0};
    size_t B = (size_t)j->count_c * (size_t)gomb_dtype_size(j->dtype);
    expect_bytes(&t, rbuf, B, left, 0, j->check_iter);
    keep(j, &t);
}
