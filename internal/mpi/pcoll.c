//go:build cgo

// pcoll.c: MPI-4's persistent collectives, made for IMB-MPI4's loops
// (imb_nbc.c) and OSU's persistent collective tests (imb_mpi1.c): one
// request per size, started and waited for in the loop.
#include "loops.h"

// MPICH 4 has them as MPI_<op>_init; Open MPI 4 as MPIX_<op>_init in its
// pcollreq extension.
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define PERSIST(op) MPIX_##op##_init
#elif MPI_VERSION >= 4
#define PERSIST(op) MPI_##op##_init
#endif

int gomb_persistent_collectives(void) {
#ifdef PERSIST
    return 1;
#else
    return 0;
#endif
}

// gomb_pcoll_init makes the persistent request of collective op (a
// GOMB_NBC_* name) over sb and rb: the send buffer for the root of a
// broadcast, the receive buffer elsewhere; the v-collectives' counts and
// displacements from j (cnt_a/dsp_a the scatter side, cnt_b/dsp_b the
// gather side, cnt_b the reduce-scatter's counts), set by the caller.
int gomb_pcoll_init(gomb_job *j, int op, MPI_Datatype dt, int cnt, char *sb, char *rb, int root, MPI_Request *req) {
#ifdef PERSIST
    MPI_Comm c = j->comm;
    MPI_Info in = MPI_INFO_NULL;
    switch (op) {
    case GOMB_NBC_IBARRIER: return PERSIST(Barrier)(c, in, req);
    case GOMB_NBC_IBCAST: return PERSIST(Bcast)(j->rank == root ? sb : rb, cnt, dt, root, c, in, req);
    case GOMB_NBC_IREDUCE: return PERSIST(Reduce)(sb, rb, cnt, dt, MPI_SUM, root, c, in, req);
    case GOMB_NBC_IALLREDUCE: return PERSIST(Allreduce)(sb, rb, cnt, dt, MPI_SUM, c, in, req);
    case GOMB_NBC_IGATHER: return PERSIST(Gather)(sb, cnt, dt, rb, cnt, dt, root, c, in, req);
    case GOMB_NBC_IGATHERV: return PERSIST(Gatherv)(sb, cnt, dt, rb, j->cnt_b, j->dsp_b, dt, root, c, in, req);
    case GOMB_NBC_ISCATTER: return PERSIST(Scatter)(sb, cnt, dt, rb, cnt, dt, root, c, in, req);
    case GOMB_NBC_ISCATTERV: return PERSIST(Scatterv)(sb, j->cnt_a, j->dsp_a, dt, rb, cnt, dt, root, c, in, req);
    case GOMB_NBC_IALLGATHER: return PERSIST(Allgather)(sb, cnt, dt, rb, cnt, dt, c, in, req);
    case GOMB_NBC_IALLGATHERV: return PERSIST(Allgatherv)(sb, cnt, dt, rb, j->cnt_b, j->dsp_b, dt, c, in, req);
    case GOMB_NBC_IALLTOALL: return PERSIST(Alltoall)(sb, cnt, dt, rb, cnt, dt, c, in, req);
    case GOMB_NBC_IALLTOALLV:
        return PERSIST(Alltoallv)(sb, j->cnt_a, j->dsp_a, dt, rb, j->cnt_b, j->dsp_b, dt, c, in, req);
    case GOMB_NBC_IREDUCE_SCATTER: return PERSIST(Reduce_scatter)(sb, rb, j->cnt_b, dt, MPI_SUM, c, in, req);
    }
    return MPI_ERR_ARG;
#else
    (void)j, (void)op, (void)dt, (void)cnt, (void)sb, (void)rb, (void)root, (void)req;
    return MPI_ERR_INTERN; // refused before a run (gomb_persistent_collectives)
#endif
}
