//go:build cgo

// osu_mt.c: OSU 7.2's osu_latency_mt. Rank 0 runs nsend sender threads,
// rank 1 nrecv receiver threads (OSU's -t SEND:RECV; default 1:2), all on
// one communicator under MPI_THREAD_MULTIPLE. Sender thread k takes the
// iterations i = k, k + nsend, ...; receiver thread k the iterations
// i = k, k + nrecv, ... Each iteration is a ping-pong: MPI_Send then
// MPI_Recv on the sender, MPI_Recv then MPI_Send on the receiver, with tags
// 1 and 2, or tag i when the senders were given explicitly and are more
// than one (OSU's sender_thread > 1). The first skip iterations warm up;
// the sender times every other iteration with two MPI_Wtime reads, as OSU.
// One call of gomb_lmt_run is one size: the threads start after the
// caller's barrier and end with the size (OSU keeps its threads and puts a
// barrier between sizes); each thread has its own page-aligned buffers of
// the largest size, filled with OSU's 'a' and 'b' before each size.
#include "loops.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    gomb_lmt *m;
    int id;
    int rc;
    double total; /* sender: seconds of its timed round trips */
    long bad;     /* -c: wrong bytes this thread saw */
    long first;
    double got, want;
} lmt_thread;

gomb_lmt *gomb_lmt_new(gomb_comm *c, int nsend, int nrecv, int tag_per_iter, size_t max_bytes, int *err) {
    *err = MPI_ERR_NO_MEM;
    gomb_lmt *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->comm = c->comm;
    MPI_Comm_rank(m->comm, &m->rank);
    m->nsend = nsend;
    m->nrecv = nrecv;
    m->tag_per_iter = tag_per_iter;
    m->nthreads = m->rank == 0 ? nsend : m->rank == 1 ? nrecv : 0;
    m->cap = max_bytes > 0 ? max_bytes : 1;
    m->sbuf = calloc((size_t)(m->nthreads > 0 ? m->nthreads : 1), sizeof(char *));
    m->rbuf = calloc((size_t)(m->nthreads > 0 ? m->nthreads : 1), sizeof(char *));
    if (!m->sbuf || !m->rbuf) {
        gomb_lmt_free(m);
        return NULL;
    }
    for (int t = 0; t < m->nthreads; t++) {
        void *s = NULL, *r = NULL;
        if (posix_memalign(&s, 4096, m->cap) != 0 || posix_memalign(&r, 4096, m->cap) != 0) {
            free(s);
            gomb_lmt_free(m);
            return NULL;
        }
        m->sbuf[t] = s;
        m->rbuf[t] = r;
    }
    *err = MPI_SUCCESS;
    return m;
}

void gomb_lmt_free(gomb_lmt *m) {
    if (!m) return;
    for (int t = 0; t < m->nthreads; t++) {
        if (m->sbuf) free(m->sbuf[t]);
        if (m->rbuf) free(m->rbuf[t]);
    }
    free(m->sbuf);
    free(m->rbuf);
    free(m->samples);
    free(m);
}

// the -c pattern of byte k, one way or the other. Not the iteration's:
// with tags 1 and 2 any receiver thread may take any iteration's message.
static char pattern(size_t k, int back) { return (char)((((int)(k % 251) * 7 + back * 101) & 0x7f) | 1); }

static void fill(char *b, size_t n, int back) {
    for (size_t k = 0; k < n; k++) b[k] = pattern(k, back);
}

static void check(lmt_thread *t, const char *b, size_t n, int back) {
    for (size_t k = 0; k < n; k++) {
        char want = pattern(k, back);
        if (b[k] != want) {
            if (t->bad == 0) {
                t->first = (long)k;
                t->got = (double)b[k];
                t->want = (double)want;
            }
            t->bad++;
        }
    }
}

