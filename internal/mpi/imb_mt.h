/* imb_mt.h: IMB-MT's benchmarks, options and thread team (imb_mt.c);
 * included by gomb.h. */
#ifndef GOMB_IMB_MT_H
#define GOMB_IMB_MT_H

/* IMB-MT (imb_mt.c): its benchmarks, barrier and buffer options, and a
 * team of threads with a communicator each, outside gomb_job: every
 * thread runs its own loop. */
enum {
    GOMB_MT_PINGPONG = 0,
    GOMB_MT_PINGPING,
    GOMB_MT_SENDRECV,
    GOMB_MT_EXCHANGE,
    GOMB_MT_UNIBAND,
    GOMB_MT_BIBAND,
    GOMB_MT_BARRIER,
    GOMB_MT_BCAST,
    GOMB_MT_REDUCE,
    GOMB_MT_ALLREDUCE
};
enum { GOMB_MT_BARRIER_ON = 0, GOMB_MT_BARRIER_OFF, GOMB_MT_BARRIER_SPECIAL };
enum { GOMB_MT_MALLOC_SERIAL = 0, GOMB_MT_MALLOC_CONTINUOUS, GOMB_MT_MALLOC_PARALLEL };

/* One IMB-MT run() call: an element count of a benchmark. */
typedef struct {
    int op, count, dtype; /* dtype: GOMB_DT_INT or GOMB_DT_CHAR */
    int warmup, repeat, stride, window, barrier;
    int check, record;
} gomb_mt_call;

/* A thread's buffers and what its last run measured. */
typedef struct {
    char *a, *b;
    MPI_Request *reqs;
    double *samples;   /* per repetition, seconds (record) */
    uint64_t *ticks;
    double t;          /* loop time, or the sum of the timed calls (collectives); 0 without a result */
    int result;        /* 1: the benchmark ran on this thread's rank */
    int nsamples, rc, peer, peer2;
    long failures;     /* -check: ints that differ */
} gomb_mt_thread;

typedef struct gomb_mt gomb_mt;

int gomb_mt_team(void);            /* imb_mt.c: the OpenMP team's size */
gomb_mt *gomb_mt_new(int multiple, int *err); /* a team, a duplicated MPI_COMM_WORLD per thread */
int gomb_mt_threads(gomb_mt *m);
gomb_mt_thread *gomb_mt_thread_at(gomb_mt *m, int t);
int gomb_mt_buffers(gomb_mt *m, size_t size_a, size_t size_b, int align, int algo, int window, int repeat);
int gomb_mt_run(gomb_mt *m, const gomb_mt_call *c);
void gomb_mt_free(gomb_mt *m);

#endif
