#!/bin/sh
# dist.sh: gomb's analysis binary for laptops and servers without MPI:
# static, CGO_ENABLED=0 (import, archive, compare, check, explain, report;
# the measuring commands say they need an MPI build), for every platform
# listed, with the version stamped from the module and the git checkout
# (gomb version), gomb's LICENSE beside them, and a SHA256SUMS file over
# both.
#
# usage: scripts/dist.sh [-o DIR] [PLATFORM...]
#   -o DIR     where the binaries go (dist/ unless set)
#   PLATFORM   GOOS/GOARCH; default linux/amd64 linux/arm64 darwin/amd64
#              darwin/arm64
# Each binary is named gomb-nompi-VERSION-GOOS-GOARCH.
set -eu
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
out=dist
while [ $# -gt 0 ]; do
	case "$1" in
	-o) out=$2; shift 2 ;;
	-*) echo "usage: scripts/dist.sh [-o DIR] [GOOS/GOARCH...]" >&2; exit 2 ;;
	*) break ;;
	esac
done
platforms=${*:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64}
# The revision is stamped when this is a git checkout git can read;
# a source tree without .git builds unstamped.
vcs=false
git rev-parse --git-dir >/dev/null 2>&1 && vcs=true
version=$(sed -n 's/^var version = "\(.*\)"$/\1/p' cmd/gomb/main.go)
[ -n "$version" ] || { echo "dist: no version in cmd/gomb/main.go" >&2; exit 1; }
mkdir -p "$out"
names=""
for p in $platforms; do
	os=${p%/*} arch=${p#*/}
	if [ "$os" = "$p" ] || [ -z "$os" ] || [ -z "$arch" ]; then
		echo "dist: platform '$p' is not GOOS/GOARCH" >&2
		exit 2
	fi
	name="gomb-nompi-$version-$os-$arch"
	echo "dist: $name" >&2
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch GOFLAGS= go build -trimpath -buildvcs=$vcs -ldflags='-s -w' \
		-o "$out/$name" ./cmd/gomb
	names="$names $name"
done
# The licence travels with the binaries (BSD 3-Clause: a binary's copies
# carry its notice).
cp LICENSE "$out/LICENSE"
(cd "$out" && sha256sum $names LICENSE >SHA256SUMS)
# The binary for this machine, if built, must run and say what it is.
here="$out/gomb-nompi-$version-$(go env GOOS)-$(go env GOARCH)"
if [ -x "$here" ]; then
	"$here" version | sed 's/^/dist:   /' >&2
fi
echo "dist: $(echo $names | wc -w) binaries, LICENSE and SHA256SUMS in $out/" >&2
