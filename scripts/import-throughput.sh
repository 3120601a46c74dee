#!/bin/sh
# End-to-end throughput of gomb import -o and gomb archive add through the
# command line: a set of real IMB-MPI1 logs (importer/testdata/imb*.txt)
# repeated to SIZE MiB, each command run ROUNDS times. Prints per round the
# wall time and peak memory (GNU time), then medians, MB/s (10^6 bytes of
# log per second) and the archive's size against the log's.
#   scripts/import-throughput.sh [-gomb bin/gomb] [-size 32] [-rounds 5]
set -eu
gomb=bin/gomb size=32 rounds=5
while [ $# -gt 0 ]; do
	case $1 in
	-gomb) gomb=$2; shift 2 ;;
	-size) size=$2; shift 2 ;;
	-rounds) rounds=$2; shift 2 ;;
	*) echo "usage: $0 [-gomb GOMB] [-size MiB] [-rounds N]" >&2; exit 2 ;;
	esac
done
[ -x /usr/bin/time ] || { echo "$0: needs GNU time (apt-get install time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/imb.log
bytes=$((size * 1048576))
while [ ! -s "$log" ] || [ "$(stat -c %s "$log")" -lt "$bytes" ]; do
	cat importer/testdata/imb*.txt >>"$log"
done
truncate -s "$bytes" "$log"
measure() { # name command...
	name=$1; shift
	/usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { echo "$name failed:" >&2; tail -3 "$tmp/err" >&2; exit 1; }
	read -r s kb <"$tmp/t"
	echo "$name $s $kb" | tee -a "$tmp/times"
}
for r in $(seq 1 "$rounds"); do
	measure import "$gomb" import -o "$tmp/out.jsonl" "$log"
	rm -f "$tmp/a.db" "$tmp/a.db-wal" "$tmp/a.db-shm"
	measure add "$gomb" archive -archive "$tmp/a.db" add "$log"
done
dbsize=$(stat -c %s "$tmp/a.db")
awk -v bytes="$bytes" -v db="$dbsize" '
	{ t[$1] = t[$1] " " $2; m[$1] = m[$1] " " $3 }
	function median(s,   a, n, i, j, x) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		for (k in t) {
			s = median(t[k])
			printf "%-6s median %.2f s  %.1f MB/s  peak memory median %.0f MB\n", k, s, bytes / s / 1e6, median(m[k]) / 1024
		}
		printf "archive %.0f MB: %.2f x the log\n", db / 1e6, db / bytes
	}' "$tmp/times"
