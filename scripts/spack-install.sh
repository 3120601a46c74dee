#!/bin/sh
# spack-install.sh: install gomb with the Spack you have, against
# Debian's Open MPI and MPICH as external packages, then run each install
# under its own launcher and run the package's smoke tests (`spack test run
# gomb`). It builds nothing but gomb (Spack does, from this checkout;
# during the build Go fetches gomb's modules from GOPROXY) and downloads
# nothing itself. The package is this checkout's
# packaging/spack/spack_repo/gomb; gomb is built from its HEAD commit (a
# file:// clone: uncommitted changes are not built). docs/spack.md tells
# the rest.
#
# Everything goes under out/spack (or -o DIR): a throwaway Spack
# configuration (config/, which ~/.spack and /etc/spack do not reach), the
# install tree, the stages, and spack-install.log, which holds every
# command's output. Any failure exits non-zero.
#
# usage: scripts/spack-install.sh [-spack DIR] [-packages DIR] [-clingo-python DIR]
#                                 [-python PY] [-o DIR]
#   -spack DIR          a Spack 1.x (its folder, with bin/spack; proven with
#                       v1.1.0); default: the spack on PATH
#   -packages DIR       a spack/spack-packages checkout, Spack's builtin
#                       package repository (proven with v2025.11.0, the
#                       release Spack 1.1.0 pins); default: the one Spack is
#                       configured with, which Spack clones when it has none
#   -clingo-python DIR  a folder where PY's `import clingo` works (clingo's
#                       Python module: docs/spack.md says where to get it);
#                       not needed when PY imports clingo by itself
#   -python PY          the Python that runs Spack (python3 on PATH); clingo's
#                       module needs its cffi backend (_cffi_backend)
#   -o DIR              where everything goes (out/spack)
# A Spack, package repository or clingo that is not there is one line and
# exit 0: nothing is proven, nothing fails. Bad arguments are one line and
# exit 2. Needs Open MPI and MPICH as scripts/setup.sh installs them
# (mpicc.openmpi, mpirun.openmpi, mpicc.mpich, mpirun.mpich, mpichversion),
# gcc, git and Go (GO, default /usr/local/go/bin/go). Root is fine: the
# script sets Open MPI's OMPI_ALLOW_RUN_AS_ROOT* for its own runs.
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
usage="usage: scripts/spack-install.sh [-spack DIR] [-packages DIR] [-clingo-python DIR] [-python PY] [-o DIR]"
out=out/spack spack="" packages="" clingo_py="" py=python3
while [ $# -gt 0 ]; do
	case "$1" in
	-spack | -packages | -clingo-python | -python | -o)
		[ $# -ge 2 ] || { echo "spack-install: $1 wants a value; $usage" >&2; exit 2; }
		case "$1" in
		-spack) spack=$2 ;;
		-packages) packages=$2 ;;
		-clingo-python) clingo_py=$2 ;;
		-python) py=$2 ;;
		-o) out=$2 ;;
		esac
		shift 2 ;;
	*) echo "spack-install: unknown argument $1; $usage" >&2; exit 2 ;;
	esac
done
# skip WHY: what the proof needs is not there; one line, nothing fails
skip() {
	echo "spack-install: skip: $*" >&2
	exit 0
}
if [ -z "$spack" ]; then
	s=$(command -v spack) || skip "no spack on PATH (-spack DIR names one)"
	spack=$(dirname "$(dirname "$(readlink -f "$s")")")
fi
[ -x "$spack/bin/spack" ] || skip "no Spack at $spack (no bin/spack)"
spack=$(cd "$spack" && pwd)
if [ -n "$packages" ]; then
	[ -f "$packages/repos/spack_repo/builtin/repo.yaml" ] ||
		skip "no spack-packages at $packages (no repos/spack_repo/builtin/repo.yaml)"
	packages=$(cd "$packages" && pwd)
fi
exe=$("$py" -c 'import sys; print(sys.executable)' 2>/dev/null) || skip "no Python $py"
py=$exe
# clingo: Spack concretizes with clingo's Python module (only, since 0.23)
# and would otherwise bootstrap it from the network; bootstrapping is
# switched off below, so clingo must be the user's.
if [ -n "$clingo_py" ]; then
	[ -d "$clingo_py" ] || skip "no folder $clingo_py (-clingo-python)"
	clingo_py=$(cd "$clingo_py" && pwd)
	PYTHONPATH="$clingo_py${PYTHONPATH:+:$PYTHONPATH}"
	export PYTHONPATH
fi
"$py" -c 'import clingo, clingo.ast' 2>/dev/null ||
	skip "$py cannot import clingo (-clingo-python DIR names its folder; docs/spack.md says where to get it)"
