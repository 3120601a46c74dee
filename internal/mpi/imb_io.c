//go:build cgo

// imb_io.c: IMB-IO's kernels (IMB 2021 src_c/IMB_write.c, IMB_read.c,
// IMB_open_close.c) and its file handling (IMB_init_file.c, the MPI-IO
// part of IMB_init_transfer.c and IMB_close_transfer).
//
// Per table (process count and mode) gomb_io_file names the file, deletes
// what is there, and has the file's rank 0 create it with IMB's length
// (for the reads: filled with known data). Per size gomb_io_open splits the
// size into the ranks' portions (IMB_get_rank_portion, in 4-byte units),
// sets the individual-pointer benchmarks' view (each rank's block of every
// size-long record) and opens the file on the file's communicator; release
// closes it (gomb_io_close, job.c). The loops:
//  - writes: IMB's two barriers, then per repetition (non-aggregate) or
//    once after all of them (aggregate) MPI_File_sync, MPI_Barrier,
//    MPI_File_sync; the time is the loop's over the repetitions;
//  - reads: aggregate only, no synchronisation after the reads;
//  - the I variants: the blocking loop first (t_pure), the file closed and
//    reopened, then the non-blocking loop with IMB's CPU exploit
//    (TARGET_CPU_SECS) between start and completion (t_ovrl);
//  - Open_Close: MPI_File_open, a one-byte write, MPI_File_close.
// The positioning: individual pointer through the view (Indv), explicit
// offsets (Expl), the shared pointer (Shared), a file per rank (Priv);
// collective calls for the C_ benchmarks (MPI_File_write_all,
// _write_at_all, _write_ordered; _begin/_end for the non-blocking ones).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loops.h"

// IMB-IO's settings (IMB_settings_io.h): the CPU exploit's seconds per
// repetition of the non-blocking loops, and the record count its file
// length formula takes (MSGSPERSAMPLE there, not -iter's).
#define IO_TARGET_CPU_SECS 0.01
#define IO_ASIZE 4 // IMB's assign_type, an int: the unit of the rank portions
#define IO_N_BARR 2 // IMB's barriers before the clock starts

static double io_tcpu = -1; // IMB's tCPU, microseconds: the exploit's calibrated passes

// gomb_io_calibrate is IMB_cpu_exploit_reworked(TARGET_CPU_SECS, 1): it
// fixes the exploit's passes for the non-blocking loops and returns the
// exploit's MFlops; *tcpu_us is IMB's tCPU, the time of those passes.
double gomb_io_calibrate(double *tcpu_us) {
    double t = gomb_imb_cpu_exploit_timed((float)IO_TARGET_CPU_SECS);
    io_tcpu = 1e6 * t;
    *tcpu_us = io_tcpu;
    return gomb_imb_exploit_mflops();
}

// io_byte is the data gomb writes and reads: byte p of a little-endian
// 32-bit count of 4-byte words (word k holds k+1), so a block tells where
// it belongs.
static inline unsigned char io_byte(uint64_t p) {
    uint32_t w = (uint32_t)(p / 4 + 1);
    return (unsigned char)(w >> (8 * (p % 4)));
}

static void io_fill(char *buf, size_t len, uint64_t from) {
    for (size_t i = 0; i < len; i++) buf[i] = (char)io_byte(from + i);
}

// io_portion is IMB_get_rank_portion: rank's bytes pos1..pos2 of size,
// split in units of IO_ASIZE; returns the portion's length.
static size_t io_portion(int rank, int np, size_t size, size_t *pos1) {
    if (size == 0) {
        *pos1 = 0;
        return 0;
    }
    size_t ne = (size + IO_ASIZE - 1) / IO_ASIZE, bas = ne / (size_t)np, mod = ne % (size_t)np, pos2;
    if ((size_t)rank < mod) {
        *pos1 = (size_t)rank * (bas + 1) * IO_ASIZE;
        pos2 = *pos1 - 1 + (bas + 1) * IO_ASIZE;
    } else {
        *pos1 = ((size_t)rank * bas + mod) * IO_ASIZE;
        pos2 = *pos1 - 1 + bas * IO_ASIZE; // wraps for an empty portion at 0, as IMB's
    }
    if (pos2 > size - 1) pos2 = size - 1;
    return pos2 >= *pos1 ? pos2 - *pos1 + 1 : 0;
}

