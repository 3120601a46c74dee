# Convenience targets; each calls the scripts the README names.
.PHONY: all build run test bench-fidelity bench-archive fuzz clean

all: build

build:
	./scripts/setup.sh

run:
	./scripts/run-local.sh

test:
	./scripts/test.sh

# gomb's timed loops against a plain C MPI program, both MPIs, 5 rounds.
bench-fidelity: build
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 go run ./tools/fidelity -rounds 5

# Import throughput (IMB logs) and archive queries on 10,000 runs, one core.
bench-archive:
	go test -run '^$$' -bench . -cpu 1 ./importer ./archive

# Every parser's fuzz target, 30 s each.
fuzz:
	for f in FuzzIMB FuzzOSU FuzzRing FuzzRecords FuzzImport; do \
		go test ./importer -run '^$$' -fuzz "^$$f\$$" -fuzztime 30s || exit 1; done
	go test ./bench -run '^$$' -fuzz FuzzParseMsgLen -fuzztime 30s
	go test ./result -run '^$$' -fuzz FuzzDecoder -fuzztime 30s

clean:
	rm -rf bin out
