// Command fidelity compares gomb's timed loops with a plain C MPI program
// (cref.c) making the same calls, with Open MPI and MPICH, interleaved over
// several rounds, and prints the median ratio gomb/C per benchmark and size
// and the peak RSS of a rank of each. It is a benchmark, not a test: run it
// with 'make bench-fidelity'.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

type mpiImpl struct {
	name   string
	mpicc  string
	gomb   string // gomb binary built for this MPI
	launch []string
}

type batch struct {
	sizes string
	n     int
}

type key struct {
	mpi, bench string
	size       int64
}

func main() {
	rounds := flag.Int("rounds", 5, "interleaved rounds")
	iters := flag.Int("n", 1000, "repetitions per size above -small (both programs, -iter_policy off)")
	smallIters := flag.Int("small-n", 20000, "repetitions per size up to -small: short loops drown in this machine's 20-50 us hiccups")
	small := flag.Int64("small", 8192, "largest size that gets -small-n repetitions")
	sizes := flag.String("sizes", "0,8,1024,65536,1048576,4194304", "message sizes in bytes")
	benches := flag.String("bench", "PingPong,Sendrecv,Allreduce", "IMB benchmarks")
	osuTests := flag.String("osu", "latency,bw,put_latency", "OSU tests (OSU's own iteration counts)")
	osuSizes := flag.String("osu-sizes", "1,8,1024,65536,1048576,4194304", "OSU message sizes in bytes")
	bindir := flag.String("bin", "bin", "directory with gomb and gomb-mpich")
	out := flag.String("out", "out/fidelity", "work directory")
	flag.Parse()

	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	impls := []mpiImpl{
		{"openmpi", "mpicc.openmpi", filepath.Join(*bindir, "gomb"),
			[]string{"mpirun.openmpi", "-np", "2", "--bind-to", "core", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo"}},
		{"mpich", "mpicc.mpich", filepath.Join(*bindir, "gomb-mpich"),
			[]string{"mpirun.mpich", "-np", "2", "-bind-to", "core", "-launcher", "fork", "-iface", "lo"}},
	}
	wrap := filepath.Join(*out, "rsswrap")
	must(run("gcc", "-O2", "-o", wrap, "tools/fidelity/csrc/rsswrap.c"))
	for _, m := range impls {
		must(run(m.mpicc, "-O2", "-Wno-stringop-overflow", "-o", filepath.Join(*out, "cref-"+m.name), "tools/fidelity/csrc/cref.c"))
	}
	os.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
	os.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")

	benchList := strings.Split(*benches, ",")
	var osuList []string
	if *osuTests != "" {
		osuList = strings.Split(*osuTests, ",")
	}
	// Two batches per program and round: small sizes with many
	// repetitions, large ones with fewer.
	var batches []batch
	var lo, hi []string
	for _, f := range strings.Split(*sizes, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			fail(fmt.Errorf("-sizes: %v", err))
		}
		if v <= *small {
			lo = append(lo, f)
		} else {
			hi = append(hi, f)
		}
	}
	if len(lo) > 0 {
		batches = append(batches, batch{strings.Join(lo, ","), *smallIters})
	}
	if len(hi) > 0 {
		batches = append(batches, batch{strings.Join(hi, ","), *iters})
	}
	ratios := map[key][]float64{}
	gombT := map[key][]float64{}
	cT := map[key][]float64{}
	rss := map[string][]float64{} // "openmpi gomb 0" -> peak KiB of rank 0, per run
	for r := 0; r < *rounds; r++ {
		for _, m := range impls {
			// ABBA within the round cancels drift of this shared machine.
			order := []string{"gomb", "c", "c", "gomb"}
			if r%2 == 1 {
				order = []string{"c", "gomb", "gomb", "c"}
			}
			got := map[string]map[key]float64{"gomb": {}, "c": {}}
			for slot, prog := range order {
				rssDir := filepath.Join(*out, fmt.Sprintf("rss-%s-%s-%d-%d", m.name, prog, r, slot))
				os.RemoveAll(rssDir)
				must(os.MkdirAll(rssDir, 0o755))
				add := func(t map[key]float64) {
					for k, v := range t {
						got[prog][k] += v / 2 // each program runs twice per round
					}
				}
				for _, b := range batches {
					if prog == "gomb" {
						add(runGomb(m, wrap, rssDir, *out, b.n, b.sizes, benchList))
					} else {
						add(runC(m, wrap, rssDir, *out, b.n, b.sizes, benchList))
					}
				}
				for _, test := range osuList {
					if prog == "gomb" {
						add(runGombOSU(m, wrap, rssDir, *out, test, *osuSizes))
					} else {
						add(runCOSU(m, wrap, rssDir, *out, test, *osuSizes))
					}
				}
				for rank, kib := range rankRSS(rssDir) {
					k := fmt.Sprintf("%s %s %d", m.name, prog, rank)
					rss[k] = append(rss[k], kib)
				}
			}
			for k, g := range got["gomb"] {
				c, ok := got["c"][k]
				if !ok || c <= 0 {
					continue
				}
				ratios[k] = append(ratios[k], g/c)
				gombT[k] = append(gombT[k], g)
				cT[k] = append(cT[k], c)
			}
			fmt.Fprintf(os.Stderr, "round %d/%d %s done\n", r+1, *rounds, m.name)
		}
	}

	fmt.Printf("# gomb vs plain C, %d interleaved rounds (each gomb C C gomb or C gomb gomb C), 2 ranks,\n# --bind-to core, -iter_policy off\n", *rounds)
	fmt.Printf("# %d repetitions per size up to %d B, %d above\n", *smallIters, *small, *iters)
	fmt.Printf("# times: median over rounds of the round's mean t_max, usec; ratio: median of per-round gomb/C\n")
	fmt.Printf("%-8s %-10s %9s %12s %12s %8s\n", "mpi", "benchmark", "bytes", "gomb_us", "c_us", "ratio")
	var keys []key
	for k := range ratios {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.mpi != b.mpi {
			return a.mpi > b.mpi
		}
		if a.bench != b.bench {
			all := append(append([]string{}, benchList...), prefixed(osuList)...)
			return indexOf(all, a.bench) < indexOf(all, b.bench)
		}
		return a.size < b.size
	})
	worst := 0.0
	for _, k := range keys {
		mr := median(ratios[k])
		worst = math.Max(worst, math.Abs(mr-1))
		fmt.Printf("%-8s %-10s %9d %12.3f %12.3f %8.3f\n", k.mpi, k.bench, k.size, median(gombT[k]), median(cT[k]), mr)
	}
	fmt.Printf("# largest |median ratio - 1|: %.1f%% (target: 3%%)\n", 100*worst)
	fmt.Printf("\n# the ratios as a Markdown table (gomb/C of the time; bandwidth tests: time per window)\n")
	for _, m := range impls {
		for _, b := range append(append([]string{}, benchList...), prefixed(osuList)...) {
			fmt.Printf("| %s | %s |", m.name, b)
			for _, k := range keys {
				if k.mpi == m.name && k.bench == b {
					fmt.Printf(" %d B: %.3f |", k.size, median(ratios[k]))
				}
			}
			fmt.Println()
		}
	}
	fmt.Printf("\n# peak RSS per rank, median over the runs (MB = 2^20 bytes). Rank 0 also gathers every\n")
	fmt.Printf("# rank's raw samples and encodes the records, which the C program does not do.\n")
	for _, m := range impls {
		for rank := 0; rank < 2; rank++ {
			g, c := median(rss[fmt.Sprintf("%s gomb %d", m.name, rank)]), median(rss[fmt.Sprintf("%s c %d", m.name, rank)])
			fmt.Printf("%-8s rank %d: gomb %7.1f MB   C %7.1f MB   difference %+6.1f MB (target: within 5 MB)\n",
				m.name, rank, g/1024, c/1024, (g-c)/1024)
		}
	}
}

