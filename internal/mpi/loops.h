/* loops.h: what the kernel files share: the cycle counter, buffer cursors,
 * barriers, and the two loop shapes every timed kernel is built from. */
#ifndef GOMB_LOOPS_H
#define GOMB_LOOPS_H

#include "gomb.h"

#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

int gomb_imb_barrier(MPI_Comm comm, int rank, int np);
int gomb_n_barriers(gomb_job *j);
void gomb_loop_samples(gomb_job *j, uint64_t k0, uint64_t kend, int n);
void gomb_ticks_to_samples(double *samples, const uint64_t *ticks, uint64_t k0, uint64_t kend, double elapsed, int n);
// gomb_imb_cpu_exploit is IMB_cpu_exploit (imb_nbc.c): IMB-NBC's and IMB-RMA's
// compute, as many -O0 passes of a small matrix-vector product as fill
// target_secs, the count fixed by an initialising call.
void gomb_imb_cpu_exploit(float target_secs, int initialize);

// gomb_job_barrier is the job's barrier: MPI_Barrier, or with -imb_barrier
// gomb_imb_barrier; inline, as Barrier's timed loop calls it.
static inline int gomb_job_barrier(gomb_job *j) {
    return j->imb_barrier ? gomb_imb_barrier(j->comm, j->rank, j->np) : MPI_Barrier(j->comm);
}
// gomb_imb_cpu_exploit_timed is its initialising call, timed (IMB's tCPU,
// seconds); gomb_imb_exploit_mflops the MFlops its calibration measured.
double gomb_imb_cpu_exploit_timed(float target_secs);
double gomb_imb_exploit_mflops(void);
extern int gomb_fault_corrupt; // checks.c: GOMB_FAULT=check-corrupt
// gomb_pcoll_init (pcoll.c) makes a persistent collective's request.
int gomb_pcoll_init(gomb_job *j, int op, MPI_Datatype dt, int cnt, char *sb, char *rb, int root, MPI_Request *req);

static inline uint64_t gomb_tick(void) {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
#endif
}

// gomb_delay: fault injection (GOMB_FAULT=delay) spins s seconds, as a
// rank held back by other work would arrive late.
static inline void gomb_delay(double s) {
    double end = MPI_Wtime() + s;
    while (MPI_Wtime() < end) {
    }
}

// gomb_start_wait is one operation of a persistent request: MPI_Start,
// MPI_Wait.
static inline int gomb_start_wait(MPI_Request *r) {
    int rc = MPI_Start(r);
    return rc == MPI_SUCCESS ? MPI_Wait(r, MPI_STATUS_IGNORE) : rc;
}

// Cycling through -off_cache buffer copies without a division per iteration.
typedef struct {
    char *base, *cur;
    size_t offs;
    int k, i;
} cursor;

static inline void cur_init(cursor *c, char *base, size_t offs, int k) {
    c->base = c->cur = base;
    c->offs = offs;
    c->k = k > 0 ? k : 1;
    c->i = 0;
}

static inline void cur_next(cursor *c) {
    if (++c->i >= c->k) {
        c->i = 0;
        c->cur = c->base;
    } else {
        c->cur += c->offs;
    }
}

// KCOUNT is the type of the kernels' counts, KCOUNT_FIELD the gomb_job
// field it is read from: MPI's int count, unless the including file asks
// for MPI_Count (large.c, through the MPI-4 large-count calls).
#ifndef KCOUNT
#define KCOUNT int
#define KCOUNT_FIELD count
#endif

