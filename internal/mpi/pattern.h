/* pattern.h: the data that validation writes and expects (private to the
 * C files of package mpi). Every sender writes a pattern that depends on its
 * rank, the byte position in its send buffer and the check iteration;
 * reductions use small integers, exact in every element type. */
#ifndef GOMB_PATTERN_H
#define GOMB_PATTERN_H

#include "gomb.h"

/* gomb_fault_corrupt: tests ask the receivers to corrupt what arrived. */
extern int gomb_fault_corrupt;

static inline int rma_typed(int op) { return op != GOMB_RMA_PUT && op != GOMB_RMA_GET; }

static inline unsigned char pat(int r, size_t x, int it) {
    return (unsigned char)((unsigned)(r + 1) * 131u + (unsigned)x * 7u + (unsigned)(x >> 8) * 3u +
                           (unsigned)it * 29u);
}

static inline long val(int r, size_t e, int it) { return (long)((r + e + (size_t)it) % 5 + 1); }

// 16-bit floats by their bits (no compiler support needed): validation
// stores small integers, exact in both (float16 up to 2048, bfloat16 up
// to 256).
static inline uint16_t to_half(float f) {
    union { float f; uint32_t u; } x = {f};
    uint32_t sign = (x.u >> 16) & 0x8000u, exp = (x.u >> 23) & 0xffu, man = x.u & 0x7fffffu;
    if (exp == 0) return (uint16_t)sign;                          // zero (no subnormals here)
    int e = (int)exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00u);               // too large: infinity
    if (e <= 0) return (uint16_t)sign;                            // too small: zero
    return (uint16_t)(sign | (uint32_t)e << 10 | (man + 0x1000u) >> 13); // rounded to nearest
}

static inline float from_half(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    union { uint32_t u; float f; } x;
    if (exp == 0) x.u = sign;                                     // zero (subnormals read as zero)
    else if (exp == 31) x.u = sign | 0x7f800000u | man << 13;
    else x.u = sign | (exp - 15 + 127) << 23 | man << 13;
    return x.f;
}

static inline uint16_t to_bf16(float f) {
    union { float f; uint32_t u; } x = {f};
    return (uint16_t)((x.u + 0x7fffu + ((x.u >> 16) & 1u)) >> 16); // rounded to nearest even
}

static inline float from_bf16(uint16_t b) {
    union { uint32_t u; float f; } x = {(uint32_t)b << 16};
    return x.f;
}

static inline void store_val(char *buf, int dtype, size_t e, long v) {
    switch (dtype) {
    case GOMB_DT_CHAR: ((char *)buf)[e] = (char)v; break;
    case GOMB_DT_INT: ((int *)buf)[e] = (int)v; break;
    case GOMB_DT_FLOAT: ((float *)buf)[e] = (float)v; break;
    case GOMB_DT_DOUBLE: ((double *)buf)[e] = (double)v; break;
    case GOMB_DT_LONG_LONG: ((long long *)buf)[e] = (long long)v; break;
    case GOMB_DT_FLOAT16: ((uint16_t *)buf)[e] = to_half((float)v); break;
    case GOMB_DT_BFLOAT16: ((uint16_t *)buf)[e] = to_bf16((float)v); break;
    default: ((unsigned char *)buf)[e] = (unsigned char)v; break;
    }
}

static inline double load_val(const char *buf, int dtype, size_t e) {
    switch (dtype) {
    case GOMB_DT_CHAR: return (double)((const char *)buf)[e];
    case GOMB_DT_INT: return (double)((const int *)buf)[e];
    case GOMB_DT_FLOAT: return (double)((const float *)buf)[e];
    case GOMB_DT_DOUBLE: return ((const double *)buf)[e];
    case GOMB_DT_LONG_LONG: return (double)((const long long *)buf)[e];
    case GOMB_DT_FLOAT16: return (double)from_half(((const uint16_t *)buf)[e]);
    case GOMB_DT_BFLOAT16: return (double)from_bf16(((const uint16_t *)buf)[e]);
    default: return (double)((const unsigned char *)buf)[e];
    }
}

// as_type gives the value v takes once stored in the element type (a sum of
// many small values wraps in a char).
static inline double as_type(int dtype, long v) {
    switch (dtype) {
    case GOMB_DT_CHAR: return (double)(char)v;
    case GOMB_DT_BYTE: return (double)(unsigned char)v;
    case GOMB_DT_FLOAT16: return (double)from_half(to_half((float)v));
    case GOMB_DT_BFLOAT16: return (double)from_bf16(to_bf16((float)v));
    default: return (double)v;
    }
}

