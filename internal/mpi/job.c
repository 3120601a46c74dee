//go:build cgo

// job.c: what a job is outside its timed loops: the datatypes of its
// messages, its life (new, bind to a communicator, free) and its buffers,
// laid out as each suite's peer program lays out its own. The kernels,
// the validation and the one-sided checks call in here; this file calls
// nothing of theirs (cuda.c frees a job's device buffers).
#include "gomb.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

MPI_Datatype gomb_mpi_dtype(int dtype) {
    switch (dtype) {
    case GOMB_DT_CHAR: return MPI_CHAR;
    case GOMB_DT_INT: return MPI_INT;
    case GOMB_DT_FLOAT: return MPI_FLOAT;
    case GOMB_DT_DOUBLE: return MPI_DOUBLE;
    case GOMB_DT_LONG_LONG: return MPI_LONG_LONG;
#ifdef MPIX_C_FLOAT16
    case GOMB_DT_FLOAT16: return MPIX_C_FLOAT16;
#else
    case GOMB_DT_FLOAT16: return MPI_DATATYPE_NULL;
#endif
#ifdef MPIX_C_BF16
    case GOMB_DT_BFLOAT16: return MPIX_C_BF16;
#else
    case GOMB_DT_BFLOAT16: return MPI_DATATYPE_NULL;
#endif
    default: return MPI_BYTE;
    }
}

int gomb_dtype_size(int dtype) {
    int s = 1;
    MPI_Datatype t = gomb_mpi_dtype(dtype);
    if (t == MPI_DATATYPE_NULL) return dtype == GOMB_DT_FLOAT16 || dtype == GOMB_DT_BFLOAT16 ? 2 : 1;
    MPI_Type_size(t, &s);
    return s;
}

// gomb_dtype_usable reports whether this MPI library has the type and,
// with reduction, whether MPI_SUM on it works (MPI_CHAR is not an
// arithmetic type in the standard). The 16-bit float types are not
// tried: MPICH 4.0 has MPIX_C_FLOAT16 but aborts the job on MPI_SUM of it
// (an internal assertion) instead of returning an error.
int gomb_dtype_usable(int dtype, int reduction) {
    if (gomb_mpi_dtype(dtype) == MPI_DATATYPE_NULL) return 0;
    if (!reduction) return 1;
    if (dtype == GOMB_DT_FLOAT16 || dtype == GOMB_DT_BFLOAT16) return 0;
    unsigned char in[16] = {1}, out[16] = {0};
    int rc = MPI_Reduce_local(in, out, 1, gomb_mpi_dtype(dtype), MPI_SUM);
    return rc == MPI_SUCCESS;
}

static void free_blocks(gomb_job *j) {
    free(j->cnt_a);
    free(j->dsp_a);
    free(j->cnt_b);
    free(j->dsp_b);
    free(j->adsp_a);
    free(j->adsp_b);
    free(j->typ);
    j->cnt_a = j->dsp_a = j->cnt_b = j->dsp_b = NULL;
    j->adsp_a = j->adsp_b = NULL;
    j->typ = NULL;
    j->blocks_cap = 0;
}

// alloc_blocks makes room for n blocks' counts, displacements and types.
static int alloc_blocks(gomb_job *j, int n) {
    size_t m = n > 0 ? (size_t)n : 1;
    free_blocks(j);
    j->cnt_a = calloc(m, sizeof(int));
    j->dsp_a = calloc(m, sizeof(int));
    j->cnt_b = calloc(m, sizeof(int));
    j->dsp_b = calloc(m, sizeof(int));
    j->adsp_a = calloc(m, sizeof(MPI_Aint));
    j->adsp_b = calloc(m, sizeof(MPI_Aint));
    j->typ = calloc(m, sizeof(MPI_Datatype));
    if (!j->cnt_a || !j->dsp_a || !j->cnt_b || !j->dsp_b || !j->adsp_a || !j->adsp_b || !j->typ) {
        free_blocks(j);
        return MPI_ERR_NO_MEM;
    }
    j->blocks_cap = (int)m;
    return MPI_SUCCESS;
}

// free_nbr frees the neighbourhood graph (unless MPI has ended) and its lists.
static void free_nbr(gomb_job *j) {
    if (j->graph.comm != MPI_COMM_NULL && !gomb_finalized()) MPI_Comm_free(&j->graph.comm);
    j->graph.comm = MPI_COMM_NULL;
    free(j->graph.src);
    free(j->graph.dst);
    free(j->graph.slot);
    j->graph.src = j->graph.dst = j->graph.slot = NULL;
    j->graph.in = j->graph.out = 0;
}

