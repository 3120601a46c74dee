#!/bin/bash
# bench-slurm.sh: what starting gomb under Slurm costs, beside the MPIs'
# own launchers: for each MPI (Open MPI with srun --mpi=pmix, MPICH with
# --mpi=pmi2), 2 and 4 ranks, one node (a Slurm cluster on this machine)
# and two (slurmds on two emulated hosts), the median over N launches of
#   job ms   the wall time of the whole 'srun ... gomb osu init' job
#   init ms  gomb osu init's average MPI_Init time over the ranks
#   RSS MB   the largest peak resident set of a rank (/usr/bin/time %M)
# and the same for mpirun / mpiexec on one node.
#
#   scripts/bench-slurm.sh [-n 5]
# It is a benchmark, not a test: 'make bench-slurm' runs it. Needs root
# (it starts its own clusters and emulated hosts, and takes them down).
set -uo pipefail
cd "$(dirname "$0")/.."
n=5
while [ $# -gt 0 ]; do
	case "$1" in
	-n) n=$2; shift 2 ;;
	*) echo "usage: scripts/bench-slurm.sh [-n LAUNCHES]" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "bench-slurm: needs root" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export GOMB_TESTBED_PREFIX=gtbb$$- GOMB_TESTBED_DIR=/tmp/gtbb$$-testbed
LOCAL=(env GOMB_SLURM_DIR=/tmp/gomb-slurm-bench$$ GOMB_SLURM_PORT=${GOMB_SLURM_PORT:-16917})
BED=(env GOMB_SLURM_DIR=/tmp/gomb-slurm-bench$$-tb GOMB_SLURM_PORT=6817)
W=$(mktemp -d)
cleanup() {
	"${LOCAL[@]}" scripts/slurm.sh down >/dev/null 2>&1
	"${BED[@]}" scripts/slurm.sh down >/dev/null 2>&1
	scripts/testbed.sh down >/dev/null 2>&1
	rm -rf "$W"
}
trap cleanup EXIT
"${LOCAL[@]}" scripts/slurm.sh up >/dev/null || exit 1
scripts/testbed.sh up 2 >/dev/null || exit 1
"${BED[@]}" scripts/slurm.sh up-testbed 2 >/dev/null || exit 1

median() { sort -n | awk '{v[NR]=$1} END {if (!NR) print "-"; else if (NR%2) print v[(NR+1)/2]; else printf "%.1f\n", (v[NR/2]+v[NR/2+1])/2}'; }
REPO=$PWD
TIME=(/usr/bin/time -f "rss_kb %M")

# measure LABEL NODES NP CMD...: n launches of CMD (which runs gomb osu init
# under /usr/bin/time on every rank), one table row.
measure() {
	local label=$1 nodes=$2 np=$3 i t0 t1
	shift 3
	: >"$W/job"; : >"$W/init"; : >"$W/rss"
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		"$@" >"$W/out" 2>&1
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000)) >>"$W/job"
		sed -n 's/.*avg: \([0-9.]*\) ms.*/\1/p' "$W/out" >>"$W/init"
		awk '/^rss_kb/ {if ($2 > m) m = $2} END {if (m) printf "%.1f\n", m / 1024}' "$W/out" >>"$W/rss"
	done
	printf '%-26s %5s %3s %9s %9s %8s\n' "$label" "$nodes" "$np" "$(median <"$W/job")" "$(median <"$W/init")" "$(median <"$W/rss")"
}

printf '%-26s %5s %3s %9s %9s %8s\n' launcher nodes np "job ms" "init ms" "RSS MB"
for np in 2 4; do
	measure "mpirun (Open MPI)" 1 $np mpirun.openmpi -np $np --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo \
		"${TIME[@]}" bin/gomb osu init
	measure "srun --mpi=pmix (Open MPI)" 1 $np "${LOCAL[@]}" scripts/slurm.sh run srun --overcommit -n $np --mpi=pmix \
		"${TIME[@]}" bin/gomb osu init
	measure "mpiexec (MPICH)" 1 $np mpirun.mpich -np $np -launcher fork -iface lo "${TIME[@]}" bin/gomb-mpich osu init
	measure "srun --mpi=pmi2 (MPICH)" 1 $np "${LOCAL[@]}" scripts/slurm.sh run srun --overcommit -n $np --mpi=pmi2 \
		"${TIME[@]}" bin/gomb-mpich osu init
done
for np in 2 4; do
	measure "srun --mpi=pmix (Open MPI)" 2 $np "${BED[@]}" scripts/slurm.sh run env OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp \
		OMPI_MCA_btl_tcp_if_include=10.199.77.0/24 srun -N 2 --ntasks-per-node=$((np / 2)) -n $np --mpi=pmix \
		"${TIME[@]}" "$REPO/bin/gomb" osu init
	measure "srun --mpi=pmi2 (MPICH)" 2 $np "${BED[@]}" scripts/slurm.sh run env UCX_TLS=tcp,self UCX_NET_DEVICES=eth0 \
		srun -N 2 --ntasks-per-node=$((np / 2)) -n $np --mpi=pmi2 "${TIME[@]}" "$REPO/bin/gomb-mpich" osu init
done
