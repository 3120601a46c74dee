#!/bin/bash
# slurm.sh: a throwaway Slurm cluster for running gomb under srun and sbatch
# on one machine: Debian's Slurm 22.05 (slurmctld, slurmd, munge, the PMIx
# and PMI2 plugins), installed when missing, with its own munge key,
# configuration, state and logs in one directory, and its own ports.
#
#   slurm.sh up                  one node: this machine (NodeAddr 127.0.0.1)
#   slurm.sh up-testbed N [RACKS]  N nodes: the emulated hosts of a running
#                                testbed (scripts/testbed.sh up N, same
#                                GOMB_TESTBED_PREFIX and GOMB_TESTBED_DIR):
#                                slurmctld on host 1, a slurmd on every host;
#                                with RACKS (the testbed's), the topology/tree
#                                plugin and a topology.conf of a leaf switch
#                                a rack under one spine
#   slurm.sh down                end the daemons it started (by PID), remove the directory
#   slurm.sh run CMD...          run CMD where the cluster's commands work
#                                (SLURM_CONF set; on host 1 of a testbed)
#   slurm.sh env                 print the SLURM_CONF line to export
#
# Nothing here needs cgroups or systemd: process tracking by process group,
# no task plugin, no accounting. Every daemon runs in the foreground of a
# background shell job, so its PID is known and only those PIDs are ever
# signalled.
#
# Settings (environment): GOMB_SLURM_DIR, the cluster's directory (default
# /tmp/gomb-slurm); GOMB_SLURM_PORT, slurmctld's port (default 16817;
# slurmd takes the next one). Two clusters on one machine need two of each.
set -uo pipefail

D=${GOMB_SLURM_DIR:-/tmp/gomb-slurm}
PORT=${GOMB_SLURM_PORT:-16817}
REPO=$(cd "$(dirname "$0")/.." && pwd)
TB_P=${GOMB_TESTBED_PREFIX:-gtb-}
TB_W=${GOMB_TESTBED_DIR:-/tmp/${TB_P}testbed}
export SLURM_CONF=$D/slurm.conf

die() { echo "slurm: $*" >&2; exit 1; }

install() {
	local missing="" p
	for p in slurmctld slurmd slurm-client munge slurm-wlm-basic-plugins; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "slurm: installing$missing" >&2
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "cannot install$missing"
	# The packages' own services are not used (and do not start without
	# systemd); the cluster below has its own key, ports and directories.
}

# start NAME CMD...: run CMD in the background, its PID in $D/NAME.pid.
start() {
	local name=$1
	shift
	"$@" >>"$D/log/$name.out" 2>&1 &
	echo $! >"$D/$name.pid"
}

munge_up() {
	mkdir -p "$D/munge" "$D/log" "$D/state" "$D/spool"
	chmod 700 "$D" "$D/munge"
	# munged wants the key private to its user (root here) and a socket
	# directory others may enter.
	dd if=/dev/urandom of="$D/munge/key" bs=1024 count=1 status=none
	chmod 400 "$D/munge/key"
	chmod 711 "$D" "$D/munge"
	start munged munged --foreground --force --socket="$D/munge/sock" --key-file="$D/munge/key" \
		--log-file="$D/log/munged.log" --pid-file="$D/munge/pid" --seed-file="$D/munge/seed"
	for _ in $(seq 50); do
		[ -S "$D/munge/sock" ] && return 0
		sleep 0.1
	done
	die "munged did not start: $(tail -3 "$D/log/munged.log" 2>/dev/null)"
}