// io_procs is how many of the benchmark's processes do its I/O (IMB's
// all_io_procs): one for the S_ benchmarks, all otherwise.
static int io_procs(gomb_job *j) { return j->io.single ? 1 : j->np; }

static int io_amode(gomb_job *j) {
    int m = MPI_MODE_CREATE | MPI_MODE_RDWR;
    return j->io.priv ? m | MPI_MODE_UNIQUE_OPEN : m;
}

// gomb_io_file is IMB_init_file for a table: the file's communicator
// (the benchmark's, or MPI_COMM_SELF for a file per rank), its name (path,
// chosen by the caller as IMB names it), and for the reads and writes the
// file deleted and made anew, total bytes long, by the file's rank 0.
int gomb_io_file(gomb_job *j, const char *path, long long total) {
    gomb_io_close(j);
    int n = snprintf(j->io.path, sizeof j->io.path, "%s", path);
    if (n < 0 || (size_t)n >= sizeof j->io.path) return MPI_ERR_BAD_FILE;
    int procs = io_procs(j);
    j->io.comm = MPI_COMM_NULL;
    j->io.rank = -1;
    if (j->io.priv) {
        if (j->comm != MPI_COMM_NULL && j->rank < procs) {
            j->io.comm = MPI_COMM_SELF;
            j->io.rank = 0;
        }
    } else if (j->comm != MPI_COMM_NULL) {
        j->io.comm = j->comm;
        j->io.rank = j->rank;
    }
    if (j->io.access == GOMB_IO_NONE || j->io.comm == MPI_COMM_NULL) return MPI_SUCCESS;
    // IMB_del_file: the old file goes (touched first, so that it exists)
    int rc = MPI_Barrier(j->io.comm);
    MPI_File fh = MPI_FILE_NULL;
    if (rc == MPI_SUCCESS && j->io.rank == 0) {
        if (MPI_File_open(MPI_COMM_SELF, j->io.path, io_amode(j), MPI_INFO_NULL, &fh) == MPI_SUCCESS)
            MPI_File_close(&fh);
        MPI_File_delete(j->io.path, MPI_INFO_NULL);
    }
    if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->io.comm);
    if (rc != MPI_SUCCESS || j->io.rank != 0) return rc;
    rc = MPI_File_open(MPI_COMM_SELF, j->io.path, io_amode(j), MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS) return rc;
    rc = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    if (rc == MPI_SUCCESS) rc = MPI_File_set_size(fh, (MPI_Offset)total);
    if (rc == MPI_SUCCESS && j->io.access == GOMB_IO_GET) { // the reads' data, a MiB a write
        size_t chunk = 1 << 20;
        char *buf = malloc(chunk);
        if (!buf) rc = MPI_ERR_NO_MEM;
        for (long long pos = 0; rc == MPI_SUCCESS && pos < total; pos += (long long)chunk) {
            int len = (int)(total - pos < (long long)chunk ? total - pos : (long long)chunk);
            MPI_Status st;
            io_fill(buf, (size_t)len, (uint64_t)pos);
            rc = MPI_File_write(fh, buf, len, MPI_BYTE, &st);
        }
        free(buf);
    }
    int rc2 = MPI_File_close(&fh);
    return rc != MPI_SUCCESS ? rc : rc2;
}

// io_reopen is IMB_open_file: the file opened on its communicator with
// the size's view.
static int io_reopen(gomb_job *j) {
    if (j->io.fh != MPI_FILE_NULL) MPI_File_close(&j->io.fh);
    int rc = MPI_File_open(j->io.comm, j->io.path, io_amode(j), MPI_INFO_NULL, &j->io.fh);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Datatype ft = j->io.view != MPI_DATATYPE_NULL ? j->io.view : MPI_BYTE;
    return MPI_File_set_view(j->io.fh, 0, MPI_BYTE, ft, "native", MPI_INFO_NULL);
}

