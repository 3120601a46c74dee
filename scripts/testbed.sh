#!/bin/bash
# testbed.sh: emulated hosts on one Linux machine, for running gomb across
# "nodes" with Open MPI and MPICH, over links that can be shaped, cut and
# flapped. Needs root and iproute2 (tc, ip netns); delay also needs
# iptables and gcc (a small NFQUEUE delayer, since this kernel has no netem).
#
#   testbed.sh up [N [RACKS [NICS]]]  N hosts (default 3): namespaces gtb-h1..N and a switch
#                                  gtb-sw; host i is 10.199.77.i/24 on a private bridge;
#                                  with RACKS (2-9), the hosts in that many blocks, a rack
#                                  bridge each, every rack on a core bridge by an uplink;
#                                  NICS 2 gives every host a second NIC, eth1 (10.199.78.i/24),
#                                  on a bridge of its own (a second rail)
#   testbed.sh down                end every process in the namespaces, delete them
#   testbed.sh run ompi|mpich HOSTS NP [--] GOMB_ARGS...
#                                  launch gomb (bin/gomb or bin/gomb-mpich) from host1 with
#                                  NP ranks over HOSTS ("gtb-h1,gtb-h2" or "gtb-h1:2,gtb-h2:2")
#   testbed.sh launch ompi|mpich HOSTS NP PROGRAM [ARGS...]
#                                  the same for any program built for that MPI (a peer, a wrapper)
#   testbed.sh shape HOST DELAY_US RATE   e.g. "shape gtb-h2 500 none", "shape gtb-h2 0 1gbit"
#   testbed.sh unshape HOST
#   testbed.sh shape-link HOST_A HOST_B DELAY_US RATE
#                                  the same for the traffic between two hosts only (their
#                                  "cable"): shaped at both hosts, the delay at HOST_A
#   testbed.sh unshape-link HOST_A HOST_B
#   testbed.sh shape-uplink RACK RATE [DELAY_US]
#                                  a rack's uplink (1..RACKS) carries at most RATE (none: no
#                                  limit) each way: what its hosts send to other racks shares
#                                  it; DELAY_US delays every packet between the rack's hosts
#                                  and the other racks' (NFQUEUE at each of the rack's hosts)
#   testbed.sh unshape-uplink RACK
#   testbed.sh cut HOST | heal HOST        take the host's switch port down / up
#   testbed.sh flap HOST SECONDS           cut, wait, heal
#   testbed.sh kill HOST [SIGNAL]          signal (default KILL) the gomb ranks on HOST
#   testbed.sh pids                        the processes left in the namespaces
#   testbed.sh exec HOST CMD...            run CMD on an emulated host
#
# Everything stays inside the namespaces it creates: the root namespace gets
# no interface, route or firewall rule, and the subnet exists only on the
# bridge. Work files live in $GOMB_TESTBED_DIR (default /tmp/gtb-testbed).
# Only processes inside the namespaces are ever signalled, by PID.
#
# Settings (environment): GOMB_TESTBED_PREFIX names the namespaces (default
# "gtb-": gtb-sw, gtb-h1...), so that two testbeds can coexist;
# GOMB_TESTBED_TCP_RETRIES2 (default 5) is the emulated hosts' TCP
# retransmission limit: a host whose link stays down is given up after ~15 s
# instead of the kernel default's ~15 min. Open MPI's launcher needs that to
# finish a job whose host is lost (it waits for the lost daemon otherwise),
# and its daemon connections get keepalives (5 s idle, 5 probes 1 s apart:
# a lost host is noticed after ~10 s, and the 3 s flap of the tests, with a
# loaded machine's delays, stays well inside the 5 s the probes need).
set -uo pipefail

P=${GOMB_TESTBED_PREFIX:-gtb-}
W=${GOMB_TESTBED_DIR:-/tmp/${P}testbed}
NET=10.199.77
NET2=10.199.78
RETRIES2=${GOMB_TESTBED_TCP_RETRIES2:-5}
SW=${P}sw
REPO=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