GO=${GO:-/usr/local/go/bin/go}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log="$out/spack-install.log"
: >"$log"
trap 'rc=$?; [ $rc = 0 ] || echo "spack-install: failed (exit $rc), see $log" >&2' EXIT

step() {
	echo "spack-install: $*" >&2
	printf '\n==== %s\n' "$*" >>"$log"
}
# run CMD...: run it with its output in the log, the command line first
run() {
	echo "\$ $*" >>"$log"
	"$@" >>"$log" 2>&1
}

step "clingo for $py"
run "$py" -c 'import clingo, clingo.ast; print("clingo", clingo.__version__, clingo.__file__)'

# Debian installs each MPI in /usr with suffixed wrappers (mpicc.mpich,
# mpirun.openmpi); /usr/bin/mpicc is an alternative that names one of them.
# Spack finds an external MPI's wrappers and launcher as prefix/bin/mpicc,
# prefix/bin/mpiexec, its headers under prefix/include and its libraries
# under prefix/lib: give each MPI a prefix of links to its own files, bin/
# with the plain names, include/ and lib/ where its mpicc -show points.
step "external MPI prefixes under $out/mpi"
for mpi in openmpi mpich; do
	dir="$out/mpi/$mpi"
	rm -rf "$dir"
	mkdir -p "$dir/bin" "$dir/lib"
	for n in mpicc mpicxx mpic++ mpif77 mpif90 mpifort mpirun mpiexec; do
		p=$(command -v "$n.$mpi") || continue
		ln -s "$p" "$dir/bin/$n"
	done
	[ -e "$dir/bin/mpicc" ] && [ -e "$dir/bin/mpiexec" ] ||
		{ echo "spack-install: no mpicc.$mpi or mpiexec.$mpi (scripts/setup.sh installs them)" >&2; exit 1; }
	libdir=""
	for f in $("$dir/bin/mpicc" -show); do
		case "$f" in
		-I*) if [ ! -e "$dir/include" ]; then ln -s "${f#-I}" "$dir/include"; fi ;;
		-L*) libdir=${f#-L} ;;
		-l*) if [ -e "$libdir/lib${f#-l}.so" ]; then ln -s "$libdir/lib${f#-l}.so" "$dir/lib/"; fi ;;
		esac
	done
	[ -f "$dir/include/mpi.h" ] && ls "$dir"/lib/*.so >/dev/null 2>&1 ||
		{ echo "spack-install: no mpi.h or library from mpicc.$mpi -show" >&2; exit 1; }
done
# and the programs each finds beside its launcher or names its version
for n in openmpi/ompi_info openmpi/orterun openmpi/orted mpich/mpichversion \
	mpich/mpiexec.hydra mpich/hydra_pmi_proxy; do
	if p=$(command -v "${n#*/}"); then ln -s "$p" "$out/mpi/${n%/*}/bin/${n#*/}"; fi
done
ompi_version=$(ompi_info --version | sed -n 's/^Open MPI v\([0-9.]*\).*/\1/p')
mpich_version=$(mpichversion | sed -n 's/^MPICH Version:[[:space:]]*//p')
[ -n "$ompi_version" ] && [ -n "$mpich_version" ] ||
	{ echo "spack-install: no versions from ompi_info and mpichversion" >&2; exit 1; }
gcc_version=$(gcc -dumpfullversion)
go_version=$("$GO" env GOVERSION | sed 's/^go//')
go_prefix=$(dirname "$(dirname "$(readlink -f "$GO")")")
langs="c,c++"
gfortran=$(command -v gfortran || true)
[ -n "$gfortran" ] && langs="c,c++,fortran"
echo "openmpi@$ompi_version mpich@$mpich_version gcc@$gcc_version go@$go_version ($go_prefix)" >>"$log"

# A configuration of its own: SPACK_USER_CONFIG_PATH replaces ~/.spack,
# SPACK_SYSTEM_CONFIG_PATH /etc/spack; the Spack tree's defaults stay.
step "Spack configuration in $out/config"
cfg="$out/config"
rm -rf "$cfg"
mkdir -p "$cfg" "$out/system"
SPACK_USER_CONFIG_PATH="$cfg" SPACK_SYSTEM_CONFIG_PATH="$out/system" SPACK_USER_CACHE_PATH="$out/cache"
export SPACK_USER_CONFIG_PATH SPACK_SYSTEM_CONFIG_PATH SPACK_USER_CACHE_PATH
cat >"$cfg/config.yaml" <<EOF
config:
  install_tree:
    root: $out/opt
  build_stage:
  - $out/stage
  test_stage: $out/test
  source_cache: $out/cache/source
  misc_cache: $out/cache/misc
EOF
cat >"$cfg/bootstrap.yaml" <<EOF
bootstrap:
  enable: false
