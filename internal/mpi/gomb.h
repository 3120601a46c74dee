/* gomb.h: the C side of gomb's MPI layer.
 *
 * Everything that touches an MPI handle lives in C: Go holds opaque
 * pointers to the structs below and never names an MPI constant, so the
 * same Go code builds against Open MPI (handles are pointers) and MPICH
 * (handles are ints). Every timed loop runs here, entered once per
 * (benchmark, size, batch) through one cgo call.
 *
 * This header holds what every suite shares: element types, the kernel
 * ids, buffers, communicators, the job and its life. Each suite's
 * enumerations, part of a job and entry points are in a header of its
 * own, included below (osu.h, nbc.h, imb_mpi1.h, imb_ext.h, imb_rma.h,
 * imb_p2p.h, imb_io.h, imb_mt.h, congest.h); ids.go checks them all against Go. */
#ifndef GOMB_H
#define GOMB_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* Element types (IMB -data_type / -red_data_type). */
enum gomb_dtype {
    GOMB_DT_BYTE = 0,
    GOMB_DT_CHAR,
    GOMB_DT_INT,
    GOMB_DT_FLOAT,
    GOMB_DT_DOUBLE,
    GOMB_DT_LONG_LONG,
    GOMB_DT_FLOAT16,  /* MPIX_C_FLOAT16 where the library has it (MPICH 4) */
    GOMB_DT_BFLOAT16, /* MPIX_C_BF16 likewise */
    GOMB_DT_COUNT
};

/* Timed kernels. kernel.ID (internal/kernel) has the same names and values;
 * the Go build of package mpi fails when the two differ (ids.go). */
enum gomb_kernel {
    GOMB_K_NONE = 0,
    GOMB_K_PINGPONG,
    GOMB_K_PINGPING,
    GOMB_K_SENDRECV,
    GOMB_K_EXCHANGE,
    GOMB_K_UNIBAND,
    GOMB_K_BIBAND,
    GOMB_K_BARRIER,
    GOMB_K_BCAST,
    GOMB_K_SCATTER,
    GOMB_K_SCATTERV,
    GOMB_K_GATHER,
    GOMB_K_GATHERV,
    GOMB_K_ALLGATHER,
    GOMB_K_ALLGATHERV,
    GOMB_K_REDUCE,
    GOMB_K_REDUCE_LOCAL,
    GOMB_K_REDUCE_SCATTER,
    GOMB_K_REDUCE_SCATTER_BLOCK,
    GOMB_K_ALLREDUCE,
    GOMB_K_ALLTOALL,
    GOMB_K_ALLTOALLV,
    /* OSU's and gomb's own kernels (imb_mpi1.c, osu.c, osu_rma.c, osu_nbc.c, ring.c) */
    GOMB_K_BARRIER_CALLS,       /* MPI_Barrier timed per call (osu_barrier) */
    GOMB_K_REDUCE_SCATTER_SPLIT,/* MPI_Reduce_scatter of count elements in all, split over the ranks */
    GOMB_K_OSU_LATENCY,         /* ping-pong timed per iteration by the lower rank of each pair */
    GOMB_K_OSU_BW,              /* window of Isends, 4-byte ack */
    GOMB_K_OSU_BIBW,            /* windows both ways */
    GOMB_K_RMA,                 /* one-sided: op and synchronisation below */
    GOMB_K_NBC,                 /* non-blocking collective with overlapped compute */
    GOMB_K_RING,                /* one MPI_Sendrecv around the ring after a barrier */
    GOMB_K_MEMCPY,              /* memcpy of count bytes (ring --mem-copy-local) */
    GOMB_K_ONEWAY,              /* ping-pong with a timestamp at every send and receive */
    GOMB_K_IMB_NBC,             /* IMB-NBC, IMB-MPI4: a non-blocking or persistent collective, pure or
                                   with IMB's CPU exploit */
    GOMB_K_IMB_EXT,             /* IMB-EXT: one-sided with fences (ext_op, aggregate) */
    GOMB_K_IMB_RMA,             /* IMB-RMA: passive-target one-sided (imb_rma_op, aggregate) */
    GOMB_K_IMB_P2P,             /* IMB-P2P: one size of a benchmark over the world (p2p_op) */
    GOMB_K_IMB_IO,              /* IMB-IO: MPI-IO writes, reads, open/close (io_*) */
    GOMB_K_OSU_FAN,             /* OSU 7.4 osu_bw_fan_in/out: parents and children (peers, fan_out) */
    GOMB_K_ALLTOALLW,           /* MPI_Alltoallw: a block and its type per rank, byte displacements */
    GOMB_K_NEIGHBOR,            /* a neighbourhood collective (nbc_op GOMB_NBC_INEIGHBOR_*, blocking form)
                                   on nbr_comm, the barrier on comm */
    GOMB_K_COUNT
};


