#!/bin/sh
# vs-peers.sh: gomb against the IMB, OSU Micro-Benchmarks and
# mpi-comm-bench you have installed, on your machine, your MPI and your
# launcher line: the median ratio gomb/peer per benchmark and size over
# interleaved launches, with the peer's own launch-to-launch spread beside
# it, the peak RSS of a rank and the wall time of each job. The proof that
# switching tools moves no baseline.
#
# usage: scripts/vs-peers.sh -launch 'LAUNCHER -np {np} ...' [-peers DIR] [-imb PATH]
#                            [-osu DIR] [-mcb PATH] [-gomb BIN] [-rounds N] [more fidelity flags]
# examples:
#   scripts/vs-peers.sh -launch 'mpirun -np {np} --bind-to core' -peers $HPCX_MPI_TESTS_DIR
#   scripts/vs-peers.sh -launch 'srun -n {np} --cpu-bind=cores' -peers ~/peers/mpich \
#       -gomb bin/gomb-mpich -rounds 3 -only imb-mpi1,osu -osu-tests latency,bw
# -peers DIR finds each peer below DIR by the name it installs under
# (IMB-MPI1, osu_latency, mpi_comm_bench, ...; docs/fidelity.md: the
# layout, and where each peer comes from); -imb, -osu, -mcb name one
# elsewhere. A peer not there skips its jobs with one line. {np} is
# replaced by each job's process count (2, and 4 for IMB's collectives;
# -imb-np4 '' leaves those out). Raw outputs and values.json land in
# out/fidelity (-out DIR). gomb must be built for the same MPI
# (./scripts/setup.sh builds bin/gomb for Open MPI, bin/gomb-mpich for MPICH).
set -eu
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
case " $* " in
*" -launch "*) ;;
*)
	echo "usage: scripts/vs-peers.sh -launch 'LAUNCHER -np {np} ...' [-peers DIR] [fidelity flags] (its header says more)" >&2
	exit 2
	;;
esac

exec go run ./tools/fidelity "$@"
