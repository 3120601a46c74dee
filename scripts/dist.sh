#!/bin/sh
# dist.sh: gomb's analysis binary for laptops and servers without MPI:
# static, CGO_ENABLED=0 (import, archive, compare, check, explain, report;
# the measuring commands say they need an MPI build), for every platform
# listed, with the version stamped from the module and the git checkout
# (gomb version), gomb's LICENSE beside them, THIRD-PARTY-NOTICES (the
# licence of every Go module linked into a binary, of Go's own runtime and
# standard library, and of the uPlot script the HTML report embeds), and
# a SHA256SUMS file over them all.
#
# usage: scripts/dist.sh [-o DIR] [PLATFORM...]
#        scripts/dist.sh -notices BINARY...   (the notices alone, on stdout)
#   -o DIR     where the binaries go (dist/ unless set)
#   PLATFORM   GOOS/GOARCH; default linux/amd64 linux/arm64 darwin/amd64
#              darwin/arm64
# Each binary is named gomb-nompi-VERSION-GOOS-GOARCH.
set -eu
caller=$PWD
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
# notices BINARY...: the third-party notices of the gomb binaries named,
# on stdout (dist.sh -notices, which the tests call).
notice() { # notice NAME FILE...
	printf '================================================================\n%s\n================================================================\n\n' "$1"
	shift
	cat "$@"
	printf '\n'
}
notices() {
	printf 'gomb links or embeds the following third-party software; each is\nlisted with its licence as its authors ship it.\n\n'
	notice "Go (the runtime and standard library) $(go env GOVERSION)" "$(go env GOROOT)/LICENSE"
	notice "uPlot (embedded in the HTML report)" "$repo/internal/report/vendor/uplot/LICENSE"
	for b in "$@"; do
		go version -m "$b" >/dev/null || exit 1
	done
	for b in "$@"; do go version -m "$b"; done | awk '$1 == "dep" { print $2, $3 }' | sort -u | while read -r mod ver; do
		dir=$(cd "$repo" && go list -m -f '{{.Dir}}' "$mod")
		lic=$(ls "$dir" 2>/dev/null | grep -E '^(LICEN[CS]E|COPYING)([.-].*)?$' | sort)
		if [ -z "$lic" ]; then
			echo "dist: no licence file in $mod $ver ($dir)" >&2
			exit 1
		fi
		notice "$mod $ver" $(for f in $lic; do echo "$dir/$f"; done)
	done
}
repo=$PWD
if [ "${1:-}" = -notices ]; then
	shift
	cd "$caller"
	[ $# -gt 0 ] || { echo "usage: scripts/dist.sh -notices BINARY..." >&2; exit 2; }
	notices "$@"
	exit
fi
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
# carry its notice), and so do the notices of what they link: the modules
# `go version -m` lists of each binary, Go's runtime and standard library,
# and uPlot (embedded by the HTML report). A module without a licence file
# stops the build: a binary is not shipped without its notices.
cp LICENSE "$out/LICENSE"
(cd "$out" && sh "$repo/scripts/dist.sh" -notices $names) >"$out/THIRD-PARTY-NOTICES"
(cd "$out" && sha256sum $names LICENSE THIRD-PARTY-NOTICES >SHA256SUMS)
# The binary for this machine, if built, must run and say what it is.
here="$out/gomb-nompi-$version-$(go env GOOS)-$(go env GOARCH)"
if [ -x "$here" ]; then
	"$here" version | sed 's/^/dist:   /' >&2
fi
echo "dist: $(echo $names | wc -w) binaries, LICENSE, THIRD-PARTY-NOTICES and SHA256SUMS in $out/" >&2
