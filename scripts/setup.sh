#!/bin/sh
# setup.sh: install what gomb needs on a Debian machine and build it.
#
# Installs the missing Debian packages (Open MPI, MPICH, their headers,
# pkg-config, a C compiler), fetches the Go modules and builds
#   bin/gomb        linked against Open MPI
#   bin/gomb-mpich  linked against MPICH
# Safe to run again: it installs nothing that is already there.
# GOMB_SETUP_EXTRA names more packages (the test script adds chromium, for
# rendering the HTML report, and iproute2 and iptables for the emulated-host
# testbed).
set -eu
cd "$(dirname "$0")/.."

export PATH="$PATH:/usr/local/go/bin"
pkgs="openmpi-bin libopenmpi-dev mpich libmpich-dev pkg-config gcc make procps ${GOMB_SETUP_EXTRA:-}"
missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
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
go build -o bin/gomb ./cmd/gomb
go build -tags mpich -o bin/gomb-mpich ./cmd/gomb
# Each binary must link exactly one MPI library.
if ! readelf -d bin/gomb | grep -q 'libmpi\.so' || readelf -d bin/gomb | grep -q 'libmpich'; then
	echo "setup: bin/gomb does not link Open MPI alone" >&2
	exit 1
fi
if ! readelf -d bin/gomb-mpich | grep -q 'libmpich' || readelf -d bin/gomb-mpich | grep -q 'libmpi\.so'; then
	echo "setup: bin/gomb-mpich does not link MPICH alone" >&2
	exit 1
fi
echo "setup: built bin/gomb (Open MPI) and bin/gomb-mpich (MPICH)" >&2
