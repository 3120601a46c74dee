/* cref.c: the plain C reference for gomb's fidelity benchmark.
 *
 * It makes exactly the MPI calls IMB-MPI1 makes for PingPong, Sendrecv and
 * Allreduce (two barriers, one MPI_Wtime pair around the loop for the
 * point-to-point kernels, one pair around every call for Allreduce plus the
 * untimed -sync barrier), with the same schedule gomb uses under
 * -iter_policy off: an untimed pre-run of n repetitions, a warm-up of
 * max(n/10, min(10, n)), then the timed n. It prints, on rank 0, one line
 * per benchmark and size:
 *     <benchmark> <bytes> <repetitions> <t_max_usec>
 * with t scaled as IMB reports it (half the round trip for PingPong).
 *
 * usage: cref -n N -sizes a,b,c BENCHMARK...
 *        cref -osu latency|bw|put_latency -sizes a,b,c
 * The -osu form makes OSU 7.2's calls with its iteration counts (10000/100
 * latency, 100/10 bandwidth, window 64; large above 8 KiB: 1000/10, 20/2)
 * and prints "<test> <bytes> <iterations> <usec per iteration>", the time
 * gomb reports (half the round trip for latency, one window for bw).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, np;

static double pingpong(char *s, char *r, int cnt, int n) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == 0) {
        for (int i = 0; i < n; i++) {
            MPI_Send(s, cnt, MPI_BYTE, np - 1, 1, MPI_COMM_WORLD);
            MPI_Recv(r, cnt, MPI_BYTE, np - 1, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else if (rank == np - 1) {
        for (int i = 0; i < n; i++) {
            MPI_Recv(r, cnt, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, cnt, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / n * 0.5;
}

static double sendrecv(char *s, char *r, int cnt, int n) {
    int right = (rank + 1) % np, left = (rank - 1 + np) % np;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++)
        MPI_Sendrecv(s, cnt, MPI_BYTE, right, 1, r, cnt, MPI_BYTE, left, MPI_ANY_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    return (MPI_Wtime() - t0) / n;
}

static double allreduce(char *s, char *r, int cnt, int n) {
    double sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < n; i++) {
        double t1 = MPI_Wtime();
        MPI_Allreduce(s, r, cnt / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        double t2 = MPI_Wtime();
        sum += t2 - t1;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return sum / n;
}

/* ---- OSU 7.2 loops ---- */