die() { echo "testbed: $*" >&2; exit 1; }
hosts() { ip netns list 2>/dev/null | awk '{print $1}' | grep "^${P}h[0-9]*$" | sort -V; }
have() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$1"; }
index() { echo "${1#${P}h}"; }   # gtb-h2 -> 2
usage() { die "usage: testbed.sh $*"; }
# host NAME: NAME must be one of the emulated hosts.
host() {
	case $1 in
	"${P}h"[0-9]*) have "$1" && return 0 ;;
	esac
	die "no emulated host \"$1\" (hosts: $(hosts | tr '\n' ' '); 'testbed.sh up' first)"
}

helpers() {
	mkdir -p "$W/tmp"
	# nsrun HOST CMD...: CMD "on" HOST: its network namespace, a private
	# mount namespace with the testbed's /etc/hosts, its own hostname.
	cat >"$W/nsrun" <<EOF
#!/bin/sh
h=\$1; shift
exec ip netns exec "\$h" unshare --uts -- /bin/sh -c 'mount --bind $W/hosts /etc/hosts && hostname "\$0" && exec "\$@"' "\$h" "\$@"
EOF
	# fake-rsh [ssh options] HOST CMD: the launchers' remote shell.
	cat >"$W/rsh" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
	case "\$1" in
	-[BbcDEeFIiJLlmOoPpQRSWw]) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
h=\${1#*@}; shift
exec $W/nsrun "\$h" /bin/bash -c "\$*"
EOF
	chmod +x "$W/nsrun" "$W/rsh"
}

up() {
	local n=${1:-3} racks=${2:-1} nics=${3:-1} r
	[ "$(id -u)" = 0 ] || die "needs root"
	have "$SW" && down >/dev/null
	mkdir -p "$W"
	{ echo "127.0.0.1 localhost"; for i in $(seq "$n"); do echo "$NET.$i ${P}h$i"; done; } >"$W/hosts"
	helpers
	ip netns add "$SW" || die "ip netns add failed"
	ip netns exec "$SW" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n "$SW" link set lo up
	ip -n "$SW" link add br0 type bridge
	ip -n "$SW" link set br0 up
	# racks: host i on rack bridge br<r>, each rack's uplink ul<r> to its
	# port cl<r> on the core bridge br0
	for r in $(seq "$racks"); do
		[ "$racks" -gt 1 ] || break
		ip -n "$SW" link add "br$r" type bridge
		ip -n "$SW" link set "br$r" up
		ip -n "$SW" link add "ul$r" type veth peer name "cl$r"
		ip -n "$SW" link set "ul$r" master "br$r" up
		ip -n "$SW" link set "cl$r" master br0 up
	done
	echo "$racks" >"$W/racks"
	echo "$n" >"$W/n"
	if [ "$nics" -gt 1 ]; then
		ip -n "$SW" link add brb type bridge
		ip -n "$SW" link set brb up
	fi
	for i in $(seq "$n"); do
		local h=${P}h$i
		ip netns add "$h"
		ip netns exec "$h" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
			net.ipv4.tcp_retries2="$RETRIES2"
		ip -n "$SW" link add "vh$i" type veth peer name eth0 netns "$h"
		ip -n "$SW" link set "vh$i" master "br$(rack_of "$i" "$n" "$racks")" up
		ip -n "$h" link set lo up
		ip -n "$h" addr add "$NET.$i/24" dev eth0
		ip -n "$h" link set eth0 up
		if [ "$nics" -gt 1 ]; then
			ip -n "$SW" link add "vb$i" type veth peer name eth1 netns "$h"
			ip -n "$SW" link set "vb$i" master brb up
			ip -n "$h" addr add "$NET2.$i/24" dev eth1
			ip -n "$h" link set eth1 up
		fi
	done
	reach "${P}h$n"
	if [ "$racks" -gt 1 ]; then
		echo "testbed: $n hosts up ($NET.1-$n) in $racks racks, work files in $W"
	else
		echo "testbed: $n hosts up ($NET.1-$n), work files in $W"
	fi
}

