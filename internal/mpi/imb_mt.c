//go:build cgo

// imb_mt.c: IMB-MT's benchmarks (IMB 2021 src_cpp/MT/MT_benchmark.cpp,
// MT_benchmark.h): every thread of an OpenMP team (OMP_NUM_THREADS of
// them with -thread_level multiple, else one) runs the benchmark on a
// communicator of its own, MPI_COMM_WORLD duplicated per thread with the
// "thread_id" info key, over buffers of its own.
//
// One gomb_mt_run is one of IMB-MT's run() calls, one element count:
//  - point-to-point (PingPongMT, PingPingMT, SendRecvMT, ExchangeMT,
//    UniBandMT, BiBandMT): warm-up iterations, the barrier, then the
//    repetitions timed as one loop;
//  - collectives (BarrierMT, BcastMT, ReduceMT, AllReduceMT): warm-up and
//    repetitions in one loop, each call timed alone and summed after the
//    warm-up, the barrier called five times after each (not BarrierMT).
// The barrier (-barrier on|special|off): an OpenMP barrier, thread 0's
// MPI_Barrier on MPI_COMM_WORLD (special: a dissemination of empty
// MPI_Sendrecv), an OpenMP barrier; with one thread the MPI part alone.
// Each thread reports its time (0 where the benchmark does not run for its
// rank: a result of 0) and, with record, every repetition's time.
#include "loops.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gomb_mt {
    int nthreads, multiple;
    MPI_Comm *comms;
    gomb_mt_thread *th;
    void **raw; // allocations to free
    int nraw;
};

int gomb_mt_team(void) {
    int n = 1;
#pragma omp parallel default(shared)
#pragma omp master
    n = omp_get_num_threads();
    return n;
}

gomb_mt *gomb_mt_new(int multiple, int *err) {
    gomb_mt *m = calloc(1, sizeof *m);
    *err = MPI_ERR_NO_MEM;
    if (!m) return NULL;
    m->multiple = multiple;
    m->nthreads = multiple ? gomb_mt_team() : 1;
    m->comms = calloc((size_t)m->nthreads, sizeof(MPI_Comm));
    m->th = calloc((size_t)m->nthreads, sizeof(gomb_mt_thread));
    if (!m->comms || !m->th) {
        gomb_mt_free(m);
        return NULL;
    }
    *err = MPI_SUCCESS;
    for (int t = 0; t < m->nthreads; t++) {
        m->comms[t] = MPI_COMM_WORLD;
        if (!multiple) continue;
        // IMB-MT's duplicate_comm, in thread order on the calling thread
        MPI_Info info;
        char id[16];
        int rc = MPI_Comm_dup(MPI_COMM_WORLD, &m->comms[t]);
        if (rc == MPI_SUCCESS) rc = MPI_Info_create(&info);
        if (rc != MPI_SUCCESS) {
            *err = rc;
            m->comms[t] = MPI_COMM_WORLD;
            gomb_mt_free(m);
            return NULL;
        }
        snprintf(id, sizeof id, "%d", t);
        MPI_Info_set(info, "thread_id", id);
        MPI_Comm_set_info(m->comms[t], info);
        MPI_Info_free(&info);
    }
    return m;
}

int gomb_mt_threads(gomb_mt *m) { return m->nthreads; }

gomb_mt_thread *gomb_mt_thread_at(gomb_mt *m, int t) { return &m->th[t]; }

static void release(gomb_mt *m) {
    for (int i = 0; i < m->nraw; i++) free(m->raw[i]);
    free(m->raw);
    m->raw = NULL;
    m->nraw = 0;
    for (int t = 0; t < m->nthreads; t++) {
        free(m->th[t].reqs);
        free(m->th[t].samples);
        free(m->th[t].ticks);
        gomb_mt_thread z = {0};
        m->th[t] = z;
    }
}

void gomb_mt_free(gomb_mt *m) {
    if (!m) return;
    if (m->th) release(m);
    for (int t = 0; m->comms && t < m->nthreads; t++)
        if (m->comms[t] != MPI_COMM_WORLD) MPI_Comm_free(&m->comms[t]);
    free(m->comms);
    free(m->th);
    free(m);
}

// aligned is IMB-MT's AlignedAllocator: malloc of size + align, zeroed,
// the pointer moved up to the next multiple of align (by a whole align
// where it is one already).
static char *aligned(gomb_mt *m, size_t size, size_t align) {
    char *p = malloc(size + align);
    if (!p) return NULL;
    memset(p, 0, size + align);
    void **r = realloc(m->raw, (size_t)(m->nraw + 1) * sizeof(void *));
    if (!r) {
        free(p);
        return NULL;
    }
    m->raw = r;
    m->raw[m->nraw++] = p;
    return p + (align - (size_t)p % align);
}

