# Convenience targets; each calls the scripts the README names.
.PHONY: all build run test bench-fidelity clean

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

clean:
	rm -rf bin out
