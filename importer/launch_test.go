package importer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// runFacts is what a test below checks of each run: its suite, and of
// its results the benchmark, process count and locality.
func runFacts(f *File) []string {
	var out []string
	for _, b := range f.Runs {
		s := b.Run.Suite + ":"
		for _, x := range b.Results {
			s += fmt.Sprintf(" %s/%s/%d/%s", x.Suite, x.Benchmark, x.NP, x.Locality)
		}
		out = append(out, s)
	}
	return out
}

// TestLogsAroundTables: hand-written logs of what a job's output holds
// around its tables (launch lines, crashes, MPI debug lines), each run's
// suite, benchmark, process count and locality, the problems reported,
// and the nodes and fabric kept for the analysis.
func TestLogsAroundTables(t *testing.T) {
	cases := []struct {
		file     string
		runs     []string          // runFacts
		problems []string          // in full
		meta     map[string]string // of the first run
	}{
		// OSU 5's osu_ibarrier heads its table without "#": one result
		// per table, as osu_barrier's
		{file: "osu5_barrier_ibarrier_bare_header.txt", runs: []string{
			"osu: osu/barrier/4/", "osu: osu/ibarrier/4/", "osu: osu/ibarrier/4/"}},
		// mbw_mr's pairs line says np 4 for its own table only; the
		// allreduce after it has no count, the next its launch line's
		{file: "osu_mbw_mr_pairs_then_allreduce.txt", runs: []string{
			"osu: osu/mbw_mr/4/ osu/mbw_mr/4/", "osu: osu/allreduce/0/ osu/allreduce/0/",
			"osu: osu/allreduce/8/ osu/allreduce/8/", "osu: osu/latency/2/ osu/latency/2/"}},
		// a test that crashed after its header, or was cut off at the end
		{file: "osu_bw_then_crashed_latency.txt", runs: []string{"osu: osu/bw/2/ osu/bw/2/"}, problems: []string{
			"osu_bw_then_crashed_latency.txt:9: latency: a header with no results (the test did not finish?)",
			"osu_bw_then_crashed_latency.txt:18: bibw: a header with no results (the test did not finish?)"}},
		{file: "imb_pingping_crashed.txt", runs: []string{"imb: imb/PingPong/2/ imb/PingPong/2/"}, problems: []string{
			"imb_pingping_crashed.txt:24: PingPing: a header with no results (the test did not finish?)"}},
		// a table pasted under the launch line of IMB-P2P is IMB-P2P's
		{file: "imb_p2p_pasted_table.txt", runs: []string{"imb-p2p: imb-p2p/PingPong/2/ imb-p2p/PingPong/2/"},
			meta: map[string]string{"launch": "mpirun -np 2 ./IMB-P2P PingPong"}},
		// Intel MPI's "I_MPI_MPIRUN=mpirun" is no launch line; its rank
		// table and provider line say the nodes and the fabric
		{file: "imb_intel_debug_efa.txt",
			runs: []string{"imb: imb/PingPong/2/inter-node imb/PingPong/2/inter-node imb/PingPong/2/inter-node"},
			meta: map[string]string{"launch": "mpirun -n 2 -ppn 1 -hosts ip-10-0-0-11,ip-10-0-0-12 ./IMB-MPI1 PingPong -msglog 2:3",
				"nodes": "2", "nodes_from": "I_MPI_DEBUG rank table: ip-10-0-0-11 ip-10-0-0-12",
				"fabric": "efa", "fabric_from": "[0] MPI startup(): libfabric provider: efa"}},
		// a job script: its allocation, srun taking all of it, UCX
		{file: "osu_latency_slurm_ucx.txt",
			runs: []string{"osu: osu/latency/2/inter-node osu/latency/2/inter-node osu/latency/2/inter-node osu/latency/2/inter-node"},
			meta: map[string]string{"launch": "srun --mpi=pmix ./osu_latency -m 1:8", "nodes": "2", "nodes_from": "#SBATCH --nodes=2",
				"fabric": "ucx", "fabric_from": "export UCX_TLS=rc,sm,self"}},
		// a documentation page: a numbered footnote in the table is prose,
		// no malformed row, and the rows after it are the table's
		{file: "osu_doc_footnote.txt", runs: []string{
			"osu: osu/latency/2/inter-node osu/latency/2/inter-node osu/latency/2/inter-node osu/latency/2/inter-node"}},
		// launchers and the MPI library's lines, one run each
		{file: "osu_launch_forms.txt", runs: []string{"osu: osu/latency/2/inter-node osu/latency/2/inter-node",
			"osu: osu/latency/2/intra-node osu/latency/2/intra-node", "osu: osu/bw/2/inter-node osu/bw/2/inter-node",
			"osu: osu/bw/2/inter-node osu/bw/2/inter-node"},
			meta: map[string]string{"nodes": "2", "nodes_from": "jsrun -n2 -r1 -a1"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			f := load(t, c.file, Options{})
			if got := runFacts(f); strings.Join(got, "\n") != strings.Join(c.runs, "\n") {
				t.Errorf("runs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.runs, "\n"))
			}
			var got []string
			for _, p := range f.Problems {
				got = append(got, p.Error())
			}
			if strings.Join(got, "\n") != strings.Join(c.problems, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.problems, "\n"))
			}
			for k, want := range c.meta {
				if got := f.Runs[0].Run.Source.Meta[k]; got != want {
					t.Errorf("meta %s: %q, want %q", k, got, want)
				}
			}
		})
	}
}