int gomb_mt_buffers(gomb_mt *m, size_t size_a, size_t size_b, int align, int algo, int window, int repeat) {
    release(m);
    size_t al = align > 0 ? (size_t)align : 1;
    int ok = 1;
    if (algo == GOMB_MT_MALLOC_CONTINUOUS) {
        char *a = aligned(m, size_a * (size_t)m->nthreads, al), *b = aligned(m, size_b * (size_t)m->nthreads, al);
        ok = a && b;
        for (int t = 0; ok && t < m->nthreads; t++) {
            m->th[t].a = a + (size_t)t * size_a;
            m->th[t].b = b + (size_t)t * size_b;
        }
    } else if (algo == GOMB_MT_MALLOC_PARALLEL) {
#pragma omp parallel num_threads(m->nthreads)
#pragma omp critical
        {
            int t = omp_get_thread_num();
            m->th[t].a = aligned(m, size_a, al);
            m->th[t].b = aligned(m, size_b, al);
        }
        for (int t = 0; t < m->nthreads; t++) ok = ok && m->th[t].a && m->th[t].b;
    } else {
        for (int t = 0; ok && t < m->nthreads; t++) {
            m->th[t].a = aligned(m, size_a, al);
            m->th[t].b = aligned(m, size_b, al);
            ok = m->th[t].a && m->th[t].b;
        }
    }
    for (int t = 0; ok && t < m->nthreads; t++) {
        gomb_mt_thread *h = &m->th[t];
        h->reqs = malloc(2 * (size_t)(window > 0 ? window : 1) * sizeof(MPI_Request));
        size_t reps = (size_t)(repeat > 0 ? repeat : 1);
        h->samples = malloc(reps * sizeof(double));
        h->ticks = malloc(reps * sizeof(uint64_t));
        ok = h->reqs && h->samples && h->ticks;
        if (ok) { // faulted in here, not at their first stamp in the timed loop
            memset(h->samples, 0, reps * sizeof(double));
            memset(h->ticks, 0, reps * sizeof(uint64_t));
        }
    }
    if (!ok) {
        release(m);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

static void mpi_barrier(const gomb_mt_call *c) {
    if (c->barrier == GOMB_MT_BARRIER_SPECIAL) {
        int size = 0, rank = 0, tmp = 0;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        for (int mask = 1; mask < size; mask <<= 1)
            MPI_Sendrecv(&tmp, 0, MPI_BYTE, (rank + mask) % size, 1010, &tmp, 0, MPI_BYTE, (rank - mask + size) % size,
                         1010, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

// barrier is IMB-MT's barrier function of the run.
static void barrier(const gomb_mt_call *c, int multiple) {
    if (c->barrier == GOMB_MT_BARRIER_OFF) return;
    if (!multiple) {
        mpi_barrier(c);
        return;
    }
#pragma omp barrier
    if (omp_get_thread_num() == 0) mpi_barrier(c);
#pragma omp barrier
}

// set_stride is IMB-MT's: the partner distance (0: half the ranks) and
// this rank's group; false where the rank has no partner.
static int set_stride(int rank, int size, int *stride, int *group) {
    if (*stride == 0) *stride = size / 2;
    if (*stride <= 0 || *stride > size / 2) return 0;
    *group = rank / *stride;
    if ((*group / 2 == size / (2 * *stride)) && (size % (2 * *stride) != 0)) return 0;
    return 1;
}

// -check: IMB-MT fills the send buffer with (rank + 1) * i and the receive
// buffer with -1 in ints, and counts the ints that differ afterwards.
static void fill(void *p, int count, int tsize, int v, int step) {
    for (size_t i = 0; i < (size_t)count * (size_t)tsize / sizeof(int); i++) ((int *)p)[i] = v * (step ? (int)i : 1);
}

static long differ(const void *p, int count, int tsize, int v) {
    long bad = 0;
    for (size_t i = 0; i < (size_t)count * (size_t)tsize / sizeof(int); i++)
        if (((const int *)p)[i] != v * (int)i) bad++;
    return bad;
}

// pt2pt runs n iterations of a point-to-point benchmark; returns 0 where
// the rank has no partner (IMB's result 0).
static int pt2pt(const gomb_mt_call *c, gomb_mt_thread *h, MPI_Comm comm, MPI_Datatype dt, int tsize, int n, int rec,
                 int *rc) {
    int rank, size, group = 0, stride = c->stride, cnt = c->count;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int paired = set_stride(rank, size, &stride, &group);
    int even = group % 2 == 0, w = c->window;
    char *in = h->a, *out = h->b, ack = 0;
    switch (c->op) {
    case GOMB_MT_SENDRECV:
    case GOMB_MT_EXCHANGE: break; // any rank: the ring of the stride
    default:
        if (!paired) return 0;
    }
    int peer = even ? rank + stride : rank - stride;
    int right = (rank + stride) % size, left = (rank + size - stride) % size;
    for (int i = 0; i < n && *rc == MPI_SUCCESS; i++) {
        switch (c->op) {
        case GOMB_MT_PINGPONG:
            if (even) {
                *rc = MPI_Send(in, cnt, dt, peer, 0, comm);
                if (*rc == MPI_SUCCESS) *rc = MPI_Recv(out, cnt, dt, peer, 0, comm, MPI_STATUS_IGNORE);
            } else {
                *rc = MPI_Recv(out, cnt, dt, peer, 0, comm, MPI_STATUS_IGNORE);
                if (*rc == MPI_SUCCESS) *rc = MPI_Send(in, cnt, dt, peer, 0, comm);
            }
            break;
        case GOMB_MT_PINGPING: {
            MPI_Request q;
            *rc = MPI_Isend(in, cnt, dt, peer, 0, comm, &q);
            if (*rc == MPI_SUCCESS) *rc = MPI_Recv(out, cnt, dt, peer, 0, comm, MPI_STATUS_IGNORE);
            if (*rc == MPI_SUCCESS) *rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
            break;
        }
        case GOMB_MT_SENDRECV:
            *rc = MPI_Sendrecv(in, cnt, dt, right, 0, out, cnt, dt, left, 0, comm, MPI_STATUS_IGNORE);
            break;
        case GOMB_MT_EXCHANGE:
            *rc = MPI_Isend(in, cnt, dt, left, 0, comm, &h->reqs[0]);
            if (*rc == MPI_SUCCESS) *rc = MPI_Isend(in, cnt, dt, right, 0, comm, &h->reqs[1]);
            if (*rc == MPI_SUCCESS) *rc = MPI_Recv(out, cnt, dt, left, 0, comm, MPI_STATUS_IGNORE);
            if (*rc == MPI_SUCCESS)
                *rc = MPI_Recv(out + (size_t)cnt * (size_t)tsize, cnt, dt, right, 0, comm, MPI_STATUS_IGNORE);
            if (*rc == MPI_SUCCESS) *rc = MPI_Waitall(2, h->reqs, MPI_STATUSES_IGNORE);
            break;
        case GOMB_MT_UNIBAND:
            if (even) {
                for (int k = 0; k < w && *rc == MPI_SUCCESS; k++) *rc = MPI_Isend(in, cnt, dt, peer, 0, comm, &h->reqs[k]);
                if (*rc == MPI_SUCCESS) *rc = MPI_Waitall(w, h->reqs, MPI_STATUSES_IGNORE);
                if (*rc == MPI_SUCCESS) *rc = MPI_Recv(&ack, 1, MPI_CHAR, peer, 0, comm, MPI_STATUS_IGNORE);
            } else {
                for (int k = 0; k < w && *rc == MPI_SUCCESS; k++)
                    *rc = MPI_Irecv(out, cnt, dt, peer, 0, comm, &h->reqs[k]);
                if (*rc == MPI_SUCCESS) *rc = MPI_Waitall(w, h->reqs, MPI_STATUSES_IGNORE);
                if (*rc == MPI_SUCCESS) *rc = MPI_Send(&ack, 1, MPI_CHAR, peer, 0, comm);
            }
            break;
        case GOMB_MT_BIBAND:
            for (int k = 0; k < w && *rc == MPI_SUCCESS; k++) *rc = MPI_Irecv(out, cnt, dt, peer, 0, comm, &h->reqs[k]);
            for (int k = 0; k < w && *rc == MPI_SUCCESS; k++) *rc = MPI_Isend(in, cnt, dt, peer, 0, comm, &h->reqs[w + k]);
            if (*rc == MPI_SUCCESS) *rc = MPI_Waitall(2 * w, h->reqs, MPI_STATUSES_IGNORE);
            if (*rc == MPI_SUCCESS)
                *rc = even ? MPI_Recv(&ack, 1, MPI_CHAR, peer, 0, comm, MPI_STATUS_IGNORE)
                           : MPI_Send(&ack, 1, MPI_CHAR, peer, 0, comm);
            break;
        }
        if (rec) h->ticks[i] = gomb_tick();
    }
    h->peer = c->op == GOMB_MT_SENDRECV || c->op == GOMB_MT_EXCHANGE ? left : peer;
    h->peer2 = right;
    return 1;
}

// collective runs IMB-MT's MT_CYCLE: warm-up and repetitions, each call
// timed alone, the five barriers after each but BarrierMT's.
static double collective(const gomb_mt_call *c, gomb_mt_thread *h, MPI_Comm comm, MPI_Datatype dt, int multiple,
                         int rec, int *rc) {
    int rank, cnt = c->count, skip = c->warmup, n = c->repeat;
    MPI_Comm_rank(comm, &rank);
    double sum = 0;
    for (int i = 0; i < n + skip && *rc == MPI_SUCCESS; i++) {
        double t = MPI_Wtime();
        switch (c->op) {
        case GOMB_MT_BARRIER:
            if (multiple) {
#pragma omp barrier
            }
            *rc = MPI_Barrier(comm);
            break;
        case GOMB_MT_BCAST: *rc = MPI_Bcast(rank == 0 ? h->a : h->b, cnt, dt, 0, comm); break;
        case GOMB_MT_REDUCE: *rc = MPI_Reduce(h->a, h->b, cnt, dt, MPI_SUM, 0, comm); break;
        case GOMB_MT_ALLREDUCE: *rc = MPI_Allreduce(h->a, h->b, cnt, dt, MPI_SUM, comm); break;
        }
        t = MPI_Wtime() - t;
        if (i >= skip) {
            sum += t;
            if (rec) h->samples[i - skip] = t;
        }
        if (c->op != GOMB_MT_BARRIER)
            for (int b = 0; b < 5; b++) barrier(c, multiple);
    }
    return sum;
}

// run_thread is IMB-MT's run_instance for the calling team member.
static void run_thread(gomb_mt *m, const gomb_mt_call *c, int t) {
    gomb_mt_thread *h = &m->th[t];
    MPI_Comm comm = m->comms[t];
    MPI_Datatype dt = c->dtype == GOMB_DT_CHAR ? MPI_CHAR : MPI_INT;
    int tsize = c->dtype == GOMB_DT_CHAR ? 1 : (int)sizeof(int), rank, rc = MPI_SUCCESS;
    MPI_Comm_rank(comm, &rank);
    h->t = 0;
    h->result = 0;
    h->failures = 0;
    h->nsamples = 0;
    h->rc = MPI_SUCCESS;
    if (c->repeat <= 0) return;
    int collective_op = c->op == GOMB_MT_BARRIER || c->op == GOMB_MT_BCAST || c->op == GOMB_MT_REDUCE ||
                        c->op == GOMB_MT_ALLREDUCE;
    if (collective_op) {
        h->t = collective(c, h, comm, dt, m->multiple, c->record, &rc);
        h->result = 1;
        if (c->record && rc == MPI_SUCCESS) h->nsamples = c->repeat;
    } else {
        if (c->check) {
            fill(h->a, c->count, tsize, rank + 1, 1);
            memset(h->b, 0xff, (size_t)c->count * (size_t)tsize * (c->op == GOMB_MT_EXCHANGE ? 2 : 1));
        }
        int res = pt2pt(c, h, comm, dt, tsize, c->warmup, 0, &rc);
        barrier(c, m->multiple);
        uint64_t k0 = gomb_tick();
        double t0 = MPI_Wtime();
        if (rc == MPI_SUCCESS) res = pt2pt(c, h, comm, dt, tsize, c->repeat, c->record, &rc);
        uint64_t kend = gomb_tick();
        h->t = MPI_Wtime() - t0;
        h->result = res;
        if (res && c->record && rc == MPI_SUCCESS && c->repeat > 0) {
            gomb_ticks_to_samples(h->samples, h->ticks, k0, kend, h->t, c->repeat);
            h->nsamples = c->repeat;
        }
        if (res && c->check && rc == MPI_SUCCESS && c->op != GOMB_MT_UNIBAND && c->op != GOMB_MT_BIBAND) {
            h->failures += differ(h->a, c->count, tsize, rank + 1);
            h->failures += differ(h->b, c->count, tsize, h->peer + 1);
            if (c->op == GOMB_MT_EXCHANGE)
                h->failures += differ(h->b + (size_t)c->count * (size_t)tsize, c->count, tsize, h->peer2 + 1);
        }
    }
    if (!h->result) h->t = 0;
    h->rc = rc;
}

int gomb_mt_run(gomb_mt *m, const gomb_mt_call *c) {
    if (m->multiple) {
#pragma omp parallel num_threads(m->nthreads)
        run_thread(m, c, omp_get_thread_num());
    } else {
        run_thread(m, c, 0);
    }
    for (int t = 0; t < m->nthreads; t++)
        if (m->th[t].rc != MPI_SUCCESS) return m->th[t].rc;
    return MPI_SUCCESS;
}
