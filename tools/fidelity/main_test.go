package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// program writes an executable file at dir/rel: a stand-in for an
// installed peer, whose place is all these tests read (nothing runs it).
func program(t *testing.T, dir, rel string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCLIArgs: bad arguments are one line and exit 2; a peer asked for
// and not there is one line and no failure; nothing is launched.
func TestCLIArgs(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	peers := t.TempDir()
	imb := program(t, peers, "bin/IMB-MPI1")
	missing := filepath.Join(empty, "nothing")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr []string // each line's text, in order
		stdout string
	}{
		{"no launcher", nil, 2, []string{"fidelity: -launch must give the launcher line with {np} for the process count"}, ""},
		{"launcher without {np}", []string{"-launch", "mpirun -np 2", "-peers", peers}, 2, []string{"fidelity: -launch must give"}, ""},
		{"unknown flag", []string{"-bogus"}, 2, []string{"fidelity: flag provided but not defined: -bogus (-h lists the flags)"}, ""},
		{"bad value", []string{"-rounds", "many"}, 2, []string{`fidelity: invalid value "many" for flag -rounds`}, ""},
		{"nice out of range", []string{"-nice", "-21"}, 2, []string{"fidelity: -nice must be between -20 and 19, not -21"}, ""},
		{"stray argument", []string{"-launch", "x {np}", "IMB-MPI1"}, 2, []string{`fidelity: unexpected argument "IMB-MPI1"`}, ""},
		{"no peer", []string{"-launch", "x {np}"}, 2, []string{"fidelity: no peer given"}, ""},
		{"missing peers folder", []string{"-launch", "x {np}", "-peers", missing}, 0,
			[]string{"fidelity: skip the peers below -peers: no folder " + missing}, ""},
		{"missing IMB-MPI1", []string{"-launch", "x {np}", "-imb", missing}, 0,
			[]string{"fidelity: skip the IMB-MPI1 jobs: no IMB-MPI1 at " + missing}, ""},
		{"missing IMB-NBC", []string{"-launch", "x {np}", "-imb-nbc", missing}, 0,
			[]string{"fidelity: skip imb-nbc-np2: no IMB-NBC at " + missing}, ""},
		{"missing mpi-comm-bench", []string{"-launch", "x {np}", "-peers", empty, "-only", "ring"}, 0,
			[]string{"fidelity: skip ring-np2: no mpi_comm_bench below " + empty}, ""},
		{"missing OSU folder", []string{"-launch", "x {np}", "-osu", missing, "-osu-tests", "latency,bw"}, 0,
			[]string{"fidelity: skip osu-latency, osu-bw: no folder " + missing}, ""},
		{"missing OSU tests", []string{"-launch", "x {np}", "-peers", empty, "-only", "osu", "-osu-tests", "latency,bw", "-osu74-tests", "allreduce_persistent"}, 0,
			[]string{"fidelity: skip osu-latency, osu-bw: no osu_latency, osu_bw below " + empty,
				"fidelity: skip osu-allreduce_persistent: no osu_allreduce_persistent below " + empty}, ""},
		{"find", []string{"-peers", peers, "-find", "IMB-MPI1"}, 0, nil, imb + "\n"},
		{"find missing", []string{"-peers", peers, "-find", "IMB-NBC"}, 1, []string{"fidelity: no IMB-NBC below " + peers}, ""},
		{"find without peers", []string{"-find", "IMB-MPI1"}, 2, []string{"fidelity: -find needs -peers DIR"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli(tc.args, &stdout, &stderr)
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			if stderr.Len() == 0 {
				lines = nil
			}
			ok := code == tc.code && len(lines) == len(tc.stderr) && stdout.String() == tc.stdout
			for i := 0; ok && i < len(lines); i++ {
				ok = strings.HasPrefix(lines[i], tc.stderr[i])
			}
			if !ok {
				t.Errorf("fidelity %q: exit %d, stdout %q, stderr:\n%s\nwant exit %d, stdout %q, stderr lines starting:\n%s",
					tc.args, code, stdout.String(), stderr.String(), tc.code, tc.stdout, strings.Join(tc.stderr, "\n"))
			}
		})
	}
	var stderr bytes.Buffer
	if code := cli([]string{"-h"}, new(bytes.Buffer), &stderr); code != 0 || !strings.Contains(stderr.String(), "-peers DIR") {
		t.Errorf("fidelity -h: exit %d, %q", code, stderr.String())
	}
}

