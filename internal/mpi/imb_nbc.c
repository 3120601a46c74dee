//go:build cgo

// imb_nbc.c: IMB-NBC's kernels and IMB-MPI4's (IMB 2021
// src_c/IMB_<collective>.c, the MPI_I* and the _persist functions). One call
// runs what IMB's benchmark function runs:
//  - the _pure benchmarks: two barriers, then per iteration t -= MPI_Wtime;
//    MPI_I<op>; MPI_Wait; t += MPI_Wtime; the root shift and the -sync
//    barrier outside the timer (Ibarrier_pure: one clock read around the
//    whole loop);
//  - the others: the pure loop first (t_pure), IMB_cpu_exploit calibrated
//    to t_pure, two barriers, then per iteration MPI_I<op>; the exploit,
//    timed (t_CPU); MPI_Wait; all of it timed (t_ovrl).
// IMB-MPI4's persistent collectives (persist set) are the same loops with
// the request made once, after the barriers and outside the timer, by
// MPI_<op>_init on the first buffer with root 0, and MPI_Start in place of
// the MPI_I* call; MPI_Request_free after the loop.
// The exploit is IMB_cpu_exploit's: passes over a 10x10 float matrix
// times a vector, the number of passes per second measured once per
// process (IMB's MFlops), the passes for a target time fixed by an
// initialising call.
#include "loops.h"

#define EXPLOIT_SIZE 10
static float ex_a[EXPLOIT_SIZE][EXPLOIT_SIZE], ex_x[EXPLOIT_SIZE], ex_y[EXPLOIT_SIZE];
static double ex_mflops = -1;
static int ex_nrep, ex_target_reps;

// IMB builds at -O0 (its Makefile's default), and the exploit's passes
// are whole: at a few bytes IMB's t_CPU is one -O0 pass (0.28 us here)
// where an -O2 pass is a tenth of it, and its steps are -O0 passes. So
// the passes are compiled as IMB's are.
#if defined(__GNUC__) && !defined(__clang__)
#define AS_IMB_BUILDS __attribute__((noinline, optimize("O0")))
#else
#define AS_IMB_BUILDS __attribute__((noinline, optnone))
#endif

static AS_IMB_BUILDS void exploit_passes(int reps) {
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < EXPLOIT_SIZE; i++)
            for (int k = 0; k < EXPLOIT_SIZE; k++) ex_x[i] = ex_x[i] + ex_a[i][k] * ex_y[k];
}

// exploit_calibrate is IMB_cpu_exploit's first call: the MFlops of
// 50 million flops' passes, and the passes a second holds.
static void exploit_calibrate(void) {
    if (ex_mflops >= 0.) return;
    for (int i = 0; i < EXPLOIT_SIZE; i++) {
        ex_x[i] = ex_y[i] = 0.;
        for (int k = 0; k < EXPLOIT_SIZE; k++) ex_a[i][k] = 1.;
    }
    ex_nrep = (50000000 / (2 * EXPLOIT_SIZE * EXPLOIT_SIZE)) + 1;
    double t1 = MPI_Wtime();
    exploit_passes(ex_nrep);
    double t2 = MPI_Wtime();
    ex_mflops = (ex_nrep * 2. * EXPLOIT_SIZE * EXPLOIT_SIZE) * 1.e-6 / (t2 - t1);
    ex_nrep = (int)(1. / (t2 - t1) * ex_nrep);
    ex_target_reps = 0;
}

// gomb_imb_cpu_exploit is IMB_cpu_exploit(target_secs, initialize); IMB passes
// the seconds as a float. The initialising call runs its passes once too,
// as IMB's does (IMB times them as tCPU, which its NBC tables do not
// print; IMB-IO's do: gomb_imb_cpu_exploit_timed).
void gomb_imb_cpu_exploit(float target_secs, int initialize) {
    if (target_secs <= 0.) return;
    exploit_calibrate();
    if (initialize) {
        ex_target_reps = (int)(target_secs * ex_nrep);
        if (ex_target_reps < 1) ex_target_reps = 1;
    }
    exploit_passes(ex_target_reps);
}

double gomb_imb_cpu_exploit_timed(float target_secs) {
    exploit_calibrate();
    ex_target_reps = (int)(target_secs * ex_nrep);
    if (ex_target_reps < 1) ex_target_reps = 1;
    double t1 = MPI_Wtime();
    exploit_passes(ex_target_reps);
    return MPI_Wtime() - t1;
}

double gomb_imb_exploit_mflops(void) { return ex_mflops; }