static void free_ddt(gomb_job *j) {
    if (j->ddt != MPI_DATATYPE_NULL && !gomb_finalized()) MPI_Type_free(&j->ddt);
    j->ddt = MPI_DATATYPE_NULL;
}

gomb_job *gomb_job_new(void) {
    gomb_job *j = calloc(1, sizeof(*j));
    if (!j) return NULL;
    j->comm = MPI_COMM_NULL;
    j->graph.comm = MPI_COMM_NULL;
    j->ddt = MPI_DATATYPE_NULL;
    j->io.comm = MPI_COMM_NULL;
    j->io.rank = -1;
    j->io.fh = MPI_FILE_NULL;
    j->io.view = MPI_DATATYPE_NULL;
    j->s_cache_iter = j->r_cache_iter = 1;
    j->sync = 1;
    j->window = 64;
    j->rank = -1;
    return j;
}

// Sample storage lives in its own mappings, off the C heap, so that the
// message buffers of a size land where they would in the peer program:
// glibc hands out heap addresses by history, and a buffer's offset within
// its page (and against its partner buffer) moves copy and reduction speed.
static void *side_alloc(size_t bytes) {
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void side_free(void *p, size_t bytes) {
    if (p) munmap(p, bytes ? bytes : 1);
}

static void job_free_samples(gomb_job *j) {
    side_free(j->samples, j->n_cap * sizeof(double));
    side_free(j->ticks, j->n_cap * sizeof(uint64_t));
    free(j->stamps);
    j->samples = NULL;
    j->ticks = NULL;
    j->stamps = NULL;
    j->n_cap = 0;
}

static void *page_alloc(size_t bytes) {
    void *p = NULL;
    if (bytes == 0) bytes = 1;
    bytes = (bytes + 4095) & ~(size_t)4095;
    if (posix_memalign(&p, 4096, bytes) != 0) return NULL;
    return p;
}

// buf_alloc allocates one message buffer the way mode says.
static void *buf_alloc(int mode, size_t bytes) {
    void *p = NULL;
    switch (mode) {
    case GOMB_BUF_IMB: /* IMB_v_alloc: at least a size_t */
        if (bytes < sizeof(size_t)) bytes = sizeof(size_t);
        if (MPI_Alloc_mem((MPI_Aint)bytes, MPI_INFO_NULL, &p) != MPI_SUCCESS) return NULL;
        return p;
    case GOMB_BUF_MALLOC: return malloc(bytes ? bytes : 1);
    default: return page_alloc(bytes);
    }
}

static void buf_free(int mode, void *p) {
    if (!p) return;
    if (mode == GOMB_BUF_IMB)
        MPI_Free_mem(p);
    else
        free(p);
}

// IMB-MPI1's other MPI_Alloc_mem blocks share the heap with a size's
// message buffers and so decide where those land (an address and its
// offset against MPI's own temporaries move a reduction 2-3x: Open MPI's
// Reduce_scatter_block 64 KiB, np 2, runs 27 or 68-78 us by where its
// buffers fall). IMB makes six arrays of world-size ints at start-up
// (IMB_init_pointers) and keeps them; world rank 0 makes each size's
// gathered times (IMB_output's all_times: world-size doubles) after the
// size's timed loop, before the buffers are freed, and frees them at the
// next size's.
static void *imb_pointers[6];
static void *imb_times;

/* The C heap as IMB-MPI1 runs in the common case, made so from the start.
 * An MPI's collectives malloc temporaries per call (Open MPI 4.1's
 * Reduce_scatter_block: two of 128 KiB at 64 KiB, np 2). glibc serves them
 * from the heap once its dynamic mmap threshold has risen past them (the
 * first free of a larger mmapped block raises it to that block's size and
 * the trim threshold to twice that); the heap's top is then given back by
 * brk whenever more than the trim threshold is free there, and faulted in
 * again by the next call. With the thresholds at 132 KiB / 264 KiB, where
 * a 64 KiB sweep leaves them, whether the top trims on every call depends on
 * how much was free at the top before (under 8 KiB: never; else: every
 * call), that is on every allocation the process made before: measured,
 * the same Open MPI Reduce_scatter_block after Reduce_scatter ran 13-20 us
 * or 180-550 us by the rank, in IMB-MPI1 and in gomb alike, moved by an
 * environment variable or an LD_PRELOAD. IMB's runs with its default sizes
 * free a 4 MiB buffer after PingPong and never trim again; freeing one
 * 32 MiB mmapped block here (glibc's largest dynamic threshold: the trim
 * threshold becomes 64 MiB) puts the heap in that state before the first
 * benchmark, so a sweep's figures never depend on where the heap top
 * happened to be. One munmap, no page touched but the block's header. */
static void heap_settle(void) {
    static int done;
    if (done) return;
    done = 1;
    /* the chunk, header and page rounding included, must not pass glibc's
     * 32 MiB cap or the threshold stays; the store keeps the compiler from
     * eliding the pair */
    char *p = malloc(((size_t)32 << 20) - 8192);
    if (!p) return;
    *(volatile char *)p = 0;
    free(p);
}

int gomb_imb_pointers(int np) {
    heap_settle();
    for (int i = 0; i < 6; i++) {
        if (imb_pointers[i]) continue;
        int rc = MPI_Alloc_mem((MPI_Aint)np * (MPI_Aint)sizeof(int), MPI_INFO_NULL, &imb_pointers[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

int gomb_imb_times(int np) {
    if (imb_times) MPI_Free_mem(imb_times);
    imb_times = NULL;
    return MPI_Alloc_mem((MPI_Aint)np * (MPI_Aint)sizeof(double), MPI_INFO_NULL, &imb_times);
}

/* The MPI calls IMB_init_communicator makes on a benchmark's new
 * communicator besides the split: MPI_Comm_compare with MPI_COMM_WORLD
 * and, where it is not the world's group, on the group's rank 0 both
 * groups and a translation of the ranks. The MPI allocates for them (MPICH
 * 4.0: 40 KiB for the compare), and the next benchmark's buffers and
 * temporaries land after them. IMB keeps the groups; they are freed with
 * the communicator. (IMB's collection of the layout on world rank 0 is
 * gomb's own gather.) */
int gomb_imb_comm(gomb_comm *c) {
    int result = MPI_UNEQUAL, rank, n, rc;
    if (c->comm == MPI_COMM_NULL) return MPI_SUCCESS;
    if ((rc = MPI_Comm_compare(MPI_COMM_WORLD, c->comm, &result)) != MPI_SUCCESS) return rc;
    if (result == MPI_IDENT || result == MPI_CONGRUENT) return MPI_SUCCESS;
    MPI_Comm_rank(c->comm, &rank);
    if (rank != 0) return MPI_SUCCESS;
    MPI_Comm_size(c->comm, &n);
    int *from = malloc(2 * (size_t)n * sizeof(int));
    if (!from) return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) from[i] = i;
    if ((rc = MPI_Comm_group(MPI_COMM_WORLD, &c->imb_groups[0])) == MPI_SUCCESS &&
        (rc = MPI_Comm_group(c->comm, &c->imb_groups[1])) == MPI_SUCCESS)
        rc = MPI_Group_translate_ranks(c->imb_groups[1], n, from, c->imb_groups[0], from + n);
    free(from);
    return rc;
}

// gomb_job_release frees the message buffers, the send buffer first, as
// IMB's IMB_del_s_buf and IMB_del_r_buf do after every size.
// gomb_ext_window_free frees the size's IMB-EXT window (imb_ext.c made
// it), before the buffers it lies over go.
void gomb_ext_window_free(gomb_job *j) {
    if (j->win.made) MPI_Win_free(&j->win.win);
    j->win.made = 0;
}

// gomb_io_close is IMB_close_transfer for IMB-IO (imb_io.c opened them):
// the size's view and file go.
void gomb_io_close(gomb_job *j) {
    if (j->io.view != MPI_DATATYPE_NULL) MPI_Type_free(&j->io.view);
    if (j->io.fh != MPI_FILE_NULL) MPI_File_close(&j->io.fh);
}

void gomb_job_release(gomb_job *j) {
    gomb_ext_window_free(j); // a window over the buffers goes first
    gomb_io_close(j);        // as IMB closes the file before it frees the buffers
    buf_free(j->s_how, j->sbuf);
    buf_free(j->r_how, j->rbuf);
    j->sbuf = j->rbuf = NULL;
    j->s_cap = j->r_cap = 0;
}

void gomb_job_free(gomb_job *j) {
    if (!j) return;
    if (j->device) gomb_job_device_free(j);
    gomb_job_release(j);
    job_free_samples(j);
    free_blocks(j);
    free_nbr(j);
    free_ddt(j);
    free(j->reqs);
    free(j->fan.peers);
    free(j);
}

int gomb_job_bind(gomb_job *j, gomb_comm *c) {
    gomb_ext_window_free(j); // made on the communicator before
    gomb_io_close(j);
    j->io.comm = MPI_COMM_NULL;
    j->io.rank = -1;
    j->comm = c ? c->comm : MPI_COMM_NULL;
    j->rank = -1;
    j->np = 0;
    if (j->comm == MPI_COMM_NULL) return MPI_SUCCESS;
    MPI_Comm_rank(j->comm, &j->rank);
    MPI_Comm_size(j->comm, &j->np);
    free_blocks(j);
    return alloc_blocks(j, j->np);
}

// fill writes IMB's buffer values, floats 0.1*(rank+1)+i, over a buffer;
// it also touches every page so no first-touch fault lands in a timed loop.
static void fill(char *buf, size_t bytes, int rank) {
    size_t nf = bytes / sizeof(float), i;
    float *f = (float *)buf;
    for (i = 0; i < nf; i++) f[i] = (float)(0.1 * (rank + 1) + (float)i);
    memset(buf + nf * sizeof(float), 0, bytes - nf * sizeof(float));
}

// reserve_imb is IMB's IMB_set_buf after IMB_del_s_buf/IMB_del_r_buf: both
// buffers new, of the size's bytes rounded up to a whole float, the send
// buffer holding IMB's values and the receive buffer zeros. A benchmark
// that moves no data (Barrier) gets no buffers, as in IMB.
static int reserve_imb(gomb_job *j, size_t s_bytes, size_t r_bytes, int fill_rank) {
    gomb_job_release(j);
    if (s_bytes == 0 || r_bytes == 0) return MPI_SUCCESS;
    size_t sl = (s_bytes + sizeof(float) - 1) / sizeof(float) * sizeof(float);
    size_t rl = (r_bytes + sizeof(float) - 1) / sizeof(float) * sizeof(float);
    j->s_how = j->r_how = GOMB_BUF_IMB;
    if (!(j->sbuf = buf_alloc(GOMB_BUF_IMB, sl))) return MPI_ERR_NO_MEM;
    j->s_cap = sl;
    if (!(j->rbuf = buf_alloc(GOMB_BUF_IMB, rl))) return MPI_ERR_NO_MEM;
    j->r_cap = rl;
    fill(j->sbuf, sl, fill_rank);
    memset(j->rbuf, 0, rl);
    return MPI_SUCCESS;
}

// grow makes one buffer at least bytes long (page or malloc mode). Page
// mode fills new memory with IMB's values; malloc mode leaves it as
// mpi-comm-bench does, untouched.
static int grow(gomb_job *j, char **buf, size_t *cap, int *how, size_t bytes, int fill_rank) {
    if (bytes <= *cap && *buf) return MPI_SUCCESS;
    buf_free(*how, *buf);
    *how = j->buf_mode;
    *cap = 0;
    if (!(*buf = buf_alloc(*how, bytes ? bytes : 64))) return MPI_ERR_NO_MEM;
    *cap = bytes;
    if (*how == GOMB_BUF_PAGE) fill(*buf, bytes, fill_rank);
    return MPI_SUCCESS;
}

// gomb_job_reserve makes the message buffers at least the given sizes (in
// IMB mode: exactly, newly allocated) and leaves room for n samples.
int gomb_job_reserve(gomb_job *j, size_t s_bytes, size_t r_bytes, size_t n, int fill_rank) {
    int rc;
    if (j->buf_mode == GOMB_BUF_IMB || j->s_how == GOMB_BUF_IMB) {
        rc = j->buf_mode == GOMB_BUF_IMB ? reserve_imb(j, s_bytes, r_bytes, fill_rank)
                                         : (gomb_job_release(j), MPI_SUCCESS);
        if (rc != MPI_SUCCESS) return rc;
    }
    if (j->buf_mode != GOMB_BUF_IMB) {
        gomb_ext_window_free(j); // the buffers may move
        if ((rc = grow(j, &j->sbuf, &j->s_cap, &j->s_how, s_bytes, fill_rank)) != MPI_SUCCESS) return rc;
        if ((rc = grow(j, &j->rbuf, &j->r_cap, &j->r_how, r_bytes, fill_rank)) != MPI_SUCCESS) return rc;
    }
    if (n > j->n_cap) {
        // Touched now, not first in a timed loop: a loop that stamps its
        // repetitions writes every entry, and each fresh page's first
        // write is a fault (measured: IMB-RMA's non-aggregate Unidir_get
        // 0 B, 100 repetitions, 0.17-0.22 us against IMB's 0.03 with the
        // faults in the loop, 0.02-0.03 without).
        job_free_samples(j);
        j->samples = side_alloc(n * sizeof(double));
        j->ticks = side_alloc(n * sizeof(uint64_t));
        if (!j->samples || !j->ticks) {
            side_free(j->samples, n * sizeof(double));
            side_free(j->ticks, n * sizeof(uint64_t));
            j->samples = NULL;
            j->ticks = NULL;
            return MPI_ERR_NO_MEM;
        }
        memset(j->samples, 0, n * sizeof(double));
        memset(j->ticks, 0, n * sizeof(uint64_t));
        j->n_cap = n;
    }
    return gomb_job_requests(j, 2 * (j->window > 0 ? j->window : 1));
}

// gomb_job_requests makes room for need requests in j->reqs. Kernels call
// it before their clocks start: the window their requests need is set
// after the buffers are reserved.
int gomb_job_requests(gomb_job *j, int need) {
    if (need <= j->reqs_cap) return MPI_SUCCESS;
    MPI_Request *r = malloc((size_t)need * sizeof *r);
    if (!r) return MPI_ERR_NO_MEM;
    free(j->reqs);
    j->reqs = r;
    j->reqs_cap = need;
    return MPI_SUCCESS;
}

// gomb_job_set_peers gives GOMB_K_OSU_FAN this rank's role: a parent and
// its children, or a child and its parent (n 0: no part).
int gomb_job_set_peers(gomb_job *j, const int *peers, int n, int parent) {
    int *p = n > 0 ? malloc((size_t)n * sizeof *p) : NULL;
    if (n > 0 && !p) return MPI_ERR_NO_MEM;
    if (n > 0) memcpy(p, peers, (size_t)n * sizeof *p);
    free(j->fan.peers);
    j->fan.peers = p;
    j->fan.npeers = n;
    j->fan.parent = parent;
    return MPI_SUCCESS;
}


// gomb_job_blocks sets every block to cnt elements of the job's type (or
// of its -D type), one after another: counts, displacements in elements
// (in bytes with bytes set, as MPI_Alltoallw takes them: OSU counts them
// in the element type's size, -D or not), byte displacements, types.
int gomb_job_blocks(gomb_job *j, int cnt, int bytes) {
    // -D's type where the job holds one (OSU's stypes/rtypes), the element type otherwise
    MPI_Datatype dt = j->ddt != MPI_DATATYPE_NULL ? j->ddt : gomb_mpi_dtype(j->dtype);
    long long esz = gomb_dtype_size(j->dtype);
    if ((long long)j->blocks_cap * cnt * esz > 0x7fffffffLL) return MPI_ERR_COUNT;
    for (int i = 0; i < j->blocks_cap; i++) {
        j->cnt_a[i] = j->cnt_b[i] = cnt;
        j->dsp_a[i] = j->dsp_b[i] = (int)((long long)i * cnt * (bytes ? esz : 1));
        j->adsp_a[i] = j->adsp_b[i] = (MPI_Aint)i * cnt * esz;
        j->typ[i] = dt;
    }
    return MPI_SUCCESS;
}

// cart_first is what OSU's omb_neighborhood_create does for a grid before
// the timed call: the periodic Cartesian communicator made without
// reordering, a barrier, the communicator freed. (It also readies the
// library's communicator machinery: without it Open MPI's first
// MPI_Dist_graph_create_adjacent takes several times as long.)
static int cart_first(gomb_job *j, int ndims, const int *dims) {
    int *periods = malloc((size_t)ndims * sizeof(int));
    if (!periods) return MPI_ERR_NO_MEM;
    for (int i = 0; i < ndims; i++) periods[i] = 1;
    MPI_Comm cart = MPI_COMM_NULL;
    int rc = MPI_Cart_create(j->comm, ndims, dims, periods, 0, &cart);
    free(periods);
    if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->comm);
    if (cart != MPI_COMM_NULL) {
        int rf = MPI_Comm_free(&cart);
        if (rc == MPI_SUCCESS) rc = rf;
    }
    return rc;
}

// gomb_job_set_nbr makes the neighbourhood collectives' graph as OSU's
// omb_neighborhood_create hands it to MPI_Dist_graph_create_adjacent:
// every edge weighted 1, no info, no reordering; *took is that call's
// seconds on this rank. The blocks grow to the larger degree where a
// graph has more edges at a rank than the job has ranks.
int gomb_job_set_nbr(gomb_job *j, int ndims, const int *dims, int in, const int *src, int out, const int *dst,
                     const int *slot, double *took) {
    *took = 0;
    if (j->comm == MPI_COMM_NULL || in < 0 || out < 0 || ndims < 0) return MPI_ERR_ARG;
    free_nbr(j);
    if (ndims > 0) {
        int rc = cart_first(j, ndims, dims);
        if (rc != MPI_SUCCESS) return rc;
    }
    size_t mi = in > 0 ? (size_t)in : 1, mo = out > 0 ? (size_t)out : 1;
    int *sw = malloc(mi * sizeof(int)), *dw = malloc(mo * sizeof(int));
    j->graph.src = malloc(mi * sizeof(int));
    j->graph.dst = malloc(mo * sizeof(int));
    j->graph.slot = malloc(mi * sizeof(int));
    int rc = MPI_SUCCESS;
    if (!sw || !dw || !j->graph.src || !j->graph.dst || !j->graph.slot) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        for (int i = 0; i < in; i++) {
            sw[i] = 1;
            j->graph.src[i] = src[i];
            j->graph.slot[i] = slot[i];
        }
        for (int i = 0; i < out; i++) {
            dw[i] = 1;
            j->graph.dst[i] = dst[i];
        }
        j->graph.in = in;
        j->graph.out = out;
        double t = MPI_Wtime();
        rc = MPI_Dist_graph_create_adjacent(j->comm, in, j->graph.src, sw, out, j->graph.dst, dw, MPI_INFO_NULL, 0,
                                            &j->graph.comm);
        *took = MPI_Wtime() - t;
    }
    free(sw);
    free(dw);
    if (rc == MPI_SUCCESS && (in > j->blocks_cap || out > j->blocks_cap)) rc = alloc_blocks(j, in > out ? in : out);
    if (rc != MPI_SUCCESS) free_nbr(j);
    return rc;
}

int gomb_dims_create(int nnodes, int ndims, int *dims) {
    for (int i = 0; i < ndims; i++) dims[i] = 0;
    return MPI_Dims_create(nnodes, ndims, dims);
}

// gomb_job_set_ddt makes OSU's -D type as omb_ddt_assign makes it (the
// indexed type from every block given: OSU 7.2 leaves out the last line
// of its file while counting it in its Transmit Size).
int gomb_job_set_ddt(gomb_job *j, int dtype, int kind, int count, int stride, int blen, int n, const int *displs,
                     const int *lens, long long *transmit, long long *reach) {
    *transmit = *reach = 0;
    free_ddt(j);
    MPI_Datatype base = gomb_mpi_dtype(dtype);
    int rc;
    switch (kind) {
    case GOMB_DDT_NONE: return MPI_SUCCESS;
    case GOMB_DDT_CONT:
        rc = MPI_Type_contiguous(count, base, &j->ddt);
        *transmit = count;
        break;
    case GOMB_DDT_VECT:
        if (stride < 1 || blen < 0) return MPI_ERR_ARG;
        rc = MPI_Type_vector(count / stride, blen, stride, base, &j->ddt);
        *transmit = (long long)(count / stride) * blen;
        break;
    case GOMB_DDT_INDX:
        rc = MPI_Type_indexed(n, lens, displs, base, &j->ddt);
        for (int i = 0; i < n; i++) *transmit += lens[i];
        break;
    default: return MPI_ERR_ARG;
    }
    if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&j->ddt);
    MPI_Aint lb = 0, extent = 0;
    if (rc == MPI_SUCCESS) rc = MPI_Type_get_extent(j->ddt, &lb, &extent);
    if (rc == MPI_SUCCESS) *reach = (long long)(lb + extent);
    if (rc != MPI_SUCCESS) free_ddt(j);
    return rc;
}
