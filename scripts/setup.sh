#!/bin/sh
# setup.sh: install what gomb needs on a Debian machine and build it with
# each MPI's own compiler wrapper as CC, as IMB and OSU are built:
#   bin/gomb        CC=mpicc.openmpi (Debian's Open MPI)
#   bin/gomb-mpich  CC=mpicc.mpich   (Debian's MPICH)
# With MPICC set, it builds one binary with that wrapper instead and
# installs no MPI package: a site's module (MPICC=mpicc, Cray's cc, Intel
# MPI's mpiicx, an MPI built from source); GOMB_BIN names the binary
# (bin/gomb unless set). MPI_PKG=NAME does the same with the compile and
# link flags of pkg-config's NAME (ompi-c, mpich) and the plain C compiler,
# for an MPI whose wrapper is missing. docs/install.md has the details.
# Safe to run again: it installs nothing that is already there.
# GOMB_SETUP_EXTRA names more packages (the test script adds chromium, for
# rendering the HTML report, and iproute2 and iptables for the emulated-host
# testbed).
set -eu
cd "$(dirname "$0")/.."

export PATH="$PATH:/usr/local/go/bin"
pkgs="gcc make procps ${GOMB_SETUP_EXTRA:-}"
[ -z "${MPI_PKG:-}" ] || pkgs="pkg-config $pkgs"
[ -n "${MPICC:-}${MPI_PKG:-}" ] || pkgs="openmpi-bin libopenmpi-dev mpich libmpich-dev $pkgs"
missing=""
if command -v dpkg-query >/dev/null 2>&1; then
	for p in $pkgs; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
			missing="$missing $p"
		fi
	done
fi
if [ -n "$missing" ]; then
	echo "setup: installing$missing" >&2
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if ! command -v go >/dev/null 2>&1; then
	echo "setup: Go is not installed (expected /usr/local/go/bin/go)" >&2
	exit 1
fi
go mod download

# The git revision goes into gomb version and every run record when git can
# read this checkout.
vcs=false
git rev-parse --git-dir >/dev/null 2>&1 && vcs=true
export GOFLAGS="${GOFLAGS:-} -buildvcs=$vcs"

# build CC OUT: gomb compiled and linked by the MPI's compiler wrapper CC.
# No pkg-config, no build tag: the wrapper's mpi.h says which MPI it is.
build() {
	if ! command -v "${1%% *}" >/dev/null 2>&1; then
		echo "setup: no MPI compiler wrapper '$1' (load your MPI's module, or set MPICC)" >&2
		exit 1
	fi
	CC="$1" CGO_ENABLED=1 go build -o "$2" ./cmd/gomb
}

if [ -n "${MPI_PKG:-}" ]; then
	out=${GOMB_BIN:-bin/gomb}
	CGO_CFLAGS="$(pkg-config --cflags "$MPI_PKG")" CGO_LDFLAGS="$(pkg-config --libs "$MPI_PKG")" \
		CGO_ENABLED=1 go build -o "$out" ./cmd/gomb
	echo "setup: built $out with pkg-config's $MPI_PKG" >&2
	exit 0
fi
if [ -n "${MPICC:-}" ]; then
	out=${GOMB_BIN:-bin/gomb}
	build "$MPICC" "$out"
	echo "setup: built $out with $MPICC:" >&2
	case "$out" in /*) ;; *) out="./$out" ;; esac
	"$out" version | sed -n 's/^MPI/  MPI/p' >&2 || true
	exit 0
fi

build mpicc.openmpi bin/gomb
build mpicc.mpich bin/gomb-mpich
# Each binary must link exactly one MPI library.
if ! readelf -d bin/gomb | grep -q 'libmpi\.so' || readelf -d bin/gomb | grep -q 'libmpich'; then
	echo "setup: bin/gomb does not link Open MPI alone" >&2
	exit 1
fi
if ! readelf -d bin/gomb-mpich | grep -q 'libmpich' || readelf -d bin/gomb-mpich | grep -q 'libmpi\.so'; then
	echo "setup: bin/gomb-mpich does not link MPICH alone" >&2
	exit 1
fi
echo "setup: built bin/gomb (Open MPI, mpicc.openmpi) and bin/gomb-mpich (MPICH, mpicc.mpich)" >&2