func runGomb(m mpiImpl, wrap, rssDir, out string, n int, sizes string, benches []string) map[key]float64 {
	jf := filepath.Join(out, "gomb-"+m.name+".jsonl")
	args := append(append([]string{}, m.launch[1:]...), wrap, rssDir, m.gomb, "imb", "-iter", strconv.Itoa(n),
		"-iter_policy", "off", "-msgsize", sizes, "-json", jf)
	args = append(args, benches...)
	if err := exec.Command(m.launch[0], args...).Run(); err != nil {
		fail(fmt.Errorf("gomb (%s): %v", m.name, err))
	}
	times := map[key]float64{}
	eachResult(jf, func(r *result.Result) {
		if r.Status == result.StatusOK {
			times[key{m.name, r.Benchmark, r.Bytes}] = r.TMaxUS
		}
	})
	return times
}

// eachResult calls f for every result record of a record file.
func eachResult(path string, f func(*result.Result)) {
	fh, err := os.Open(path)
	if err != nil {
		fail(err)
	}
	defer fh.Close()
	d := result.NewDecoder(fh, path)
	for d.Scan() {
		if r, ok := d.Record().(*result.Result); ok {
			f(r)
		}
	}
}

func runC(m mpiImpl, wrap, rssDir, out string, n int, sizes string, benches []string) map[key]float64 {
	args := append(append([]string{}, m.launch[1:]...), wrap, rssDir, filepath.Join(out, "cref-"+m.name),
		"-n", strconv.Itoa(n), "-sizes", sizes)
	args = append(args, benches...)
	cmd := exec.Command(m.launch[0], args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		fail(fmt.Errorf("cref (%s): %v", m.name, err))
	}
	times := map[key]float64{}
	s := bufio.NewScanner(&stdout)
	for s.Scan() {
		var b string
		var size int64
		var reps int
		var t float64
		if _, err := fmt.Sscan(s.Text(), &b, &size, &reps, &t); err == nil {
			times[key{m.name, b, size}] = t
		}
	}
	return times
}

