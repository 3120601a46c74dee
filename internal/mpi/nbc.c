//go:build cgo

// nbc.c: OSU's non-blocking collective kernel: communication overlapped
// with compute, MPI_Test calls spread through it.
#include "pair.h"

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

// gomb_run_nbc: per iteration, start the collective, compute for compute_s seconds
// (calling MPI_Test ntest times, evenly spread, timed apart), wait; OSU's
// overall, compute, init, test and wait times. With compute_s = 0 it is
// OSU's pure communication loop (start, wait).
int gomb_run_nbc(gomb_job *j) {
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
