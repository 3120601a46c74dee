//go:build cgo

// loops.c: what every kernel file's loops call (loops.h): the barriers
// before the clock starts and the per-iteration samples of a loop timed
// whole.
#include "loops.h"

#define N_BARR 2

// gomb_imb_barrier is a dissemination barrier made of zero-byte
// MPI_Sendrecv calls: IMB's -imb_barrier, independent of the library's
// MPI_Barrier.
int gomb_imb_barrier(MPI_Comm comm, int rank, int np) {
    int rc = MPI_SUCCESS;
    char dummy = 0;
    for (int d = 1; d < np && rc == MPI_SUCCESS; d <<= 1) {
        rc = MPI_Sendrecv(&dummy, 0, MPI_BYTE, (rank + d) % np, 1000, &dummy, 0, MPI_BYTE,
                          (rank - d + np) % np, 1000, comm, MPI_STATUS_IGNORE);
    }
    return rc;
}

int gomb_n_barriers(gomb_job *j) {
    int rc = MPI_SUCCESS;
    for (int i = 0; i < N_BARR && rc == MPI_SUCCESS; i++) rc = gomb_job_barrier(j);
    return rc;
}

// gomb_ticks_to_samples turns the cycle-counter stamps of a loop timed
// whole (elapsed seconds, from stamp k0 to kend) into per-iteration
// seconds that add up to elapsed. Stamp i falls inside iteration i; sample
// i is the time from stamp i-1 to stamp i, and the stretch after the last
// stamp (kend), the rest of the last iteration, makes up sample 0's start.
void gomb_ticks_to_samples(double *samples, const uint64_t *ticks, uint64_t k0, uint64_t kend, double elapsed, int n) {
    uint64_t span = kend - k0, prev = k0;
    double scale = span ? elapsed / (double)span : 0;
    for (int i = 0; i < n; i++) {
        samples[i] = span ? (double)(ticks[i] - prev) * scale : elapsed / n;
        prev = ticks[i];
    }
    if (span && n > 0) samples[0] += (double)(kend - prev) * scale;
}

// gomb_loop_samples is gomb_ticks_to_samples for a job's loop of n
// iterations (record set).
void gomb_loop_samples(gomb_job *j, uint64_t k0, uint64_t kend, int n) {
    j->nsamples = 0;
    if (!j->record || n <= 0) return;
    gomb_ticks_to_samples(j->samples, j->ticks, k0, kend, j->elapsed, n);
    j->nsamples = n;
}