/* Where a job's message buffers come from (gomb_job.buf_mode): each suite
 * lays its buffers out as its peer does, because alignment and page
 * offsets move a number as much as anything in the loop does. */
enum gomb_buf_mode {
    GOMB_BUF_PAGE = 0, /* posix_memalign(4096), grown on demand, filled with IMB's values */
    GOMB_BUF_IMB,      /* IMB-MPI1: MPI_Alloc_mem of the size's exact bytes (rounded up to a
                          float), send filled with IMB's values, receive zeroed; freed after
                          every size by gomb_job_release */
    GOMB_BUF_MALLOC    /* mpi-comm-bench: malloc, never written before the first transfer */
};

/* How a point-to-point receive names its source and tag. */
enum gomb_source {
    GOMB_SRC_SPECIFIC_ANYTAG = 0, /* IMB PingPong / PingPing */
    GOMB_SRC_SPECIFIC,            /* ...SpecificSource: source and tag given */
    GOMB_SRC_ANY                  /* ...AnySource: MPI_ANY_SOURCE, MPI_ANY_TAG */
};

/* gomb_comm wraps one communicator handle (or MPI_COMM_NULL). */
typedef struct {
    MPI_Comm comm;
    MPI_Group imb_groups[2]; /* made by gomb_imb_comm (MPI_GROUP_NULL: none) */
} gomb_comm;

typedef struct gomb_job gomb_job;

/* The suites' enumerations, parts of a job (each used by its kernels alone
 * and left zero by the others) and entry points. */
#include "osu.h"
#include "nbc.h"
#include "imb_mpi1.h"
#include "imb_ext.h"
#include "imb_rma.h"
#include "imb_p2p.h"
#include "imb_io.h"
#include "imb_mt.h"
#include "congest.h"

/* gomb_job describes one call of a timed kernel. Go fills the inputs by
 * plain field writes and calls gomb_run once; the loop, the clock reads and
 * the sample stores all happen in C. */
struct gomb_job {
    /* inputs */
    int kernel;       /* enum gomb_kernel */
    int dtype;        /* enum gomb_dtype of the message elements */
    int count;        /* elements per message (per block for v/all-to-all) */
    MPI_Count count_c; /* the same as an MPI_Count: past INT_MAX when large is set */
    int large;        /* IMB-MPI1's one-count kernels through MPI-4's large-count calls
                         (MPI_Send_c, ...; large.c), for messages past INT_MAX */
    int n;            /* iterations */
    int root;         /* root of the first call (rooted collectives) */
    int root_shift;   /* rotate the root every iteration */
    int sync;         /* barrier after every collective call (outside the timer) */
    int imb_barrier;  /* use gomb's own dissemination barrier instead of MPI_Barrier */
    int source;       /* enum gomb_source */
    int window;       /* Uniband/Biband window */
    int record;       /* store per-iteration samples */
    size_t s_offs, r_offs;          /* -off_cache stride in bytes (0: reuse) */
    int s_cache_iter, r_cache_iter; /* -off_cache buffer count (1: reuse) */
    int skip;         /* untimed iterations at the start of the same loop (OSU warm-up) */
    int pairs;        /* pair rank i with i + np/2 (multi_lat, mbw_mr) instead of 0 and np-1 */
    int in_place;     /* collectives: MPI_IN_PLACE (OSU -l) */
    int persist;      /* a persistent request (MPI_<op>_init, MPI_Start): IMB-MPI4, OSU's _persistent */
    int iter_barrier; /* GOMB_K_OSU_LATENCY: MPI_Barrier before every iteration (osu_latency_mp) */
    /* OSU's -D (gomb_job_set_ddt): a derived type of the size's elements; while set, every
       message of the kernels is one of it (KERNEL_PROLOGUE) */
    MPI_Datatype ddt;
    int aggregate;    /* IMB-EXT, -RMA, -IO: IMB's aggregate mode (one fence, flush or wait for
                         all repetitions) */
    double delay_s;   /* fault injection (GOMB_FAULT=delay): this rank spins so long before
                         every iteration of the IMB loops; 0 (always, but in tests) for none */

    /* set by gomb_job_bind */
    MPI_Comm comm;
    int rank, np;