// gomb_io_open is IMB_init_transfer's MPI-IO part for a size: this rank's
// portion (for a file per rank, the file's rank 0's: IMB splits by the
// file's rank), the view, the data to write, the file opened.
int gomb_io_open(gomb_job *j, long long size) {
    gomb_io_close(j);
    if (j->io.rank < 0 || j->io.access == GOMB_IO_NONE) return MPI_SUCCESS;
    int procs = io_procs(j);
    size_t pos1 = 0, len = io_portion(j->io.rank, procs, (size_t)size, &pos1);
    j->io.locsize = (int)len;
    j->io.offset = j->io.priv ? 0 : (MPI_Offset)pos1;
    j->io.total = j->io.priv ? (MPI_Offset)len : (MPI_Offset)size;
    if (!j->io.priv && j->io.pos == GOMB_IO_INDV && len > 0) {
        int bl = (int)len;
        MPI_Aint disp = (MPI_Aint)pos1;
        MPI_Datatype t = MPI_BYTE, block = MPI_DATATYPE_NULL;
        int rc = MPI_Type_create_struct(1, &bl, &disp, &t, &block);
        if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&block);
        if (rc == MPI_SUCCESS) rc = MPI_Type_create_resized(block, 0, (MPI_Aint)size, &j->io.view);
        if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&j->io.view);
        if (block != MPI_DATATYPE_NULL) MPI_Type_free(&block);
        if (rc != MPI_SUCCESS) return rc;
    }
    if (j->io.access == GOMB_IO_PUT && len > 0) {
        if (!j->sbuf || j->s_cap < len) return MPI_ERR_BUFFER;
        io_fill(j->sbuf, len, pos1);
    }
    return io_reopen(j);
}

// gomb_io_rewind puts the file pointers back at the start, as IMB does
// after each of its estimating runs.
int gomb_io_rewind(gomb_job *j) {
    if (j->io.fh == MPI_FILE_NULL) return MPI_SUCCESS;
    int rc = MPI_File_seek(j->io.fh, 0, MPI_SEEK_SET);
    if (rc == MPI_SUCCESS && j->io.pos == GOMB_IO_SHARED) rc = MPI_File_seek_shared(j->io.fh, 0, MPI_SEEK_SET);
    return rc;
}

static int io_barriers(gomb_job *j) {
    int rc = MPI_SUCCESS;
    for (int i = 0; i < IO_N_BARR && rc == MPI_SUCCESS; i++) rc = MPI_Barrier(j->io.comm);
    return rc;
}

// io_sync is IMB 3.1's completion of a write: sync, barrier, sync.
static int io_sync(gomb_job *j) {
    int rc = MPI_File_sync(j->io.fh);
    if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->io.comm);
    if (rc == MPI_SUCCESS) rc = MPI_File_sync(j->io.fh);
    return rc;
}

// io_at is where this rank's part of record k starts (explicit offsets).
static inline MPI_Offset io_at(gomb_job *j, int k) { return j->io.offset + (MPI_Offset)k * j->io.total; }

// io_whole turns a transfer that moved fewer bytes than asked into an
// error: Open MPI's ompio returns MPI_SUCCESS when a write fails on a
// full file system ("No space left on device" on stderr), and IMB then
// prints a bandwidth for bytes that never reached the file. Reading the
// status is a few instructions beside the I/O.
static inline int io_whole(int rc, MPI_Status *st, int len, int put) {
    int got;
    if (rc != MPI_SUCCESS || len == 0) return rc;
    if (MPI_Get_count(st, MPI_BYTE, &got) != MPI_SUCCESS || got == MPI_UNDEFINED || got >= len) return rc;
    return put ? MPI_ERR_NO_SPACE : MPI_ERR_IO;
}

