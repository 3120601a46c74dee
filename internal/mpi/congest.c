//go:build cgo

// congest.c: gomb congestion's canaries and congestors, after GPCNeT's
// network_load_test (netbench/GPCNET): the canaries' random-ring and
// allreduce loops, the four congestors, and the barriers over the test's
// ranks that start and end each phase. Every loop runs here, entered once
// a measurement (canaries) or a phase (congestors).
#include "gomb.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

// wait_all waits for n requests: MPI_Waitall, or with poll_s > 0 tests
// them with a sleep of poll_s between tests (a congestor that waits
// without taking a core from the canaries).
static int wait_all(int n, MPI_Request *r, double poll_s) {
    if (poll_s <= 0) return MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
    struct timespec ts = {(time_t)poll_s, (long)((poll_s - (double)(time_t)poll_s) * 1e9)};
    int flag = 0, rc;
    while ((rc = MPI_Testall(n, r, &flag, MPI_STATUSES_IGNORE)) == MPI_SUCCESS && !flag) nanosleep(&ts, NULL);
    return rc;
}

static int ibarrier_wait(MPI_Comm comm, double poll_s) {
    MPI_Request r;
    int rc = MPI_Ibarrier(comm, &r);
    return rc == MPI_SUCCESS ? wait_all(1, &r, poll_s) : rc;
}

int gomb_canary_phase(MPI_Comm global) { return ibarrier_wait(global, 0); }

int gomb_canary_ring(MPI_Comm comm, int bytes, int inflight, int barrier, int warm, int n, double *samples) {
    int rank, np, rc = MPI_SUCCESS;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &np);
    int left = (rank - 1 + np) % np, right = (rank + 1) % np;
    size_t b = bytes > 0 ? (size_t)bytes : 1;
    char *sbuf = calloc(b, 1), *rbuf = calloc(b, 2 * (size_t)inflight);
    MPI_Request *r = malloc(4 * (size_t)inflight * sizeof(MPI_Request));
    if (!sbuf || !rbuf || !r) {
        free(sbuf);
        free(rbuf);
        free(r);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < warm + n && rc == MPI_SUCCESS; i++) {
        double t0 = MPI_Wtime();
        int k = 0;
        for (int m = 0; m < inflight && rc == MPI_SUCCESS; m++) {
            rc = MPI_Irecv(rbuf + (size_t)(2 * m) * b, bytes, MPI_BYTE, left, 0, comm, &r[k++]);
            if (rc == MPI_SUCCESS) rc = MPI_Irecv(rbuf + (size_t)(2 * m + 1) * b, bytes, MPI_BYTE, right, 0, comm, &r[k++]);
        }
        for (int m = 0; m < inflight && rc == MPI_SUCCESS; m++) {
            rc = MPI_Isend(sbuf, bytes, MPI_BYTE, left, 0, comm, &r[k++]);
            if (rc == MPI_SUCCESS) rc = MPI_Isend(sbuf, bytes, MPI_BYTE, right, 0, comm, &r[k++]);
        }
        if (rc == MPI_SUCCESS) rc = MPI_Waitall(k, r, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS && barrier) rc = MPI_Barrier(comm);
        if (i >= warm) samples[i - warm] = MPI_Wtime() - t0;
    }
    free(sbuf);
    free(rbuf);
    free(r);
    return rc;
}

int gomb_canary_allreduce(MPI_Comm comm, int warm, int n, double *samples) {
    double in = 1, out = 0;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < warm + n && rc == MPI_SUCCESS; i++) {
        double t0 = MPI_Wtime();
        rc = MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, comm);
        if (i >= warm) samples[i - warm] = MPI_Wtime() - t0;
    }
    return rc;
}

gomb_congestor *gomb_congestor_new(MPI_Comm group, MPI_Comm global, int pattern, int bytes, int batch, double poll_s,
                                   double cap_s, int *err) {
    gomb_congestor *c = calloc(1, sizeof *c);
    *err = MPI_ERR_NO_MEM;
    if (!c) return NULL;
    c->comm = group;
    c->global = global;
    c->pattern = pattern;
    c->bytes = bytes;
    c->batch = batch > 0 ? batch : 1;
    c->poll_s = poll_s;
    c->cap_s = cap_s;
    c->win = MPI_WIN_NULL;
    MPI_Comm_rank(group, &c->rank);
    MPI_Comm_size(group, &c->np);
    size_t b = bytes > 0 ? (size_t)bytes : 1, np = (size_t)c->np;
    c->sbuf = calloc(b, 1);
    c->rbuf = calloc(b, np);
    c->reqs = malloc(2 * np * sizeof(MPI_Request));
    if (!c->sbuf || !c->rbuf || !c->reqs) {
        gomb_congestor_free(c);
        return NULL;
    }
    *err = MPI_SUCCESS;
    if (pattern == GOMB_CONG_PUT_INCAST || pattern == GOMB_CONG_GET_BCAST) {
        // the first rank's window holds a slot a member; passive target, every member locked in
        int rc = MPI_Win_allocate((MPI_Aint)(b * np), 1, MPI_INFO_NULL, group, &c->wbase, &c->win);
        if (rc == MPI_SUCCESS) rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, c->win);
        if (rc != MPI_SUCCESS) {
            *err = rc;
            gomb_congestor_free(c);
            return NULL;
        }
    }
    return c;
}