static double osu_latency(char *s, char *r, int size, int iters, int skip) {
    double sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + skip; i++) {
        if (rank == 0) {
            double t0 = MPI_Wtime();
            MPI_Send(s, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(r, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (i >= skip) sum += MPI_Wtime() - t0;
        } else if (rank == 1) {
            MPI_Recv(r, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
    }
    return sum / iters / 2 * 1e6;
}

static double osu_bw(char *s, char *r, int size, int iters, int skip) {
    MPI_Request req[64];
    char ack[4];
    double sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + skip; i++) {
        if (rank == 0) {
            double t0 = MPI_Wtime();
            for (int k = 0; k < 64; k++) MPI_Isend(s, size, MPI_CHAR, 1, 100, MPI_COMM_WORLD, &req[k]);
            MPI_Waitall(64, req, MPI_STATUSES_IGNORE);
            MPI_Recv(ack, 4, MPI_CHAR, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (i >= skip) sum += MPI_Wtime() - t0;
        } else if (rank == 1) {
            for (int k = 0; k < 64; k++) MPI_Irecv(r, size, MPI_CHAR, 0, 100, MPI_COMM_WORLD, &req[k]);
            MPI_Waitall(64, req, MPI_STATUSES_IGNORE);
            MPI_Send(ack, 4, MPI_CHAR, 0, 101, MPI_COMM_WORLD);
        }
    }
    return sum / iters * 1e6;
}

static double osu_put_latency(char *s, char *r, int size, int iters, int skip, MPI_Win win) {
    double t = 0;
    (void)r;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        for (int i = 0; i < skip; i++) {
            MPI_Put(s, size, MPI_CHAR, 1, 0, size, MPI_CHAR, win);
            MPI_Win_flush(1, win);
        }
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            MPI_Put(s, size, MPI_CHAR, 1, 0, size, MPI_CHAR, win);
            MPI_Win_flush(1, win);
        }
        t = (MPI_Wtime() - t0) / iters * 1e6;
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

static int run_osu(const char *test, long *sizes, int nsizes, char *s, char *r, long maxs) {
    MPI_Win win = MPI_WIN_NULL;
    char *base = NULL;
    if (!strcmp(test, "put_latency")) MPI_Win_allocate(maxs, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    for (int i = 0; i < nsizes; i++) {
        int size = (int)sizes[i], large = size > 8192;
        double t;
        int iters, skip;
        if (!strcmp(test, "latency")) {
            iters = large ? 1000 : 10000, skip = large ? 10 : 100;
            t = osu_latency(s, r, size, iters, skip);
        } else if (!strcmp(test, "bw")) {
            iters = large ? 20 : 100, skip = large ? 2 : 10;
            t = osu_bw(s, r, size, iters, skip);
        } else if (!strcmp(test, "put_latency")) {
            iters = large ? 1000 : 10000, skip = large ? 10 : 100;
            t = osu_put_latency(s, r, size, iters, skip, win);
        } else {
            if (rank == 0) fprintf(stderr, "cref: unknown OSU test %s\n", test);
            return 2;
        }
        if (rank == 0) printf("%s %d %d %.4f\n", test, size, iters, t);
    }
    if (win != MPI_WIN_NULL) MPI_Win_free(&win);
    return 0;
}

int main(int argc, char **argv) {
    int n = 1000, nsizes = 0;
    const char *osu = NULL;
    long sizes[64];
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int a = 1;
    for (; a < argc; a++) {
        if (!strcmp(argv[a], "-n") && a + 1 < argc) {
            n = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "-osu") && a + 1 < argc) {
            osu = argv[++a];
        } else if (!strcmp(argv[a], "-sizes") && a + 1 < argc) {
            char *tok = strtok(argv[++a], ",");
            while (tok && nsizes < 64) {
                sizes[nsizes++] = atol(tok);
                tok = strtok(NULL, ",");
            }
        } else {
            break;
        }
    }
    long maxs = 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > maxs) maxs = sizes[i];
    char *s, *r;
    if (posix_memalign((void **)&s, 4096, (size_t)maxs + 4096) ||
        posix_memalign((void **)&r, 4096, (size_t)maxs + 4096)) {
        fprintf(stderr, "cref: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long i = 0; i < (maxs + 4096) / 4; i++) {
        ((float *)s)[i] = 0.1f * (rank + 1) + (float)i;
        ((float *)r)[i] = 0.1f * (rank + 1) + (float)i;
    }
    if (osu) {
        int rc = run_osu(osu, sizes, nsizes, s, r, maxs);
        fflush(stdout);
        if (rc) MPI_Abort(MPI_COMM_WORLD, rc);
        MPI_Finalize();
        return 0;
    }
    for (; a < argc; a++) {
        double (*k)(char *, char *, int, int) = NULL;
        if (!strcmp(argv[a], "PingPong")) k = pingpong;
        if (!strcmp(argv[a], "Sendrecv")) k = sendrecv;
        if (!strcmp(argv[a], "Allreduce")) k = allreduce;
        if (!k) {
            if (rank == 0) fprintf(stderr, "cref: unknown benchmark %s\n", argv[a]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        for (int i = 0; i < nsizes; i++) {
            int cnt = (int)sizes[i];
            int warm = n / 10 > (n < 10 ? n : 10) ? n / 10 : (n < 10 ? n : 10);
            k(s, r, cnt, n);          /* untimed pre-run, as IMB with a fixed policy */
            k(s, r, cnt, warm);       /* warm-up */
            double t = k(s, r, cnt, n) * 1e6;
            double tmax;
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (rank == 0) printf("%s %d %d %.4f\n", argv[a], cnt, n, tmax);
        }
    }
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