EOF
# gomb's repository before the builtin one: the given spack-packages in
# place of Spack's own (repos::), else added to Spack's defaults (repos:)
if [ -n "$packages" ]; then
	printf 'repos::\n  gomb: %s\n  builtin: %s\n' "$repo/packaging/spack/spack_repo/gomb" \
		"$packages/repos/spack_repo/builtin" >"$cfg/repos.yaml"
else
	printf 'repos:\n  gomb: %s\n' "$repo/packaging/spack/spack_repo/gomb" >"$cfg/repos.yaml"
fi
{
	cat <<EOF
packages:
  gcc:
    externals:
    - spec: gcc@$gcc_version languages:='$langs'
      prefix: /usr
      extra_attributes:
        compilers:
          c: $(command -v gcc)
          cxx: $(command -v g++)
EOF
	[ -n "$gfortran" ] && echo "          fortran: $gfortran"
	cat <<EOF
    buildable: false
  go:
    externals:
    - spec: go@$go_version
      prefix: $go_prefix
    buildable: false
  openmpi:
    externals:
    - spec: openmpi@$ompi_version
      prefix: $out/mpi/openmpi
    buildable: false
  mpich:
    externals:
    - spec: mpich@$mpich_version
      prefix: $out/mpi/mpich
    buildable: false
  gomb:
    package_attributes:
      git: file://$repo
EOF
} >"$cfg/packages.yaml"
cat "$cfg"/*.yaml >>"$log"

SPACK="$spack/bin/spack"
SPACK_PYTHON=$py
export SPACK_PYTHON
commit=$(git -C "$repo" rev-parse HEAD)
run "$SPACK" --version
run "$SPACK" repo list
for mpi in openmpi mpich; do
	step "spack install gomb@git.$commit=main ^$mpi"
	run "$SPACK" spec -I "gomb@git.$commit=main ^$mpi"
	run "$SPACK" install -v "gomb@git.$commit=main ^$mpi"
done
run "$SPACK" find -lpv gomb

# Each install under its own MPI's launcher, as the README runs bin/gomb:
# the version must name that MPI and IMB's PingPong table must come out.
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
for mpi in openmpi mpich; do
	gomb=$("$SPACK" location -i "gomb@git.$commit=main ^$mpi")/bin/gomb
	step "PingPong: $gomb under mpirun.$mpi"
	run "$gomb" version
	"$gomb" version | grep -q "^MPI build: $mpi " ||
		{ echo "spack-install: $gomb was not built for $mpi" >&2; exit 1; }
	run ldd "$gomb"
	if [ $mpi = openmpi ]; then
		set -- mpirun.openmpi -np 2 --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo
	else
		set -- mpirun.mpich -n 2 -launcher fork -iface lo
	fi
	echo "\$ $* $gomb imb PingPong" >>"$log"
	"$@" "$gomb" imb PingPong >"$out/pingpong-$mpi.txt" 2>&1 || {
		cat "$out/pingpong-$mpi.txt" >>"$log"
		exit 1
	}
	cat "$out/pingpong-$mpi.txt" >>"$log"
	grep -q '^# Benchmarking PingPong' "$out/pingpong-$mpi.txt" ||
		{ echo "spack-install: no PingPong table from $gomb" >&2; exit 1; }
done

# The package's smoke tests (gomb version, gomb-nompi help, PingPong on 2
# ranks under the MPI's mpiexec) in Spack's test environment. That keeps
# the launcher settings above as environment variables, but drops
# OMPI_ALLOW_RUN_AS_ROOT (it unsets every *_ROOT variable): the package
# passes --allow-run-as-root itself when root runs Open MPI.
step "spack test run gomb@git.$commit=main"
OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo
HYDRA_LAUNCHER=fork HYDRA_IFACE=lo
export OMPI_MCA_rmaps_base_oversubscribe OMPI_MCA_btl OMPI_MCA_oob_tcp_if_include HYDRA_LAUNCHER HYDRA_IFACE
rm -rf "$out/test"
run "$SPACK" test run --alias gomb-smoke "gomb@git.$commit=main"
"$SPACK" test results -l gomb-smoke >"$out/test-results.txt" 2>&1
cat "$out/test-results.txt" >>"$log"
# every test of both installs passed: none skipped (no launcher found)
n=$(grep -c '^Gomb::test_[a-z]* \.\. PASSED$' "$out/test-results.txt" || true)
if [ "$n" != 6 ] || grep -q 'FAILED\|SKIPPED' "$out/test-results.txt"; then
	echo "spack-install: $n of 6 smoke tests passed, see $out/test-results.txt" >&2
	exit 1
fi
step "done: 2 installs, 2 PingPong runs, 6 smoke tests passed; log in $log"
