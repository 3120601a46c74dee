//go:build cgo

// dispatch.c: gomb_run, the one way into every timed kernel. A table maps
// each kernel to the file of what it measures: imb_mpi1.c (IMB-MPI1's
// point-to-point and collective loops, and the OSU collectives that share
// them), osu.c (OSU's point-to-point latency and bandwidth, one-way
// latency), osu_rma.c (one-sided), osu_nbc.c (OSU's non-blocking collectives with
// overlap), imb_nbc.c (IMB-NBC's and IMB-MPI4's), imb_ext.c (IMB-EXT's),
// imb_rma.c (IMB-RMA's), imb_p2p.c (IMB-P2P's), imb_io.c (IMB-IO's),
// ring.c (the ring monitor); IMB-MPI1's messages past INT_MAX elements go
// to large.c, imb_mpi1.c's loops through MPI-4's large-count calls.
// Validation (validate.c) calls in here; the kernels call the checks made
// inside their loops (checks.c), and everything calls job.c.
// TestCFilesCallNoCircle keeps the calls between the files one way.
#include "gomb.h"

typedef int (*gomb_family)(gomb_job *);

static const gomb_family family[GOMB_K_COUNT] = {
    [GOMB_K_PINGPONG ... GOMB_K_ALLTOALLV] = gomb_run_imb,
    [GOMB_K_BARRIER_CALLS] = gomb_run_imb,
    [GOMB_K_REDUCE_SCATTER_SPLIT] = gomb_run_imb,
    [GOMB_K_ALLTOALLW] = gomb_run_imb,
    [GOMB_K_NEIGHBOR] = gomb_run_imb,
    [GOMB_K_OSU_LATENCY ... GOMB_K_OSU_BIBW] = gomb_run_p2p,
    [GOMB_K_ONEWAY] = gomb_run_p2p,
    [GOMB_K_OSU_FAN] = gomb_run_p2p,
    [GOMB_K_RMA] = gomb_run_rma,
    [GOMB_K_NBC] = gomb_run_nbc,
    [GOMB_K_IMB_NBC] = gomb_run_imb_nbc,
    [GOMB_K_IMB_EXT] = gomb_run_imb_ext,
    [GOMB_K_IMB_RMA] = gomb_run_imb_rma,
    [GOMB_K_IMB_P2P] = gomb_run_imb_p2p,
    [GOMB_K_IMB_IO] = gomb_run_imb_io,
    [GOMB_K_RING] = gomb_run_ring,
    [GOMB_K_MEMCPY] = gomb_run_ring,
};

// gomb_kernel_dispatched reports whether gomb_run has a family for kernel.
int gomb_kernel_dispatched(int kernel) {
    return kernel > GOMB_K_NONE && kernel < GOMB_K_COUNT && family[kernel] != NULL;
}

// gomb_run runs one kernel call as described by j. Ranks outside the
// kernel's communicator return at once.
int gomb_run(gomb_job *j) {
    j->elapsed = 0;
    j->nsamples = 0;
    if (j->comm == MPI_COMM_NULL) return MPI_SUCCESS;
    if (j->n < 0 || j->skip < 0 || (j->record && (size_t)j->n > j->n_cap)) return MPI_ERR_ARG;
    if (j->kernel <= GOMB_K_NONE || j->kernel >= GOMB_K_COUNT || !family[j->kernel]) return MPI_ERR_ARG;
    // a count past INT_MAX runs through the large-count calls or not at all:
    // never an int count that wrapped
    if (j->large) return gomb_run_imb_large(j);
    if (j->count_c != j->count) return MPI_ERR_COUNT;
    return family[j->kernel](j);
}
