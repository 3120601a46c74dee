#!/bin/bash
# bench-records.sh: what keeping every raw sample costs as the job grows:
# IMB Allreduce (4 and 8 bytes, 1,000 repetitions, -iter_policy off) at np
# 16, 32 and 64 (oversubscribed here: the records' cost does not depend on
# the speed of the collective), N launches each, with -json. Per np, the
# medians of:
#   bytes/result   the size of one result record (every rank's samples)
#   B/sample       the same per raw sample (np x repetitions of them)
#   encode ms      rank 0 encoding and writing one result record
#   gather ms      rank 0 in the gather of one size's raw samples
#   rank0 MB       rank 0's peak resident set over the run
# from the end record's record_cost, then a linear extrapolation to np
# 256, 1,024 and 4,096 (per result and for a default IMB-MPI1 sweep of 24
# sizes x 12 benchmarks). Then whether writing the records perturbs the
# next size: the same job with and without -json, compared.
#
#   scripts/bench-records.sh [-n 3] [-mpi openmpi|mpich]
# A benchmark, not a test: 'make bench-records' runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
n=3 mpi=openmpi
while [ $# -gt 0 ]; do
	case "$1" in
	-n) n=$2; shift 2 ;;
	-mpi) mpi=$2; shift 2 ;;
	*) echo "usage: scripts/bench-records.sh [-n LAUNCHES] [-mpi openmpi|mpich]" >&2; exit 2 ;;
	esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
for np in 16 32 64; do
	for ((i = 0; i < n; i++)); do
		if [ "$mpi" = openmpi ]; then
			mpirun.openmpi -np $np --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo \
				bin/gomb imb -npmin $np -msglog 2:3 -iter 1000 -iter_policy off -time 600 -json "$W/r-$np-$i.jsonl" Allreduce >/dev/null
		else
			mpirun.mpich -np $np -launcher fork -iface lo \
				bin/gomb-mpich imb -npmin $np -msglog 2:3 -iter 1000 -iter_policy off -time 600 -json "$W/r-$np-$i.jsonl" Allreduce >/dev/null
		fi
	done
done
go run ./tools/recordcost "$W"/r-*.jsonl

# Does writing the records perturb the next size? The same job with and
# without -json, launches interleaved, both read back from their text
# tables (gomb import) and set against each other by gomb compare: the
# speed of every size with -json relative to without, and whether any
# difference is significant.
launch() {
	local np=$1
	shift
	if [ "$mpi" = openmpi ]; then
		mpirun.openmpi -np "$np" --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo bin/gomb imb "$@"
	else
		mpirun.mpich -np "$np" -launcher fork -iface lo bin/gomb-mpich imb "$@"
	fi
}
for c in "2 PingPong 0:16 1000" "16 Allreduce 0:8 200"; do
	set -- $c
	np=$1 bench=$2 sizes=$3 iter=$4
	mkdir -p "$W/plain-$np" "$W/json-$np"
	for ((i = 0; i < n + 2; i++)); do
		for side in plain json; do
			[ $((i % 2)) = 1 ] && side=$([ $side = plain ] && echo json || echo plain)
			extra=()
			[ $side = json ] && extra=(-json "$W/json-$np/r$i.jsonl")
			launch "$np" -npmin "$np" -msglog "$sizes" -iter "$iter" -time 600 "${extra[@]}" "$bench" >"$W/$side-$np/t$i.txt"
		done
	done
	echo
	echo "np $np $bench: with -json (B) against without (A), $((n + 2)) launches each"
	bin/gomb compare "$W/plain-$np"/t*.txt vs "$W/json-$np"/t*.txt | sed -n '1,40p'
done