# rack_of I N RACKS: the bridge number of host I: 0 (the one bridge), or
# its rack, the hosts in RACKS contiguous blocks.
rack_of() {
	[ "$3" -gt 1 ] || { echo 0; return; }
	echo $(( ($1 - 1) * $3 / $2 + 1 ))
}

# shape_uplink RACK RATE [DELAY_US]: tbf at both ends of the rack's
# uplink, so that the traffic between its hosts and the other racks shares
# RATE each way; with DELAY_US, every packet between the rack's hosts and
# the other racks' waits DELAY_US (NFQUEUE at each host of the rack, for
# the other racks' addresses: a packet crosses the uplink once each way).
shape_uplink() {
	local r=$1 rate=$2 d=${3:-0} n racks i j h
	unshape_uplink "$r"
	if [ "$rate" != none ]; then
		ip netns exec "$SW" tc qdisc replace dev "ul$r" root tbf rate "$rate" burst 128kb latency 20ms || die "no tbf"
		ip netns exec "$SW" tc qdisc replace dev "cl$r" root tbf rate "$rate" burst 128kb latency 20ms || die "no tbf"
	fi
	if [ "$d" != 0 ]; then
		command -v iptables >/dev/null || die "delay needs iptables"
		nfq_delay
		n=$(cat "$W/n") racks=$(cat "$W/racks")
		for i in $(seq "$n"); do
			[ "$(rack_of "$i" "$n" "$racks")" = "$r" ] || continue
			h=${P}h$i
			for j in $(seq "$n"); do
				[ "$(rack_of "$j" "$n" "$racks")" = "$r" ] && continue
				ip netns exec "$h" iptables -t mangle -A POSTROUTING -o eth0 -d "$NET.$j" -j NFQUEUE --queue-num 2 --queue-bypass
				ip netns exec "$h" iptables -t mangle -A PREROUTING -i eth0 -s "$NET.$j" -j NFQUEUE --queue-num 2 --queue-bypass
			done
			ip netns exec "$h" "$W/nfq-delay" 2 "$d" </dev/null >/dev/null 2>>"$W/nfq-uplink-$h.log" &
			echo $! >"$W/nfq-uplink-$h.pid"
		done
		sleep 0.2
	fi
	echo "testbed: rack $r uplink shaped: rate $rate, delay ${d} us"
}

unshape_uplink() {
	local n racks i h
	ip netns exec "$SW" tc qdisc del dev "ul$1" root 2>/dev/null
	ip netns exec "$SW" tc qdisc del dev "cl$1" root 2>/dev/null
	n=$(cat "$W/n" 2>/dev/null || echo 0) racks=$(cat "$W/racks" 2>/dev/null || echo 1)
	for i in $(seq "$n"); do
		h=${P}h$i
		[ -f "$W/nfq-uplink-$h.pid" ] || continue
		ip netns exec "$h" iptables -t mangle -S 2>/dev/null | grep -- "--queue-num 2" | sed 's/^-A/-D/' |
			while read -r rule; do eval ip netns exec "$h" iptables -t mangle "$rule"; done
		kill "$(cat "$W/nfq-uplink-$h.pid")" 2>/dev/null
		rm -f "$W/nfq-uplink-$h.pid"
	done
	return 0
}

# reach HOST: wait (up to 5 s) until host1 can open a TCP connection to
# HOST (a refusal counts: the path is up); after a cut, ARP and the bridge
# take a moment.
reach() {
	local i
	i=$(index "$1")
	for _ in $(seq 50); do
		case $(ip netns exec "${P}h1" timeout 1 bash -c "exec 3<>/dev/tcp/$NET.$i/9" 2>&1) in
		"" | *refused*) return 0 ;;
		esac
		sleep 0.1
	done
	echo "testbed: $1 is not reachable from ${P}h1" >&2
	return 1
}

down() {
	for ns in $(hosts) "$SW"; do
		have "$ns" || continue
		for sig in TERM KILL; do
			pids=$(ip netns pids "$ns" 2>/dev/null)
			[ -z "$pids" ] && break
			kill -"$sig" $pids 2>/dev/null
			sleep 0.5
		done
		ip netns del "$ns"
	done
	[ -f "$W/nsrun" ] && rm -rf "$W"
	echo "testbed: down"
}

