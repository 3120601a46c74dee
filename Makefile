# Convenience targets; each calls the scripts the README names.
.PHONY: all build run test dist spack conformance bench-fidelity bench-fidelity-fan bench-fidelity-spot bench-startup bench-slurm bench-records bench-analysis bench-archive bench-import bench-explain bench-fleet fuzz clean

all: build

build:
	./scripts/setup.sh

run:
	./scripts/run-local.sh

test:
	./scripts/test.sh

# gomb under an MPI you have installed (docs/install.md): MPI_BIN is its
# bin folder (mpicc, mpiexec), <name> the folder above it (mpich-5.0.1).
# scripts/conformance.sh builds gomb with its mpicc and runs the
# conformance subset under LAUNCH (default: its mpiexec -n {np}), into
# out/conformance/<name>; then IMB-MPI1's PingPong and osu latency against
# the IMB and OSU built for that MPI and found below PEERS/<name>, as
# bench-fidelity finds them (out/fidelity/<name>.txt). A folder or peer not
# there is one line, not a failure.
MPI_NAME = $(notdir $(patsubst %/,%,$(dir $(abspath $(MPI_BIN)))))
MPI_LAUNCH = $(or $(LAUNCH),$(MPI_BIN)/mpiexec -n {np})
conformance:
	$(if $(MPI_BIN),,$(error MPI_BIN=<the bin folder of an installed MPI> is required))
	./scripts/conformance.sh -mpi $(MPI_BIN) -launch '$(MPI_LAUNCH)' -o out/conformance/$(MPI_NAME)
	if [ -x out/conformance/$(MPI_NAME)/gomb ]; then mkdir -p out/fidelity && \
		go run ./tools/fidelity -mpi $(MPI_NAME) -launch '$(MPI_LAUNCH)' -gomb out/conformance/$(MPI_NAME)/gomb \
		-rounds $(ROUNDS) -out out/fidelity/$(MPI_NAME) -peers '$(PEERS)/$(MPI_NAME)' -only imb-mpi1,osu -imb-list PingPong \
		-imb-extra '' -imb-seq '' -imb-np4 '' -osu-tests latency -osu74-tests '' | tee out/fidelity/$(MPI_NAME).txt; fi

# gomb installed with Spack (docs/spack.md): gomb ^openmpi and ^mpich from
# this checkout's HEAD, Debian's MPIs as externals, both run under their
# launchers and `spack test run`, in out/spack. With what you have: SPACK
# (a Spack 1.x, else the spack on PATH), SPACK_PACKAGES (a spack-packages
# checkout, else the one Spack is configured with) and clingo's Python
# module where Spack's Python imports it (CLINGO_PYTHON: its folder). A
# missing one is one line, not a failure. Not in CI: about 35 minutes here.
spack:
	./scripts/spack-install.sh $(if $(SPACK),-spack $(SPACK))$(if $(SPACK_PACKAGES), -packages $(SPACK_PACKAGES))$(if $(CLINGO_PYTHON), -clingo-python $(CLINGO_PYTHON))

# The analysis binary (no MPI, static) for linux/amd64, linux/arm64 and
# macOS, version-stamped, with LICENSE and SHA256SUMS, in dist/
# (PLATFORMS=... to choose).
dist:
	./scripts/dist.sh $(PLATFORMS)

