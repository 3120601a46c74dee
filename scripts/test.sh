#!/bin/sh
# test.sh: set up, then run the whole test suite: unit tests, golden files,
# and real mpirun jobs with Open MPI and MPICH at 2 and 4 ranks.
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The analysis side must build without cgo.
CGO_ENABLED=0 go build -o /dev/null ./cmd/gomb
go vet ./...
go test -count=1 -timeout 40m "$@" ./...