// istart starts the collective with IMB's arguments: the send buffer for
// the root of Ibcast, the receive buffer elsewhere; counts and
// displacements of the v-collectives set by the caller.
static int istart(gomb_job *j, MPI_Datatype dt, int cnt, char *sb, char *rb, int root, MPI_Request *req) {
    MPI_Comm c = j->comm;
    switch (j->nbc.op) {
    case GOMB_NBC_IBARRIER: return MPI_Ibarrier(c, req);
    case GOMB_NBC_IBCAST: return MPI_Ibcast(j->rank == root ? sb : rb, cnt, dt, root, c, req);
    case GOMB_NBC_IREDUCE: return MPI_Ireduce(sb, rb, cnt, dt, MPI_SUM, root, c, req);
    case GOMB_NBC_IALLREDUCE: return MPI_Iallreduce(sb, rb, cnt, dt, MPI_SUM, c, req);
    case GOMB_NBC_IGATHER: return MPI_Igather(sb, cnt, dt, rb, cnt, dt, root, c, req);
    case GOMB_NBC_IGATHERV: return MPI_Igatherv(sb, cnt, dt, rb, j->cnt_b, j->dsp_b, dt, root, c, req);
    case GOMB_NBC_ISCATTER: return MPI_Iscatter(sb, cnt, dt, rb, cnt, dt, root, c, req);
    case GOMB_NBC_ISCATTERV: return MPI_Iscatterv(sb, j->cnt_a, j->dsp_a, dt, rb, cnt, dt, root, c, req);
    case GOMB_NBC_IALLGATHER: return MPI_Iallgather(sb, cnt, dt, rb, cnt, dt, c, req);
    case GOMB_NBC_IALLGATHERV: return MPI_Iallgatherv(sb, cnt, dt, rb, j->cnt_b, j->dsp_b, dt, c, req);
    case GOMB_NBC_IALLTOALL: return MPI_Ialltoall(sb, cnt, dt, rb, cnt, dt, c, req);
    case GOMB_NBC_IALLTOALLV:
        return MPI_Ialltoallv(sb, j->cnt_a, j->dsp_a, dt, rb, j->cnt_b, j->dsp_b, dt, c, req);
    case GOMB_NBC_IREDUCE_SCATTER: return MPI_Ireduce_scatter(sb, rb, j->cnt_b, dt, MPI_SUM, c, req);
    }
    return MPI_ERR_ARG;
}

// pinit makes the persistent request of the collective, with the
// arguments of istart (pcoll.c).
static int pinit(gomb_job *j, MPI_Datatype dt, int cnt, char *sb, char *rb, int root, MPI_Request *req) {
    return gomb_pcoll_init(j, j->nbc.op, dt, cnt, sb, rb, root, req);
}

// start begins one repetition: the MPI_I* call, or MPI_Start of the
// persistent request (made by pinit).
static inline int start(gomb_job *j, MPI_Datatype dt, int cnt, cursor *s, cursor *r, int root, MPI_Request *req) {
    return j->persist ? MPI_Start(req) : istart(j, dt, cnt, s->cur, r->cur, root, req);
}

// made is the persistent request of a loop (MPI_REQUEST_NULL without one).
static int made(gomb_job *j, MPI_Datatype dt, int cnt, cursor *s, cursor *r, MPI_Request *req) {
    *req = MPI_REQUEST_NULL;
    return j->persist ? pinit(j, dt, cnt, s->base, r->base, j->root, req) : MPI_SUCCESS;
}

static int unmade(gomb_job *j, MPI_Request *req, int rc) {
    int rf = j->persist && *req != MPI_REQUEST_NULL ? MPI_Request_free(req) : MPI_SUCCESS;
    return rc != MPI_SUCCESS ? rc : rf;
}

// pure_loop is IMB_i<op>_pure (IMB_<op>_persist_pure): the mean time of start and wait per
// iteration; samples stored when recording.
static int pure_loop(gomb_job *j, MPI_Datatype dt, int cnt, cursor *s, cursor *r, double *t_pure) {
    int n = j->n, rc = gomb_n_barriers(j), root = j->root, rec = j->record && !j->nbc.overlap;
    double sum = 0;
    MPI_Request req;
    if (rc == MPI_SUCCESS) rc = made(j, dt, cnt, s, r, &req);
    if (rc != MPI_SUCCESS) return rc;
    if (j->nbc.op == GOMB_NBC_IBARRIER) { // timed as one loop
        uint64_t k0 = gomb_tick();
        double t0 = MPI_Wtime();
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
            rc = start(j, dt, cnt, s, r, root, &req);
            if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
            if (rec) j->ticks[i] = gomb_tick();
        }
        uint64_t kend = gomb_tick();
        j->elapsed = MPI_Wtime() - t0;
        *t_pure = n > 0 ? j->elapsed / n : 0;
        if (rc == MPI_SUCCESS && rec) gomb_loop_samples(j, k0, kend, n);
        return unmade(j, &req, rc);
    }
    for (int i = 0; i < n; i++) {
        double t1 = MPI_Wtime();
        rc = start(j, dt, cnt, s, r, root, &req);
        if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        double t2 = MPI_Wtime();
        if (rc != MPI_SUCCESS) break;
        sum += t2 - t1;
        if (rec) j->samples[i] = t2 - t1;
        if (j->root_shift) root = (root + 1) % j->np;
        if (j->sync && (rc = gomb_job_barrier(j)) != MPI_SUCCESS) break;
        cur_next(s);
        cur_next(r);
    }
    j->elapsed = sum;
    *t_pure = n > 0 ? sum / n : 0;
    if (rec && rc == MPI_SUCCESS) j->nsamples = n;
    return unmade(j, &req, rc);
}