# run ompi|mpich HOSTS NP [--] ARGS: from host1, like a user on a login node.
run() {
	local mpi=$1 hostlist=$2 np=$3
	shift 3
	[ "${1:-}" = "--" ] && shift
	local bin=${GOMB_BIN:-$REPO/bin/gomb}
	[ "$mpi" = mpich ] && bin=${GOMB_MPICH_BIN:-$REPO/bin/gomb-mpich}
	launch "$mpi" "$hostlist" "$np" "$bin" "$@"
}

launch() {
	local mpi=$1 hostlist=$2 np=$3 bin=$4
	shift 4
	[ -x "$W/nsrun" ] || die "not up"
	case $mpi in
	ompi)
		exec "$W/nsrun" "${P}h1" mpirun.openmpi -np "$np" --host "$hostlist" --bind-to none \
			--mca plm_rsh_agent "$W/rsh" --mca pml ob1 --mca btl tcp,vader,self \
			--mca btl_tcp_if_include "$NET.0/24" --mca oob_tcp_if_include "$NET.0/24" \
			--mca orte_tmpdir_base "$W/tmp" --mca mpi_event_tick_rate 1 \
			--mca oob_tcp_keepalive_time 5 --mca oob_tcp_keepalive_intvl 1 --mca oob_tcp_keepalive_probes 5 \
			${GOMB_FAULT:+-x GOMB_FAULT} "$bin" "$@"
		;;
	mpich)
		exec "$W/nsrun" "${P}h1" env UCX_TLS=tcp,self UCX_NET_DEVICES=eth0 \
			mpirun.mpich -launcher ssh -launcher-exec "$W/rsh" -hosts "$hostlist" -n "$np" "$bin" "$@"
		;;
	*) die "run: ompi or mpich, not $mpi" ;;
	esac
}

nfq_delay() {
	local src=$REPO/scripts/testbed/nfq-delay.c
	[ -x "$W/nfq-delay" ] && [ "$W/nfq-delay" -nt "$src" ] && return
	gcc -O2 -Wall -o "$W/nfq-delay" "$src" || die "cannot build nfq-delay"
}

# shape HOST DELAY_US RATE: make HOST's link long and thin: every packet
# to or from HOST waits DELAY_US (NFQUEUE and nfq-delay: netem is not in
# this kernel), and the link carries at most RATE each way (tbf at the host
# and at its switch port). A message between two hosts crosses the shaped
# link once, so its one-way time grows by DELAY_US (plus nfq-delay's own
# ~30 us per pass on a small VM).
shape() {
	local h=$1 d=$2 r=$3 i
	i=$(index "$h")
	unshape "$h" 2>/dev/null
	if [ "$r" != none ]; then
		# The burst must hold a whole GSO packet (64 KB) or tbf splits every
		# one; NFQUEUE releases packets in bunches and needs 256 KB. Every
		# byte of burst is free credit: 128 KB puts 4 MiB at 98% of the rate.
		local burst=128kb
		[ "$d" != none ] && [ "$d" != 0 ] && burst=256kb
		ip netns exec "$h" tc qdisc replace dev eth0 root tbf rate "$r" burst $burst latency 10ms
		ip netns exec "$SW" tc qdisc replace dev "vh$i" root tbf rate "$r" burst $burst latency 10ms
	fi
	if [ "$d" != none ] && [ "$d" != 0 ]; then
		command -v iptables >/dev/null || die "delay needs iptables"
		nfq_delay
		ip netns exec "$h" iptables -t mangle -A POSTROUTING -o eth0 -j NFQUEUE --queue-num 0 --queue-bypass
		ip netns exec "$h" iptables -t mangle -A PREROUTING -i eth0 -j NFQUEUE --queue-num 0 --queue-bypass
		ip netns exec "$h" "$W/nfq-delay" 0 "$d" </dev/null >/dev/null 2>>"$W/nfq-$h.log" &
		echo $! >"$W/nfq-$h.pid"
		sleep 0.2
	fi
	echo "testbed: $h shaped: delay ${d} us, rate $r"
}

