/* imb_io.h: IMB-IO's benchmarks, part of a job and entry points
 * (imb_io.c); included by gomb.h. */
#ifndef GOMB_IMB_IO_H
#define GOMB_IMB_IO_H

/* IMB-IO's benchmarks: what they do (access) and how their loops
 * position (IMB's pos: individual pointer, explicit offsets, shared
 * pointer). */
enum { GOMB_IO_PUT = 0, GOMB_IO_GET, GOMB_IO_NONE };
enum { GOMB_IO_INDV = 0, GOMB_IO_EXPL, GOMB_IO_SHARED };

/* GOMB_K_IMB_IO (imb_io.c): the benchmark, its file and the size's split */
typedef struct {
    int access;      /* GOMB_IO_PUT, GOMB_IO_GET, GOMB_IO_NONE (Open_Close) */
    int pos;         /* GOMB_IO_INDV, _EXPL, _SHARED */
    int priv;        /* a file per rank (IMB's fpointer priv: the _Priv and S_ benchmarks) */
    int coll;        /* C_: the collective calls */
    int single;      /* S_: one process does the I/O */
    int nonblocking; /* the I variants: blocking loop (t_pure), then non-blocking with IMB's exploit */
    char path[4096]; /* the table's file (gomb_io_file) */
    MPI_Comm comm;   /* the file's communicator: the benchmark's, MPI_COMM_SELF (a file per rank) or none */
    int rank;        /* this rank in it (-1: none) */
    MPI_File fh;     /* the size's open file (gomb_io_open; gomb_io_close frees it) */
    MPI_Datatype view; /* the individual pointer's file type (MPI_DATATYPE_NULL: bytes) */
    int locsize;     /* this rank's bytes of a size (IMB's split.Locsize) */
    MPI_Offset offset, total; /* where they start in a record, and a record's bytes */
} gomb_io_part;

int gomb_run_imb_io(gomb_job *j);  /* imb_io.c: IMB-IO's */
int gomb_io_file(gomb_job *j, const char *path, long long total); /* imb_io.c: a table's file (IMB_init_file) */
int gomb_io_open(gomb_job *j, long long size); /* imb_io.c: a size's split, view and open file */
int gomb_io_rewind(gomb_job *j);   /* imb_io.c: the file pointers back at 0 */
double gomb_io_calibrate(double *tcpu_us); /* imb_io.c: IMB-IO's exploit, its MFlops and tCPU */
int gomb_io_check(gomb_job *j, int iter, long *bad, long *first, double *got, double *want); /* imb_io.c: -check */
void gomb_io_close(gomb_job *j);   /* job.c: the size's view and file go (IMB_close_transfer) */

#endif
