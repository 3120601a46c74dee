//go:build cgo

// osu_nbc.c: OSU's non-blocking collective kernel: communication overlapped
// with compute, MPI_Test calls spread through it.
#include "pair.h"

static int nbc_start(gomb_job *j, MPI_Datatype dt, int cnt, MPI_Request *req) {
    int root = j->root;
    switch (j->nbc.op) {
    case GOMB_NBC_IBARRIER: return MPI_Ibarrier(j->comm, req);
    case GOMB_NBC_IBCAST: return MPI_Ibcast(j->sbuf, cnt, dt, root, j->comm, req);
    case GOMB_NBC_IREDUCE: return MPI_Ireduce(j->sbuf, j->rbuf, cnt, dt, MPI_SUM, root, j->comm, req);
    case GOMB_NBC_IALLREDUCE: return MPI_Iallreduce(j->sbuf, j->rbuf, cnt, dt, MPI_SUM, j->comm, req);
    case GOMB_NBC_IGATHER: return MPI_Igather(j->sbuf, cnt, dt, j->rbuf, cnt, dt, root, j->comm, req);
    case GOMB_NBC_ISCATTER: return MPI_Iscatter(j->sbuf, cnt, dt, j->rbuf, cnt, dt, root, j->comm, req);
    case GOMB_NBC_IALLGATHER: return MPI_Iallgather(j->sbuf, cnt, dt, j->rbuf, cnt, dt, j->comm, req);
    case GOMB_NBC_IALLTOALL: return MPI_Ialltoall(j->sbuf, cnt, dt, j->rbuf, cnt, dt, j->comm, req);
    case GOMB_NBC_IREDUCE_SCATTER_BLOCK: return MPI_Ireduce_scatter_block(j->sbuf, j->rbuf, cnt, dt, MPI_SUM, j->comm, req);
    // the v and w forms: the blocks gomb_run_nbc set (cnt_a/dsp_a the sending side, cnt_b/dsp_b
    // the receiving side; cnt_b the reduce-scatter's split)
    case GOMB_NBC_IGATHERV:
        return MPI_Igatherv(j->sbuf, cnt, dt, j->rbuf, j->cnt_b, j->dsp_b, dt, root, j->comm, req);
    case GOMB_NBC_ISCATTERV:
        return MPI_Iscatterv(j->sbuf, j->cnt_a, j->dsp_a, dt, j->rbuf, cnt, dt, root, j->comm, req);
    case GOMB_NBC_IALLGATHERV:
        return MPI_Iallgatherv(j->sbuf, cnt, dt, j->rbuf, j->cnt_b, j->dsp_b, dt, j->comm, req);
    case GOMB_NBC_IALLTOALLV:
        return MPI_Ialltoallv(j->sbuf, j->cnt_a, j->dsp_a, dt, j->rbuf, j->cnt_b, j->dsp_b, dt, j->comm, req);
    case GOMB_NBC_IALLTOALLW:
        return MPI_Ialltoallw(j->sbuf, j->cnt_a, j->dsp_a, j->typ, j->rbuf, j->cnt_b, j->dsp_b, j->typ, j->comm, req);
    case GOMB_NBC_IREDUCE_SCATTER:
        return MPI_Ireduce_scatter(j->sbuf, j->rbuf, j->cnt_b, dt, MPI_SUM, j->comm, req);
    // on the neighbourhood's graph (gomb_job_set_nbr)
    case GOMB_NBC_INEIGHBOR_ALLGATHER:
        return MPI_Ineighbor_allgather(j->sbuf, cnt, dt, j->rbuf, cnt, dt, j->graph.comm, req);
    case GOMB_NBC_INEIGHBOR_ALLGATHERV:
        return MPI_Ineighbor_allgatherv(j->sbuf, cnt, dt, j->rbuf, j->cnt_b, j->dsp_b, dt, j->graph.comm, req);
    case GOMB_NBC_INEIGHBOR_ALLTOALL:
        return MPI_Ineighbor_alltoall(j->sbuf, cnt, dt, j->rbuf, cnt, dt, j->graph.comm, req);
    case GOMB_NBC_INEIGHBOR_ALLTOALLV:
        return MPI_Ineighbor_alltoallv(j->sbuf, j->cnt_a, j->dsp_a, dt, j->rbuf, j->cnt_b, j->dsp_b, dt, j->graph.comm,
                                       req);
    case GOMB_NBC_INEIGHBOR_ALLTOALLW:
        return MPI_Ineighbor_alltoallw(j->sbuf, j->cnt_a, j->adsp_a, j->typ, j->rbuf, j->cnt_b, j->adsp_b, j->typ,
                                       j->graph.comm, req);
    }
    return MPI_ERR_ARG;
}