unshape() {
	local h=$1 i
	i=$(index "$h")
	ip netns exec "$h" iptables -t mangle -D POSTROUTING -o eth0 -j NFQUEUE --queue-num 0 --queue-bypass 2>/dev/null
	ip netns exec "$h" iptables -t mangle -D PREROUTING -i eth0 -j NFQUEUE --queue-num 0 --queue-bypass 2>/dev/null
	if [ -f "$W/nfq-$h.pid" ]; then
		local pid
		pid=$(cat "$W/nfq-$h.pid")
		kill "$pid" 2>/dev/null
		rm -f "$W/nfq-$h.pid"
		# its last line: packets delayed and its own overshoot
		for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		tail -n 1 "$W/nfq-$h.log" 2>/dev/null | sed "s/^/testbed: $h: /"
	fi
	ip netns exec "$h" tc qdisc del dev eth0 root 2>/dev/null
	ip netns exec "$SW" tc qdisc del dev "vh$i" root 2>/dev/null
	return 0
}

# shape_link A B DELAY_US RATE: as shape, for the packets between A and B
# alone: at each host an htb qdisc (this kernel has no prio or netem)
# whose class 1:2, of RATE, takes what goes to the other (a u32 filter on
# its address), everything else passing unshaped. The delay: NFQUEUE at A
# for the packets to and from B.
shape_link() {
	local a=$1 b=$2 d=$3 r=$4
	unshape_link "$a" "$b" 2>/dev/null
	if [ "$r" != none ]; then
		for pair in "$a $b" "$b $a"; do
			set -- $pair
			# default 0: what the filter leaves unclassified goes out directly,
			# unshaped (a default class of any rate cost the host a third of
			# its bandwidth to every other host)
			ip netns exec "$1" tc qdisc replace dev eth0 root handle 1: htb default 0 || die "no htb qdisc"
			ip netns exec "$1" tc class add dev eth0 parent 1: classid 1:2 htb rate "$r" ceil "$r" burst 128kb cburst 128kb quantum 65536
			ip netns exec "$1" tc filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dst "$NET.$(index "$2")/32" flowid 1:2 ||
				die "no u32 filter"
		done
	fi
	if [ "$d" != none ] && [ "$d" != 0 ]; then
		command -v iptables >/dev/null || die "delay needs iptables"
		nfq_delay
		local peer=$NET.$(index "$b")
		ip netns exec "$a" iptables -t mangle -A POSTROUTING -o eth0 -d "$peer" -j NFQUEUE --queue-num 1 --queue-bypass
		ip netns exec "$a" iptables -t mangle -A PREROUTING -i eth0 -s "$peer" -j NFQUEUE --queue-num 1 --queue-bypass
		ip netns exec "$a" "$W/nfq-delay" 1 "$d" </dev/null >/dev/null 2>>"$W/nfq-$a-$b.log" &
		echo $! >"$W/nfq-$a-$b.pid"
		sleep 0.2
	fi
	echo "testbed: link $a - $b shaped: delay ${d} us, rate $r"
}

unshape_link() {
	local a=$1 b=$2 peer
	peer=$NET.$(index "$b")
	ip netns exec "$a" iptables -t mangle -D POSTROUTING -o eth0 -d "$peer" -j NFQUEUE --queue-num 1 --queue-bypass 2>/dev/null
	ip netns exec "$a" iptables -t mangle -D PREROUTING -i eth0 -s "$peer" -j NFQUEUE --queue-num 1 --queue-bypass 2>/dev/null
	if [ -f "$W/nfq-$a-$b.pid" ]; then
		kill "$(cat "$W/nfq-$a-$b.pid")" 2>/dev/null
		rm -f "$W/nfq-$a-$b.pid"
	fi
	ip netns exec "$a" tc qdisc del dev eth0 root 2>/dev/null
	ip netns exec "$b" tc qdisc del dev eth0 root 2>/dev/null
	return 0
}

