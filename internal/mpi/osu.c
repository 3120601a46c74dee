//go:build cgo

// osu.c: the OSU Micro-Benchmarks 7 point-to-point kernels (latency,
// bandwidth, bi-directional bandwidth, multi-pair, OSU 7.4's fan-in and
// fan-out) and gomb's one-way latency. Same rules as imb_mpi1.c: the loop, the clock reads and the
// sample stores all happen here, in one C call per batch.
//
// OSU's warm-up is the first j->skip iterations of the same loop. OSU times
// latency and bandwidth loops per iteration on the lower rank and sums;
// these kernels do the same and keep every iteration's time as a sample.
#include "pair.h"

static void free_requests(MPI_Request *r, int n) {
    for (int k = 0; k < n; k++)
        if (r[k] != MPI_REQUEST_NULL) MPI_Request_free(&r[k]);
}

// osu_latency / osu_multi_lat: the lower rank of a pair times every round
// trip from before MPI_Send to after MPI_Recv (osu_latency_mp: after an
// MPI_Barrier of both ranks, iter_barrier). osu_latency_persistent
// (persist): the same with MPI_Send_init and MPI_Recv_init made once for
// the size (the lower rank's send first), MPI_Start and MPI_Wait each way.
static int k_osu_latency(gomb_job *j) {
    PAIR_PROLOGUE;
    MPI_Request pr[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL}; // send, receive
    if (j->persist) {
        if (lower) {
            rc = MPI_Send_init(sb, cnt, dt, peer, 1, j->comm, &pr[0]);
            if (OK) rc = MPI_Recv_init(rb, cnt, dt, peer, 1, j->comm, &pr[1]);
        } else {
            rc = MPI_Recv_init(rb, cnt, dt, peer, 1, j->comm, &pr[1]);
            if (OK) rc = MPI_Send_init(sb, cnt, dt, peer, 1, j->comm, &pr[0]);
        }
    }
    for (int i = 0; i < j->skip + n && OK; i++) {
        if (j->iter_barrier && (rc = MPI_Barrier(j->comm)) != MPI_SUCCESS) break; // osu_latency_mp
        if (lower) {
            double t0 = MPI_Wtime();
            STAGE_OUT(j, B);
            rc = j->persist ? gomb_start_wait(&pr[0]) : MPI_Send(sb, cnt, dt, peer, 1, j->comm);
            if (OK) rc = j->persist ? gomb_start_wait(&pr[1]) : MPI_Recv(rb, cnt, dt, peer, 1, j->comm, MPI_STATUS_IGNORE);
            STAGE_IN(j, B);
            store(j, i, MPI_Wtime() - t0, &sum, rec);
        } else {
            rc = j->persist ? gomb_start_wait(&pr[1]) : MPI_Recv(rb, cnt, dt, peer, 1, j->comm, MPI_STATUS_IGNORE);
            STAGE_IN(j, B);
            STAGE_OUT(j, B);
            if (OK) rc = j->persist ? gomb_start_wait(&pr[0]) : MPI_Send(sb, cnt, dt, peer, 1, j->comm);
        }
    }
    free_requests(pr, 2);
    j->elapsed = lower ? sum : -1;
    j->nsamples = lower && rec && OK ? n : 0;
    return rc;
}

// osu_bw, osu_mbw_mr (pairs): a window of MPI_Isend, MPI_Waitall, then a
// 4-byte reply; osu_bibw: windows both ways. Timed per iteration on the
// lower rank of each pair. osu_bw_persistent, osu_bibw_persistent
// (persist): the window's requests made once for the size (MPI_Send_init,
// MPI_Recv_init), MPI_Startall and MPI_Waitall each iteration.
static int k_osu_bw(gomb_job *j, int bidir) {
    PAIR_PROLOGUE;
    int w = j->window, sends = bidir || lower, recvs = bidir || !lower, npr = 0; // npr: the persistent requests
    char ack[4] = {0};
    if ((rc = gomb_job_requests(j, 2 * w)) != MPI_SUCCESS) return rc;
    if (j->persist) { // the receives first, as the loop posts them
        for (int k = 0; recvs && k < w && OK; k++) rc = MPI_Recv_init(rb, cnt, dt, peer, 100, j->comm, &j->reqs[npr++]);
        for (int k = 0; sends && k < w && OK; k++) rc = MPI_Send_init(sb, cnt, dt, peer, 100, j->comm, &j->reqs[npr++]);
    }
    for (int i = 0; i < j->skip + n && OK; i++) {
        double t0 = MPI_Wtime();
        int nr = 0;
        if (sends) STAGE_OUT(j, B);
        if (j->persist) {
            nr = npr;
            rc = MPI_Startall(nr, j->reqs);
        } else {
            for (int k = 0; recvs && k < w && OK; k++) rc = MPI_Irecv(rb, cnt, dt, peer, 100, j->comm, &j->reqs[nr++]);
            for (int k = 0; sends && k < w && OK; k++) rc = MPI_Isend(sb, cnt, dt, peer, 100, j->comm, &j->reqs[nr++]);
        }
        if (OK) rc = MPI_Waitall(nr, j->reqs, MPI_STATUSES_IGNORE);
        if (recvs) STAGE_IN(j, B);
        if (OK && !bidir) {
            if (lower)
                rc = MPI_Recv(ack, 4, MPI_CHAR, peer, 101, j->comm, MPI_STATUS_IGNORE);
            else
                rc = MPI_Send(ack, 4, MPI_CHAR, peer, 101, j->comm);
        }
        if (lower) store(j, i, MPI_Wtime() - t0, &sum, rec);
    }
    if (j->persist) free_requests(j->reqs, npr);
    j->elapsed = lower ? sum : -1;
    j->nsamples = lower && rec && OK ? n : 0;
    return rc;
}

