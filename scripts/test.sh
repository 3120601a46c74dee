#!/bin/sh
# test.sh: set up, then run the whole test suite: unit tests, golden files,
# real mpirun jobs with Open MPI and MPICH at 2 and 4 ranks, jobs across
# emulated hosts (network namespaces: placement, faults, shaped links; needs
# root), jobs under Slurm's srun and sbatch, and the HTML report in headless
# Chromium.
set -eu
cd "$(dirname "$0")/.."
GOMB_SETUP_EXTRA="chromium iproute2 iptables slurmctld slurmd slurm-client munge slurm-wlm-basic-plugins python3 libxml2-utils postgresql" ./scripts/setup.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The report is rendered in headless Chromium; its screenshot lands in out/test.
export GOMB_REQUIRE_CHROMIUM=1 GOMB_TEST_OUT="$PWD/out/test"
# gomb check -junit's output is validated against the JUnit schema (xmllint).
export GOMB_REQUIRE_XMLLINT=1
# The emulated-host tests (scripts/testbed.sh) and the Slurm ones
# (scripts/slurm.sh: a one-node cluster here, a two-node one on emulated
# hosts) must run, not skip.
export GOMB_REQUIRE_TESTBED=1 GOMB_REQUIRE_SLURM=1
# explain is held to the published logs in ../shared/field-logs (beside
# every checkout; GOMB_FIELD_CORPUS names another folder): TestFieldCorpus
# must find the folder, and counts the logs present in it.
export GOMB_REQUIRE_FIELD_CORPUS=1
# The archive's PostgreSQL back end is tested against a real server:
# Debian's binaries (/usr/lib/postgresql/*/bin), a throwaway cluster a test
# binary (internal/pgtest), which must run, not skip.
export GOMB_REQUIRE_POSTGRES=1
# The analysis side must build without cgo.
CGO_ENABLED=0 go build -o /dev/null ./cmd/gomb
# The archive has an SQLite driver per build (SQLite's C library with cgo,
# pure Go without): test both. -short here: PostgreSQL's driver is the same
# pure Go in both builds, and the whole tier below runs its tests.
CGO_ENABLED=0 go test -count=1 -short ./internal/archive
# cgo compiles and links through the MPI's compiler wrapper: ./... against
# Open MPI; the kernels, the engines' conformance suite (enginetest) and the
# session, which launch jobs of their own test binary, against MPICH too.
export CC=mpicc.openmpi
go vet ./...
CC=mpicc.mpich go test -count=1 "$@" ./internal/mpi ./internal/bench/... ./internal/session
# About 19 minutes on an idle 2-core machine, 28 with one core kept busy
# (the e2e package 16 and 24 of them); the limit leaves room under CI's 90.
# -parallel 4: the tests that run side by side are refusals, short
# launches that wait on their launcher more than they compute (the four
# refusal tests: 98 s at 2, 66 s at 4, idle).
go test -count=1 -parallel 4 -timeout 75m "$@" ./...