cmd=${1:-}
shift || true
case $cmd in
up)
	[ $# -le 3 ] && [[ ${1:-3} =~ ^[1-9][0-9]?$ ]] && [[ ${2:-1} =~ ^[1-9]$ ]] && [ "${2:-1}" -le "${1:-3}" ] &&
		[[ ${3:-1} =~ ^[12]$ ]] || usage "up [N [RACKS [NICS]]] (N hosts, 1-99; RACKS 1-9, at most N; NICS 1 or 2)"
	up "$@"
	;;
down) down ;;
run)
	[ $# -ge 3 ] && [[ $3 =~ ^[1-9][0-9]*$ ]] || usage "run ompi|mpich HOSTS NP [--] GOMB_ARGS..."
	run "$@"
	;;
launch)
	[ $# -ge 4 ] && [[ $3 =~ ^[1-9][0-9]*$ ]] || usage "launch ompi|mpich HOSTS NP PROGRAM [ARGS...]"
	launch "$@"
	;;
shape)
	[ $# -eq 3 ] && [[ $2 =~ ^([0-9]+|none)$ ]] || usage "shape HOST DELAY_US|none RATE|none"
	host "$1"
	shape "$@"
	;;
unshape)
	[ $# -eq 1 ] || usage "unshape HOST"
	host "$1"
	unshape "$1"
	;;
shape-link)
	[ $# -eq 4 ] && [[ $3 =~ ^([0-9]+|none)$ ]] || usage "shape-link HOST_A HOST_B DELAY_US|none RATE|none"
	host "$1"
	host "$2"
	[ "$1" != "$2" ] || usage "shape-link HOST_A HOST_B ...: two different hosts"
	shape_link "$@"
	;;
unshape-link)
	[ $# -eq 2 ] || usage "unshape-link HOST_A HOST_B"
	host "$1"
	host "$2"
	unshape_link "$1" "$2"
	;;
shape-uplink | unshape-uplink)
	racks=$(cat "$W/racks" 2>/dev/null || echo 1)
	if [ "$cmd" = shape-uplink ]; then
		[ $# -ge 2 ] && [ $# -le 3 ] && [[ ${3:-0} =~ ^[0-9]+$ ]] || usage "shape-uplink RACK RATE|none [DELAY_US]"
	else
		[ $# -eq 1 ] || usage "unshape-uplink RACK"
	fi
	[[ $1 =~ ^[1-9]$ ]] && [ "$1" -le "$racks" ] || usage "$cmd RACK ... (RACK 1-$racks: 'up N RACKS' makes racks)"
	[ "$cmd" = shape-uplink ] && shape_uplink "$@" || unshape_uplink "$1"
	;;
cut | heal)
	[ $# -eq 1 ] || usage "$cmd HOST"
	host "$1"
	if [ "$cmd" = cut ]; then
		ip -n "$SW" link set "vh$(index "$1")" down
	else
		ip -n "$SW" link set "vh$(index "$1")" up && reach "$1"
	fi
	;;
flap)
	[ $# -eq 2 ] && [[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage "flap HOST SECONDS"
	host "$1"
	ip -n "$SW" link set "vh$(index "$1")" down
	sleep "$2"
	ip -n "$SW" link set "vh$(index "$1")" up
	;;
kill)
	[ $# -ge 1 ] && [ $# -le 2 ] || usage "kill HOST [SIGNAL]"
	host "$1"
	for pid in $(ip netns pids "$1"); do
		case $(readlink "/proc/$pid/exe" 2>/dev/null) in
		*/gomb | */gomb-mpich) kill -"${2:-KILL}" "$pid" ;;
		esac
	done
	;;
pids) for ns in $(hosts) "$SW"; do have "$ns" && ip netns pids "$ns"; done ;;
exec)
	[ $# -ge 2 ] || usage "exec HOST CMD..."
	host "$1"
	h=$1
	shift
	exec "$W/nsrun" "$h" "$@"
	;;
*)
	sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'
	[ -z "$cmd" ] || exit 2
	;;
esac
