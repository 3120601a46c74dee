package e2e

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/importer"
)

// TestInterpretCommands drives compare, check, explain and report through
// the binary on the seeds' logs: the blog's two InfiniBand runs (archive
// runs 1 and 2) against its TCP run (3), and the VMI table.
func TestInterpretCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	env := []string{"GOMB_ARCHIVE=" + db}
	blog := testdata("imb-fabric-comparison-blog.txt")
	vmi := filepath.Join("..", "analysis", "testdata", "vmi_infiniband_latency_np2.txt")
	if _, se, code := gombCmd(t, env, "", "archive", "add", "-system", "dell", blog); code != 0 {
		t.Fatalf("archive add: %s", se)
	}
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr string // the one error line, exactly
	}{
		{"compare ids", []string{"compare", "1,2", "3"}, 0,
			[]string{"PingPong   2  4194304  t_max [µs]   2124  35730   2/1  0.059x", "| 0.014x !", "too few runs"}, ""},
		{"compare vs", []string{"compare", "1", "2", "vs", "3"}, 0, []string{"A: 1 2 (2 runs: dell, Intel MPI; inter-node)"}, ""},
		{"compare selections", []string{"compare", "system=dell last=3", "3"}, 0, []string{"B: 3 (1 run"}, ""},
		{"compare one side", []string{"compare", "1"}, exitUsage, nil, "gomb: compare: give two sides, A B or A... vs B... ('gomb compare -help')"},
		{"compare empty side", []string{"compare", "1", "vs"}, exitUsage, nil, "gomb: compare: runs on both sides of 'vs'"},
		{"compare no such file", []string{"compare", "nope.jsonl", "3"}, exitUsage, nil, `gomb: A: "nope.jsonl" is no file, run id or KEY=VALUE selection`},
		{"compare no such run", []string{"compare", "system=none", "3"}, exitUsage, nil, `gomb: A: no archived run matches "system=none"`},
		{"compare intra with inter", []string{"compare", testdata("gomb_records_osu_bw_np2.jsonl"), "3"}, exitUsage, nil,
			"gomb: compare: A is intra-node, B is inter-node: intra-node (shared memory) and inter-node (network) runs do not compare; keep their baselines apart or -force"},
		{"compare nothing in common", []string{"compare", "-force", testdata("gomb_records_osu_bw_np2.jsonl"), "3"}, exitUsage, nil,
			"gomb: compare: A and B have no benchmark, process count and size in common"},
		{"compare bad metric", []string{"compare", "-metric", "speed", "1", "3"}, exitUsage, nil,
			`gomb: compare: unknown metric "speed" (auto, t_avg_us, t_min_us, t_max_us, t_trimmed_us, mbytes_per_sec, link_efficiency)`},
		{"check regression", []string{"check", "-baseline", "1", "3"}, exitRegression, []string{"REGRESSION", "FAIL: 24 regressions", "PingPong (np 2) at 0 B, 1 B, 2 B"},
			"gomb: check: 24 regressions"},
		{"check pass", []string{"check", "-baseline", "1", "-tol", "10%", "2"}, 0, []string{"PASS: no regression beyond the tolerances in 24 points", "its noise is unknown"}, ""},
		{"check tolerance per band", []string{"check", "-baseline", "3", "-tol", "@0-32=1%", "1"}, 0, []string{"better"}, ""},
		{"check bad tolerance", []string{"check", "-baseline", "1", "-tol", "@1-2=5%", "2"}, exitUsage, nil,
			`gomb: check: invalid value "@1-2=5%" for flag -tol: tolerance "@1-2=5%": unknown size band "1-2" (0-32, 64-4K, 8K-256K, 512K-4M)`},
		{"check no baseline", []string{"check", "2"}, exitUsage, nil, "gomb: check: give -baseline ('gomb check -help')"},
		{"check no run", []string{"check", "-baseline", "1"}, exitUsage, nil, "gomb: check: give the run to check"},
		{"explain vmi", []string{"explain", vmi}, 0, []string{"protocol switch between 8 KiB and 16 KiB", "fits shared memory (one node) or InfiniBand"}, ""},
		{"explain ids", []string{"explain", "3"}, 0, []string{"105.8 µs fits kernel TCP/IP"}, ""},
		{"explain link", []string{"explain", "-link", "100Gb/s", "1"}, 0, []string{"of the link"}, ""},
		{"explain bad link", []string{"explain", "-link", "fast", "1"}, exitUsage, nil,
			`gomb: explain: invalid value "fast" for flag -link: want a rate in Gb/s (100, 200Gb/s, 25GbE, 12.5GB/s), got "fast"`},
		{"explain nothing", []string{"explain"}, exitUsage, nil, "gomb: explain: give the run to explain ('gomb explain -help')"},
		{"report unwritable", []string{"report", "1", "-o", filepath.Join(dir, "no", "such", "r.html"), "-plots", filepath.Join(dir, "p")}, exitFailure, nil, ""},
		{"report nothing", []string{"report"}, exitUsage, nil, "gomb: report: give the runs to report ('gomb report -help')"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			so, se, code := gombCmd(t, env, "", c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, so, se)
			}
			for _, want := range c.stdout {
				if !strings.Contains(so, want) {
					t.Errorf("stdout lacks %q:\n%s", want, so)
				}
			}
			if c.stderr != "" && strings.TrimSpace(se) != c.stderr {
				t.Errorf("stderr %q, want %q", se, c.stderr)
			}
		})
	}
	// -json: the result as JSON on stdout, the table on stderr
	so, se, code := gombCmd(t, env, "", "explain", "-json", "-", vmi)
	var ex []struct {
		Findings []struct{ Kind, Summary string }
	}
	if code != 0 || json.Unmarshal([]byte(so), &ex) != nil || len(ex) != 1 || len(ex[0].Findings) < 2 || !strings.Contains(se, "protocol switch between 8 KiB and 16 KiB") {
		t.Errorf("explain -json -: exit %d, %d runs\n%s", code, len(ex), so)
	}
	so, _, code = gombCmd(t, env, "", "compare", "-json", "-", "1,2", "3")
	var cmp struct {
		Rows []struct {
			Speed       float64
			Significant bool
		}
	}
	if code != 0 || json.Unmarshal([]byte(so), &cmp) != nil || len(cmp.Rows) != 24 || cmp.Rows[0].Speed > 0.02 {
		t.Errorf("compare -json -: exit %d\n%.300s", code, so)
	}
	// check -junit: the verdicts for the CI's test report, a case per band
	junitFile := filepath.Join(dir, "check.xml")
	_, se, code = gombCmd(t, env, "", "check", "-baseline", "1", "-junit", junitFile, "3")
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	data, _ := os.ReadFile(junitFile)
	if code != exitRegression || xml.Unmarshal(data, &suites) != nil || suites.Tests != 4 || suites.Failures != 4 ||
		len(suites.Suites) != 1 || suites.Suites[0].Name != "imb PingPong np 2" || suites.Suites[0].Cases[0].Failure == nil ||
		!strings.HasPrefix(suites.Suites[0].Cases[0].Failure.Message, "7 of 7 sizes regressed: 0 B +7") {
		t.Errorf("check -junit: exit %d %s\n%.600s", code, se, data)
	}
	so, se, code = gombCmd(t, env, "", "check", "-baseline", "1", "-tol", "10%", "-junit", "-", "2")
	if code != 0 || !strings.HasPrefix(so, "<?xml") || !strings.Contains(so, `failures="0"`) || !strings.Contains(se, "PASS: no regression") {
		t.Errorf("check -junit -: exit %d\n%.300s\n%s", code, so, se)
	}
	// compare -format csv: a row a size, every number in full
	so, _, code = gombCmd(t, env, "", "compare", "-format", "csv", "1,2", "3")
	recs, err := csv.NewReader(strings.NewReader(so)).ReadAll()
	if code != 0 || err != nil || len(recs) != 25 || recs[0][11] != "speed" || recs[1][1] != "PingPong" || recs[1][3] != "0" {
		t.Fatalf("compare -format csv: exit %d, %v\n%.300s", code, err, so)
	}
	if v, err := strconv.ParseFloat(recs[1][11], 64); err != nil || v > 0.02 || recs[1][12] != "" {
		t.Errorf("speed %q (%v), interval %q", recs[1][11], err, recs[1][12])
	}
	if _, se, code := gombCmd(t, env, "", "compare", "-format", "xlsx", "1", "3"); code != exitUsage ||
		strings.TrimSpace(se) != `gomb: compare: -format "xlsx": want text or csv` {
		t.Errorf("compare -format xlsx: exit %d %s", code, se)
	}
	// report: the page and its plots
	out := filepath.Join(dir, "r.html")
	_, se, code = gombCmd(t, env, "", "report", "1,2", "vs", "3", vmi, "-o", out, "-title", "IB vs TCP")
	if code != 0 || !strings.Contains(se, "wrote "+out+" and 10 plot files in "+filepath.Join(dir, "r_plots")) {
		t.Fatalf("report: exit %d: %s", code, se)
	}
	page, _ := os.ReadFile(out)
	for _, want := range []string{"<title>IB vs TCP</title>", `<table id="bands">`, "Findings", "data:image/svg"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	plots, _ := filepath.Glob(filepath.Join(dir, "r_plots", "*"))
	if len(plots) != 10 {
		t.Errorf("%d plot files: %v", len(plots), plots)
	}
}

