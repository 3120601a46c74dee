//go:build cgo

// ring.c: the ring monitor's samples (mpi-comm-bench's MPI_Sendrecv
// around the ring, and its local copy).
#include "pair.h"

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

// gomb_run_ring runs one sample (dispatch.c checked j).
int gomb_run_ring(gomb_job *j) { return j->kernel == GOMB_K_MEMCPY ? k_memcpy(j) : k_ring(j); }
