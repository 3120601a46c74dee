#!/bin/sh
# explain-corpus.sh: produce the real runs of explain's labelled corpus
# (internal/analysis/testdata/corpus/, labelled in internal/analysis/corpus_test.go) on this
# machine: healthy runs of both MPIs, and anomalies made for real.
# Usage: scripts/explain-corpus.sh [OUTDIR]   (takes some 30 minutes on 2
# cores). The peers' own logs come from the IMB-MPI1 installed below
# PEERS/openmpi and PEERS/mpich (PEERS=peers unless set), found as make
# bench-fidelity finds its peers (docs/fidelity.md); without them those
# four logs are skipped with one line.
set -eu
cd "$(dirname "$0")/.."
out=${1:-internal/analysis/testdata/corpus}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PATH="$PATH:/usr/local/go/bin"
ompi="timeout 900 mpirun.openmpi --oversubscribe --mca oob_tcp_if_include lo"
mpich="timeout 900 mpiexec.mpich -launcher fork -iface lo"
sub="PingPong PingPing Sendrecv Exchange Allreduce Reduce Allgather Alltoall Bcast Barrier"
np4="PingPong Sendrecv Exchange Allreduce Reduce Allgather Alltoall Bcast Barrier"

# healthy: the IMB-MPI1 default list, np 2, each MPI (the peers' own logs),
# and a second launch of each (steps at the caches differ launch to launch)
peers=${PEERS:-peers}
if imb_ompi=$(go run ./tools/fidelity -peers "$peers/openmpi" -find IMB-MPI1 2>/dev/null) &&
	imb_mpich=$(go run ./tools/fidelity -peers "$peers/mpich" -find IMB-MPI1 2>/dev/null); then
	$ompi -np 2 --mca btl self,vader "$imb_ompi" > "$out/healthy-imbpeer-openmpi-np2.txt"
	$mpich -np 2 "$imb_mpich" > "$out/healthy-imbpeer-mpich-np2.txt"
	$ompi -np 2 --mca btl self,vader "$imb_ompi" > "$out/healthy-imbpeer-openmpi-np2-2.txt"
	$mpich -np 2 "$imb_mpich" > "$out/healthy-imbpeer-mpich-np2-2.txt"
else
	echo "explain-corpus: skip the IMB-MPI1 logs: no IMB-MPI1 below $peers/openmpi and $peers/mpich" >&2
fi
# healthy: gomb imb's default list, np 2, each MPI
$ompi -np 2 --mca btl self,vader bin/gomb imb -json "$out/healthy-gomb-default-openmpi-np2.jsonl" > /dev/null
$mpich -np 2 bin/gomb-mpich imb -json "$out/healthy-gomb-default-mpich-np2.jsonl" > /dev/null
# healthy: gomb imb with samples, np 2, each MPI
$ompi -np 2 --mca btl self,vader bin/gomb imb -msglog 0:20 -json "$out/healthy-gomb-openmpi-np2.jsonl" $sub > /dev/null
$mpich -np 2 bin/gomb-mpich imb -msglog 0:20 -json "$out/healthy-gomb-mpich-np2.jsonl" $sub > /dev/null
# healthy: OSU latency and bandwidth
$ompi -np 2 --mca btl self,vader bin/gomb osu latency -json "$out/healthy-osu-latency-openmpi.jsonl" > /dev/null
$mpich -np 2 bin/gomb-mpich osu bw -json "$out/healthy-osu-bw-mpich.jsonl" > /dev/null

# healthy, between two emulated hosts (TCP over veth); then that link
# shaped to 1 Gbit/s (explained against 10 Gb/s: far below its speed)
export GOMB_TESTBED_PREFIX=gcp-
scripts/testbed.sh up 2 > /dev/null
for m in ompi mpich; do
	name=openmpi; [ $m = mpich ] && name=mpich
	timeout 300 scripts/testbed.sh run $m gcp-h1,gcp-h2 2 -- imb -msglog 0:20 \
		-json "$out/healthy-gomb-internode-$name-np2.jsonl" $sub > /dev/null
done
scripts/testbed.sh shape gcp-h2 0 1gbit > /dev/null
timeout 300 scripts/testbed.sh run ompi gcp-h1,gcp-h2 2 -- imb -msglog 0:22 \
	-json "$out/anomaly-rate1g-internode-openmpi.jsonl" PingPong Sendrecv > /dev/null
# anomaly: the link delayed 300 us each way (latency beyond any fabric)
scripts/testbed.sh shape gcp-h2 300 none > /dev/null
timeout 300 scripts/testbed.sh run ompi gcp-h1,gcp-h2 2 -- imb -msglog 0:18 \
	-json "$out/anomaly-delay300-internode-openmpi.jsonl" PingPong Sendrecv Allreduce > /dev/null
scripts/testbed.sh down > /dev/null

# anomaly: intra-node traffic forced over TCP (Open MPI btl tcp on lo)
$ompi -np 2 --mca btl self,tcp --mca btl_tcp_if_include lo bin/gomb imb -msglog 0:20 \
	-json "$out/anomaly-tcp-intranode-openmpi.jsonl" PingPong Sendrecv Allreduce > /dev/null
# anomaly: the eager limit moved from 4 KiB to 32 KiB (the switch must follow)
$ompi -np 2 --mca btl self,vader --mca btl_vader_eager_limit 32768 bin/gomb imb -msglog 0:20 \
	-json "$out/anomaly-eager32k-openmpi.jsonl" PingPong > /dev/null
# anomaly: rank 1's core shared with a busy process (ranks bound to cores 0, 1)
yes > /dev/null &
busy=$!
taskset -pc 1 $busy > /dev/null
$ompi -np 2 --mca btl self,vader --bind-to core bin/gomb imb -msglog 0:16 \
	-json "$out/anomaly-busycore-openmpi.jsonl" Sendrecv Allreduce Allgather Bcast > /dev/null || true
kill $busy
# anomaly: np 4 on this 2-core machine (oversubscribed), each MPI; MPICH
# spins through time slices and is stopped after 15 minutes
$ompi -np 4 --mca btl self,vader bin/gomb imb -msglog 0:16 \
	-json "$out/anomaly-oversubscribed-openmpi-np4.jsonl" $np4 > /dev/null
$mpich -np 4 bin/gomb-mpich imb -msglog 0:16 \
	-json "$out/anomaly-oversubscribed-mpich-np4.jsonl" $np4 > /dev/null || true
# anomaly: a straggler, rank 2 of 4 held back 100 us before every call of
# the synchronising collectives (GOMB_FAULT=delay)
GOMB_FAULT=delay:2:0-:100us:Allreduce,Allgather,Alltoall,Barrier $ompi -np 4 --mca btl self,vader \
	bin/gomb imb -msglog 0:16 -npmin 4 -json "$out/anomaly-straggler-openmpi-np4.jsonl" \
	PingPong Sendrecv Exchange Allreduce Allgather Alltoall Bcast Barrier > /dev/null
# anomaly: a cliff, rank 1 held back 0.4 ns a byte from 64 KiB on in Sendrecv
GOMB_FAULT=delay:1:65536-:0.4ns/B:Sendrecv $mpich -np 2 bin/gomb-mpich imb -msglog 0:20 \
	-json "$out/anomaly-cliff-mpich.jsonl" PingPong Sendrecv Allreduce Bcast > /dev/null
gzip -f9 "$out"/*.jsonl
ls -l "$out"