    /* buffers, owned by the job, allocated as buf_mode says */
    int buf_mode;      /* enum gomb_buf_mode of the next allocation */
    char *sbuf, *rbuf;
    size_t s_cap, r_cap;
    int s_how, r_how;  /* the gomb_buf_mode each buffer was allocated with */
    double *samples;   /* per-iteration seconds, n entries */
    uint64_t *ticks;   /* scratch for loop-timed kernels */
    size_t n_cap;
    int *cnt_a, *dsp_a, *cnt_b, *dsp_b; /* blocks_cap entries each (np, or a neighbourhood's degree) */
    MPI_Aint *adsp_a, *adsp_b;          /* byte displacements (MPI_Neighbor_alltoallw) */
    MPI_Datatype *typ;                  /* every block's type (the w collectives) */
    int blocks_cap;
    MPI_Request *reqs;                  /* 2*window entries */
    int reqs_cap;

    /* outputs */
    double elapsed;    /* seconds: loop time, or sum of per-call times */
    int nsamples;      /* samples stored by the last recorded run */
    double t_init, t_compute, t_test, t_wait; /* GOMB_K_NBC: sums over the timed iterations
                                                 (GOMB_K_IMB_NBC: t_compute, the exploit's) */
    double t_pure;     /* GOMB_K_IMB_NBC: the pure loop's mean time per iteration (GOMB_K_IMB_RMA's
                          Truly_passive_put: its first loop's, the target in MPI_Barrier) */
    double *stamps;    /* GOMB_K_ONEWAY: 4 MPI_Wtime stamps per timed iteration */
    size_t stamps_cap;

    /* GPU buffers (cuda.c): device copies of sbuf/rbuf; staged: the MPI
     * library is not CUDA-aware, so transfers go through the host buffers */
    int device, staged;
    char *dsbuf, *drbuf;
    size_t d_cap;

    /* the suites' parts */
    gomb_rma_part rma;
    gomb_nbc_part nbc;
    gomb_win_part win;
    gomb_p2p_part p2p;
    gomb_fan_part fan;
    gomb_graph_part graph;
    gomb_io_part io;

    /* validation of kernels that must look inside (one-sided windows) */
    int checking, check_iter;
    long check_bad, check_first;
    double check_got, check_want;
};

/* Helpers (helpers.c). */
int gomb_init(int thread_level, int *provided);
int gomb_sessions(void);     /* whether the library has MPI-4 sessions */
int gomb_init_session(void); /* MPI started through a session (OSU's -I) */
int gomb_initialized(void);
int gomb_finalized(void);
int gomb_finalize(void);
void gomb_abort(int code);
void gomb_errors_return(void);
void gomb_sigusr1_onstack(void);

/* A library's crash: one line, not Go's goroutine dump (crash.c). */
void gomb_crash_guard(void);
void gomb_crash_in_init(int on);
void gomb_crash_inject(void);
const char *gomb_error_string(int code, char *buf, int len);
int gomb_error_class(int code);
int gomb_library_version(char *buf, int len);
int gomb_standard_version(int *major, int *minor);
int gomb_processor_name(char *buf, int len);
double gomb_wtime(void);
double gomb_wtick(void);

gomb_comm *gomb_world(void);
int gomb_comm_rank(gomb_comm *c);
int gomb_comm_size(gomb_comm *c);
int gomb_comm_split(gomb_comm *c, int color, int key, gomb_comm **out);
int gomb_comm_node_size(gomb_comm *c);
int gomb_comm_is_null(gomb_comm *c);
void gomb_comm_free(gomb_comm *c);
int gomb_barrier(gomb_comm *c);
int gomb_allreduce_max_double(gomb_comm *c, double *v);
int gomb_allreduce_max_int(gomb_comm *c, int *v);
int gomb_allreduce_min_int(gomb_comm *c, int *v);
int gomb_bcast_int(gomb_comm *c, int *v, int root);
int gomb_bcast_bytes(gomb_comm *c, void *buf, int len, int root);
int gomb_send_bytes(gomb_comm *c, const void *buf, int len, int dest, int tag);
int gomb_iprobe_bytes(gomb_comm *c, int *flag, int *source, int *tag, int *len);
int gomb_recv_bytes(gomb_comm *c, void *buf, int len, int source, int tag);
int gomb_gather_doubles(gomb_comm *c, const double *send, int n, double *recv, int root);
int gomb_gatherv_doubles(gomb_comm *c, const double *send, int n, double *recv,
                         const int *counts, const int *displs, int root);
int gomb_gather_ints(gomb_comm *c, const int *send, int n, int *recv, int root);
int gomb_gatherv_bytes(gomb_comm *c, const void *send, int n, void *recv,
                       const int *counts, const int *displs, int root);