// uses_blocks: the operations with a count and displacement a block.
static int uses_blocks(int op) {
    switch (op) {
    case GOMB_NBC_IGATHERV:
    case GOMB_NBC_ISCATTERV:
    case GOMB_NBC_IALLGATHERV:
    case GOMB_NBC_IALLTOALLV:
    case GOMB_NBC_IALLTOALLW:
    case GOMB_NBC_IREDUCE_SCATTER: return 1;
    }
    return op >= GOMB_NBC_INEIGHBOR_ALLGATHER;
}

// OSU's dummy compute (osu_util_mpi.c): whole passes of a 25x25 float
// multiply-add until their summed time reaches the target. The overshoot
// of up to one pass (about a microsecond) is part of OSU's overall time at
// small sizes, so gomb computes the same way rather than to the exact
// target.
#define OSU_DIM 25
static float osu_a[OSU_DIM][OSU_DIM], osu_x[OSU_DIM], osu_y[OSU_DIM];

static void osu_arrays(void) {
    static int done;
    if (done) return;
    done = 1;
    for (int i = 0; i < OSU_DIM; i++) {
        osu_x[i] = osu_y[i] = 1.0f;
        for (int k = 0; k < OSU_DIM; k++) osu_a[i][k] = 2.0f;
    }
}

static __attribute__((noinline)) void osu_compute_on_host(void) {
    for (int i = 0; i < OSU_DIM; i++)
        for (int k = 0; k < OSU_DIM; k++) osu_x[i] = osu_x[i] + osu_a[i][k] * osu_a[k][i] + osu_y[k];
}

static void osu_compute_cpu(double target) {
    double elapsed = 0;
    while (elapsed < target) {
        double t1 = MPI_Wtime();
        osu_compute_on_host();
        elapsed += MPI_Wtime() - t1;
    }
}

// osu_compute_and_probe is OSU's do_compute_and_probe on the CPU: with
// ntest probes, ntest rounds of compute_s/ntest then one MPI_Test (called
// after completion too, as OSU does); the time of the tests is returned.
static double osu_compute_and_probe(gomb_job *j, MPI_Request *req, int *rc) {
    if (j->nbc.ntest <= 0) {
        osu_compute_cpu(j->nbc.compute_s);
        return 0;
    }
    double tt = 0;
    int flag = 0;
    for (int k = 0; k < j->nbc.ntest && *rc == MPI_SUCCESS; k++) {
        osu_compute_cpu(j->nbc.compute_s / j->nbc.ntest);
        double a = MPI_Wtime();
        *rc = MPI_Test(req, &flag, MPI_STATUS_IGNORE);
        tt += MPI_Wtime() - a;
    }
    return tt;
}

// gomb_run_nbc: OSU's two loops of a non-blocking collective. With
// compute_s = 0, the pure communication loop (start, wait); else per
// iteration start, compute for compute_s seconds as OSU does (with ntest
// MPI_Test calls), wait: OSU's overall, compute (tests excluded), init,
// test and wait times, its clock reads where OSU reads them.
int gomb_run_nbc(gomb_job *j) {
    KERNEL_PROLOGUE;
    double sum = 0;
    (void)s;
    (void)r;
    j->t_init = j->t_compute = j->t_test = j->t_wait = 0;
    if (j->nbc.op >= GOMB_NBC_INEIGHBOR_ALLGATHER && j->graph.comm == MPI_COMM_NULL) return MPI_ERR_COMM;
    if (uses_blocks(j->nbc.op) && (rc = gomb_job_blocks(j, cnt, j->nbc.op == GOMB_NBC_IALLTOALLW)) != MPI_SUCCESS)
        return rc;
    if (j->nbc.op == GOMB_NBC_IREDUCE_SCATTER) // cnt elements in all, split as OSU splits them
        for (int i = 0; i < j->np; i++) j->cnt_b[i] = cnt / j->np + (i < cnt % j->np);
    if (j->nbc.compute_s > 0) osu_arrays(); // once per process, as OSU's one allocation
    for (int i = 0; i < j->skip + n && OK; i++) {
        MPI_Request req;
        if (j->nbc.compute_s <= 0) {
            double t0 = MPI_Wtime();
            rc = nbc_start(j, dt, cnt, &req);
            if (OK) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
            store(j, i, MPI_Wtime() - t0, &sum, rec);
        } else {
            double t0 = MPI_Wtime();
            double init = MPI_Wtime();
            rc = nbc_start(j, dt, cnt, &req);
            init = MPI_Wtime() - init;
            double comp = MPI_Wtime(), tt = 0;
            if (OK) tt = osu_compute_and_probe(j, &req, &rc);
            comp = MPI_Wtime() - comp;
            double wait = MPI_Wtime();
            if (OK) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
            wait = MPI_Wtime() - wait;
            double t3 = MPI_Wtime();
            if (i >= j->skip) {
                j->t_init += init;
                j->t_test += tt;
                j->t_compute += comp - tt;
                j->t_wait += wait;
            }
            store(j, i, t3 - t0, &sum, rec);
        }
        if (OK && j->sync) rc = gomb_job_barrier(j);
    }
    j->elapsed = sum;
    j->nsamples = rec && OK ? n : 0;
    return rc;
}