# conf CTLD_HOST CTLD_ADDR NODES...: NODES are NAME=ADDR.
conf() {
	local ctld=$1 addr=$2
	shift 2
	local cpus
	cpus=$(nproc)
	{
		cat <<EOF
# A throwaway cluster made by gomb's scripts/slurm.sh.
ClusterName=gomb
SlurmctldHost=$ctld($addr)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/sock
CredType=cred/munge
# Job ids start somewhere of their own: two clusters on one machine (two
# test runs) must not hand out the same ids, which Open MPI's session
# directories and shared-memory segments are named after.
FirstJobId=$(((RANDOM % 9000 + 1000) * 100))
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/slurmctld.pidfile
SlurmdPidFile=$D/spool/slurmd-%n.pidfile
# Job-private temporary files (PMIx's per-step directories among them):
# one directory a node (the emulated hosts share this machine's /tmp, and
# two of them would make the same step directory there).
TmpFS=$D/tmp-node
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
ReturnToService=2
# scancel's SIGTERM, then SIGKILL after KillWait: gomb writes its end
# record in well under this.
KillWait=10
InactiveLimit=0
# sbatch --wait polls a job every 2 s, then 8, then 32 while the poll is
# under MinJobAge/2: at 4 s it keeps polling every 2 s (a campaign of
# four cells 14-16 s instead of 42). Job records leave 4 s after the end.
MinJobAge=4
EOF
		local n names=""
		for n in "$@"; do
			echo "NodeName=${n%%=*} NodeAddr=${n#*=} CPUs=$cpus State=UNKNOWN"
			names="$names,${n%%=*}"
		done
		# Every node may take more tasks than CPUs (the tests oversubscribe
		# as mpirun --oversubscribe does).
		echo "PartitionName=local Nodes=${names#,} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8"
	} >"$SLURM_CONF"
}