func prefixed(tests []string) []string {
	var out []string
	for _, t := range tests {
		out = append(out, "osu_"+t)
	}
	return out
}

// runGombOSU runs one OSU test over all powers of two up to the largest
// size wanted and keeps the wanted sizes: the time per iteration of rank 0
// (half the round trip for latency, one window for bw).
func runGombOSU(m mpiImpl, wrap, rssDir, out, test, sizes string) map[key]float64 {
	jf := filepath.Join(out, "gomb-osu-"+m.name+".jsonl")
	want := map[int64]bool{}
	var hi int64
	for _, f := range strings.Split(sizes, ",") {
		v, _ := strconv.ParseInt(f, 10, 64)
		want[v] = true
		hi = max(hi, v)
	}
	args := append(append([]string{}, m.launch[1:]...), wrap, rssDir, m.gomb, "osu", test, "-m", fmt.Sprintf("1:%d", hi), "-json", jf)
	if err := exec.Command(m.launch[0], args...).Run(); err != nil {
		fail(fmt.Errorf("gomb osu %s (%s): %v", test, m.name, err))
	}
	times := map[key]float64{}
	eachResult(jf, func(r *result.Result) {
		if want[r.Bytes] && len(r.RankMeanUS) > 0 {
			times[key{m.name, "osu_" + test, r.Bytes}] = r.RankMeanUS[0]
		}
	})
	return times
}

func runCOSU(m mpiImpl, wrap, rssDir, out, test, sizes string) map[key]float64 {
	args := append(append([]string{}, m.launch[1:]...), wrap, rssDir, filepath.Join(out, "cref-"+m.name),
		"-osu", test, "-sizes", sizes)
	cmd := exec.Command(m.launch[0], args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		fail(fmt.Errorf("cref -osu %s (%s): %v", test, m.name, err))
	}
	times := map[key]float64{}
	s := bufio.NewScanner(&stdout)
	for s.Scan() {
		var name string
		var size int64
		var iters int
		var t float64
		if _, err := fmt.Sscan(s.Text(), &name, &size, &iters, &t); err == nil {
			times[key{m.name, "osu_" + name, size}] = t
		}
	}
	return times
}

// rankRSS reads the peak RSS (KiB) of each rank over the runs rsswrap
// recorded in dir.
func rankRSS(dir string) map[int]float64 {
	out := map[int]float64{}
	files, _ := filepath.Glob(filepath.Join(dir, "rss.*"))
	for _, f := range files {
		rank, err := strconv.Atoi(strings.TrimPrefix(filepath.Ext(f), "."))
		if err != nil {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, l := range strings.Fields(string(b)) {
			if v, err := strconv.ParseFloat(l, 64); err == nil {
				out[rank] = max(out[rank], v)
			}
		}
	}
	return out
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return len(list)
}

func run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

func must(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "fidelity:", err)
	os.Exit(1)
}