// overlap_loop is the rest of IMB_i<op>: the exploit calibrated to
// t_pure, then start, exploit, wait per iteration.
static int overlap_loop(gomb_job *j, MPI_Datatype dt, int cnt, cursor *s, cursor *r, double t_pure) {
    int n = j->n, rc, root = j->root, rec = j->record;
    double ovrl = 0, comp = 0;
    MPI_Request req;
    gomb_imb_cpu_exploit((float)t_pure, 1);
    if ((rc = gomb_n_barriers(j)) != MPI_SUCCESS) return rc;
    if ((rc = made(j, dt, cnt, s, r, &req)) != MPI_SUCCESS) return rc;
    if (j->nbc.op == GOMB_NBC_IBARRIER) { // timed as one loop
        uint64_t k0 = gomb_tick();
        double t0 = MPI_Wtime();
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
            rc = start(j, dt, cnt, s, r, root, &req);
            comp -= MPI_Wtime();
            gomb_imb_cpu_exploit((float)t_pure, 0);
            comp += MPI_Wtime();
            if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
            if (rec) j->ticks[i] = gomb_tick();
        }
        uint64_t kend = gomb_tick();
        j->elapsed = MPI_Wtime() - t0;
        j->t_compute = comp;
        if (rc == MPI_SUCCESS && rec) gomb_loop_samples(j, k0, kend, n);
        return unmade(j, &req, rc);
    }
    for (int i = 0; i < n; i++) {
        int rt = j->nbc.op == GOMB_NBC_IREDUCE ? i % j->np : root; // IMB_ireduce: round robin
        double t1 = MPI_Wtime();
        rc = start(j, dt, cnt, s, r, rt, &req);
        comp -= MPI_Wtime();
        gomb_imb_cpu_exploit((float)t_pure, 0);
        comp += MPI_Wtime();
        if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        double t2 = MPI_Wtime();
        if (rc != MPI_SUCCESS) break;
        ovrl += t2 - t1;
        if (rec) j->samples[i] = t2 - t1;
        if (j->root_shift) root = (root + 1) % j->np;
        if (j->sync && (rc = gomb_job_barrier(j)) != MPI_SUCCESS) break;
        cur_next(s);
        cur_next(r);
    }
    j->elapsed = ovrl;
    j->t_compute = comp;
    if (rec && rc == MPI_SUCCESS) j->nsamples = n;
    return unmade(j, &req, rc);
}

static void set_blocks(int *counts, int *displs, int np, int cnt) {
    for (int i = 0; i < np; i++) {
        counts[i] = cnt;
        displs[i] = i * cnt;
    }
}

// gomb_run_imb_nbc runs one IMB-NBC benchmark call: elapsed is the sum of
// the timed iterations (t_ovrl's with overlap, else t_pure's), t_pure the
// pure loop's mean, t_compute the exploit's sum.
int gomb_run_imb_nbc(gomb_job *j) {
    // IMB's pure functions start with the barriers; no others before them
    MPI_Datatype dt = gomb_mpi_dtype(j->dtype);
    int cnt = j->count, rc;
    cursor s, r;
    cur_init(&s, j->sbuf, j->s_offs, j->s_cache_iter);
    cur_init(&r, j->rbuf, j->r_offs, j->r_cache_iter);
    j->elapsed = j->t_pure = j->t_compute = 0;
    set_blocks(j->cnt_a, j->dsp_a, j->np, cnt);
    set_blocks(j->cnt_b, j->dsp_b, j->np, cnt);
    double t_pure = 0;
    if ((rc = pure_loop(j, dt, cnt, &s, &r, &t_pure)) != MPI_SUCCESS) return rc;
    j->t_pure = t_pure;
    if (!j->nbc.overlap) return rc;
    cur_init(&s, j->sbuf, j->s_offs, j->s_cache_iter);
    cur_init(&r, j->rbuf, j->r_offs, j->r_cache_iter);
    return overlap_loop(j, dt, cnt, &s, &r, t_pure);
}