/* every rank's flag (0 or 1) over c, waited for at most limit_s seconds (<= 0: no limit):
 * *lo their least, *hi their most; *done 0 when the limit passed first */
int gomb_agree(gomb_comm *c, int flag, double limit_s, int *lo, int *hi, int *done);
int gomb_refused_call(gomb_comm *c); /* GOMB_FAULT=mpi-error: a call the library refuses */

/* Jobs outside their loops (job.c): datatypes, life, buffers. */
MPI_Datatype gomb_mpi_dtype(int dtype);
int gomb_dtype_size(int dtype);
int gomb_dtype_usable(int dtype, int reduction);
gomb_job *gomb_job_new(void);
void gomb_job_free(gomb_job *j);
int gomb_job_bind(gomb_job *j, gomb_comm *c);
int gomb_job_reserve(gomb_job *j, size_t s_bytes, size_t r_bytes, size_t n, int fill_rank);
int gomb_job_requests(gomb_job *j, int need); /* at least need entries in j->reqs */
int gomb_job_set_peers(gomb_job *j, const int *peers, int n, int parent); /* GOMB_K_OSU_FAN */
void gomb_job_release(gomb_job *j); /* free the message buffers (IMB: after every size) */
/* the neighbourhood collectives' graph: MPI_Dist_graph_create_adjacent on the job's
 * communicator, weights 1, no reordering, as OSU makes it (for a grid, after the periodic
 * Cartesian communicator of dims, ndims of them, OSU makes and frees first); *took its seconds */
int gomb_job_set_nbr(gomb_job *j, int ndims, const int *dims, int in, const int *src, int out, const int *dst,
                     const int *slot, double *took);
/* every block (blocks_cap) cnt elements of the job's type: counts, displacements (in bytes with
 * bytes set: MPI_Alltoallw's), byte displacements, types */
int gomb_job_blocks(gomb_job *j, int cnt, int bytes);
int gomb_dims_create(int nnodes, int ndims, int *dims); /* MPI_Dims_create */
/* OSU's -D derived types over count elements of type dtype: GOMB_DDT_CONT (count of them),
 * GOMB_DDT_VECT (count/stride blocks of blen, stride apart), GOMB_DDT_INDX (n blocks of
 * lens[] at displs[], in elements); GOMB_DDT_NONE frees it. *transmit: the elements a
 * message of it carries; *reach: its upper bound, in bytes */
enum { GOMB_DDT_NONE = 0, GOMB_DDT_CONT, GOMB_DDT_VECT, GOMB_DDT_INDX };
int gomb_job_set_ddt(gomb_job *j, int dtype, int kind, int count, int stride, int blen, int n, const int *displs,
                     const int *lens, long long *transmit, long long *reach);
int gomb_cvar(const char *name, char *buf, int len); /* helpers.c: an MPI_T control variable as text */
int gomb_cvars_begin(void);                          /* MPI_T_init_thread */
int gomb_cvars_end(void);                            /* MPI_T_finalize */

/* Timed kernels. */
int gomb_run(gomb_job *j);     /* dispatch.c: any kernel */
int gomb_kernel_dispatched(int kernel); /* dispatch.c: whether gomb_run has a family for it */
int gomb_run_ring(gomb_job *j); /* ring.c: the ring monitor's sample, local copy */

/* build.c: what the mpi.h this binary was compiled against says */
const char *gomb_build_family(void);
const char *gomb_build_header(void);
void gomb_build_standard(int *version, int *subversion);
const char *gomb_build_features(void);

/* Validation (validate.c): one untimed call of the kernel with known data.
 * Returns an MPI error code; *bad counts wrong elements, *first_bad the
 * first wrong element index (-1 if none), *got and *want its values. */
int gomb_validate(gomb_job *j, int iter, long *bad, long *first_bad, double *got, double *want);

/* GPU buffers (cuda.c). */
int gomb_cuda_load(int local_rank, char *err, int len);
int gomb_cuda_aware(void);
int gomb_job_device(gomb_job *j, int staged, char *err, int len);
void gomb_job_device_free(gomb_job *j);
int gomb_cuda_d2h(void *dst, const void *src, size_t n);
int gomb_cuda_h2d(void *dst, const void *src, size_t n);
int gomb_cuda_d2d(void *dst, const void *src, size_t n);

/* Fault injection for tests (checks.c): corrupt received data. */
void gomb_set_fault_corrupt(int on);

/* Every wrong element of the checks (checks.c), for OSU's -c log:DIR: kept
 * up to cap while enabled (cap 0: off), taken out after each check. */
int gomb_vlog_enable(long cap);
long gomb_vlog_take(long *pos, double *got, double *want, long max, long *dropped);

#endif
