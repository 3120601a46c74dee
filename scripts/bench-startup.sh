#!/bin/bash
# bench-startup.sh: what gomb's start-up costs beside OSU's start-up tests,
# both MPIs, launches interleaved (OSU, gomb, gomb, OSU, ...): the median
# wall time of a whole 'mpirun -np NP ... hello' job (launcher, process
# start, the Go runtime, MPI_Init, MPI_Finalize) and the median of
# osu_init's and gomb osu init's average MPI_Init time over the ranks.
#
#   scripts/bench-startup.sh [-np 2] [-n 10] [-peers peers]
# osu_hello and osu_init are the ones installed below PEERS/openmpi and
# PEERS/mpich, found as make bench-fidelity finds its peers
# (docs/fidelity.md); an MPI without them is skipped with one line.
# It is a benchmark, not a test: 'make bench-startup' runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
np=2 n=10 peers=peers
while [ $# -gt 0 ]; do
	case "$1" in
	-np) np=$2; shift 2 ;;
	-n) n=$2; shift 2 ;;
	-peers) peers=$2; shift 2 ;;
	*) echo "usage: scripts/bench-startup.sh [-np N] [-n LAUNCHES] [-peers DIR]" >&2; exit 2 ;;
	esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PATH="$PATH:/usr/local/go/bin"
median() { sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.1f\n", (v[NR/2]+v[NR/2+1])/2}'; }
printf '%-8s %-6s %14s %14s %8s %14s %14s\n' mpi np "OSU job (ms)" "gomb job (ms)" "+ms" "osu_init (ms)" "gomb init (ms)"
for mpi in openmpi mpich; do
	if [ $mpi = openmpi ]; then
		launch=(mpirun.openmpi -np "$np" --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo)
		gomb=bin/gomb
	else
		launch=(mpirun.mpich -np "$np" -launcher fork -iface lo)
		gomb=bin/gomb-mpich
	fi
	# the peers' one layout: tools/fidelity looks them up
	if ! hello=$(go run ./tools/fidelity -peers "$peers/$mpi" -find osu_hello 2>/dev/null) ||
		! init=$(go run ./tools/fidelity -peers "$peers/$mpi" -find osu_init 2>/dev/null); then
		echo "bench-startup: skip $mpi: no osu_hello and osu_init below $peers/$mpi" >&2
		continue
	fi
	: >/tmp/bs-osu-$$ ; : >/tmp/bs-gomb-$$ ; : >/tmp/bs-osui-$$ ; : >/tmp/bs-gombi-$$
	for ((i = 0; i < n; i++)); do
		order="osu gomb gomb osu"
		[ $((i % 2)) = 1 ] && order="gomb osu osu gomb"
		for p in $order; do
			t0=$(date +%s%N)
			if [ $p = osu ]; then "${launch[@]}" "$hello" >/dev/null; else "${launch[@]}" "$gomb" osu hello >/dev/null; fi
			echo $((($(date +%s%N) - t0) / 1000000)) >>/tmp/bs-$p-$$
		done
		"${launch[@]}" "$init" | sed -n 's/.*avg: \([0-9]*\) ms/\1/p' >>/tmp/bs-osui-$$
		"${launch[@]}" "$gomb" osu init | sed -n 's/.*avg: \([0-9]*\) ms/\1/p' >>/tmp/bs-gombi-$$
	done
	o=$(median </tmp/bs-osu-$$) g=$(median </tmp/bs-gomb-$$)
	printf '%-8s %-6s %14s %14s %8s %14s %14s\n' $mpi "$np" "$o" "$g" "$(awk -v a="$g" -v b="$o" 'BEGIN {printf "%+.0f", a - b}')" \
		"$(median </tmp/bs-osui-$$)" "$(median </tmp/bs-gombi-$$)"
	rm -f /tmp/bs-*-$$
done
