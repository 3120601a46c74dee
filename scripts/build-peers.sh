#!/bin/sh
# build-peers.sh: build the peer programs gomb is measured against, from
# source trees you already have (this script downloads nothing), for Open
# MPI and MPICH (or the MPIs -mpi names), into an ignored folder of this
# checkout (peers/ unless -o says otherwise):
#
#   peers/<mpi>/IMB-MPI1      IMB-MPI1 as upstream builds it (-O0)
#   peers/<mpi>/IMB-MPI1-O2   the same at -O2
#   peers/<mpi>/IMB-NBC       IMB-NBC as upstream builds it (-O0)
#   peers/<mpi>/IMB-EXT       IMB-EXT likewise
#   peers/<mpi>/IMB-RMA, IMB-P2P, IMB-MT (OpenMP), IMB-IO likewise
#   peers/<mpi>/IMB-MPI4      IMB-MPI4 likewise (with an MPI older than MPI-4,
#                             Open MPI 4, whose persistent collectives are
#                             MPIX_*_init, through a header that maps the
#                             MPI-4 names onto them)
#   peers/<mpi>/osu/          the OSU Micro-Benchmarks binaries (configure's -O2)
#   peers/<mpi>/osu74/        OSU 7.4's tests gomb adds: persistent collectives
#                             (osu_*_persistent; before MPI-4 through the
#                             same MPIX_ header), osu_(i)reduce_scatter_block,
#                             osu_bw_fan_in/out
#   peers/<mpi>/mpi_comm_bench
#
# usage: scripts/build-peers.sh [-o DIR] [-mpi NAME=BINDIR]... [-imb SRC] [-osu SRC] [-osu74 SRC] [-mcb SRC]
#   -mpi NAME=BINDIR  build for the MPI whose compiler wrappers are
#             BINDIR/mpicc and BINDIR/mpicxx, into peers/NAME/ (repeatable;
#             scripts/build-mpi.sh's prefix/bin, for one); without -mpi:
#             openmpi and mpich, Debian's mpicc.openmpi, mpicc.mpich, ...
#   -imb SRC  intel/mpi-benchmarks (IMB 2021.x) source tree
#   -osu SRC  OSU Micro-Benchmarks 7.x source tree (with its configure script)
#   -osu74 SRC  an OSU 7.4 source tree (the tests gomb adds from it)
#   -mcb SRC  nilskohl/mpi-comm-bench source tree
# Each peer is optional; give at least one. Needs the MPI compilers (the
# default ones scripts/setup.sh installs) and make.
set -eu
cd "$(dirname "$0")/.."
usage="usage: scripts/build-peers.sh [-o DIR] [-mpi NAME=BINDIR]... [-imb SRC] [-osu SRC] [-osu74 SRC] [-mcb SRC]"
out=peers imb="" osu="" osu74="" mcb="" mpis=""
while [ $# -gt 0 ]; do
	case "$1" in
	-o) out=$2; shift 2 ;;
	-mpi)
		case "$2" in
		[A-Za-z0-9]*=*) ;;
		*) echo "build-peers: -mpi wants NAME=BINDIR, not '$2'" >&2; exit 2 ;;
		esac
		name=${2%%=*} bin=$(cd "${2#*=}" && pwd)
		if [ ! -x "$bin/mpicc" ] || [ ! -x "$bin/mpicxx" ]; then
			echo "build-peers: no mpicc and mpicxx in $bin" >&2
			exit 2
		fi
		mpis="$mpis $name=$bin"
		shift 2 ;;
	-imb) imb=$(cd "$2" && pwd); shift 2 ;;
	-osu) osu=$(cd "$2" && pwd); shift 2 ;;
	-osu74) osu74=$(cd "$2" && pwd); shift 2 ;;
	-mcb) mcb=$(cd "$2" && pwd); shift 2 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
if [ -z "$imb$osu$osu74$mcb" ]; then
	echo "build-peers: give at least one source tree (-imb, -osu, -osu74, -mcb)" >&2
	exit 2