// TestLocalityOption: -locality fills only what the log leaves unsure; a
// log's own evidence wins.
func TestLocalityOption(t *testing.T) {
	opt := Options{Locality: result.IntraNode}
	for _, c := range []struct{ file, want string }{
		{"osu_latency_slurm_ucx.txt", result.InterNode},           // #SBATCH --nodes=2, srun
		{"osu_mbw_mr_pairs_then_allreduce.txt", result.IntraNode}, // nothing said
	} {
		for _, x := range load(t, c.file, opt).Runs[0].Results {
			if x.Locality != c.want {
				t.Errorf("%s: %s %d B: locality %q, want %q", c.file, x.Benchmark, x.Bytes, x.Locality, c.want)
			}
		}
	}
}

// TestUnknownNPNote: a log that never says how many processes ran a
// collective gets one note (not one per run) naming the first such run
// and how to give the count; with -np, none.
func TestUnknownNPNote(t *testing.T) {
	log := "# OSU MPI Allreduce Latency Test v5.8\n# Size       Avg Latency(us)\n4                     901.17\n8                     823.98\n" +
		"\n# OSU MPI Allreduce Latency Test v5.8\n# Size       Avg Latency(us)\n4                     900.01\n8                     820.00\n"
	f, err := Import([]byte(log), "ar.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Notes) != 1 || !strings.Contains(f.Notes[0].Error(), "ar.txt:1: allreduce: the log does not say how many processes ran it") || len(f.Problems) != 0 {
		t.Errorf("notes %v, problems %v", f.Notes, f.Problems)
	}
	f, err = Import([]byte(log), "ar.txt", Options{NP: 64})
	if err != nil || len(f.Notes) != 0 || f.Runs[0].Results[0].NP != 64 {
		t.Errorf("-np 64: %v, notes %v", err, f.Notes)
	}
}

// TestThreadLinesAfterTitle: OSU 5 prints osu_latency_mp's process lines
// after its title (OSU 7 and gomb before it): they are that test's, never
// the next one's.
func TestThreadLinesAfterTitle(t *testing.T) {
	f := load(t, "osu5_latency_mp_then_mbw_mr.txt", Options{})
	if len(f.Runs) != 2 {
		t.Fatalf("%d runs", len(f.Runs))
	}
	const k = "Number of forked processes in sender"
	if mp, bw := f.Runs[0].Run.Source.Meta, f.Runs[1].Run.Source.Meta; mp[k] != "2" || bw[k] != "" {
		t.Errorf("latency_mp meta %v, mbw_mr meta %v", mp, bw)
	}
}

// TestIMBHeadings: IMB 4's note "# New default behavior from Version 3.2
// on:" is a heading, no key of the run's meta; "# Message lengths were
// user defined" (-msglen) is kept, and a text rendering says it again.
func TestIMBHeadings(t *testing.T) {
	log := `#------------------------------------------------------------
#    Intel (R) MPI Benchmarks 4.1, MPI-1 part
#------------------------------------------------------------
# Date                  : Thu Jul 14 12:57:26 2016
# MPI Version           : 2.1
# New default behavior from Version 3.2 on:

# the number of iterations per message size is cut down

# Calling sequence was:

# src_c/IMB-MPI1 -msglen ./msglens PingPong

# Message lengths were user defined
#

#---------------------------------------------------
# Benchmarking PingPong
# #processes = 2
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         3.09         0.00
         1024         1000         5.01       194.92
`
	f, err := Import([]byte(log), "imb41.txt", Options{})
	if err != nil || len(f.Runs) != 1 {
		t.Fatalf("%v, %d runs", err, len(f.Runs))
	}
	meta := f.Runs[0].Run.Source.Meta
	if _, ok := meta["New default behavior from Version 3.2 on"]; ok || meta["lengths"] != "user defined" {
		t.Errorf("meta %v", meta)
	}
}

// TestCountAndTofuInLogs: what a log's own lines say of the processes and
// the transport. OSU prints no process count: Intel MPI's rank table
// (I_MPI_DEBUG, a row a rank) gives it, and so do the ranks' greetings
// ("I am 5 of 8"); Fujitsu's Tofu is named by its library (libtofucom) or
// a libfabric provider line.
func TestCountAndTofuInLogs(t *testing.T) {
	osu := "# OSU MPI Allreduce Latency Test v7.1\n# Size       Avg Latency(us)\n4                       5.10\n8                       5.20\n"
	var table, hello strings.Builder
	table.WriteString("[0] MPI startup(): Rank    Pid      Node name  Pin cpu\n")
	for r := range 4 {
		fmt.Fprintf(&table, "[0] MPI startup(): %d       %d    cn0%d       {%d}\n", r, 41235+r, 1+r/2, r%2)
	}
	for r := range 8 {
		fmt.Fprintf(&hello, "I am %d of 8\n", r)
	}
	cases := []struct {
		name, log string
		np        int
		meta      map[string]string
	}{
		{"rank table", table.String() + osu, 4, map[string]string{"nodes": "2"}},
		{"greetings", hello.String() + osu, 8, nil},
		{"libtofucom", "loading /opt/FJSVxtclanga/tcsds-1.2.38/lib64/libtofucom.so\n" + osu, 0, map[string]string{"fabric": "tofu"}},
		{"libfabric provider", "[0] MPI startup(): libfabric provider: tofu\n" + osu, 0, map[string]string{"fabric": "tofu"}},
	}
	for _, c := range cases {
		f, err := Import([]byte(c.log), "job.out", Options{})
		if err != nil || len(f.Runs) != 1 {
			t.Fatalf("%s: %v, %d runs", c.name, err, len(f.Runs))
		}
		for _, x := range f.Runs[0].Results {
			if x.NP != c.np {
				t.Errorf("%s: np %d, want %d", c.name, x.NP, c.np)
			}
		}
		for k, v := range c.meta {
			if got := f.Runs[0].Run.Source.Meta[k]; got != v {
				t.Errorf("%s: meta %s %q, want %q", c.name, k, got, v)
			}
		}
	}
}
