//go:build cgo

// build.c: what this binary was compiled against, from the macros of the
// mpi.h the compiler wrapper (or CGO_CFLAGS) gave it. Nothing here calls
// MPI: gomb version reads it without a launcher.
#include "gomb.h"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include <stdio.h>

#define GOMB_STR2(x) #x
#define GOMB_STR(x) GOMB_STR2(x)

// gomb_build_family is the family of the mpi.h: "openmpi" (Open MPI and
// what is built on it: Spectrum MPI, HPC-X, Fujitsu MPI), "mpich" (MPICH
// and its ABI-compatible derivatives: Intel MPI, MVAPICH, Cray MPICH),
// "abi" (the MPI-5 standard ABI's mpi.h, which any library implementing
// that ABI can run), or "other".
const char *gomb_build_family(void) {
#if defined(OPEN_MPI) && OPEN_MPI
    return "openmpi";
#elif defined(MPICH_VERSION) || defined(MPICH_NUMVERSION) || defined(I_MPI_VERSION)
    return "mpich";
#elif defined(MPI_ABI_VERSION)
    return "abi";
#else
    return "other";
#endif
}

// gomb_build_header names the library the mpi.h belongs to, with the
// version its macros carry, e.g. "Open MPI 4.1.4", "Intel MPI 2021.10",
// "MPICH 4.0".
const char *gomb_build_header(void) {
    static char buf[96];
#if defined(OPEN_MPI) && OPEN_MPI
    snprintf(buf, sizeof buf, "Open MPI %d.%d.%d", OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION);
#elif defined(I_MPI_VERSION)
    snprintf(buf, sizeof buf, "Intel MPI %s", I_MPI_VERSION);
#elif defined(MVAPICH_VERSION)
    snprintf(buf, sizeof buf, "MVAPICH %s", MVAPICH_VERSION);
#elif defined(MVAPICH2_VERSION)
    snprintf(buf, sizeof buf, "MVAPICH2 %s", MVAPICH2_VERSION);
#elif defined(CRAY_MPICH_VERSION)
    snprintf(buf, sizeof buf, "Cray MPICH %s", GOMB_STR(CRAY_MPICH_VERSION));
#elif defined(MPICH_VERSION)
    snprintf(buf, sizeof buf, "MPICH %s", MPICH_VERSION);
#elif defined(MPI_ABI_VERSION)
    snprintf(buf, sizeof buf, "MPI ABI %d.%d", MPI_ABI_VERSION, MPI_ABI_SUBVERSION);
#else
    snprintf(buf, sizeof buf, "unknown MPI");
#endif
    return buf;
}

// gomb_build_standard is the MPI standard the mpi.h declares
// (MPI_VERSION.MPI_SUBVERSION): what the calls gomb compiled in can use.
void gomb_build_standard(int *version, int *subversion) {
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
}

// gomb_build_features lists, space-separated, what this build can call
// beyond MPI-3.1, as the mpi.h's macros say; persistent collectives come
// from pcoll.c (gomb_persistent_collectives), CUDA at run time (cuda.c).
const char *gomb_build_features(void) {
    return ""
#if MPI_VERSION >= 4
           " large-count partitioned sessions"
#endif
#ifdef MPIX_C_FLOAT16
           " float16"
#endif
#ifdef MPIX_C_BF16
           " bfloat16"
#endif
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
           " cuda-aware"
#endif
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
           " MPIX_Query_cuda_support"
#endif
#ifdef MPIX_GPU_SUPPORT_CUDA
           " MPIX_GPU_query_support"
#endif
#ifdef MPIX_STREAM_NULL
           " MPIX_Stream"
#endif
#if (defined(OMPI_HAVE_MPI_EXT_FTMPI) && OMPI_HAVE_MPI_EXT_FTMPI) || defined(MPIX_ERR_PROC_FAILED)
           " ulfm"
#endif
#ifdef MPI_ABI_VERSION
           " mpi-abi"
#endif
        ;
}