typedef struct {
    long bad, first;
    double got, want;
    long pos; /* running element index over all compared regions */
} tally;

/* gomb_vlog: every wrong element of the checks while enabled, up to cap
 * (OSU's -c log:DIR; checks.c) */
typedef struct {
    long *pos;
    double *got, *want;
    long n, cap, dropped;
} gomb_vlog_t;
extern gomb_vlog_t gomb_vlog;

static inline void miss(tally *t, double got, double want) {
    if (t->bad == 0) {
        t->first = t->pos;
        t->got = got;
        t->want = want;
    }
    t->bad++;
    if (gomb_vlog.cap > 0) {
        if (gomb_vlog.n < gomb_vlog.cap) {
            gomb_vlog.pos[gomb_vlog.n] = t->pos;
            gomb_vlog.got[gomb_vlog.n] = got;
            gomb_vlog.want[gomb_vlog.n] = want;
            gomb_vlog.n++;
        } else {
            gomb_vlog.dropped++;
        }
    }
}

// The pattern a row at a time: from a multiple of 256 on, pat(r, x + i, it)
// is pat(r, x, it) + 7i for the row's 256 bytes, a loop of known length that
// compilers vectorise at -O2 (a 2 GiB message's byte-wise walk and fill took
// most of a -check run's time).
#define PAT_ROW 256

// fill_pattern writes sender r's pattern of positions off.. into len bytes.
static inline void fill_pattern(unsigned char *b, size_t len, int r, size_t off, int it) {
    size_t x = 0;
    for (; x < len && (off + x) % PAT_ROW; x++) b[x] = pat(r, off + x, it);
    for (; x + PAT_ROW <= len; x += PAT_ROW) {
        unsigned char base = pat(r, off + x, it), *row = b + x;
        for (int i = 0; i < PAT_ROW; i++) row[i] = (unsigned char)(base + 7 * i);
    }
    for (; x < len; x++) b[x] = pat(r, off + x, it);
}

// expect_bytes compares len bytes at buf with the pattern sender src wrote at
// offset off of its send buffer, a row at a time where one starts; after a
// row that differs, x is off the row's start, so the rest of that row is
// compared byte by byte.
static inline void expect_bytes(tally *t, const char *buf, size_t len, int src, size_t off, int it) {
    const unsigned char *b = (const unsigned char *)buf;
    const long pos0 = t->pos;
    for (size_t x = 0; x < len;) {
        if ((off + x) % PAT_ROW == 0 && x + PAT_ROW <= len) {
            unsigned char base = pat(src, off + x, it), diff = 0;
            const unsigned char *row = b + x;
            for (int i = 0; i < PAT_ROW; i++) diff |= (unsigned char)(row[i] ^ (unsigned char)(base + 7 * i));
            if (!diff) {
                x += PAT_ROW;
                continue;
            }
        }
        unsigned char w = pat(src, off + x, it);
        t->pos = pos0 + (long)x;
        if (b[x] != w) miss(t, b[x], w);
        x++;
    }
    t->pos = pos0 + (long)len;
}

// expect_sum compares count elements at buf with the sum over all np
// senders of the values they put at element offset off + e.
static inline void expect_sum(tally *t, const char *buf, int dtype, size_t count, int np, size_t off,
                       int it) {
    for (size_t e = 0; e < count; e++, t->pos++) {
        long s = 0;
        for (int r = 0; r < np; r++) s += val(r, off + e, it);
        double w = as_type(dtype, s), g = load_val(buf, dtype, e);
        if (g != w) miss(t, g, w);
    }
}

// keep adds what a kernel-time verification found to the job's check tally.
static inline void keep(gomb_job *j, const tally *t) {
    j->check_bad += t->bad;
    if (t->bad && j->check_first < 0) {
        j->check_first = t->first;
        j->check_got = t->got;
        j->check_want = t->want;
    }
}

/* The suites' verifiers, each beside its kernels, called by gomb_validate
 * after one untimed call: they add what arrived wrong to t. */
void gomb_ext_verify(const gomb_job *j, tally *t, size_t cnt, size_t B, int iter);     /* imb_ext.c */
int gomb_imb_rma_typed(int op);                                                      /* imb_rma.c */
void gomb_imb_rma_verify(const gomb_job *j, tally *t, size_t cnt, size_t B, int iter); /* imb_rma.c */

#endif
