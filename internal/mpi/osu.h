/* osu.h: the OSU Micro-Benchmarks' enumerations, parts of a job and entry
 * points (osu.c, osu_rma.c, osu_mt.c); included by gomb.h, after gomb_job's
 * forward declaration. The non-blocking collectives, shared with IMB-NBC,
 * are in nbc.h. */
#ifndef GOMB_OSU_H
#define GOMB_OSU_H

/* One-sided operations, window creation and synchronisation (OSU -w, -s). */
enum { GOMB_RMA_PUT = 0, GOMB_RMA_GET, GOMB_RMA_ACC, GOMB_RMA_GET_ACC, GOMB_RMA_FOP, GOMB_RMA_CAS };
enum { GOMB_RMA_LAT = 0, GOMB_RMA_BW, GOMB_RMA_BIBW };
enum { GOMB_WIN_CREATE = 0, GOMB_WIN_ALLOCATE, GOMB_WIN_DYNAMIC };
enum {
    GOMB_SYNC_LOCK = 0,
    GOMB_SYNC_FLUSH,
    GOMB_SYNC_FLUSH_LOCAL,
    GOMB_SYNC_LOCK_ALL,
    GOMB_SYNC_PSCW,
    GOMB_SYNC_FENCE
};

/* GOMB_K_RMA (osu_rma.c): OSU's one-sided operation, its window and synchronisation */
typedef struct {
    int op, kind, win_mode, sync_mode;
} gomb_rma_part;

/* GOMB_K_OSU_FAN (osu.c) */
typedef struct {
    int out;          /* fan-out (the parents send) rather than fan-in */
    int parent;       /* this rank is a parent (gomb_job_set_peers) */
    int *peers, npeers; /* a child's parent, or a parent's children */
} gomb_fan_part;

/* OSU's neighbourhood collectives (gomb_job_set_nbr): the distributed graph made on the
 * job's communicator, this rank's sources and destinations in its order, and for each
 * source the index of this rank among that source's destinations (which of its blocks an
 * all-to-all sends here) */
typedef struct {
    MPI_Comm comm;
    int in, out;
    int *src, *dst, *slot;
} gomb_graph_part;

int gomb_run_p2p(gomb_job *j);  /* osu.c: OSU's point-to-point latency and bandwidth, gomb's one-way */
int gomb_run_rma(gomb_job *j);  /* osu_rma.c: OSU's one-sided */

/* OSU's osu_latency_mt (osu_mt.c): sender threads on rank 0, receiver
 * threads on rank 1, one communicator, MPI_THREAD_MULTIPLE. */
typedef struct {
    MPI_Comm comm;
    int rank, nsend, nrecv, nthreads, tag_per_iter;
    char **sbuf, **rbuf; /* per thread, page-aligned, cap bytes */
    size_t cap;
    /* the size's run */
    int dtype, count, iters, skip, record, check;
    /* outputs: rank 0's seconds of all timed round trips (-1 elsewhere),
     * per timed iteration its round trip, -c's wrong bytes */
    double elapsed;
    double *samples;
    size_t samples_cap;
    long bad, first;
    double got, want;
} gomb_lmt;
gomb_lmt *gomb_lmt_new(gomb_comm *c, int nsend, int nrecv, int tag_per_iter, size_t max_bytes, int *err);
int gomb_lmt_run(gomb_lmt *m, int dtype, int count, int iters, int skip, int record, int check);
void gomb_lmt_free(gomb_lmt *m);

/* osu_latency_mp's idle children (helpers.c). */
int gomb_fork_sleepers(int n, int seconds, int *pids);
void gomb_reap(const int *pids, int n);

#endif
