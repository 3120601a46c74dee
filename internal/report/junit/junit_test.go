package junit

import (
	"bytes"
	"encoding/xml"
	"flag"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// checkResult is a check of two benchmarks: PingPong regressed at 1 KiB
// and 2 KiB (64 B-4 KiB band), unconfirmed at 8 B, and lacks 4 MiB;
// Allreduce lacks every size of its large band.
func checkResult() *analysis.CheckResult {
	row := func(bench string, np int, bytes int64, m analysis.Metric, base, value, change float64, verdict string) analysis.CheckRow {
		return analysis.CheckRow{Key: analysis.Key{Suite: "imb", Benchmark: bench, NP: np, Bytes: bytes}, Metric: m,
			Base: analysis.Float(base), Spread: analysis.Float(base * 0.01), BaseRuns: 5, Value: analysis.Float(value),
			Values: []analysis.Float{analysis.Float(value)}, Change: analysis.Float(change), Allowed: 0.05,
			Tolerance: analysis.Tolerance{Band: -1, Rel: 0.05}, Verdict: verdict}
	}
	nan := math.NaN()
	return &analysis.CheckResult{
		Rows: []analysis.CheckRow{
			row("PingPong", 2, 0, analysis.TMax, 0.40, 0.41, 0.025, analysis.VerdictOK),
			row("PingPong", 2, 8, analysis.TMax, 0.42, 0.60, 0.43, analysis.VerdictUnconfirmed),
			row("PingPong", 2, 1024, analysis.TMax, 1.10, 1.50, 0.364, analysis.VerdictRegression),
			row("PingPong", 2, 2048, analysis.TMax, 1.60, 2.10, 0.313, analysis.VerdictRegression),
			row("PingPong", 2, 4096, analysis.TMax, 2.00, 2.01, 0.005, analysis.VerdictOK),
			row("PingPong", 2, 4<<20, analysis.TMax, 1400, nan, nan, analysis.VerdictMissing),
			row("Allreduce", 4, 8, analysis.TAvg, 3.0, 2.5, -0.167, analysis.VerdictBetter),
			row("Allreduce", 4, 1<<20, analysis.TAvg, 800, nan, nan, analysis.VerdictMissing),
		},
		Regressions: 2, Unconfirmed: 1, Missing: 2,
		Warnings: []string{"the baseline has 1 run(s): its noise is unknown, only the tolerance applies"},
	}
}

// TestCheck: the report holds a suite per benchmark and a case per band,
// fails the band with the regressions, naming them and their numbers,
// skips the band the run lacks, and is valid against Jenkins' JUnit
// schema.
func TestCheck(t *testing.T) {
	var buf bytes.Buffer
	if err := Check(&buf, checkResult(), Options{Name: "gomb check", Time: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	testutil.Golden(t, filepath.Join("testdata", "check.golden"), buf.Bytes(), *update)

	var doc testsuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 5 || doc.Failures != 1 || len(doc.Suites) != 2 {
		t.Fatalf("%d tests, %d failures, %d suites; want 5, 1, 2", doc.Tests, doc.Failures, len(doc.Suites))
	}
	pp, ar := doc.Suites[0], doc.Suites[1]
	if pp.Name != "imb PingPong np 2" || len(pp.Cases) != 3 || pp.Failures != 1 || ar.Skipped != 1 {
		t.Fatalf("suites %+v", doc.Suites)
	}
	f := pp.Cases[1].Failure
	if pp.Cases[1].Name != "64 B-4 KiB" || f == nil || f.Message != "2 of 3 sizes regressed: 1 KiB +36.4%, 2 KiB +31.3%" ||
		!strings.Contains(f.Text, "1 KiB: t_max_us 1.50 µs against 1.10 µs ±0.01 (5 runs): +36.4%, allowed 5.0% (tolerance 5%): REGRESSION") {
		t.Errorf("failure %+v", f)
	}
	if pp.Cases[0].Failure != nil || pp.Cases[0].Out == nil || !strings.Contains(pp.Cases[0].Out.Text, "unconfirmed") {
		t.Errorf("an unconfirmed size fails its band: %+v", pp.Cases[0])
	}
	if ar.Cases[1].Skipped == nil || ar.Cases[1].Failure != nil {
		t.Errorf("a band the run lacks: %+v", ar.Cases[1])
	}

	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("GOMB_REQUIRE_XMLLINT") != "" {
			t.Fatal("xmllint (libxml2-utils) is required to validate the JUnit schema")
		}
		t.Skip("no xmllint (libxml2-utils): the schema is not checked")
	}
	file := filepath.Join(t.TempDir(), "check.xml")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit-10.xsd"), file).CombinedOutput(); err != nil {
		t.Fatalf("not valid JUnit: %v\n%s", err, out)
	}
	// and the schema is not blind: a case without a name is refused
	bad := bytes.Replace(buf.Bytes(), []byte(`<testcase name="64 B-4 KiB"`), []byte(`<testcase`), 1)
	if err := os.WriteFile(file, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit-10.xsd"), file).Run(); err == nil {
		t.Error("xmllint accepted a test case without a name")
	}
}
