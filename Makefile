# Convenience targets; each calls the scripts the README names.
.PHONY: all build run test dist spack third-mpi bench-fidelity bench-fidelity-fan bench-fidelity-spot bench-startup bench-slurm bench-records bench-analysis bench-archive bench-import bench-explain bench-fleet fuzz clean

all: build

build:
	./scripts/setup.sh

run:
	./scripts/run-local.sh

test:
	./scripts/test.sh

# A third MPI, proven here (docs/install.md): MPICH built from the source
# tree MPICH_SRC by scripts/build-mpi.sh into peers/mpi/, IMB and OSU built
# with its wrapper (IMB_SRC, OSU_SRC), gomb built with its mpicc, the
# conformance subset under its mpiexec, and PingPong and osu latency against
# IMB and OSU (out/fidelity/third.txt). Not in CI: about 2 hours on 2 cores.
THIRD = peers/mpi/$(notdir $(MPICH_SRC))
THIRD_LAUNCH = $(THIRD)/bin/mpiexec -np {np} -bind-to core -launcher fork -iface lo
third-mpi:
	$(if $(MPICH_SRC),,$(error MPICH_SRC=<MPICH source tree, named mpich-VERSION> is required))
	./scripts/build-mpi.sh -mpich $(MPICH_SRC) -prefix $(THIRD)
	$(if $(IMB_SRC)$(OSU_SRC),./scripts/build-peers.sh -mpi third=$(THIRD)/bin $(if $(IMB_SRC),-imb $(IMB_SRC)) $(if $(OSU_SRC),-osu $(OSU_SRC)))
	MPICC=$(THIRD)/bin/mpicc GOMB_BIN=bin/gomb-third ./scripts/setup.sh
	./scripts/conformance.sh -gomb bin/gomb-third -launch '$(subst -bind-to core ,,$(THIRD_LAUNCH))' -o out/conformance/third
	mkdir -p out/fidelity
	$(if $(IMB_SRC)$(OSU_SRC),go run ./tools/fidelity -mpi third -launch '$(THIRD_LAUNCH)' -gomb bin/gomb-third -rounds $(ROUNDS) \
		-out out/fidelity/third $(if $(IMB_SRC),-imb peers/third/IMB-MPI1) $(if $(OSU_SRC),-osu peers/third/osu) \
		-imb-list PingPong -imb-extra '' -imb-np4 '' -osu-tests latency | tee out/fidelity/third.txt)

# gomb installed with Spack (docs/spack.md): gomb ^openmpi and ^mpich from
# this checkout's HEAD, Debian's MPIs as externals, both run under their
# launchers and `spack test run`, in out/spack. From source trees you have:
# SPACK (spack/spack 1.x), SPACK_PACKAGES (spack/spack-packages), and CLINGO
# (potassco/clingo, built for Spack's Python) or CLINGO_PYTHON (a directory
# where `import clingo` already works). Not in CI: about 35 minutes here.
spack:
	$(if $(SPACK),,$(error SPACK=<spack source tree> is required))
	$(if $(SPACK_PACKAGES),,$(error SPACK_PACKAGES=<spack-packages tree> is required))
	./scripts/spack-install.sh -spack $(SPACK) -packages $(SPACK_PACKAGES) \
		$(if $(CLINGO),-clingo $(CLINGO)) $(if $(CLINGO_PYTHON),-clingo-python $(CLINGO_PYTHON))

# The analysis binary (no MPI, static) for linux/amd64, linux/arm64 and
# macOS, version-stamped, with LICENSE and SHA256SUMS, in dist/
# (PLATFORMS=... to choose).
dist:
	./scripts/dist.sh $(PLATFORMS)

# gomb against the real peers (IMB-MPI1, -NBC, -MPI4, -EXT, -RMA, -P2P, -MT, -IO, OSU, mpi-comm-bench), both MPIs,
# ABBA-interleaved: median ratio gomb/peer per benchmark and size, with the
# peer's launch-to-launch spread, RSS and wall time. The peers are built
# from sources you have by scripts/build-peers.sh into PEERS (peers/); name
# other locations with IMB_OPENMPI=... OSU_OPENMPI=... MCB_OPENMPI=... and
# the same for MPICH. The tables land in out/fidelity/<mpi>.txt.
PEERS ?= peers
ROUNDS ?= 5
FIDELITY_FLAGS ?=
IMB_OPENMPI ?= $(PEERS)/openmpi/IMB-MPI1
IMB_MPICH ?= $(PEERS)/mpich/IMB-MPI1
IMB_NBC_OPENMPI ?= $(PEERS)/openmpi/IMB-NBC
IMB_NBC_MPICH ?= $(PEERS)/mpich/IMB-NBC
IMB_MPI4_OPENMPI ?= $(PEERS)/openmpi/IMB-MPI4
IMB_MPI4_MPICH ?= $(PEERS)/mpich/IMB-MPI4
IMB_EXT_OPENMPI ?= $(PEERS)/openmpi/IMB-EXT
IMB_EXT_MPICH ?= $(PEERS)/mpich/IMB-EXT
IMB_RMA_OPENMPI ?= $(PEERS)/openmpi/IMB-RMA
IMB_RMA_MPICH ?= $(PEERS)/mpich/IMB-RMA
IMB_P2P_OPENMPI ?= $(PEERS)/openmpi/IMB-P2P
IMB_P2P_MPICH ?= $(PEERS)/mpich/IMB-P2P
IMB_MT_OPENMPI ?= $(PEERS)/openmpi/IMB-MT
IMB_MT_MPICH ?= $(PEERS)/mpich/IMB-MT
IMB_IO_OPENMPI ?= $(PEERS)/openmpi/IMB-IO
IMB_IO_MPICH ?= $(PEERS)/mpich/IMB-IO
OSU_OPENMPI ?= $(PEERS)/openmpi/osu
OSU_MPICH ?= $(PEERS)/mpich/osu
OSU74_OPENMPI ?= $(PEERS)/openmpi/osu74
OSU74_MPICH ?= $(PEERS)/mpich/osu74
MCB_OPENMPI ?= $(PEERS)/openmpi/mpi_comm_bench
MCB_MPICH ?= $(PEERS)/mpich/mpi_comm_bench
OMPI_LAUNCH = mpirun.openmpi -np {np} --bind-to core:overload-allowed --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo
MPICH_LAUNCH = mpirun.mpich -np {np} -bind-to core -launcher fork -iface lo
# MPICH's ranks poll without yielding: 4 on fewer than 4 cores take hours
# and measure the scheduler, so its 4-process jobs (IMB-MPI1's collectives,
# IMB-P2P's stencil) need 4 cores.
MPICH_NP4 = $(if $(shell test $$(nproc) -ge 4 && echo y),,-imb-np4 '' -imb-p2p '')
peer = $(if $(wildcard $(2)),$(1) $(2))

