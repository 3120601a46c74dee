#!/bin/sh
# Wall time of IMB-MPI1's full default run against gomb imb's (with -json),
# and gomb with -iter_policy precision, interleaved over rounds (A B C D,
# then D C B A), for one MPI. Prints one line per launch and the medians.
#   scripts/time-to-answer.sh -launch 'mpirun -np 2 --bind-to core' -imb /opt/imb/bin/IMB-MPI1 -gomb bin/gomb [-rounds 3]
set -eu
rounds=3
while [ $# -gt 0 ]; do
	case $1 in
	-launch) launch=$2; shift 2 ;;
	-imb) imb=$2; shift 2 ;;
	-gomb) gomb=$2; shift 2 ;;
	-rounds) rounds=$2; shift 2 ;;
	*) echo "usage: $0 -launch LAUNCHER -imb IMB-MPI1 -gomb GOMB [-rounds N]" >&2; exit 2 ;;
	esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # name command...
	name=$1; shift
	start=$(date +%s.%N)
	"$@" >"$tmp/out" 2>&1 || { echo "$name failed:" >&2; tail -5 "$tmp/out" >&2; exit 1; }
	end=$(date +%s.%N)
	t=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b-a}')
	echo "$name $t" | tee -a "$tmp/times"
}
progs="imb gomb precision2 precision1"
for r in $(seq 1 "$rounds"); do
	order=$progs
	[ $((r % 2)) -eq 0 ] && order=$(echo $progs | tr ' ' '\n' | tac | tr '\n' ' ')
	for p in $order; do
		case $p in
		imb) run imb $launch "$imb" ;;
		gomb) run gomb $launch "$gomb" imb -json "$tmp/r.jsonl" ;;
		precision2) run precision2 $launch "$gomb" imb -json "$tmp/r.jsonl" -iter_policy precision ;;
		precision1) run precision1 $launch "$gomb" imb -json "$tmp/r.jsonl" -iter_policy precision -precision 1% ;;
		esac
	done
done
echo "# median wall time (s) and ratio to IMB-MPI1"
base=$(awk '$1=="imb"{print $2}' "$tmp/times" | sort -n | awk '{a[NR]=$1} END{print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}')
for p in $progs; do
	awk -v p="$p" '$1==p{print $2}' "$tmp/times" | sort -n |
		awk -v p="$p" -v b="$base" '{a[NR]=$1} END{m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%-11s %6.2f s  %.2fx  (min %.2f, max %.2f)\n", p, m, m/b, a[1], a[NR]}'
done
