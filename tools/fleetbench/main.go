// Command fleetbench measures gomb fleet on emulated hosts
// (scripts/testbed.sh, root): for each fleet size N, runs of a healthy
// sweep, a sweep with one link shaped slow and one with one host's
// interface slowed (both drawn at random), and prints the sweep's time
// against N and the detection's hit and false-name rates. make bench-fleet
// runs it.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	sizes := flag.String("n", "4,6,8", "fleet sizes (emulated hosts), comma-separated")
	runs := flag.Int("runs", 3, "runs of each case at each size")
	gomb := flag.String("gomb", "bin/gomb", "gomb built for Open MPI")
	args := flag.String("args", "-sweeps 3 -i 300 -bw 256k -budget 0.2s", "gomb fleet's flags (the tests': three short sweeps)")
	rate := flag.String("rate", "200mbit", "a slow link's or host's rate")
	out := flag.String("out", "out/fleetbench", "directory for the records")
	seed := flag.Uint64("seed", 1, "seed of the drawn links and hosts")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	abs, _ := filepath.Abs(*gomb)
	rng := rand.New(rand.NewPCG(*seed, 11))
	fmt.Printf("# gomb fleet on emulated hosts, Open MPI over TCP, %d runs a case; flags: %s\n", *runs, *args)
	fmt.Printf("# %3s  %11s  %11s  %15s  %15s  %18s\n", "N", "sweep s", "(min-max)", "link named", "node named", "false names/run")
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 3 {
			fail(fmt.Errorf("-n %q: want sizes of 3 or more", f))
		}
		b := bed{prefix: fmt.Sprintf("gtbb%d-", os.Getpid()), gomb: abs, args: strings.Fields(*args), out: *out}
		b.sh("up", strconv.Itoa(n))
		var times []float64
		linkHits, nodeHits, falseNames := 0, 0, 0
		for r := 0; r < *runs; r++ {
			// healthy
			took, names := b.sweep(n, fmt.Sprintf("n%d-healthy-%d", n, r))
			times = append(times, took)
			falseNames += len(names)
			// a slow link
			x, y := rng.IntN(n)+1, rng.IntN(n-1)+1
			if y >= x {
				y++
			}
			b.sh("shape-link", b.host(x), b.host(y), "0", *rate)
			_, names = b.sweep(n, fmt.Sprintf("n%d-link-%d", n, r))
			b.sh("unshape-link", b.host(x), b.host(y))
			want := fmt.Sprintf("link %s - %s", b.host(min(x, y)), b.host(max(x, y)))
			alt := fmt.Sprintf("link %s - %s", b.host(max(x, y)), b.host(min(x, y)))
			hit, other := judge(names, want, alt)
			linkHits += hit
			falseNames += other
			// a slow host
			h := rng.IntN(n) + 1
			b.sh("shape", b.host(h), "0", *rate)
			_, names = b.sweep(n, fmt.Sprintf("n%d-node-%d", n, r))
			b.sh("unshape", b.host(h))
			hit, other = judge(names, "node "+b.host(h), "")
			nodeHits += hit
			falseNames += other
		}
		b.sh("down")
		slices.Sort(times)
		fmt.Printf("  %3d  %11.1f  %5.1f-%5.1f  %8d of %-4d  %8d of %-4d  %18.2f\n", n, times[len(times)/2], times[0], times[len(times)-1],
			linkHits, *runs, nodeHits, *runs, float64(falseNames)/float64(3**runs))
	}
}

// judge counts whether a name starts with want (or alt), and the names
// that are not about it.
func judge(names []string, want, alt string) (hit, other int) {
	for _, n := range names {
		if strings.HasPrefix(n, want+":") || alt != "" && strings.HasPrefix(n, alt+":") {
			hit = 1
		} else {
			other++
		}
	}
	return hit, other
}

type bed struct {
	prefix, gomb, out string
	args              []string
}

func (b bed) host(i int) string { return fmt.Sprintf("%sh%d", b.prefix, i) }

func (b bed) cmd(args ...string) *exec.Cmd {
	c := exec.Command("scripts/testbed.sh", args...)
	c.Env = append(os.Environ(), "GOMB_TESTBED_PREFIX="+b.prefix, "GOMB_TESTBED_DIR="+filepath.Join(os.TempDir(), b.prefix+"testbed"),
		"GOMB_BIN="+b.gomb, "OMPI_MCA_mpi_yield_when_idle=1")
	return c
}

func (b bed) sh(args ...string) {
	if out, err := b.cmd(args...).CombinedOutput(); err != nil {
		fail(fmt.Errorf("testbed.sh %s: %v\n%s", strings.Join(args, " "), err, out))
	}
}

// sweep runs gomb fleet over the n hosts and returns its wall time (s)
// and what gomb explain names ("node X: ...", "link A - B: ...").
func (b bed) sweep(n int, name string) (float64, []string) {
	var hosts []string
	for i := 1; i <= n; i++ {
		hosts = append(hosts, b.host(i))
	}
	rec := filepath.Join(b.out, name+".jsonl")
	args := append([]string{"run", "ompi", strings.Join(hosts, ","), strconv.Itoa(n), "--", "fleet", "-json", rec}, b.args...)
	start := time.Now()
	if out, err := b.cmd(args...).CombinedOutput(); err != nil {
		fail(fmt.Errorf("%s: %v\n%s", name, err, out))
	}
	took := time.Since(start).Seconds()
	var so bytes.Buffer
	ex := exec.Command(b.gomb, "explain", "-json", "-", rec)
	ex.Stdout = &so
	if err := ex.Run(); err != nil {
		fail(fmt.Errorf("explain %s: %v", rec, err))
	}
	var runs []struct {
		Findings []struct{ Kind, Summary string }
	}
	if err := json.Unmarshal(so.Bytes(), &runs); err != nil || len(runs) != 1 {
		fail(fmt.Errorf("explain %s: %v", rec, err))
	}
	var names []string
	for _, f := range runs[0].Findings {
		if f.Kind == "fleet-node" || f.Kind == "fleet-link" {
			names = append(names, f.Summary)
		}
	}
	return took, names
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "fleetbench:", err)
	os.Exit(1)
}