# wait_idle N: until N nodes are idle (up to 30 s).
wait_idle() {
	local n=$1 idle=""
	for _ in $(seq 150); do
		idle=$(run sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | grep -c .)
		[ "$idle" -ge "$n" ] && return 0
		sleep 0.2
	done
	echo "slurm: $idle of $n nodes idle after 30 s" >&2
	tail -5 "$D"/log/*.log "$D"/log/*.out >&2 2>/dev/null
	return 1
}

up() {
	[ "$(id -u)" = 0 ] || die "needs root"
	[ -f "$D/mode" ] && down >/dev/null
	install
	munge_up
	local h
	h=$(hostname -s)
	conf "$h" 127.0.0.1 "$h=127.0.0.1"
	echo local >"$D/mode"
	start slurmctld slurmctld -D -f "$SLURM_CONF" -L "$D/log/slurmctld.log"
	mkdir -p "$D/spool/$h" "$D/tmp-node"
	start "slurmd-$h" slurmd -D -f "$SLURM_CONF" -N "$h" -L "$D/log/slurmd-$h.log"
	wait_idle 1 || { down >/dev/null; exit 1; }
	echo "slurm: 1 node up ($h); export SLURM_CONF=$SLURM_CONF"
}

up_testbed() {
	local n=${1:-2} racks=${2:-1} i h r
	[ "$(id -u)" = 0 ] || die "needs root"
	[ -x "$TB_W/nsrun" ] || die "no testbed at $TB_W (scripts/testbed.sh up first)"
	[ -f "$D/mode" ] && down >/dev/null
	install
	munge_up
	local nodes=()
	for i in $(seq "$n"); do nodes+=("${TB_P}h$i=10.199.77.$i"); done
	conf "${TB_P}h1" 10.199.77.1 "${nodes[@]}"
	if [ "$racks" -gt 1 ]; then
		# a leaf switch a rack (the testbed's blocks of hosts), one spine
		{
			for r in $(seq "$racks"); do
				local members=""
				for i in $(seq "$n"); do
					[ $(((i - 1) * racks / n + 1)) = "$r" ] && members="$members,${TB_P}h$i"
				done
				echo "SwitchName=leaf$r Nodes=${members#,}"
			done
			echo "SwitchName=spine Switches=leaf[1-$racks]"
		} >"$D/topology.conf"
		echo "TopologyPlugin=topology/tree" >>"$SLURM_CONF"
	fi
	awk '$2 ~ "^/sys/fs/cgroup" {print $3, $4, $2}' /proc/self/mounts >"$D/cgroup-mounts"
	echo testbed >"$D/mode"
	start slurmctld "$TB_W/nsrun" "${TB_P}h1" slurmctld -D -f "$SLURM_CONF" -L "$D/log/slurmctld.log"
	for i in $(seq "$n"); do
		h=${TB_P}h$i
		mkdir -p "$D/spool/$h" "$D/tmp-$h" "$D/tmp-node"
		# An emulated host's /sys is its network namespace's, without the
		# cgroup mounts slurmd 22.05 looks for whatever its plugins: they
		# are mounted again, as this machine has them, in the host's
		# private mount namespace.
		start "slurmd-$h" "$TB_W/nsrun" "$h" /bin/sh -c \
			'while read -r t o d; do mkdir -p "$d"; mount -t "$t" -o "$o" "$t" "$d"; done <"$0"
			mount --bind "$1" "$2" && shift 2 && exec "$@"' \
			"$D/cgroup-mounts" "$D/tmp-$h" "$D/tmp-node" slurmd -D -f "$SLURM_CONF" -N "$h" -L "$D/log/slurmd-$h.log"
	done
	wait_idle "$n" || { down >/dev/null; exit 1; }
	echo "slurm: $n nodes up (${TB_P}h1-$n, slurmctld on ${TB_P}h1); run commands with 'slurm.sh run'"
}

down() {
	local f pid
	for f in "$D"/slurmd-*.pid "$D/slurmctld.pid" "$D/munged.pid"; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		# Only a daemon this script started: its PID still runs that program.
		if [ -n "$pid" ] && grep -qE 'slurm|munge' "/proc/$pid/cmdline" 2>/dev/null; then
			kill -TERM "$pid" 2>/dev/null
			for _ in $(seq 50); do
				kill -0 "$pid" 2>/dev/null || break
				sleep 0.1
			done
			kill -KILL "$pid" 2>/dev/null
		fi
		rm -f "$f"
	done
	# A job still running when the daemons end keeps its slurmstepd and its
	# tasks, and its srun waits for a controller that is gone (retrying for
	# minutes): end those of this cluster, known by their environment (the
	# stepds and the client commands have this cluster's SLURM_CONF, the
	# tasks it and a job id).
	local env comm
	for pid in $(pgrep -x slurmstepd) $(pgrep -f .); do
		[ "$pid" = $$ ] && continue
		env=$( (tr '\0' '\n' <"/proc/$pid/environ") 2>/dev/null) || continue
		grep -qx "SLURM_CONF=$SLURM_CONF" <<<"$env" || continue
		comm=$(cat "/proc/$pid/comm" 2>/dev/null)
		case "$comm" in
		slurmstepd | srun | salloc | sbatch | sattach) kill -KILL "$pid" 2>/dev/null ;;
		*) grep -q "^SLURM_JOB_ID=" <<<"$env" && kill -KILL "$pid" 2>/dev/null ;;
		esac
	done
	[ -f "$D/mode" ] && [ -z "${GOMB_SLURM_KEEP:-}" ] && rm -rf "$D"
	echo "slurm: down"
}

run() {
	[ -f "$D/mode" ] || die "no cluster at $D (slurm.sh up first)"
	if [ "$(cat "$D/mode")" = testbed ]; then
		exec "$TB_W/nsrun" "${TB_P}h1" env SLURM_CONF="$SLURM_CONF" "$@"
	fi
	exec "$@"
}

case ${1:-} in
up) up ;;
up-testbed) up_testbed "${2:-2}" "${3:-1}" ;;
down) down ;;
run)
	shift
	(run "$@")
	;;
env) echo "export SLURM_CONF=$SLURM_CONF" ;;
*) die "usage: slurm.sh up | up-testbed N [RACKS] | down | run CMD... | env" ;;
esac