// KERNEL_PROLOGUE declares what every kernel uses and runs IMB's two
// barriers before the clock starts.
#define KERNEL_PROLOGUE                                                                          \
    int ddt_ = j->ddt != MPI_DATATYPE_NULL; /* OSU -D: one of the derived type a message */     \
    MPI_Datatype dt = ddt_ ? j->ddt : gomb_mpi_dtype(j->dtype);                                  \
    KCOUNT cnt = ddt_ ? 1 : j->KCOUNT_FIELD;                                                     \
    int n = j->n, rc = MPI_SUCCESS, rec = j->record;                                             \
    cursor s, r;                                                                                 \
    (void)dt;                                                                                    \
    (void)cnt;                                                                                   \
    cur_init(&s, j->sbuf, j->s_offs, j->s_cache_iter);                                           \
    cur_init(&r, j->rbuf, j->r_offs, j->r_cache_iter);                                           \
    j->elapsed = 0;                                                                              \
    if ((rc = gomb_n_barriers(j)) != MPI_SUCCESS) return rc

// TIMED_LOOP runs BEFORE and AFTER (which set rc): first j->skip times
// untimed (OSU's warm-up, the start of the same loop), then n times between
// two MPI_Wtime reads. When samples are recorded it stamps the cycle counter
// between the two parts of every iteration: kernels put their sends in
// BEFORE so that the stamp falls where the rank waits for its partner
// anyway, off the critical path (-samples off drops the stamps).
#define TIMED_LOOP(BEFORE, AFTER)                                                                \
    do {                                                                                         \
        for (int i = 0; i < j->skip && rc == MPI_SUCCESS; i++) {                                 \
            BEFORE;                                                                              \
            AFTER;                                                                               \
            cur_next(&s);                                                                        \
            cur_next(&r);                                                                        \
        }                                                                                        \
        if (rc != MPI_SUCCESS) break;                                                            \
        double delay_ = j->delay_s;                                                              \
        double t0_ = MPI_Wtime();                                                                \
        uint64_t k0_ = gomb_tick();                                                              \
        for (int i = 0; i < n; i++) {                                                            \
            if (delay_ > 0) gomb_delay(delay_);                                                  \
            BEFORE;                                                                              \
            if (rec) j->ticks[i] = gomb_tick();                                                  \
            AFTER;                                                                               \
            if (rc != MPI_SUCCESS) break;                                                        \
            cur_next(&s);                                                                        \
            cur_next(&r);                                                                        \
        }                                                                                        \
        uint64_t kend_ = gomb_tick();                                                            \
        j->elapsed = MPI_Wtime() - t0_;                                                          \
        if (rc == MPI_SUCCESS) gomb_loop_samples(j, k0_, kend_, n);                              \
    } while (0)

#define OK (rc == MPI_SUCCESS)

// COLL_LOOP: the collectives' timing, IMB's: t1 = MPI_Wtime(); call;
// t2 = MPI_Wtime(); sum += t2 - t1; then the -sync barrier outside the timer.
#define COLL_LOOP(CALL)                                                                          \
    do {                                                                                         \
        double sum = 0;                                                                          \
        int root = j->root;                                                                      \
        double delay_ = j->delay_s;                                                              \
        (void)root;                                                                              \
        for (int i = 0; i < j->skip + n; i++) {                                                  \
            if (delay_ > 0) gomb_delay(delay_);                                                  \
            double t1 = MPI_Wtime();                                                             \
            rc = (CALL);                                                                         \
            double t2 = MPI_Wtime();                                                             \
            if (rc != MPI_SUCCESS) break;                                                        \
            if (i >= j->skip) {                                                                  \
                sum += t2 - t1;                                                                  \
                if (rec) j->samples[i - j->skip] = t2 - t1;                                      \
            }                                                                                    \
            if (j->sync && (rc = gomb_job_barrier(j)) != MPI_SUCCESS) break;                              \
            cur_next(&s);                                                                        \
            cur_next(&r);                                                                        \
            if (j->root_shift) root = (root + 1) % j->np;                                        \
        }                                                                                        \
        j->elapsed = sum;                                                                        \
        j->nsamples = rec && rc == MPI_SUCCESS ? n : 0;                                          \
    } while (0)

// IP and IP_ROOT give MPI_IN_PLACE for the buffer that -l replaces: on
// every rank, or on the root only.
#define IP(b) (j->in_place ? MPI_IN_PLACE : (b))
#define IP_ROOT(b) (j->in_place && me == root ? MPI_IN_PLACE : (b))


#endif
