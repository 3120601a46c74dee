/* nbc.h: the non-blocking collectives of OSU (osu_nbc.c) and of IMB-NBC and
 * IMB-MPI4 (imb_nbc.c, pcoll.c); included by gomb.h. */
#ifndef GOMB_NBC_H
#define GOMB_NBC_H

/* Non-blocking collectives. */
enum {
    GOMB_NBC_IBARRIER = 0,
    GOMB_NBC_IBCAST,
    GOMB_NBC_IREDUCE,
    GOMB_NBC_IALLREDUCE,
    GOMB_NBC_IGATHER,
    GOMB_NBC_ISCATTER,
    GOMB_NBC_IALLGATHER,
    GOMB_NBC_IALLTOALL,
    GOMB_NBC_IGATHERV, /* the rest: IMB-NBC's only */
    GOMB_NBC_ISCATTERV,
    GOMB_NBC_IALLGATHERV,
    GOMB_NBC_IALLTOALLV,
    GOMB_NBC_IREDUCE_SCATTER,
    GOMB_NBC_IREDUCE_SCATTER_BLOCK, /* OSU 7.4's */
    GOMB_NBC_IALLTOALLW,
    GOMB_NBC_INEIGHBOR_ALLGATHER, /* on nbr_comm; GOMB_K_NEIGHBOR's blocking forms too */
    GOMB_NBC_INEIGHBOR_ALLGATHERV,
    GOMB_NBC_INEIGHBOR_ALLTOALL,
    GOMB_NBC_INEIGHBOR_ALLTOALLV,
    GOMB_NBC_INEIGHBOR_ALLTOALLW
};

/* GOMB_K_NBC, GOMB_K_IMB_NBC (osu_nbc.c, imb_nbc.c) */
typedef struct {
    int op;           /* the collective (GOMB_NBC_*) */
    double compute_s; /* GOMB_K_NBC: compute per iteration, seconds (0: pure communication) */
    int ntest;        /* GOMB_K_NBC: MPI_Test calls spread over the compute */
    int overlap;      /* GOMB_K_IMB_NBC: after the pure loop, the loop with IMB's CPU exploit */
} gomb_nbc_part;

int gomb_run_nbc(gomb_job *j);     /* osu_nbc.c: OSU's non-blocking collectives */
int gomb_run_imb_nbc(gomb_job *j); /* imb_nbc.c: IMB-NBC's and IMB-MPI4's */
int gomb_persistent_collectives(void); /* pcoll.c: whether this MPI has MPI-4's (or Open MPI's MPIX_) */

#endif