# gomb against the real peers (IMB-MPI1, -NBC, -MPI4, -EXT, -RMA, -P2P, -MT,
# -IO, OSU, mpi-comm-bench), both MPIs, ABBA-interleaved: median ratio
# gomb/peer per benchmark and size, with the peer's launch-to-launch
# spread, RSS and wall time. The peers are programs you have installed,
# built for each MPI: tools/fidelity finds each by its installed name below
# PEERS/openmpi and PEERS/mpich (PEERS_OPENMPI=DIR, PEERS_MPICH=DIR to name
# others; usually folders of links to installed prefixes: docs/fidelity.md).
# A peer not there skips its jobs with one line. Tables in
# out/fidelity/<mpi>.txt.
PEERS ?= peers
PEERS_OPENMPI ?= $(PEERS)/openmpi
PEERS_MPICH ?= $(PEERS)/mpich
ROUNDS ?= 5
FIDELITY_FLAGS ?=
OMPI_LAUNCH = mpirun.openmpi -np {np} --bind-to core:overload-allowed --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo
MPICH_LAUNCH = mpirun.mpich -np {np} -bind-to core -launcher fork -iface lo
# MPICH's ranks poll without yielding: 4 on fewer than 4 cores take hours
# and measure the scheduler, so its 4-process jobs (IMB-MPI1's collectives,
# IMB-P2P's stencil) need 4 cores.
MPICH_NP4 = $(if $(shell test $$(nproc) -ge 4 && echo y),,-imb-np4 '' -imb-p2p '')

bench-fidelity: build
	mkdir -p out/fidelity
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 go run ./tools/fidelity -mpi openmpi \
		-launch '$(OMPI_LAUNCH)' -gomb bin/gomb -rounds $(ROUNDS) -out out/fidelity/openmpi \
		-peers $(PEERS_OPENMPI) $(FIDELITY_FLAGS) | tee out/fidelity/openmpi.txt
	go run ./tools/fidelity -mpi mpich \
		-launch '$(MPICH_LAUNCH)' -gomb bin/gomb-mpich -rounds $(ROUNDS) -out out/fidelity/mpich \
		-peers $(PEERS_MPICH) $(MPICH_NP4) $(FIDELITY_FLAGS) | tee out/fidelity/mpich.txt
	if go run ./tools/fidelity -peers $(PEERS_OPENMPI) -find osu_bw_fan_in >/dev/null 2>&1; then $(MAKE) bench-fidelity-fan; fi

# OSU 7.4's osu_bw_fan_in against gomb osu bw_fan_in needs ranks on two
# hosts: two emulated hosts of scripts/testbed.sh (root, ip netns), one
# rank each, TCP between them; both MPIs, osu_bw_fan_in found as
# bench-fidelity finds the peers (OSU 7.4 or newer). Tables in
# out/fidelity/fan-<mpi>.txt. bench-fidelity runs it when Open MPI's
# osu_bw_fan_in is there.
FAN_BED = GOMB_TESTBED_PREFIX=gtbf- ./scripts/testbed.sh
FAN_LAUNCH = env GOMB_TESTBED_PREFIX=gtbf- ./scripts/testbed.sh launch
FAN_FLAGS = -rounds $(ROUNDS) -only osu -osu-tests '' -osu74-tests '' $(FIDELITY_FLAGS)
bench-fidelity-fan: build
	mkdir -p out/fidelity
	$(FAN_BED) up 2
	go run ./tools/fidelity -mpi openmpi -launch '$(OMPI_LAUNCH)' -gomb bin/gomb -out out/fidelity/fan-openmpi \
		-peers $(PEERS_OPENMPI) -fan-launch '$(FAN_LAUNCH) ompi gtbf-h1,gtbf-h2 {np}' $(FAN_FLAGS) > out/fidelity/fan-openmpi.txt; \
	rc=$$?; cat out/fidelity/fan-openmpi.txt; \
	go run ./tools/fidelity -mpi mpich -launch '$(MPICH_LAUNCH)' -gomb bin/gomb-mpich -out out/fidelity/fan-mpich \
		-peers $(PEERS_MPICH) -fan-launch '$(FAN_LAUNCH) mpich gtbf-h1,gtbf-h2 {np}' $(FAN_FLAGS) > out/fidelity/fan-mpich.txt; \
	rc2=$$?; cat out/fidelity/fan-mpich.txt; $(FAN_BED) down; [ $$rc = 0 ] && [ $$rc2 = 0 ]

# What gomb's start-up costs beside OSU's osu_hello and osu_init (median
# job wall time and MPI_Init time, launches interleaved), both MPIs.
bench-startup: build
	./scripts/bench-startup.sh -peers $(PEERS) -n $(or $(N),10)