// io_block is one blocking write or read of record k (IMB's i + j).
static int io_block(gomb_job *j, int k) {
    MPI_Status st;
    MPI_File f = j->io.fh;
    int put = j->io.access == GOMB_IO_PUT, coll = j->io.coll, len = j->io.locsize, rc;
    char *buf = put ? j->sbuf : j->rbuf;
    MPI_Offset off = io_at(j, k);
    switch (j->io.pos) {
    case GOMB_IO_EXPL:
        if (put) rc = coll ? MPI_File_write_at_all(f, off, buf, len, MPI_BYTE, &st) : MPI_File_write_at(f, off, buf, len, MPI_BYTE, &st);
        else rc = coll ? MPI_File_read_at_all(f, off, buf, len, MPI_BYTE, &st) : MPI_File_read_at(f, off, buf, len, MPI_BYTE, &st);
        break;
    case GOMB_IO_SHARED:
        if (put) rc = coll ? MPI_File_write_ordered(f, buf, len, MPI_BYTE, &st) : MPI_File_write_shared(f, buf, len, MPI_BYTE, &st);
        else rc = coll ? MPI_File_read_ordered(f, buf, len, MPI_BYTE, &st) : MPI_File_read_shared(f, buf, len, MPI_BYTE, &st);
        break;
    default: // individual pointer
        if (put) rc = coll ? MPI_File_write_all(f, buf, len, MPI_BYTE, &st) : MPI_File_write(f, buf, len, MPI_BYTE, &st);
        else rc = coll ? MPI_File_read_all(f, buf, len, MPI_BYTE, &st) : MPI_File_read(f, buf, len, MPI_BYTE, &st);
    }
    return io_whole(rc, &st, len, put);
}

// io_blocking is IMB_write_ij and IMB_read_ij: aggregate, the n
// operations then (writes) one completion, timed whole; non-aggregate
// (writes only), each operation with its completion, stamped for the
// samples. Returns the loop time in *el.
static int io_blocking(gomb_job *j, int n, int stamp, double *el) {
    int rc = MPI_SUCCESS, put = j->io.access == GOMB_IO_PUT;
    // (IMB_read_ij's barriers sit inside its sample loop and reuse the
    // loop's variable; with its one sample, the reads' only mode, that is
    // these two barriers before the clock too)
    if ((rc = io_barriers(j)) != MPI_SUCCESS) return rc;
    uint64_t k0 = gomb_tick();
    double t0 = MPI_Wtime();
    if (j->aggregate) {
        for (int k = 0; k < n && rc == MPI_SUCCESS; k++) rc = io_block(j, k);
        if (rc == MPI_SUCCESS && put) rc = io_sync(j);
    } else {
        for (int k = 0; k < n && rc == MPI_SUCCESS; k++) {
            rc = io_block(j, k);
            if (rc == MPI_SUCCESS && put) rc = io_sync(j);
            if (stamp) j->ticks[k] = gomb_tick();
        }
    }
    uint64_t kend = gomb_tick();
    *el = MPI_Wtime() - t0;
    if (stamp && rc == MPI_SUCCESS) {
        j->elapsed = *el;
        gomb_loop_samples(j, k0, kend, n);
    }
    return rc;
}

// io_begin and io_end are a collective split operation's halves.
static int io_begin(gomb_job *j, int k) {
    MPI_File f = j->io.fh;
    int put = j->io.access == GOMB_IO_PUT, len = j->io.locsize;
    MPI_Offset off = io_at(j, k);
    switch (j->io.pos) {
    case GOMB_IO_EXPL:
        return put ? MPI_File_write_at_all_begin(f, off, j->sbuf, len, MPI_BYTE) : MPI_File_read_at_all_begin(f, off, j->rbuf, len, MPI_BYTE);
    case GOMB_IO_SHARED:
        return put ? MPI_File_write_ordered_begin(f, j->sbuf, len, MPI_BYTE) : MPI_File_read_ordered_begin(f, j->rbuf, len, MPI_BYTE);
    default:
        return put ? MPI_File_write_all_begin(f, j->sbuf, len, MPI_BYTE) : MPI_File_read_all_begin(f, j->rbuf, len, MPI_BYTE);
    }
}

