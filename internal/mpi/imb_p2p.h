/* imb_p2p.h: IMB-P2P's benchmarks, part of a job and entry point
 * (imb_p2p.c); included by gomb.h. */
#ifndef GOMB_IMB_P2P_H
#define GOMB_IMB_P2P_H

/* IMB-P2P's benchmarks. */
enum {
    GOMB_P2P_PINGPONG = 0,
    GOMB_P2P_PINGPING,
    GOMB_P2P_UNIRANDOM,
    GOMB_P2P_BIRANDOM,
    GOMB_P2P_CORANDOM,
    GOMB_P2P_STENCIL2D,
    GOMB_P2P_STENCIL3D,
    GOMB_P2P_SENDRECV_REPLACE
};
#define GOMB_P2P_MAX_NBR 6

/* GOMB_K_IMB_P2P (imb_p2p.c) */
typedef struct {
    int op;                   /* the benchmark (GOMB_P2P_*) */
    int pause_us;             /* -pause, microseconds slept before and after the loops (<0: none) */
    int touch_send, touch_recv; /* -msgwr, -msgrd: touch a byte a cache line */
    int nbr[GOMB_P2P_MAX_NBR], nnbr; /* the stencils' neighbours */
    size_t stride;            /* bytes between the stencils' per-neighbour buffers */
    double messages;          /* output: messages this rank sent and received in the timed loop */
} gomb_p2p_part;

int gomb_run_imb_p2p(gomb_job *j); /* imb_p2p.c: IMB-P2P's */

#endif