# What keeping every raw sample costs at np 16, 32, 64 (oversubscribed),
# extrapolated to 256-4,096 ranks.
bench-records: build
	./scripts/bench-records.sh -n $(or $(N),3)

# gomb's start-up and per-rank memory under srun (PMIx, PMI2) on one and two
# nodes, beside mpirun/mpiexec (its own Slurm clusters; root).
bench-slurm: build
	./scripts/bench-slurm.sh -n $(or $(N),5)

# gomb fleet on emulated hosts (root): the sweep's time against N and the
# detection's hit and false-name rates (a link or a host slowed to 200
# Mbit/s, drawn at random), RUNS runs (default 3) at each of FLEET_N.
FLEET_N ?= 4,6,8
bench-fleet: build
	go run ./tools/fleetbench -n $(FLEET_N) -runs $(or $(RUNS),3)

# A spot check of the timed loops after a change that should not move them:
# IMB PingPong and Allreduce (0 B-4 MiB), osu latency, and the job of each
# other IMB suite and the ring whose peer is there, both MPIs.
bench-fidelity-spot:
	$(MAKE) bench-fidelity FIDELITY_FLAGS="-imb-list PingPong,Allreduce -imb-extra '' -imb-np4 '' -osu-tests latency $(FIDELITY_FLAGS)"

# compare against the launches a side (5-200) and explain against the sizes
# of one table (1,000-10,000): how the analyses grow.
bench-analysis:
	go test -run '^$$' -bench 'BenchmarkCompareLaunches|BenchmarkExplainSizes' -benchtime 3x -cpu 1 ./internal/analysis
	go test -run '^$$' -bench 'BenchmarkReportLoad' -benchtime 10x -count 3 ./internal/report

# Import throughput (IMB logs) and archive queries on 10,000 runs, one core.
bench-archive:
	go test -run '^$$' -bench . -cpu 1 ./importer ./internal/archive

# gomb import and archive add end to end on real IMB logs repeated to
# SIZE MiB (default 32), ROUNDS times each.
bench-import:
	GOMB_SETUP_EXTRA=time ./scripts/setup.sh
	./scripts/import-throughput.sh -gomb bin/gomb -size $(or $(SIZE),32) -rounds $(ROUNDS)

# explain over its labelled corpus: the confusion table per kind of finding
# and the false WARNINGs (analysis/corpus_test.go).
bench-explain:
	go test ./internal/analysis -run '^TestCorpus$$' -count=1 -v | grep -v '^=== '
	# the field corpus: $$GOMB_FIELD_CORPUS (an absolute path), else ../shared/field-logs;
	# the logs present are counted, the absent named
	go test ./internal/analysis -run '^TestFieldCorpus$$' -count=1 -v | grep -v '^=== ' || true

# Every parser's fuzz target, 30 s each.
fuzz:
	for f in FuzzIMB FuzzOSU FuzzRing FuzzRecords FuzzImport; do \
		go test ./importer -run '^$$' -fuzz "^$$f\$$" -fuzztime 30s || exit 1; done
	go test ./textfmt -run '^$$' -fuzz FuzzFields -fuzztime 30s
	go test ./internal/bench/imb -run '^$$' -fuzz FuzzParseMsgLen -fuzztime 30s
	go test ./internal/bench/imb -run '^$$' -fuzz FuzzParseMsgSize -fuzztime 30s
	go test ./internal/bench/p2p -run '^$$' -fuzz FuzzMsgLen -fuzztime 30s
	go test ./result -run '^$$' -fuzz FuzzDecoder -fuzztime 30s
	go test ./result -run '^$$' -fuzz FuzzEncoderBytesAreMarshal -fuzztime 30s
	go test ./internal/bench -run '^$$' -fuzz FuzzParseDelay -fuzztime 30s
	go test ./result -run '^$$' -fuzz FuzzParseCPUList -fuzztime 30s
	go test ./internal/analysis -run '^$$' -fuzz FuzzParseTrack -fuzztime 30s

clean:
	rm -rf bin out