static int io_end(gomb_job *j) {
    MPI_Status st;
    MPI_File f = j->io.fh;
    int put = j->io.access == GOMB_IO_PUT, rc;
    switch (j->io.pos) {
    case GOMB_IO_EXPL: rc = put ? MPI_File_write_at_all_end(f, j->sbuf, &st) : MPI_File_read_at_all_end(f, j->rbuf, &st); break;
    case GOMB_IO_SHARED: rc = put ? MPI_File_write_ordered_end(f, j->sbuf, &st) : MPI_File_read_ordered_end(f, j->rbuf, &st); break;
    default: rc = put ? MPI_File_write_all_end(f, j->sbuf, &st) : MPI_File_read_all_end(f, j->rbuf, &st);
    }
    return io_whole(rc, &st, j->io.locsize, put);
}

static int io_istart(gomb_job *j, int k, MPI_Request *req) {
    MPI_File f = j->io.fh;
    int put = j->io.access == GOMB_IO_PUT, len = j->io.locsize;
    MPI_Offset off = io_at(j, k);
    switch (j->io.pos) {
    case GOMB_IO_EXPL: return put ? MPI_File_iwrite_at(f, off, j->sbuf, len, MPI_BYTE, req) : MPI_File_iread_at(f, off, j->rbuf, len, MPI_BYTE, req);
    case GOMB_IO_SHARED: return put ? MPI_File_iwrite_shared(f, j->sbuf, len, MPI_BYTE, req) : MPI_File_iread_shared(f, j->rbuf, len, MPI_BYTE, req);
    default: return put ? MPI_File_iwrite(f, j->sbuf, len, MPI_BYTE, req) : MPI_File_iread(f, j->rbuf, len, MPI_BYTE, req);
    }
}

// io_nonblocking is IMB_iwrite_ij and IMB_iread_ij in the aggregate mode
// (the I variants have no other): collective, per repetition begin,
// exploit, end; otherwise all n started, n exploits, one MPI_Waitall. The
// writes complete with sync, barrier, sync. Returns the loop time.
static int io_nonblocking(gomb_job *j, int n, double *el) {
    int rc = MPI_SUCCESS, put = j->io.access == GOMB_IO_PUT;
    if (!j->io.coll && (rc = gomb_job_requests(j, n)) != MPI_SUCCESS) return rc;
    if ((rc = io_barriers(j)) != MPI_SUCCESS) return rc;
    double t0 = MPI_Wtime();
    if (j->io.coll) {
        for (int k = 0; k < n && rc == MPI_SUCCESS; k++) {
            rc = io_begin(j, k);
            gomb_imb_cpu_exploit((float)IO_TARGET_CPU_SECS, 0);
            if (rc == MPI_SUCCESS) rc = io_end(j);
        }
    } else {
        for (int k = 0; k < n; k++) j->reqs[k] = MPI_REQUEST_NULL;
        for (int k = 0; k < n && rc == MPI_SUCCESS; k++) rc = io_istart(j, k, &j->reqs[k]);
        for (int k = 0; k < n && rc == MPI_SUCCESS; k++) gomb_imb_cpu_exploit((float)IO_TARGET_CPU_SECS, 0);
        int rw = MPI_Waitall(n, j->reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS) rc = rw;
    }
    if (rc == MPI_SUCCESS && put) rc = io_sync(j);
    *el = MPI_Wtime() - t0;
    return rc;
}

// open_close is IMB_open_close: n times open, write one byte, close.
static int open_close(gomb_job *j) {
    int n = j->n, rc = MPI_SUCCESS, dum = 0;
    for (int i = 0; i < IO_N_BARR && rc == MPI_SUCCESS; i++) rc = MPI_Barrier(j->comm);
    if (rc != MPI_SUCCESS) return rc;
    uint64_t k0 = gomb_tick();
    double t0 = MPI_Wtime();
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        MPI_File f;
        MPI_Status st;
        rc = MPI_File_open(j->comm, j->io.path, io_amode(j), MPI_INFO_NULL, &f);
        if (rc != MPI_SUCCESS) break;
        rc = MPI_File_write(f, &dum, 1, MPI_BYTE, &st);
        int rc2 = MPI_File_close(&f);
        if (rc == MPI_SUCCESS) rc = rc2;
        if (j->record) j->ticks[i] = gomb_tick();
    }
    uint64_t kend = gomb_tick();
    j->elapsed = MPI_Wtime() - t0;
    if (rc == MPI_SUCCESS) gomb_loop_samples(j, k0, kend, n);
    return rc;
}

