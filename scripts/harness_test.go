// Package scripts holds the tests of the shell scripts beside it: the
// argument handling of the harnesses that run installed programs
// (conformance.sh: an MPI; spack-install.sh: Spack and clingo; vs-peers.sh:
// the peers, whose lookup tools/fidelity tests). Nothing here launches MPI
// or needs the programs: each case ends before any would run.
package scripts

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// harnessCase is one run of a script: its arguments, the exit status and
// the one stderr line (its start) it must give, with nothing on stdout.
type harnessCase struct {
	name string
	args []string
	code int
	line string
}

// runHarness runs script with each case's arguments under env (added to
// the test's own) and checks the exit status and the single stderr line.
func runHarness(t *testing.T, script string, env []string, cases []harnessCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", append([]string{script}, tc.args...)...)
			cmd.Env = append(os.Environ(), env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			if code != tc.code || len(lines) != 1 || !strings.HasPrefix(lines[0], tc.line) || stdout.Len() > 0 {
				t.Errorf("sh %s %q: exit %d, stdout %q, stderr:\n%s\nwant exit %d, no stdout, one stderr line starting %q",
					script, tc.args, code, stdout.String(), stderr.String(), tc.code, tc.line)
			}
		})
	}
}

// TestConformanceArgs: conformance.sh's bad arguments are one line and
// exit 2; an MPI folder that is not there, or not an MPI's, is one line
// and exit 0.
func TestConformanceArgs(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	missing := filepath.Join(tmp, "nothing")
	notMPI := filepath.Join(tmp, "bin")
	if err := os.Mkdir(notMPI, 0o755); err != nil {
		t.Fatal(err)
	}
	// a gomb that is never run: each case ends before the first check
	gomb := filepath.Join(tmp, "gomb")
	if err := os.WriteFile(gomb, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	runHarness(t, "conformance.sh", nil, []harnessCase{
		{"no arguments", nil, 2, "usage: scripts/conformance.sh"},
		{"unknown flag", []string{"-bogus"}, 2, "conformance: unknown flag -bogus; usage:"},
		{"flag without value", []string{"-gomb"}, 2, "conformance: -gomb wants a value"},
		{"both -gomb and -mpi", []string{"-gomb", gomb, "-mpi", notMPI}, 2, "conformance: give -gomb or -mpi, not both"},
		{"bad -np", []string{"-gomb", gomb, "-launch", "x {np}", "-np", "two"}, 2, "conformance: -np wants a number, not 'two'"},
		{"unknown check", []string{"-gomb", gomb, "-launch", "x {np}", "-o", out, "imb-check", "nocheck"}, 2, "conformance: unknown check nocheck"},
		{"launcher without {np}", []string{"-gomb", gomb, "-launch", "mpiexec -n 2", "-o", out}, 2, "conformance: -launch must hold {np}"},
		{"no gomb", []string{"-gomb", missing, "-launch", "x {np}", "-o", out}, 2, "conformance: no gomb binary at '" + missing + "'"},
		{"missing MPI folder", []string{"-mpi", missing, "-o", out}, 0, "conformance: skip: no folder " + missing + " (-mpi)"},
		{"not an MPI's folder", []string{"-mpi", notMPI, "-o", out}, 0, "conformance: skip: no mpicc in " + notMPI},
	})
}

// TestSpackInstallArgs: spack-install.sh's bad arguments are one line and
// exit 2; a Spack, package repository, Python or clingo that is not there
// is one line and exit 0, before anything is written.
func TestSpackInstallArgs(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	missing := filepath.Join(tmp, "nothing")
	// a Spack's folder whose bin/spack is never run
	spack := filepath.Join(tmp, "spack")
	if err := os.MkdirAll(filepath.Join(spack, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(spack, "bin", "spack"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	cases := []harnessCase{
		{"unknown argument", []string{"-clingo", "src"}, 2, "spack-install: unknown argument -clingo; usage:"},
		{"flag without value", []string{"-o", out, "-spack"}, 2, "spack-install: -spack wants a value"},
		{"no spack on PATH", []string{"-o", out}, 0, "spack-install: skip: no spack on PATH"},
		{"missing Spack", []string{"-spack", missing, "-o", out}, 0, "spack-install: skip: no Spack at " + missing},
		{"missing packages", []string{"-spack", spack, "-packages", missing, "-o", out}, 0, "spack-install: skip: no spack-packages at " + missing},
		{"missing Python", []string{"-spack", spack, "-python", missing, "-o", out}, 0, "spack-install: skip: no Python " + missing},
		{"missing clingo folder", []string{"-spack", spack, "-clingo-python", missing, "-o", out}, 0, "spack-install: skip: no folder " + missing},
	}
	// PATH without a spack (the test machine has none, a user's may)
	env := []string{"PATH=/usr/bin:/bin"}
	py := exec.Command("python3", "-c", "import clingo")
	py.Env = append(os.Environ(), env...)
	if py.Run() != nil {
		cases = append(cases, harnessCase{"no clingo", []string{"-spack", spack, "-o", out}, 0, "spack-install: skip: "})
	}
	t.Cleanup(func() { // after the cases
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("spack-install.sh wrote %s before skipping", out)
		}
	})
	runHarness(t, "spack-install.sh", env, cases)
}

// TestVsPeersArgs: vs-peers.sh without a launcher line is one line and
// exit 2 (tools/fidelity's own arguments are tested there).
func TestVsPeersArgs(t *testing.T) {
	t.Parallel()
	runHarness(t, "vs-peers.sh", nil, []harnessCase{
		{"no launcher", []string{"-peers", "peers"}, 2, "usage: scripts/vs-peers.sh -launch"},
	})
}
