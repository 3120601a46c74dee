//go:build cgo

// large.c: IMB-MPI1's kernels whose messages are one count (imb_mpi1_body.h)
// compiled a second time with MPI-4's large-count calls (MPI_Send_c,
// MPI_Bcast_c, ...: counts of MPI_Count), for messages of more than
// INT_MAX elements, which IMB itself skips as int-overflow. The loops,
// timing and buffers are imb_mpi1.c's; only the message calls and the
// count's type differ. A library older than MPI 4.0 (Open MPI 4.1) has no
// such calls: gomb_large_count says so, and the Go side prints one line
// naming the limit instead of running.
#include <mpi.h>

#if MPI_VERSION >= 4
#define KCOUNT MPI_Count
#define KCOUNT_FIELD count_c
#define KCALL(f) f##_c
#define KNAME(f) f##_c
#include "imb_mpi1_body.h"

int gomb_large_count(int kernel) { return one_count_kernel(kernel); }

int gomb_run_imb_large(gomb_job *j) {
    if (!one_count_kernel(j->kernel) || j->persist || j->ddt != MPI_DATATYPE_NULL) return MPI_ERR_COUNT;
    return k_one_count_c(j);
}
#else
#include "gomb.h"

int gomb_large_count(int kernel) {
    (void)kernel;
    return 0;
}

int gomb_run_imb_large(gomb_job *j) {
    (void)j;
    return MPI_ERR_COUNT;
}
#endif
