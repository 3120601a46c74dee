/* congest.h: gomb congestion's canaries and congestors (congest.c), after
 * GPCNeT's network_load_test; included by gomb.h. */
#ifndef GOMB_CONGEST_H
#define GOMB_CONGEST_H

/* The congestors: GPCNeT's four, each on a group of nodes, one rank a node. */
enum {
    GOMB_CONG_ALLTOALL = 0, /* pairwise exchange with every group member (XOR partners, or shifts) */
    GOMB_CONG_INCAST,       /* every member sends to the group's first rank */
    GOMB_CONG_PUT_INCAST,   /* every member puts into the first rank's window, then flushes */
    GOMB_CONG_GET_BCAST     /* every member gets from the first rank's window, then flushes */
};

/* A congestor: its group, its pattern and what it moved. */
typedef struct {
    MPI_Comm comm;   /* the group (one rank a node) */
    MPI_Comm global; /* every rank of the test: canaries and congestors (the phase barriers) */
    int pattern, bytes, batch, rank, np;
    double poll_s;   /* >0: waits sleep so long between tests (two-sided patterns and the
                        barriers): the congestor loads the fabric, not the CPU */
    double cap_s;    /* the congested phase ends here for the congestor, whatever the canaries do */
    char *sbuf, *rbuf;
    MPI_Request *reqs;
    MPI_Win win;
    char *wbase;
    /* outputs of the last congested phase: calls, bytes this rank sent, seconds */
    double calls, sent, seconds;
} gomb_congestor;

gomb_congestor *gomb_congestor_new(MPI_Comm group, MPI_Comm global, int pattern, int bytes, int batch, double poll_s,
                                   double cap_s, int *err);
int gomb_congestor_isolated(gomb_congestor *c); /* wait, idle, while the canaries measure alone */
int gomb_congestor_congest(gomb_congestor *c);  /* run until the canaries are done measuring */
void gomb_congestor_free(gomb_congestor *c);

/* The canaries' side of the phases: the barrier after an isolated phase
 * (phase 0), before a congested one (1, the congestors running), after it
 * (2). */
int gomb_canary_phase(MPI_Comm global);
/* an MPI_Ibarrier waited for as the congestors wait (poll_s) */
int gomb_quiet_barrier(MPI_Comm comm, double poll_s);

/* Canary loops on comm: GPCNeT's random ring (the ring is comm's order):
 * each iteration inflight messages of bytes from and to both neighbours,
 * waited for, then MPI_Barrier(comm) with barrier; and its multiple
 * allreduce: 8 bytes, MPI_SUM. warm untimed iterations, then n timed, each
 * kept in samples (seconds). */
int gomb_canary_ring(MPI_Comm comm, int bytes, int inflight, int barrier, int warm, int n, double *samples);
int gomb_canary_allreduce(MPI_Comm comm, int warm, int n, double *samples);

#endif
