#!/bin/sh
# conformance.sh: the conformance subset of gomb against one MPI library,
# run under that library's own launcher: each check one MPI job, one at a
# time, each under timeout, its text and records kept in the output folder
# (out/conformance/ unless -o says otherwise):
#
#   imb-check      gomb imb -check            IMB-MPI1's default list, every buffer checked
#   imb-nbc        gomb imb-nbc Ibcast        a non-blocking collective and its overlap
#   osu-latency    gomb osu latency
#   osu-bw         gomb osu bw
#   osu-allreduce  gomb osu allreduce -c      with OSU's validation
#   ring           gomb ring --count 20       20 samples, 0.1 s apart
#
# A check passes when the job exits 0 and its records end with status
# "complete" after at least one result. One line per check, then a
# summary; the exit status is 1 when any check failed.
#
# usage: scripts/conformance.sh (-gomb BIN | -mpi DIR) [-launch LINE] [-np N] [-o DIR] [-timeout S] [CHECK...]
#   -gomb BIN      gomb built for the launcher's MPI (CC=mpicc go build)
#   -mpi DIR       the bin folder of an MPI you have installed (mpicc,
#                  mpiexec): gomb is built with DIR/mpicc into the output
#                  folder (scripts/setup.sh's MPICC=), and the launcher is
#                  DIR/mpiexec -n {np} unless -launch says otherwise; a
#                  folder without them is one line and exit 0 (nothing to
#                  check)
#   -launch LINE   the launcher line, {np} standing for the process count,
#                  e.g. 'mpiexec -n {np} -launcher fork -iface lo'
#   -np N          processes (default 2)
#   -timeout S     limit per check in seconds (default 600)
#   CHECK...       only these checks (default: all, in the order above)
# Bad arguments are one line and exit 2.
set -eu
cd "$(dirname "$0")/.."
usage="usage: scripts/conformance.sh (-gomb BIN | -mpi DIR) [-launch LINE] [-np N] [-o DIR] [-timeout S] [CHECK...]"
gomb="" mpi="" launch="" np=2 out=out/conformance limit=600
while [ $# -gt 0 ]; do
	case "$1" in
	-gomb | -mpi | -launch | -np | -o | -timeout)
		[ $# -ge 2 ] || { echo "conformance: $1 wants a value; $usage" >&2; exit 2; }
		case "$1" in
		-gomb) gomb=$2 ;;
		-mpi) mpi=$2 ;;
		-launch) launch=$2 ;;
		-np) np=$2 ;;
		-o) out=$2 ;;
		-timeout) limit=$2 ;;
		esac
		shift 2 ;;
	-*) echo "conformance: unknown flag $1; $usage" >&2; exit 2 ;;
	*) break ;;
	esac
done
all="imb-check imb-nbc osu-latency osu-bw osu-allreduce ring"
for c in "$@"; do
	case " $all " in
	*" $c "*) ;;
	*) echo "conformance: unknown check $c (one of $all)" >&2; exit 2 ;;
	esac
done
case "$np" in
'' | *[!0-9]*) echo "conformance: -np wants a number, not '$np'" >&2; exit 2 ;;
esac
case "$limit" in
'' | *[!0-9]*) echo "conformance: -timeout wants seconds, not '$limit'" >&2; exit 2 ;;
esac
if [ -n "$gomb" ] && [ -n "$mpi" ]; then
	echo "conformance: give -gomb or -mpi, not both; $usage" >&2
	exit 2
fi
if [ -n "$mpi" ]; then
	# an installed MPI: its wrapper builds gomb, its mpiexec launches
	if [ ! -d "$mpi" ]; then
		echo "conformance: skip: no folder $mpi (-mpi)" >&2
		exit 0
	fi
	for p in mpicc mpiexec; do
		if [ ! -x "$mpi/$p" ]; then
			echo "conformance: skip: no $p in $mpi (-mpi wants an MPI's bin folder)" >&2
			exit 0
		fi
	done
	mpi=$(cd "$mpi" && pwd)
	[ -n "$launch" ] || launch="$mpi/mpiexec -n {np}"
elif [ -z "$gomb" ]; then
	echo "$usage" >&2
	exit 2
else
	[ -x "$gomb" ] || { echo "conformance: no gomb binary at '$gomb'" >&2; exit 2; }
	gomb=$(cd "$(dirname "$gomb")" && pwd)/$(basename "$gomb")
fi
case "$launch" in
*"{np}"*) ;;
*) echo "conformance: -launch must hold {np} for the process count; $usage" >&2; exit 2 ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$mpi" ]; then
	gomb="$out/gomb"
	MPICC="$mpi/mpicc" GOMB_BIN="$gomb" ./scripts/setup.sh
fi
checks=$all
[ $# -gt 0 ] && checks="$*"

# args NAME RECORDS: the gomb arguments of a check
args() {
	case "$1" in
	imb-check) echo "imb -json $2 -check" ;;
	imb-nbc) echo "imb-nbc -json $2 Ibcast" ;;
	osu-latency) echo "osu latency -json $2" ;;
	osu-bw) echo "osu bw -json $2" ;;
	osu-allreduce) echo "osu allreduce -c -json $2" ;;
	ring) echo "ring -json $2 --count 20 --interval 0.1" ;;
	*) return 1 ;;
	esac
}

line=$(echo "$launch" | sed "s/{np}/$np/g")
echo "conformance: $("$gomb" version 2>&1 | paste -s -d ';' | sed 's/;/; /g'); launcher: $line"
passed=0 failed=0
for c in $checks; do
	a=$(args "$c" "$out/$c.jsonl")
	rm -f "$out/$c.jsonl"
	start=$(date +%s)
	rc=0
	# shellcheck disable=SC2086 # the launcher line and the arguments are word lists
	timeout -k 10 "$limit" $line "$gomb" $a >"$out/$c.txt" 2>&1 </dev/null || rc=$?
	secs=$(($(date +%s) - start))
	status=$(sed -n 's/.*"type":"end".*"status":"\([a-z-]*\)".*/\1/p' "$out/$c.jsonl" 2>/dev/null | tail -n 1)
	results=$(grep -c '"type":"result"' "$out/$c.jsonl" 2>/dev/null || true)
	what="exit $rc, ${status:-no end record}, ${results:-0} results, ${secs} s"
	[ "$rc" = 124 ] || [ "$rc" = 137 ] && what="timed out after $limit s; $what"
	if [ "$rc" = 0 ] && [ "$status" = complete ] && [ "${results:-0}" -gt 0 ]; then
		passed=$((passed + 1))
		echo "conformance: PASS $c ($what)"
	else
		failed=$((failed + 1))
		echo "conformance: FAIL $c ($what; see $out/$c.txt)"
	fi
done
echo "conformance: $passed passed, $failed failed ($out)"
[ "$failed" = 0 ]
