// pair.h: what the pair and ring kernels (osu.c, osu_rma.c, ring.c) share:
// device or host transfer buffers with CUDA staging, the pairing of
// ranks, per-iteration sample stores, the point-to-point prologue.
#ifndef GOMB_PAIR_H
#define GOMB_PAIR_H

#include "loops.h"

#include <stdlib.h>
#include <string.h>

#define OK (rc == MPI_SUCCESS)

// The buffers a transfer uses: device memory when the MPI library takes
// device pointers; host memory otherwise, with the device data staged
// through it around each transfer (-d cuda with a non-CUDA-aware MPI).
#define SEND_BUF(j) ((j)->device && !(j)->staged ? (j)->dsbuf : (j)->sbuf)
#define RECV_BUF(j) ((j)->device && !(j)->staged ? (j)->drbuf : (j)->rbuf)
#define STAGE_OUT(j, B)                                                                          \
    do {                                                                                         \
        if ((j)->staged) gomb_cuda_d2h((j)->sbuf, (j)->dsbuf, (B));                              \
    } while (0)
#define STAGE_IN(j, B)                                                                           \
    do {                                                                                         \
        if ((j)->staged) gomb_cuda_h2d((j)->drbuf, (j)->rbuf, (B));                              \
    } while (0)

// peer_of pairs the ranks: 0 with 1 (the others sit out), or with pairs
// set, rank i with i + np/2. It returns -1 for a rank without a partner.
static inline int peer_of(gomb_job *j, int *lower) {
    if (j->pairs) {
        int half = j->np / 2;
        if (j->rank >= 2 * half) return -1;
        *lower = j->rank < half;
        return *lower ? j->rank + half : j->rank - half;
    }
    if (j->rank > 1 || j->np < 2) return -1;
    *lower = j->rank == 0;
    return 1 - j->rank;
}

// store keeps one timed iteration: its time in the sum and as a sample.
static inline void store(gomb_job *j, int i, double dt, double *sum, int rec) {
    if (i < j->skip) return;
    *sum += dt;
    if (rec) j->samples[i - j->skip] = dt;
}

// PAIR_PROLOGUE is what the point-to-point kernels share after the
// barriers: the partner (ranks without one sit out with no time), the
// transfer buffers and the message bytes.
#define PAIR_PROLOGUE                                                                            \
    KERNEL_PROLOGUE;                                                                             \
    int lower = 0, peer = peer_of(j, &lower);                                                    \
    double sum = 0;                                                                              \
    char *sb = SEND_BUF(j), *rb = RECV_BUF(j);                                                   \
    size_t B = (size_t)cnt * (size_t)gomb_dtype_size(j->dtype);                                  \
    (void)s;                                                                                     \
    (void)r;                                                                                     \
    (void)B;                                                                                     \
    if (peer < 0) {                                                                              \
        j->elapsed = -1;                                                                         \
        return MPI_SUCCESS;                                                                      \
    }

#endif