// TestPeerLayout: -peers finds each peer where its project or a packager
// installs it, through links, and plans the jobs of those there.
func TestPeerLayout(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	// Spack's prefixes: intel-mpi-benchmarks' bin/ (no IMB-MPI4: its
	// recipe builds none), osu-micro-benchmarks' libexec tree (OSU 7's
	// extra level), linked from the peers folder
	spackIMB := filepath.Join(root, "spack", "intel-mpi-benchmarks-2021.7-abc")
	for _, p := range []string{"MPI1", "NBC", "EXT", "RMA", "P2P", "MT", "IO"} {
		program(t, spackIMB, "bin/IMB-"+p)
	}
	spackOSU := filepath.Join(root, "spack", "osu-micro-benchmarks-7.5-xyz")
	osuLat := program(t, spackOSU, "libexec/osu-micro-benchmarks/mpi/pt2pt/standard/osu_latency")
	osuAr := program(t, spackOSU, "libexec/osu-micro-benchmarks/mpi/collective/blocking/osu_allreduce")
	osuArP := program(t, spackOSU, "libexec/osu-micro-benchmarks/mpi/collective/persistent/osu_allreduce_persistent")
	peers := filepath.Join(root, "peers", "openmpi")
	mcb := program(t, peers, "mpi_comm_bench")
	for name, to := range map[string]string{"imb": spackIMB, "osu": spackOSU, "loop": peers} {
		if err := os.Symlink(to, filepath.Join(peers, name)); err != nil {
			t.Fatal(err)
		}
	}
	// not executable: not a peer
	if err := os.WriteFile(filepath.Join(peers, "IMB-MPI4"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// HPC-X's $HPCX_MPI_TESTS_DIR: imb/IMB-MPI1 and $HPCX_OSU_DIR
	hpcx := filepath.Join(root, "hpcx-v2.17", "ompi", "tests")
	hpcxIMB := program(t, hpcx, "imb/IMB-MPI1")
	hpcxOSU := program(t, hpcx, "osu-micro-benchmarks/osu_latency")

	plan := func(args ...string) (got map[string]string, names, skips []string) {
		cfg := &config{}
		fs, _, _ := newFlagSet(cfg)
		if err := cfg.parse(fs, args); err != nil {
			t.Fatal(err)
		}
		jobs, skips := cfg.jobs()
		got = map[string]string{}
		for _, j := range jobs {
			got[j.name] = j.peer[0]
			names = append(names, j.name)
		}
		return got, names, skips
	}
	got, names, skips := plan("-peers", peers, "-osu-tests", "latency,allreduce,bw")
	want := map[string]string{
		"imb-default-np2": filepath.Join(peers, "imb", "bin", "IMB-MPI1"),
		"imb-extra-np2":   filepath.Join(peers, "imb", "bin", "IMB-MPI1"),
		"imb-seq1-np2":    filepath.Join(peers, "imb", "bin", "IMB-MPI1"),
		"imb-seq2-np2":    filepath.Join(peers, "imb", "bin", "IMB-MPI1"),
		"imb-coll-np4":    filepath.Join(peers, "imb", "bin", "IMB-MPI1"),
		"imb-nbc-np2":     filepath.Join(peers, "imb", "bin", "IMB-NBC"),
		"imb-ext-np2":     filepath.Join(peers, "imb", "bin", "IMB-EXT"),
		"imb-rma-np2":     filepath.Join(peers, "imb", "bin", "IMB-RMA"),
		"imb-p2p-np4":     filepath.Join(peers, "imb", "bin", "IMB-P2P"),
		"imb-mt-np2":      filepath.Join(peers, "imb", "bin", "IMB-MT"),
		"imb-io-np2":      filepath.Join(peers, "imb", "bin", "IMB-IO"),
		"osu-latency":     strings.Replace(osuLat, spackOSU, filepath.Join(peers, "osu"), 1),
		"osu-allreduce":   strings.Replace(osuAr, spackOSU, filepath.Join(peers, "osu"), 1),
		// -osu74's tests come from -peers too
		"osu-allreduce_persistent": strings.Replace(osuArP, spackOSU, filepath.Join(peers, "osu"), 1),
		"ring-np2":                 mcb,
	}
	for name, p := range want {
		if got[name] != p {
			t.Errorf("job %s: peer %q, want %q", name, got[name], p)
		}
	}
	if len(got) != len(want) {
		t.Errorf("jobs %v, want %d", names, len(want))
	}
	wantSkips := []string{"imb-mpi4-np2: no IMB-MPI4 below " + peers, "osu-bw: no osu_bw below " + peers}
	if !slices.Equal(skips, wantSkips) {
		t.Errorf("skips %q, want %q", skips, wantSkips)
	}

	// -only and a peer's flag given empty leave jobs out, unlooked-for
	_, names, skips = plan("-peers", peers, "-only", "imb-mpi1,imb-p2p,imb-mpi4,ring", "-imb-p2p", "", "-imb-mpi4", "",
		"-imb-extra", "", "-imb-seq", "", "-imb-np4", "")
	if want := []string{"imb-default-np2", "ring-np2"}; !slices.Equal(names, want) || len(skips) > 0 {
		t.Errorf("-only, -imb-p2p '': jobs %q, skips %q, want %q and none", names, skips, want)
	}

	// HPC-X: the tests folder as -peers
	for name, want := range map[string]string{"IMB-MPI1": hpcxIMB, "osu_latency": hpcxOSU} {
		if p, err := findPeer(hpcx, name); p != want || err != nil {
			t.Errorf("findPeer(%s, %s) = %q, %v, want %q", hpcx, name, p, err, want)
		}
	}
	// the shallowest wins: a folder of the programs themselves before
	// an install tree below it
	top := program(t, root, "flat/osu_latency")
	if err := os.Symlink(spackOSU, filepath.Join(root, "flat", "a-prefix")); err != nil {
		t.Fatal(err)
	}
	if p, err := findPeer(filepath.Join(root, "flat"), "osu_latency"); p != top || err != nil {
		t.Errorf("findPeer(flat) = %q, %v, want %q", p, err, top)
	}
}

// TestWithin: the cells of a size range within a tolerance; a sizeless
// row (Barrier) counts in every range, a cell without rounds in none.
func TestWithin(t *testing.T) {
	t.Parallel()
	cells := []cell{
		{bench: "PingPong", bytes: 0, ratio: 1.5, rounds: 3},      // 0 B: outside 8 B-64 KiB
		{bench: "PingPong", bytes: 8, ratio: 1.09, rounds: 3},     // in
		{bench: "PingPong", bytes: 65536, ratio: 0.89, rounds: 3}, // out by 0.01
		{bench: "PingPong", bytes: 131072, ratio: 1.0, rounds: 3}, // past 64 KiB
		{bench: "PingPong", bytes: 1024, ratio: 1.0},              // no rounds
		{bench: "Barrier", bytes: 0, ratio: 0.95, rounds: 3, sizeless: true},
	}
	for _, tc := range []struct {
		lo, hi  int64
		in, all int
	}{
		{0, 1 << 40, 3, 5}, // 8 B, 128 KiB, Barrier in; 0 B and 64 KiB out
		{8, 64 << 10, 2, 3},
	} {
		in, all := within(cells, 0.10, tc.lo, tc.hi)
		if in != tc.in || all != tc.all {
			t.Errorf("within(0.10, %d, %d) = %d of %d, want %d of %d", tc.lo, tc.hi, in, all, tc.in, tc.all)
		}
	}
}