// TestExplainHistory: five runs of a system in the archive, the last
// 1.9× slower from 8 KiB on; explain of that run by id holds it against
// the four before it and warns, naming the benchmark and the factor; with
// -history 0, or for the first run (no earlier ones), it says nothing of
// history.
func TestExplainHistory(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	env := []string{"GOMB_ARCHIVE=" + db}
	f, err := importer.ImportFile(testdata("gomb_records_osu_bw_np2.jsonl"), "bw", importer.Options{}, nil)
	if err != nil || len(f.Runs) != 1 {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		b := f.Runs[0]
		b.Run.RunID = fmt.Sprintf("history-%d", i)
		b.Run.Start = time.Date(2026, 11, 1+i, 12, 0, 0, 0, time.UTC)
		var out bytes.Buffer
		for _, r := range b.Results {
			r.RunID = b.Run.RunID
			if i == 4 && r.Bytes >= 8 {
				r.MBps /= 1.9
			}
		}
		if b.End != nil {
			b.End.RunID = b.Run.RunID
		}
		if err := b.Encode(&out); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("r%d.jsonl", i))
		if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, se, code := gombCmd(t, env, "", "archive", "add", "-system", "hpc4", p); code != 0 {
			t.Fatalf("archive add: %s", se)
		}
	}
	so, se, code := gombCmd(t, env, "", "explain", "5")
	if code != 0 || !strings.Contains(so, "WARNING [history] bw (np 2): 1.9× slower than its median over the last 4 runs of this system at 8 B and 16 B") {
		t.Errorf("explain 5: exit %d\n%s%s", code, so, se)
	}
	// compare of one launch a side: the launch noise is measured over the
	// archive's earlier runs of the system (identical here: the 2% floor)
	so, _, _ = gombCmd(t, env, "", "compare", "4", "5")
	if !strings.Contains(so, "noise of 2% (measured over the archive's last 3 runs of system=hpc4)") || !strings.Contains(so, "0.53x  ") {
		t.Errorf("compare 4 5:\n%s", so)
	}
	for _, args := range [][]string{{"explain", "-history", "0", "5"}, {"explain", "1"}} {
		if so, _, _ := gombCmd(t, env, "", args...); strings.Contains(so, "[history]") {
			t.Errorf("%v:\n%s", args, so)
		}
	}
}

