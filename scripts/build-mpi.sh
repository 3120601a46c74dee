#!/bin/sh
# build-mpi.sh: build an MPI library from a source tree you already have
# (this script downloads nothing), so that gomb and its peers can be built
# with that library's own compiler wrapper and run under its own mpiexec:
#
#   peers/mpi/mpich-<version>/bin/mpicc, mpicxx, mpiexec   (the prefix)
#   peers/mpi/mpich-<version>/lib/libmpi.so                 and, with MPICH 5
#                                                            (--enable-mpi-abi),
#                                                            libmpi_abi.so
#   peers/mpi/build/mpich-<version>/                         the build (obj/), its log,
#                                                            a checkout's autogen'd copy (src/)
#
# usage: scripts/build-mpi.sh -mpich SRC [-prefix DIR] [-device DEV] [-j N] [-- CONFIGURE-ARGS...]
#   -mpich SRC   an MPICH source tree: a release tarball's, or a git
#                checkout (pmodels/mpich) with its modules/json-c submodule
#                (MPICH embeds json-c); a checkout is copied into the build
#                folder and its autogen.sh run there, the tree itself is
#                not touched
#   -prefix DIR  where to install (default peers/mpi/mpich-<version>; the
#                build stays in peers/mpi/build/ whatever the prefix)
#   -device DEV  MPICH's device (default ch4:ofi; ch4:ucx, ch3:nemesis)
#   -j N         make's jobs (default 2)
#   after --     more configure arguments
# Submodules a checkout lacks (hwloc, libfabric, ucx) are taken from the
# system (Debian: libhwloc-dev, libfabric-dev and what its pkg-config
# file's Libs.private names: librdmacm-dev libpsm2-dev
# libpsm-infinipath1-dev; libucx-dev; autogen needs autoconf, automake,
# libtool, python3); Fortran is left out; yaksa is
# generated to nesting depth 1 (only nested derived datatypes pack more
# slowly; IMB and OSU use basic types). On 2 cores: autogen about 5
# minutes, configure 10, make 30-60.
set -eu
cd "$(dirname "$0")/.."
usage="usage: scripts/build-mpi.sh -mpich SRC [-prefix DIR] [-device DEV] [-j N] [-- CONFIGURE-ARGS...]"
src="" prefix="" device=ch4:ofi jobs=2
while [ $# -gt 0 ]; do
	case "$1" in
	-mpich) src=$(cd "$2" && pwd); shift 2 ;;
	-prefix) prefix=$2; shift 2 ;;
	-device) device=$2; shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
[ -n "$src" ] || { echo "$usage" >&2; exit 2; }
[ -f "$src/maint/version.m4" ] || { echo "build-mpi: $src is not an MPICH source tree (no maint/version.m4)" >&2; exit 2; }
version=$(sed -n 's/^m4_define(\[MPICH_VERSION_m4\],\[\([^]]*\)\].*/\1/p' "$src/maint/version.m4")
[ -n "$version" ] || { echo "build-mpi: no MPICH version in $src/maint/version.m4" >&2; exit 2; }
name=mpich-$version
[ -n "$prefix" ] || prefix=peers/mpi/$name
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
mkdir -p "peers/mpi/build/$name/obj"
build=$(cd "peers/mpi/build/$name" && pwd)
log=$build/build.log
: >"$log"
echo "build-mpi: MPICH $version ($device) into $prefix; log $log" >&2

# a module is there when its folder holds files (a checkout without its
# submodules has empty folders)
have() { [ -n "$(ls -A "$1" 2>/dev/null)" ]; }
have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/include/$(gcc -print-multiarch 2>/dev/null)/$1" ]; }

# a checkout: autogen in a copy, leaving out the submodules it lacks
top=$src
if [ ! -x "$src/configure" ]; then
	have "$src/modules/json-c" ||
		{ echo "build-mpi: $src/modules/json-c is empty: MPICH embeds json-c (git submodule update --init modules/json-c)" >&2; exit 1; }
	top=$build/src
	echo "build-mpi: autogen in $top" >&2
	rm -rf "$top"
	cp -r "$src" "$top"
	without="-without-fortran"
	for m in hwloc:hwloc libfabric:ofi ucx:ucx; do
		if ! have "$top/modules/${m%%:*}"; then
			without="$without -without-${m#*:}"
			rm -rf "$top/modules/${m%%:*}" # or hydra's autogen runs an empty hwloc's
		fi
	done
	# shellcheck disable=SC2086 # a list of options
	(cd "$top" && ./autogen.sh $without -yaksa-depth=1) >>"$log" 2>&1 ||
		{ echo "build-mpi: autogen failed, see $log" >&2; exit 1; }
fi

# the system's libraries where the tree has no module of its own
set -- --prefix="$prefix" --with-device="$device" --disable-fortran "$@"
if ! have "$top/modules/hwloc"; then
	have_header hwloc.h || { echo "build-mpi: no hwloc module and no hwloc.h (apt install libhwloc-dev)" >&2; exit 1; }
	set -- --with-hwloc=/usr "$@"
fi
case "$device" in
*ofi*)
	if ! have "$top/modules/libfabric"; then
		have_header rdma/fabric.h || { echo "build-mpi: no libfabric module and no rdma/fabric.h (apt install libfabric-dev)" >&2; exit 1; }
		set -- --with-libfabric=/usr "$@"
		# MPICH links libmpi with libfabric's static dependencies
		# (pkg-config --static): their libraries must be there, or the
		# link fails after an hour of make (Debian: librdmacm-dev,
		# libpsm2-dev, libpsm-infinipath1-dev beside libfabric-dev)
		deps=$(pkg-config --static --libs libfabric 2>/dev/null || true)
		echo 'int main(void) { return 0; }' >"$build/deps.c"
		# shellcheck disable=SC2086 # a list of linker flags
		gcc -o "$build/deps" "$build/deps.c" $deps >"$build/deps.log" 2>&1 ||
			{ echo "build-mpi: cannot link libfabric's dependencies ($deps): $(grep -o 'cannot find -l[^:]*' "$build/deps.log" | tr '\n' ' ')" >&2; exit 1; }
	fi ;;
*ucx*)
	if ! have "$top/modules/ucx"; then
		have_header ucp/api/ucp.h || { echo "build-mpi: no ucx module and no ucp/api/ucp.h (apt install libucx-dev)" >&2; exit 1; }
		set -- --with-ucx=/usr "$@"
	fi ;;
esac
# MPICH 5's MPI-5 standard ABI library, libmpi_abi, beside libmpi
"$top/configure" --help | grep -q -- --enable-mpi-abi && set -- "$@" --enable-mpi-abi

echo "build-mpi: configure $*" >&2
start=$(date +%s)
(cd "$build/obj" && "$top/configure" "$@") >>"$log" 2>&1 ||
	{ echo "build-mpi: configure failed, see $log" >&2; exit 1; }
echo "build-mpi: make -j$jobs" >&2
(cd "$build/obj" && make -j"$jobs" && make install) >>"$log" 2>&1 ||
	{ echo "build-mpi: make failed, see $log" >&2; exit 1; }
echo "build-mpi: MPICH $version in $prefix ($(( ($(date +%s) - start) / 60 )) minutes); $prefix/bin/mpicc, $prefix/bin/mpiexec" >&2