// osu_bw_fan_in, osu_bw_fan_out (OSU 7.4): each parent (a rank of the
// first node) and its children (the ranks of the same local rank on the
// other nodes; gomb_job_set_peers gave this rank its role). Per iteration
// the senders (fan-in: each child; fan-out: each parent) post a window of
// MPI_Isend to every peer, slot by slot, the receivers the matching
// MPI_Irecv from every peer; both MPI_Waitall; then every receiver answers
// each of its peers with one byte (tag 101). The senders time each
// iteration. One send and one receive buffer, reused (OSU's -b single).
static int k_osu_fan(gomb_job *j) {
    KERNEL_PROLOGUE;
    (void)s;
    (void)r;
    int w = j->window, np = j->fan.npeers, send = j->fan.parent == j->fan.out, nr = 0;
    double sum = 0;
    char ack = 0;
    if (np <= 0) {
        j->elapsed = -1;
        return MPI_SUCCESS;
    }
    if ((rc = gomb_job_requests(j, w * np)) != MPI_SUCCESS) return rc;
    for (int i = 0; i < j->skip + n && OK; i++) {
        double t0 = MPI_Wtime();
        nr = 0;
        for (int k = 0; k < w && OK; k++)
            for (int p = 0; p < np && OK; p++)
                rc = send ? MPI_Isend(j->sbuf, cnt, dt, j->fan.peers[p], 100, j->comm, &j->reqs[nr++])
                          : MPI_Irecv(j->rbuf, cnt, dt, j->fan.peers[p], 100, j->comm, &j->reqs[nr++]);
        if (OK) rc = MPI_Waitall(nr, j->reqs, MPI_STATUSES_IGNORE);
        for (int p = 0; p < np && OK; p++)
            rc = send ? MPI_Recv(&ack, 1, MPI_CHAR, j->fan.peers[p], 101, j->comm, MPI_STATUS_IGNORE)
                      : MPI_Send(&ack, 1, MPI_CHAR, j->fan.peers[p], 101, j->comm);
        if (send) store(j, i, MPI_Wtime() - t0, &sum, rec);
    }
    j->elapsed = send ? sum : -1;
    j->nsamples = send && rec && OK ? n : 0;
    return rc;
}

// k_oneway: a ping-pong that stamps MPI_Wtime at every send and receive:
// the lower rank before its send (a) and after its receive (d), the upper
// rank after its receive (b) and before its send (c). Stamps of timed
// iteration i land in stamps[4i .. 4i+3]; each rank fills its own two. With
// the ranks' clock offset (from 0-byte runs of the same kernel) they give
// the time of each direction.
static int k_oneway(gomb_job *j) {
    if (!j->stamps) { // only this kernel needs them; touched before its loop
        size_t bytes = 4 * (size_t)(j->n_cap > 0 ? j->n_cap : 1) * sizeof(double);
        if (!(j->stamps = malloc(bytes))) return MPI_ERR_NO_MEM;
        memset(j->stamps, 0, bytes);
    }
    PAIR_PROLOGUE;
    for (int i = 0; i < j->skip + n && OK; i++) {
        double *st = j->stamps + 4 * (size_t)(i < j->skip ? 0 : i - j->skip);
        if (lower) {
            double a = MPI_Wtime();
            rc = MPI_Send(sb, cnt, dt, peer, 3, j->comm);
            if (OK) rc = MPI_Recv(rb, cnt, dt, peer, 3, j->comm, MPI_STATUS_IGNORE);
            double d = MPI_Wtime();
            st[0] = a;
            st[3] = d;
            store(j, i, d - a, &sum, rec);
        } else {
            rc = MPI_Recv(rb, cnt, dt, peer, 3, j->comm, MPI_STATUS_IGNORE);
            double b = MPI_Wtime();
            double c = MPI_Wtime();
            if (OK) rc = MPI_Send(sb, cnt, dt, peer, 3, j->comm);
            st[1] = b;
            st[2] = c;
        }
    }
    j->elapsed = lower ? sum : -1;
    j->nsamples = lower && rec && OK ? n : 0;
    return rc;
}

// gomb_run_p2p runs one call of a point-to-point kernel (dispatch.c
// checked j).
int gomb_run_p2p(gomb_job *j) {
    switch (j->kernel) {
    case GOMB_K_OSU_LATENCY: return k_osu_latency(j);
    case GOMB_K_OSU_BW: return k_osu_bw(j, 0);
    case GOMB_K_OSU_BIBW: return k_osu_bw(j, 1);
    case GOMB_K_ONEWAY: return k_oneway(j);
    case GOMB_K_OSU_FAN: return k_osu_fan(j);
    }
    return MPI_ERR_ARG;
}
