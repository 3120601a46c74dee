//go:build cgo

// cuda.c: GPU buffers through the CUDA runtime, loaded at run time with
// dlopen, so that gomb builds and runs without CUDA and only -d cuda or
// ring --gpu needs it.
#include "gomb.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { H2D = 1, D2H = 2, D2D = 3 }; /* cudaMemcpyHostToDevice, ...DeviceToHost, ...DeviceToDevice */

static struct {
    void *lib;
    int (*malloc_)(void **, size_t);
    int (*free_)(void *);
    int (*memcpy_)(void *, const void *, size_t, int);
    int (*memset_)(void *, int, size_t);
    int (*set_device)(int);
    int (*get_device_count)(int *);
    int (*synchronize)(void);
    const char *(*error_string)(int);
} cu;

static const char *cu_err(int e) { return cu.error_string ? cu.error_string(e) : "CUDA error"; }

// gomb_cuda_load opens the CUDA runtime and picks the device for this
// process (local rank modulo the device count). Returns 0, or -1 with a
// message in err.
int gomb_cuda_load(int local_rank, char *err, int len) {
    const char *names[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", NULL};
    if (!cu.lib) {
        for (int i = 0; names[i] && !cu.lib; i++) cu.lib = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
        if (!cu.lib) {
            snprintf(err, (size_t)len, "no CUDA runtime found (dlopen libcudart.so: %s)", dlerror());
            return -1;
        }
#define SYM(f, n)                                                                                \
    do {                                                                                         \
        *(void **)(&cu.f) = dlsym(cu.lib, n);                                                    \
        if (!cu.f) {                                                                             \
            snprintf(err, (size_t)len, "CUDA runtime lacks %s", n);                              \
            return -1;                                                                           \
        }                                                                                        \
    } while (0)
        SYM(malloc_, "cudaMalloc");
        SYM(free_, "cudaFree");
        SYM(memcpy_, "cudaMemcpy");
        SYM(memset_, "cudaMemset");
        SYM(set_device, "cudaSetDevice");
        SYM(get_device_count, "cudaGetDeviceCount");
        SYM(synchronize, "cudaDeviceSynchronize");
        SYM(error_string, "cudaGetErrorString");
#undef SYM
    }
    int n = 0, e = cu.get_device_count(&n);
    if (e != 0 || n <= 0) {
        snprintf(err, (size_t)len, "no CUDA device (cudaGetDeviceCount: %s)", e ? cu_err(e) : "0 devices");
        return -1;
    }
    if ((e = cu.set_device(local_rank % n)) != 0) {
        snprintf(err, (size_t)len, "cudaSetDevice(%d): %s", local_rank % n, cu_err(e));
        return -1;
    }
    return 0;
}

// gomb_cuda_aware asks the MPI library whether it takes device pointers:
// Open MPI's MPIX_Query_cuda_support, MPICH's MPIX_GPU_query_support.
int gomb_cuda_aware(void) {
    int (*ompi)(void) = NULL;
    int (*mpich)(int, int *) = NULL;
    *(void **)(&ompi) = dlsym(RTLD_DEFAULT, "MPIX_Query_cuda_support");
    if (ompi) return ompi() != 0;
    *(void **)(&mpich) = dlsym(RTLD_DEFAULT, "MPIX_GPU_query_support");
    if (mpich) {
        int yes = 0;
        return mpich(0 /* MPIX_GPU_SUPPORT_CUDA */, &yes) == MPI_SUCCESS && yes;
    }
    return 0;
}

// gomb_job_device gives the job device buffers of its current buffer sizes.
// With staged set the kernels keep sending from the host buffers and copy
// between host and device around every transfer.
int gomb_job_device(gomb_job *j, int staged, char *err, int len) {
    int e;
    if (!cu.lib) {
        snprintf(err, (size_t)len, "CUDA runtime not loaded");
        return -1;
    }
    if (j->d_cap < j->s_cap || j->d_cap < j->r_cap || !j->dsbuf) {
        size_t cap = j->s_cap > j->r_cap ? j->s_cap : j->r_cap;
        if (cap == 0) cap = 64;
        if (j->dsbuf) cu.free_(j->dsbuf);
        if (j->drbuf) cu.free_(j->drbuf);
        j->dsbuf = j->drbuf = NULL;
        if ((e = cu.malloc_((void **)&j->dsbuf, cap)) != 0 || (e = cu.malloc_((void **)&j->drbuf, cap)) != 0) {
            snprintf(err, (size_t)len, "cudaMalloc(%zu): %s", cap, cu_err(e));
            return -1;
        }
        cu.memcpy_(j->dsbuf, j->sbuf, j->s_cap, H2D);
        cu.memset_(j->drbuf, 0, cap);
        cu.synchronize();
        j->d_cap = cap;
    }
    j->device = 1;
    j->staged = staged;
    return 0;
}

void gomb_job_device_free(gomb_job *j) {
    if (cu.lib && j->dsbuf) cu.free_(j->dsbuf);
    if (cu.lib && j->drbuf) cu.free_(j->drbuf);
    j->dsbuf = j->drbuf = NULL;
    j->d_cap = 0;
    j->device = 0;
}

// Copies for staged device buffers (non-CUDA-aware MPI).
int gomb_cuda_d2h(void *dst, const void *src, size_t n) { return cu.memcpy_(dst, src, n, D2H); }
int gomb_cuda_h2d(void *dst, const void *src, size_t n) { return cu.memcpy_(dst, src, n, H2D); }
int gomb_cuda_d2d(void *dst, const void *src, size_t n) { return cu.memcpy_(dst, src, n, D2D); }