void gomb_congestor_free(gomb_congestor *c) {
    if (!c) return;
    if (c->win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(c->win);
        MPI_Win_free(&c->win);
    }
    free(c->sbuf);
    free(c->rbuf);
    free(c->reqs);
    free(c);
}

// call runs one batch of the congestor's pattern; *sent adds the bytes
// this rank sent (or put, or had got from it).
static int call(gomb_congestor *c, double *sent) {
    int me = c->rank, np = c->np, B = c->bytes, rc = MPI_SUCCESS;
    int pow2 = (np & (np - 1)) == 0;
    for (int it = 0; it < c->batch && rc == MPI_SUCCESS; it++) {
        switch (c->pattern) {
        case GOMB_CONG_ALLTOALL: // GPCNeT's pairwise exchange: XOR partners, or shifts
            for (int s = 1; s < np && rc == MPI_SUCCESS; s++) {
                int dst = pow2 ? me ^ s : (me + s) % np, src = pow2 ? me ^ s : (me - s + np) % np;
                rc = MPI_Irecv(c->rbuf + (size_t)src * (size_t)B, B, MPI_BYTE, src, 1, c->comm, &c->reqs[0]);
                if (rc == MPI_SUCCESS) rc = MPI_Isend(c->sbuf, B, MPI_BYTE, dst, 1, c->comm, &c->reqs[1]);
                if (rc == MPI_SUCCESS) rc = wait_all(2, c->reqs, c->poll_s);
                *sent += B;
            }
            break;
        case GOMB_CONG_INCAST:
            if (me == 0) {
                for (int s = 1; s < np && rc == MPI_SUCCESS; s++)
                    rc = MPI_Irecv(c->rbuf + (size_t)s * (size_t)B, B, MPI_BYTE, s, 1, c->comm, &c->reqs[s - 1]);
                if (rc == MPI_SUCCESS) rc = wait_all(np - 1, c->reqs, c->poll_s);
            } else {
                rc = MPI_Isend(c->sbuf, B, MPI_BYTE, 0, 1, c->comm, &c->reqs[0]);
                if (rc == MPI_SUCCESS) rc = wait_all(1, c->reqs, c->poll_s);
                *sent += B;
            }
            break;
        case GOMB_CONG_PUT_INCAST:
            if (me != 0) {
                rc = MPI_Put(c->sbuf, B, MPI_BYTE, 0, (MPI_Aint)me * B, B, MPI_BYTE, c->win);
                if (rc == MPI_SUCCESS) rc = MPI_Win_flush(0, c->win);
                *sent += B;
            }
            break;
        case GOMB_CONG_GET_BCAST:
            if (me != 0) {
                rc = MPI_Get(c->rbuf, B, MPI_BYTE, 0, 0, B, MPI_BYTE, c->win);
                if (rc == MPI_SUCCESS) rc = MPI_Win_flush(0, c->win);
                *sent += B;
            }
            break;
        }
    }
    return rc;
}

int gomb_congestor_isolated(gomb_congestor *c) { return ibarrier_wait(c->global, c->poll_s); }

// gomb_congestor_congest: a warm-up batch, then the barrier that lets the
// canaries start (phase 1) posted, batches until the canaries' barrier of
// phase 2 completes (or cap_s), the group agreeing after every batch, so
// that every member stops after the same batch (GPCNeT's congestors test
// the canaries' barrier and agree likewise). calls, sent and seconds count
// from the start barrier.
int gomb_congestor_congest(gomb_congestor *c) {
    double t0 = MPI_Wtime(), ts = 0, sent = 0;
    MPI_Request p1 = MPI_REQUEST_NULL, p2 = MPI_REQUEST_NULL, agree;
    int started = 0, done = 0, rc = call(c, &sent);
    c->calls = c->sent = c->seconds = 0;
    if (rc == MPI_SUCCESS) rc = MPI_Ibarrier(c->global, &p1);
    while (rc == MPI_SUCCESS) {
        if (started) sent = 0;
        rc = call(c, &sent);
        if (rc != MPI_SUCCESS) break;
        if (started) {
            c->calls++;
            c->sent += sent;
        }
        if (!started) {
            rc = MPI_Test(&p1, &started, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS && started) {
                ts = MPI_Wtime();
                rc = MPI_Ibarrier(c->global, &p2);
            }
        } else if (!done) {
            rc = MPI_Test(&p2, &done, MPI_STATUS_IGNORE);
        }
        int stop = done || MPI_Wtime() - t0 > c->cap_s, all = 0;
        if (rc == MPI_SUCCESS) rc = MPI_Iallreduce(&stop, &all, 1, MPI_INT, MPI_MIN, c->comm, &agree);
        if (rc == MPI_SUCCESS) rc = wait_all(1, &agree, c->poll_s);
        if (all) break;
    }
    if (started) c->seconds = MPI_Wtime() - ts;
    if (rc != MPI_SUCCESS) return rc;
    // stopped by the cap: the canaries' barriers still come
    if (!started) {
        rc = wait_all(1, &p1, c->poll_s);
        if (rc == MPI_SUCCESS) rc = MPI_Ibarrier(c->global, &p2);
    }
    if (rc == MPI_SUCCESS && !done) rc = wait_all(1, &p2, c->poll_s);
    return rc;
}

int gomb_quiet_barrier(MPI_Comm comm, double poll_s) { return ibarrier_wait(comm, poll_s); }
