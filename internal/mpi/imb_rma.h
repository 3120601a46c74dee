/* imb_rma.h: IMB-RMA's benchmarks and entry points (imb_rma.c); the
 * window part of a job is IMB-EXT's (imb_ext.h); included by gomb.h. */
#ifndef GOMB_IMB_RMA_H
#define GOMB_IMB_RMA_H

/* IMB-RMA's benchmarks. */
enum {
    GOMB_IRMA_UNIDIR_PUT = 0,
    GOMB_IRMA_BIDIR_PUT,
    GOMB_IRMA_UNIDIR_GET,
    GOMB_IRMA_BIDIR_GET,
    GOMB_IRMA_PUT_LOCAL,
    GOMB_IRMA_GET_LOCAL,
    GOMB_IRMA_PUT_ALL_LOCAL,
    GOMB_IRMA_GET_ALL_LOCAL,
    GOMB_IRMA_ONE_PUT_ALL,
    GOMB_IRMA_ALL_PUT_ALL,
    GOMB_IRMA_ONE_GET_ALL,
    GOMB_IRMA_ALL_GET_ALL,
    GOMB_IRMA_EXCHANGE_PUT,
    GOMB_IRMA_EXCHANGE_GET,
    GOMB_IRMA_ACCUMULATE,
    GOMB_IRMA_GET_ACCUMULATE,
    GOMB_IRMA_FETCH_AND_OP,
    GOMB_IRMA_COMPARE_AND_SWAP,
    GOMB_IRMA_TRULY_PASSIVE_PUT
};

int gomb_run_imb_rma(gomb_job *j); /* imb_rma.c: IMB-RMA's */
int gomb_rma_window(gomb_job *j);  /* imb_rma.c: the size's window, as IMB_init_transfer makes it */

#endif
