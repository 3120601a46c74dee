#!/bin/sh
# run-local.sh: set up, then run gomb's main job on this machine: the IMB-MPI1
# default list on 2 local ranks with Open MPI, the IMB table on stdout and
# every raw sample in out/imb-np2.jsonl.
# Extra arguments go to 'gomb imb' (e.g. PingPong Allreduce, -check).
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh
mkdir -p out
# Open MPI refuses to run as root unless told; keep the job on this host.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec mpirun.openmpi -np 2 --mca btl self,vader --mca oob_tcp_if_include lo \
	bin/gomb imb -json out/imb-np2.jsonl "$@"