bench-fidelity: build
	mkdir -p out/fidelity
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 go run ./tools/fidelity -mpi openmpi \
		-launch '$(OMPI_LAUNCH)' -gomb bin/gomb -rounds $(ROUNDS) -out out/fidelity/openmpi \
		$(call peer,-imb,$(IMB_OPENMPI)) $(call peer,-imb-nbc,$(IMB_NBC_OPENMPI)) \
		$(call peer,-imb-mpi4,$(IMB_MPI4_OPENMPI)) $(call peer,-imb-ext,$(IMB_EXT_OPENMPI)) \
		$(call peer,-imb-rma,$(IMB_RMA_OPENMPI)) $(call peer,-imb-p2p,$(IMB_P2P_OPENMPI)) \
		$(call peer,-imb-mt,$(IMB_MT_OPENMPI)) $(call peer,-imb-io,$(IMB_IO_OPENMPI)) $(call peer,-osu,$(OSU_OPENMPI)) \
		$(call peer,-osu74,$(OSU74_OPENMPI)) $(call peer,-mcb,$(MCB_OPENMPI)) \
		$(FIDELITY_FLAGS) | tee out/fidelity/openmpi.txt
	go run ./tools/fidelity -mpi mpich \
		-launch '$(MPICH_LAUNCH)' -gomb bin/gomb-mpich -rounds $(ROUNDS) -out out/fidelity/mpich \
		$(call peer,-imb,$(IMB_MPICH)) $(call peer,-imb-nbc,$(IMB_NBC_MPICH)) \
		$(call peer,-imb-mpi4,$(IMB_MPI4_MPICH)) $(call peer,-imb-ext,$(IMB_EXT_MPICH)) \
		$(call peer,-imb-rma,$(IMB_RMA_MPICH)) $(call peer,-imb-p2p,$(IMB_P2P_MPICH)) \
		$(call peer,-imb-mt,$(IMB_MT_MPICH)) $(call peer,-imb-io,$(IMB_IO_MPICH)) $(call peer,-osu,$(OSU_MPICH)) \
		$(call peer,-osu74,$(OSU74_MPICH)) $(call peer,-mcb,$(MCB_MPICH)) \
		$(MPICH_NP4) $(FIDELITY_FLAGS) | tee out/fidelity/mpich.txt
	$(if $(wildcard $(OSU74_OPENMPI)/osu_bw_fan_in),$(MAKE) bench-fidelity-fan)

# OSU 7.4's osu_bw_fan_in against gomb osu bw_fan_in needs ranks on two
# hosts: two emulated hosts of scripts/testbed.sh (root, ip netns), one
# rank each, TCP between them; both MPIs. Tables in out/fidelity/fan-<mpi>.txt.
FAN_BED = GOMB_TESTBED_PREFIX=gtbf- ./scripts/testbed.sh
FAN_LAUNCH = env GOMB_TESTBED_PREFIX=gtbf- ./scripts/testbed.sh launch
bench-fidelity-fan: build
	mkdir -p out/fidelity
	$(FAN_BED) up 2
	go run ./tools/fidelity -mpi openmpi -launch '$(OMPI_LAUNCH)' -gomb bin/gomb -rounds $(ROUNDS) \
		-out out/fidelity/fan-openmpi -osu74 $(OSU74_OPENMPI) -osu74-tests '' \
		-fan-launch '$(FAN_LAUNCH) ompi gtbf-h1,gtbf-h2 {np}' $(FIDELITY_FLAGS) > out/fidelity/fan-openmpi.txt; \
	rc=$$?; cat out/fidelity/fan-openmpi.txt; go run ./tools/fidelity -mpi mpich -launch '$(MPICH_LAUNCH)' -gomb bin/gomb-mpich -rounds $(ROUNDS) \
		-out out/fidelity/fan-mpich -osu74 $(OSU74_MPICH) -osu74-tests '' \
		-fan-launch '$(FAN_LAUNCH) mpich gtbf-h1,gtbf-h2 {np}' $(FIDELITY_FLAGS) > out/fidelity/fan-mpich.txt; \
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
# other IMB suite and the ring whose peer is built, both MPIs.
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
