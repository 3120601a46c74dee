/* imb_ext.h: IMB-EXT's benchmarks, the window part of a job (IMB-RMA's
 * too) and IMB-EXT's entry points (imb_ext.c); included by gomb.h. */
#ifndef GOMB_IMB_EXT_H
#define GOMB_IMB_EXT_H

/* IMB-EXT's benchmarks. */
enum {
    GOMB_EXT_WINDOW = 0,
    GOMB_EXT_UNIDIR_PUT,
    GOMB_EXT_UNIDIR_GET,
    GOMB_EXT_BIDIR_PUT,
    GOMB_EXT_BIDIR_GET,
    GOMB_EXT_ACCUMULATE
};

/* GOMB_K_IMB_EXT, GOMB_K_IMB_RMA (imb_ext.c, imb_rma.c): the benchmark and the size's window
 * (gomb_ext_window, gomb_rma_window), freed before the buffers */
typedef struct {
    int ext_op;         /* GOMB_K_IMB_EXT: GOMB_EXT_* */
    int imb_rma_op;     /* GOMB_K_IMB_RMA: GOMB_IRMA_* */
    MPI_Aint r_el_offs; /* GOMB_K_IMB_RMA: r_offs in elements (the reductions' displacement unit) */
    MPI_Win win;
    int made;
} gomb_win_part;

int gomb_run_imb_ext(gomb_job *j); /* imb_ext.c: IMB-EXT's */
int gomb_ext_window(gomb_job *j);  /* imb_ext.c: the size's window, as IMB_init_transfer makes it */
void gomb_ext_window_free(gomb_job *j); /* job.c: and its end */

#endif