fi
[ -n "$mpis" ] || mpis="openmpi mpich"
mkdir -p "$out"
out=$(cd "$out" && pwd)
work="$out/build"
mkdir -p "$work"

# Open MPI 4 has MPI-4's persistent collectives as MPIX_<op>_init (its
# pcollreq extension): a header that maps the MPI-4 names onto them, for
# IMB-MPI4 and OSU's persistent collectives, given to an MPI whose
# MPI_VERSION is below 4.
ompi_mpi4="$work/ompi-mpi4.h"
printf '#include <mpi.h>\n#include <mpi-ext.h>\n' >"$ompi_mpi4"
for op in Barrier Bcast Gather Gatherv Scatter Scatterv Allgather Allgatherv Alltoall \
	Alltoallv Reduce Allreduce Reduce_scatter; do
	echo "#define MPI_${op}_init MPIX_${op}_init" >>"$ompi_mpi4"
done

for m in $mpis; do
	case "$m" in
	*=*) mpi=${m%%=*} cc=${m#*=}/mpicc cxx=${m#*=}/mpicxx ;;
	*) mpi=$m cc=mpicc.$m cxx=mpicxx.$m ;;
	esac
	dest="$out/$mpi"
	mkdir -p "$dest"
	mpi4=""
	printf '#include <mpi.h>\n#if MPI_VERSION < 4\n#error before MPI-4\n#endif\n' >"$work/mpi4-$mpi.c"
	$cc -E "$work/mpi4-$mpi.c" >/dev/null 2>&1 || mpi4="-include $ompi_mpi4"
	if [ -n "$imb" ]; then
		for opt in O0 O2; do
			b="$work/imb-$mpi-$opt"
			rm -rf "$b"
			cp -r "$imb" "$b"
			if [ $opt = O2 ]; then
				# upstream builds at -O0 -Werror; gcc 12 warns at -O2 in its C++ driver
				sed -i 's/-g -O0 -Wall -Werror/-g -O2 -Wall/; s/-g -O0 -Wall -Wextra -Werror/-g -O2 -Wall -Wextra/' "$b/src_cpp/Makefile"
			fi
			echo "build-peers: IMB-MPI1 ($mpi, -$opt)" >&2
			make -s -C "$b/src_cpp" TARGET=MPI1 CC="$cc" CXX="$cxx" CPPFLAGS=-DOMPI_SKIP_MPICXX=1 -j2 >"$b.log" 2>&1 ||
				{ echo "build-peers: IMB failed, see $b.log" >&2; exit 1; }
			name=IMB-MPI1
			[ $opt = O2 ] && name=IMB-MPI1-O2
			cp "$b/src_cpp/IMB-MPI1" "$dest/$name"
			if [ $opt = O0 ]; then
				echo "build-peers: IMB-NBC ($mpi)" >&2
				make -s -C "$b/src_cpp" TARGET=NBC CC="$cc" CXX="$cxx" CPPFLAGS=-DOMPI_SKIP_MPICXX=1 -j2 >>"$b.log" 2>&1 ||
					{ echo "build-peers: IMB-NBC failed, see $b.log" >&2; exit 1; }
				cp "$b/src_cpp/IMB-NBC" "$dest/IMB-NBC"
				echo "build-peers: IMB-EXT ($mpi)" >&2
				make -s -C "$b/src_cpp" TARGET=EXT CC="$cc" CXX="$cxx" CPPFLAGS=-DOMPI_SKIP_MPICXX=1 -j2 >>"$b.log" 2>&1 ||
					{ echo "build-peers: IMB-EXT failed, see $b.log" >&2; exit 1; }
				cp "$b/src_cpp/IMB-EXT" "$dest/IMB-EXT"
				for t in RMA IO MT; do
					echo "build-peers: IMB-$t ($mpi)" >&2
					cxx_t=$cxx
					[ $t = MT ] && cxx_t="$cxx -fopenmp"
					make -s -C "$b/src_cpp" TARGET=$t CC="$cc" CXX="$cxx_t" CPPFLAGS=-DOMPI_SKIP_MPICXX=1 -j2 >>"$b.log" 2>&1 ||
						{ echo "build-peers: IMB-$t failed, see $b.log" >&2; exit 1; }
					cp "$b/src_cpp/IMB-$t" "$dest/IMB-$t"
				done
				echo "build-peers: IMB-P2P ($mpi)" >&2
				make -s -C "$b/src_c/P2P" CC="$cc" -j2 >>"$b.log" 2>&1 ||
					{ echo "build-peers: IMB-P2P failed, see $b.log" >&2; exit 1; }
				cp "$b/src_c/P2P/IMB-P2P" "$dest/IMB-P2P"
				echo "build-peers: IMB-MPI4 ($mpi)" >&2
				flags=-DOMPI_SKIP_MPICXX=1
				[ -n "$mpi4" ] && flags="$flags $mpi4"
				make -s -C "$b/src_cpp" TARGET=MPI4 CC="$cc" CXX="$cxx" CPPFLAGS="$flags" -j2 >>"$b.log" 2>&1 ||
					{ echo "build-peers: IMB-MPI4 failed, see $b.log" >&2; exit 1; }
				cp "$b/src_cpp/IMB-MPI4" "$dest/IMB-MPI4"
			fi
		done
	fi
	if [ -n "$osu" ]; then
		b="$work/osu-$mpi"
		rm -rf "$b"
		cp -r "$osu" "$b"
		echo "build-peers: OSU ($mpi)" >&2
		(cd "$b" && ./configure CC="$cc" CXX="$cxx" >"$b.log" 2>&1 && make -j2 >>"$b.log" 2>&1) ||
			{ echo "build-peers: OSU failed, see $b.log" >&2; exit 1; }
		rm -rf "$dest/osu"
		mkdir -p "$dest/osu"
		find "$b/c/mpi" -type f -perm -u+x -name 'osu_*' -exec cp {} "$dest/osu/" \;
	fi
	if [ -n "$osu74" ]; then
		b="$work/osu74-$mpi"
		rm -rf "$b"
		cp -r "$osu74" "$b"
		echo "build-peers: OSU 7.4's persistent collectives, reduce_scatter_block, fan-in/out ($mpi)" >&2
		cflags="-g -O2"
		[ -n "$mpi4" ] && cflags="$cflags $mpi4"
		# -k: Open MPI 4 has no MPIX_Alltoallw_init, the others build
		(cd "$b" && ./configure CC="$cc" CXX="$cxx" >"$b.log" 2>&1 && {
			make -k -C c/mpi/collective/persistent CFLAGS="$cflags" >>"$b.log" 2>&1
			make -C c/mpi/collective/blocking osu_reduce_scatter_block CFLAGS="$cflags" >>"$b.log" 2>&1
			make -C c/mpi/collective/non_blocking osu_ireduce_scatter_block CFLAGS="$cflags" >>"$b.log" 2>&1
			make -C c/mpi/pt2pt/congestion CFLAGS="$cflags" >>"$b.log" 2>&1
		}) || true
		rm -rf "$dest/osu74"
		mkdir -p "$dest/osu74"
		for d in collective/persistent collective/blocking collective/non_blocking pt2pt/congestion; do
			find "$b/c/mpi/$d" -maxdepth 1 -type f -perm -u+x -name 'osu_*' -exec cp {} "$dest/osu74/" \;
		done
		for t in allreduce_persistent reduce_scatter_block bw_fan_in bw_fan_out; do
			[ -x "$dest/osu74/osu_$t" ] || { echo "build-peers: OSU 7.4's osu_$t failed, see $b.log" >&2; exit 1; }
		done
	fi
	if [ -n "$mcb" ]; then
		echo "build-peers: mpi-comm-bench ($mpi)" >&2
		$cxx -O3 -std=c++17 -o "$dest/mpi_comm_bench" "$mcb/mpi_comm_bench.cpp"
	fi
done
echo "build-peers: built into $out" >&2