static void *lmt_main(void *arg) {
    lmt_thread *t = arg;
    gomb_lmt *m = t->m;
    MPI_Datatype dt = gomb_mpi_dtype(m->dtype);
    size_t bytes = (size_t)m->count * (size_t)gomb_dtype_size(m->dtype);
    int sender = m->rank == 0, step = sender ? m->nsend : m->nrecv, peer = 1 - m->rank, rc = MPI_SUCCESS;
    char *sb = m->sbuf[t->id], *rb = m->rbuf[t->id];
    memset(sb, 'a', bytes); // OSU's set_buffer_pt2pt, on both ranks
    memset(rb, 'b', bytes);
    for (int i = t->id; i < m->skip + m->iters && rc == MPI_SUCCESS; i += step) {
        int tag_s = m->tag_per_iter ? i : (sender ? 1 : 2), tag_r = m->tag_per_iter ? i : (sender ? 2 : 1);
        if (m->check) { // this way's pattern out, the receive buffer cleared (never the pattern)
            fill(sb, bytes, !sender);
            memset(rb, 0, bytes);
        }
        if (sender) {
            double t0 = MPI_Wtime();
            rc = MPI_Send(sb, m->count, dt, peer, tag_s, m->comm);
            if (rc == MPI_SUCCESS) rc = MPI_Recv(rb, m->count, dt, peer, tag_r, m->comm, MPI_STATUS_IGNORE);
            double dt_s = MPI_Wtime() - t0;
            if (i >= m->skip) {
                t->total += dt_s;
                if (m->record) m->samples[i - m->skip] = dt_s;
            }
        } else {
            rc = MPI_Recv(rb, m->count, dt, peer, tag_r, m->comm, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS) rc = MPI_Send(sb, m->count, dt, peer, tag_s, m->comm);
        }
        // -c: what arrived is the other way's pattern, whole (OSU checks
        // only with as many senders as receivers; this works for any split)
        if (m->check && rc == MPI_SUCCESS) {
            if (gomb_fault_corrupt && sender && bytes > 0) rb[0] ^= 0x7f; // GOMB_FAULT=check-corrupt
            check(t, rb, bytes, sender);
        }
    }
    t->rc = rc;
    return NULL;
}

int gomb_lmt_run(gomb_lmt *m, int dtype, int count, int iters, int skip, int record, int check) {
    m->dtype = dtype;
    m->count = count;
    m->iters = iters;
    m->skip = skip;
    m->record = record && m->rank == 0;
    m->check = check;
    m->elapsed = m->rank == 0 ? 0 : -1;
    m->bad = 0;
    m->first = -1;
    if ((size_t)count * (size_t)gomb_dtype_size(dtype) > m->cap) return MPI_ERR_ARG;
    if (m->record && (size_t)iters > m->samples_cap) {
        free(m->samples);
        m->samples = malloc((size_t)(iters > 0 ? iters : 1) * sizeof(double));
        if (!m->samples) {
            m->samples_cap = 0;
            return MPI_ERR_NO_MEM;
        }
        memset(m->samples, 0, (size_t)(iters > 0 ? iters : 1) * sizeof(double)); // faulted in here, not in the loop
        m->samples_cap = (size_t)iters;
    }
    if (m->nthreads == 0) return MPI_SUCCESS;
    lmt_thread *ts = calloc((size_t)m->nthreads, sizeof *ts);
    pthread_t *th = calloc((size_t)m->nthreads, sizeof *th);
    if (!ts || !th) {
        free(ts);
        free(th);
        return MPI_ERR_NO_MEM;
    }
    int rc = MPI_SUCCESS, started = 0;
    for (; started < m->nthreads; started++) {
        ts[started] = (lmt_thread){.m = m, .id = started, .first = -1};
        if (pthread_create(&th[started], NULL, lmt_main, &ts[started]) != 0) {
            rc = MPI_ERR_OTHER;
            break;
        }
    }
    for (int k = 0; k < started; k++) {
        pthread_join(th[k], NULL);
        if (rc == MPI_SUCCESS) rc = ts[k].rc;
        if (m->rank == 0) m->elapsed += ts[k].total;
        if (ts[k].bad > 0 && m->bad == 0) {
            m->first = ts[k].first;
            m->got = ts[k].got;
            m->want = ts[k].want;
        }
        m->bad += ts[k].bad;
    }
    free(ts);
    free(th);
    return rc;
}
