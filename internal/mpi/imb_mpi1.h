/* imb_mpi1.h: IMB-MPI1's entry points (imb_mpi1.c, large.c) and IMB's
 * start-up state; included by gomb.h. */
#ifndef GOMB_IMB_MPI1_H
#define GOMB_IMB_MPI1_H

int gomb_run_imb(gomb_job *j); /* imb_mpi1.c: IMB-MPI1's kernels, the barrier per call, the split reduce-scatter */
int gomb_run_imb_large(gomb_job *j); /* large.c: IMB-MPI1's one-count kernels through MPI_Count calls */
int gomb_large_count(int kernel);     /* large.c: whether kernel runs with large set in this MPI */
int gomb_imb_pointers(int np); /* IMB's start-up blocks on the heap (IMB_init_pointers) */
int gomb_imb_times(int np);    /* IMB's per-size block on rank 0 (IMB_output's all_times) */
int gomb_imb_comm(gomb_comm *c); /* IMB_init_communicator's calls on a new communicator */
/* imb_mpi1.c: -check inside the Exchange kernel, the left neighbour's
 * message before the right one lands on the same bytes */
void gomb_exchange_verify(gomb_job *j, const char *rbuf, int left);

#endif