// historyLogs writes n IMB-MPI1 logs of PingPong and Allreduce, a day
// apart, from a real log: the times of day k scaled by scale(k); and
// returns their paths.
func historyLogs(t *testing.T, dir string, n int, scale func(k int) float64) []string {
	t.Helper()
	tmpl, err := os.ReadFile(testdata("imb_np2_iter100_policy_off.txt"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^( +\d+ +\d+)((?: +\d+\.\d+)+)$`)
	start := time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)
	var paths []string
	for k := range n {
		f := scale(k)
		day := start.AddDate(0, 0, k)
		text := strings.Replace(string(tmpl), "Mon Nov 30 03:34:15 2026", day.Format("Mon Jan _2 15:04:05 2006"), 1)
		text = row.ReplaceAllStringFunc(text, func(l string) string {
			m := row.FindStringSubmatch(l)
			var out strings.Builder
			out.WriteString(m[1])
			vs := strings.Fields(m[2])
			for i, v := range vs {
				x, _ := strconv.ParseFloat(v, 64)
				if len(vs) == 2 && i == 1 { // PingPong's Mbytes/sec
					x /= f * f
				}
				fmt.Fprintf(&out, " %12.2f", x*f)
			}
			return out.String()
		})
		p := filepath.Join(dir, fmt.Sprintf("day%03d.txt", k))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestReportHistory: 100 archived runs of a system a day apart, config
// "base" then "ucx" from day 60, the last five 1.6x slower; the dashboard
// follows the tracks over time with the first runs' band, rings the slow
// runs, marks the config change, and lists every run.
func TestReportHistory(t *testing.T) {
	dir := t.TempDir()
	env := []string{"GOMB_ARCHIVE=" + filepath.Join(dir, "a.db")}
	logs := historyLogs(t, dir, 100, func(k int) float64 {
		if k >= 95 {
			return 1.6
		}
		return 1 + 0.01*float64(k%3)
	})
	if _, se, code := gombCmd(t, env, "", append([]string{"archive", "add", "-system", "sim", "-config", "base"}, logs[:60]...)...); code != 0 {
		t.Fatalf("archive add: %s", se)
	}
	if _, se, code := gombCmd(t, env, "", append([]string{"archive", "add", "-system", "sim", "-config", "ucx"}, logs[60:]...)...); code != 0 {
		t.Fatalf("archive add: %s", se)
	}
	out := filepath.Join(dir, "h.html")
	_, se, code := gombCmd(t, env, "", "report", "-history", "system=sim", "-o", out)
	if code != 0 || !strings.Contains(se, "4 series, 100 runs") {
		t.Fatalf("report -history: exit %d: %s", code, se)
	}
	page, _ := os.ReadFile(out)
	p := string(page)
	for _, want := range []string{"<title>History of system=sim</title>", `id="run-100"`, `id="run-1"`,
		"PingPong 8 B t_avg_us, np 2", "PingPong 4 MiB mbytes_per_sec, np 2", "Allreduce 1 MiB t_avg_us, np 2",
		"band: the median of 5 reference runs", `"text":"ucx`} {
		if !strings.Contains(p, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// the five slow runs are beyond the band on every track, no other run is
	beyond := regexp.MustCompile(`<tr id="run-(\d+)">(?:<td>[^<]*</td>){5}<td>([^<]+)</td></tr>`).FindAllStringSubmatch(p, -1)
	if len(beyond) != 5 {
		t.Errorf("%d runs beyond the band, want 5: %v", len(beyond), beyond)
	}
	for _, b := range beyond {
		if id, _ := strconv.Atoi(b[1]); id < 96 || strings.Count(b[2], ";") != 3 {
			t.Errorf("run %s beyond on %q", b[1], b[2])
		}
	}
	if st, _ := os.Stat(out); st != nil {
		t.Logf("history page of 100 runs, 4 series: %d bytes", st.Size())
	}
	// a time window of the selection, and a reference of its own
	_, se, code = gombCmd(t, env, "", "report", "-history", "system=sim", "since=2026-03-01", "-reference", "config=ucx last=10",
		"-track", "PingPong@8", "-o", out)
	page, _ = os.ReadFile(out)
	if code != 0 || !strings.Contains(se, "1 series, 41 runs") || !strings.Contains(string(page), "band: the median of 10 reference runs") {
		t.Errorf("report -history since=: exit %d: %s", code, se)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report", "-history", "system=none", "-o", out}, `report -history: no run of "system=none" has any of`},
		{[]string{"report", "-track", "PingPong@8", "1", "-o", out}, "report: -track, -reference and -reference-runs need -history"},
		{[]string{"report", "-history", "-track", "PingPong@8:speed", "system=sim", "-o", out}, `metric "speed"`},
		{[]string{"report", "-history", "-track", "PingPong@", "system=sim", "-o", out}, `track "PingPong@": want BENCH[@SIZE][:METRIC]`},
		{[]string{"report", "-history", "-reference", "config=none", "system=sim", "-o", out}, `report -reference "config=none": no run it selects has any of`},
	} {
		if _, se, code := gombCmd(t, env, "", c.args...); code != exitUsage || !strings.Contains(se, c.want) {
			t.Errorf("%v: exit %d %q, want %q", c.args, code, se, c.want)
		}
	}
}
