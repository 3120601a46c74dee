/* commtrace: an LD_PRELOAD library for TestCommunicatorLifetime. On world
 * rank 0 it notes every MPI_Comm_split ("S"), MPI_Comm_compare ("C") and
 * MPI_Comm_free of a communicator a split made ("F"), in order, and prints
 * them at MPI_Finalize as one line: "commtrace: SCSCF...". */
#include <mpi.h>
#include <stdio.h>

static MPI_Comm made[256];
static int nmade;
static char seq[512];
static int nseq;

static int rank0(void) {
    int r = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r == 0;
}

int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *out) {
    int rc = PMPI_Comm_split(c, color, key, out);
    if (rank0() && nseq < (int)sizeof seq - 1) {
        seq[nseq++] = 'S';
        if (nmade < 256) made[nmade++] = *out;
    }
    return rc;
}

int MPI_Comm_free(MPI_Comm *c) {
    if (rank0())
        for (int i = 0; i < nmade; i++)
            if (made[i] == *c && *c != MPI_COMM_NULL) {
                made[i] = MPI_COMM_NULL;
                if (nseq < (int)sizeof seq - 1) seq[nseq++] = 'F';
                break;
            }
    return PMPI_Comm_free(c);
}

int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result) {
    if (rank0() && nseq < (int)sizeof seq - 1) seq[nseq++] = 'C';
    return PMPI_Comm_compare(a, b, result);
}

int MPI_Finalize(void) {
    if (rank0()) fprintf(stderr, "commtrace: %s\n", seq);
    return PMPI_Finalize();
}
