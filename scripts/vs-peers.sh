#!/bin/sh
# vs-peers.sh: gomb against your own IMB-MPI1, OSU Micro-Benchmarks and
# mpi-comm-bench, on your machine, your MPI and your launcher line: the
# median ratio gomb/peer per benchmark and size over interleaved launches,
# with the peer's own launch-to-launch spread beside it, the peak RSS of a
# rank and the wall time of each job. The proof that switching tools moves
# no baseline.
#
# usage: scripts/vs-peers.sh -launch 'LAUNCHER -np {np} ...' [-imb PATH] [-osu DIR]
#                            [-mcb PATH] [-gomb BIN] [-rounds N] [more fidelity flags]
# examples:
#   scripts/vs-peers.sh -launch 'mpirun -np {np} --bind-to core' -imb /opt/intel/mpi/bin/IMB-MPI1
#   scripts/vs-peers.sh -launch 'srun -n {np} --cpu-bind=cores' -osu /opt/osu/libexec/osu-micro-benchmarks \
#       -gomb bin/gomb-mpich -rounds 3 -osu-tests latency,bw
# {np} is replaced by each job's process count (2, and 4 for IMB's
# collectives; -imb-np4 '' leaves those out). Raw outputs and values.json
# land in out/fidelity (-out DIR). gomb must be built for the same MPI
# (./scripts/setup.sh builds bin/gomb for Open MPI, bin/gomb-mpich for MPICH).
set -eu
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
case " $* " in
*" -launch "*) ;;
*) sed -n '2,20s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac

exec go run ./tools/fidelity "$@"