// gomb_run_imb_io runs one IMB-IO benchmark call: elapsed is the loop
// time over the n repetitions (the I variants': the non-blocking loop's;
// t_pure the blocking loop's per repetition, t_compute n times tCPU).
int gomb_run_imb_io(gomb_job *j) {
    j->elapsed = 0;
    if (j->io.access == GOMB_IO_NONE) return open_close(j);
    if (j->io.rank < 0) { // outside the files (a file per rank, beyond the S_ benchmarks' one)
        j->elapsed = -1;
        return MPI_SUCCESS;
    }
    if (j->io.fh == MPI_FILE_NULL) return MPI_ERR_FILE;
    int n = j->n, stamp = j->record && !j->aggregate && !j->io.nonblocking;
    double el = 0;
    int rc = io_blocking(j, n, stamp, &el);
    j->elapsed = el;
    if (rc != MPI_SUCCESS || !j->io.nonblocking) return rc;
    j->t_pure = n > 0 ? el / n : 0;
    if (io_tcpu < 0) gomb_io_calibrate(&(double){0});
    if ((rc = io_reopen(j)) != MPI_SUCCESS) return rc;
    rc = io_nonblocking(j, n, &el);
    j->elapsed = el;
    j->t_compute = 1e-6 * io_tcpu * n;
    return rc;
}

// io_tally counts the bytes of got that differ from io_byte(from + i).
static void io_tally(const unsigned char *got, size_t len, uint64_t from, size_t at, long *bad, long *first,
                     double *g, double *w) {
    for (size_t i = 0; i < len; i++) {
        unsigned char want = io_byte(from + i);
        if (got[i] != want) {
            if (*bad == 0) {
                *first = (long)(at + i);
                *g = got[i];
                *w = want;
            }
            (*bad)++;
        }
    }
}

// io_found says whether the len bytes of got are io_byte's from some
// offset in [0, limit]: a block of the shared pointer, where it landed is
// the order the ranks came in.
static int io_found(const unsigned char *got, size_t len, uint64_t limit) {
    if (len == 0) return 1;
    if (len >= 8) {
        for (int a = 0; a < 4; a++) {
            uint32_t w = (uint32_t)got[a] | (uint32_t)got[a + 1] << 8 | (uint32_t)got[a + 2] << 16 | (uint32_t)got[a + 3] << 24;
            if (w == 0 || 4 * (uint64_t)(w - 1) < (uint64_t)a) continue;
            uint64_t from = 4 * (uint64_t)(w - 1) - (uint64_t)a;
            size_t i = 0;
            while (i < len && got[i] == io_byte(from + i)) i++;
            if (i == len) return 1;
        }
        return 0;
    }
    for (uint64_t from = 0; from <= limit; from++) {
        size_t i = 0;
        while (i < len && got[i] == io_byte(from + i)) i++;
        if (i == len) return 1;
    }
    return 0;
}

// io_check_writes reads the n records the timed loop wrote back (the
// file's rank 0, through a handle of its own, as IMB's check does), a
// chunk of whole records at a time, and counts the bytes that differ from
// what the ranks wrote. The shared pointer's independent writes land in
// the order the ranks came: there every block must be one of a rank's,
// each rank's n times.
static int io_check_writes(gomb_job *j, long *bad, long *first, double *got, double *want) {
    int rc = MPI_Barrier(j->io.comm);
    if (rc != MPI_SUCCESS || j->io.rank != 0 || j->io.total == 0) return rc;
    int procs = io_procs(j); // (a file per rank has no shared pointer)
    int shared = j->io.pos == GOMB_IO_SHARED && !j->io.coll && procs > 1;
    size_t rec = (size_t)j->io.total, span = rec * (size_t)j->n;
    size_t per = (64u << 20) / rec, chunk = rec * (per < 1 ? 1 : per < (size_t)j->n ? per : (size_t)j->n);
    unsigned char *buf = malloc(chunk + rec); // a chunk, and a block carried over from the one before
    int *left = calloc((size_t)procs, sizeof(int));
    MPI_File f = MPI_FILE_NULL;
    if (!buf || !left) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = MPI_File_open(MPI_COMM_SELF, j->io.path, io_amode(j), MPI_INFO_NULL, &f);
    for (int r = 0; r < procs && left; r++) left[r] = j->n;
    size_t done = 0, have = 0, at = 0; // read so far; bytes in buf; buf[0]'s place in the records
    while (rc == MPI_SUCCESS && done < span) {
        size_t part = span - done < chunk ? span - done : chunk;
        MPI_Status st;
        memset(buf + have, 0, part);
        rc = MPI_File_read_at(f, (MPI_Offset)done, buf + have, (int)part, MPI_BYTE, &st);
        if (rc != MPI_SUCCESS) break;
        if (gomb_fault_corrupt && done == 0) buf[0] ^= 0xff;
        done += part;
        have += part;
        if (!shared) { // whole records, each the message of size bytes
            for (size_t o = 0; o < have; o += rec) io_tally(buf + o, rec, 0, at + o, bad, first, got, want);
            at += have;
            have = 0;
            continue;
        }
        size_t o = 0;
        while (o < have) {
            int who = -1;
            size_t len = 0, pos1 = 0;
            for (int r = 0; r < procs && who < 0; r++) {
                len = io_portion(r, procs, rec, &pos1);
                if (left[r] == 0 || len == 0 || o + len > have) continue;
                size_t i = 0;
                while (i < len && buf[o + i] == io_byte(pos1 + i)) i++;
                if (i == len) who = r;
            }
            if (who >= 0) {
                left[who]--;
                o += len;
            } else if (done < span && have - o < rec) {
                break; // a block cut by the chunk's end: the next read completes it
            } else { // no rank's block: the rest is wrong
                if (*bad == 0) *first = (long)(at + o), *got = buf[o], *want = 0;
                *bad += (long)(span - at - o);
                done = span, o = have;
            }
        }
        memmove(buf, buf + o, have - o);
        at += o;
        have -= o;
    }
    if (f != MPI_FILE_NULL) MPI_File_close(&f);
    free(buf);
    free(left);
    return rc;
}

// io_check_reads reads record 0 again, blocking, as the benchmark
// positions its reads, and compares this rank's bytes with the file's.
static int io_check_reads(gomb_job *j, long *bad, long *first, double *got, double *want) {
    int rc = gomb_io_rewind(j);
    if (rc == MPI_SUCCESS) rc = MPI_Barrier(j->io.comm);
    if (rc != MPI_SUCCESS || j->io.locsize == 0) // an empty portion still takes part in a collective read
        return rc == MPI_SUCCESS && j->io.coll ? io_block(j, 0) : rc;
    memset(j->rbuf, 0, (size_t)j->io.locsize);
    if ((rc = io_block(j, 0)) != MPI_SUCCESS) return rc;
    unsigned char *b = (unsigned char *)j->rbuf;
    if (gomb_fault_corrupt) b[0] ^= 0xff;
    size_t len = (size_t)j->io.locsize;
    if (j->io.pos == GOMB_IO_SHARED && !j->io.coll) {
        if (!io_found(b, len, (uint64_t)j->io.total)) {
            *bad = (long)len;
            *first = 0;
            *got = b[0];
        }
        return MPI_SUCCESS;
    }
    io_tally(b, len, (uint64_t)j->io.offset, 0, bad, first, got, want);
    return MPI_SUCCESS;
}

// gomb_io_check is IMB-IO's -check after a size (iter 0; iter 1 adds
// nothing): the written records read back, or a read compared.
int gomb_io_check(gomb_job *j, int iter, long *bad, long *first, double *got, double *want) {
    if (iter != 0 || j->io.access == GOMB_IO_NONE || j->io.rank < 0) return MPI_SUCCESS;
    if (j->io.access == GOMB_IO_PUT) return io_check_writes(j, bad, first, got, want);
    return io_check_reads(j, bad, first, got, want);
}
