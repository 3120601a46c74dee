package report

import (
	"bytes"
	"encoding/xml"
	"flag"
	htmlpkg "html"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/suite"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

func load(t *testing.T, path string, opt importer.Options) []*result.Bundle {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := importer.Import(data, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	return f.Runs
}

const hostile = `<script>alert("x")</script> & "quotes"`

// build makes an A/B report of the blog's InfiniBand runs against its TCP
// run, with the VMI table as a third series, and a hostile label.
func build(t *testing.T) *Report {
	t.Helper()
	blog := load(t, "../../importer/testdata/imb-fabric-comparison-blog.txt", importer.Options{Labels: map[string]string{"system": hostile}})
	vmi := load(t, "../analysis/testdata/vmi_infiniband_latency_np2.txt", importer.Options{})
	a, b := append(append([]*result.Bundle{}, blog[:2]...), vmi...), blog[2:]
	c, err := analysis.Compare("IB "+hostile, a, "TCP", b, analysis.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Title: "report " + hostile, Generated: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Comparison: c,
		Link: analysis.Link{Gbps: 100, Source: "test " + hostile},
		Sides: []Side{
			{Label: "IB " + hostile, Runs: []string{"blog run 1 " + hostile, "blog run 2", "vmi"}, Profiles: analysis.Profiles(a)},
			{Label: "TCP", Runs: []string{"blog run 3"}, Profiles: analysis.Profiles(b)}}}
	for _, r := range append(a, b...) {
		in.Findings = append(in.Findings, RunFindings{Run: r.Run.Source.File + " " + hostile, Findings: analysis.Explain(r, analysis.ExplainOptions{})})
	}
	// a fleet sweep on six emulated hosts, the link h2 - h5 at 200 Mbit/s
	for _, r := range load(t, "testdata/fleet_testbed.jsonl", importer.Options{}) {
		in.Fleets = append(in.Fleets, Fleet{Run: "fleet " + hostile, Fleet: analysis.FleetOf(r, analysis.DefaultThresholds)})
	}
	rep, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func html(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReportContent: the sections are there, every plot is inline, nothing
// points outside the file, and every string from a log or a label is
// escaped.
func TestReportContent(t *testing.T) {
	r := build(t)
	page := html(t, r)
	// PingPong: latency, bandwidth, speed; osu latency: latency and bandwidth (A only)
	if len(r.Sections) != 2 || len(r.Sections[0].Plots) != 3 || len(r.Sections[1].Plots) != 2 || len(r.Ratio) != 1 {
		t.Fatalf("sections %d, plots %d %d, ratio plots %d", len(r.Sections), len(r.Sections[0].Plots), len(r.Sections[1].Plots), len(r.Ratio))
	}
	for _, want := range []string{`<table id="bands">`, "0.014x !", "protocol switch between 8 KiB and 16 KiB",
		"fits kernel TCP/IP", "default-src 'none'", "script-src 'sha256-", "Link rate: 100 Gb/s",
		// the fleet's heat maps: the slow link's cell, both ways, and its culprit
		"<caption>Bandwidth, MB/s</caption>", `<td class="h4">24</td>`, "link gtbx-h2 - gtbx-h5: bandwidth 1% of the fleet's"} {
		if !strings.Contains(htmlpkg.UnescapeString(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, `<script>alert`) || strings.Contains(page, `"quotes"`) {
		t.Error("a label reached the page unescaped")
	}
	if n := strings.Count(page, "&lt;script&gt;alert("); n < 4 {
		t.Errorf("the hostile label appears escaped %d times, want it in title, sides, runs and findings", n)
	}
	if regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(page) || strings.Contains(page, "url(") {
		t.Error("the page refers to something outside itself")
	}
	// the static plots stay in the page for readers without scripts
	imgs := regexp.MustCompile(`<img [^>]*src="([^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(imgs) != 5 {
		t.Errorf("%d images, want 5", len(imgs))
	}
	// scripts: uPlot, gomb's charts and the JSON data, nothing else; the
	// policy allows exactly the two by hash and no inline handler
	csp := regexp.MustCompile(`script-src[^"]*`).FindString(htmlpkg.UnescapeString(page))
	if n := strings.Count(page, "<script"); n != 3 || strings.Count(csp, "'sha256-") != 2 || strings.Contains(csp, "unsafe") {
		t.Errorf("%d script elements; policy %q", n, csp)
	}
	for _, m := range imgs {
		if !strings.HasPrefix(htmlpkg.UnescapeString(m[1]), "data:image/svg+xml;base64,") {
			t.Errorf("image not inline: %.60s", m[1])
		}
	}
}

var update = flag.Bool("update", false, "rewrite the golden files")

// TestReportGolden: the whole page, plots inline, for fixed runs and a
// fixed clock (go test -update rewrites testdata/report.html).
func TestReportGolden(t *testing.T) {
	page := html(t, build(t))
	if again := html(t, build(t)); again != page {
		t.Fatalf("two builds of the same report differ:\n%s", testutil.Diff(page, again))
	}
	testutil.Golden(t, filepath.Join("testdata", "report.html"), []byte(page), *update)
}

// TestPlotFiles: every plot is written as SVG (well-formed XML) and PNG
// (decodes, the size asked).
func TestPlotFiles(t *testing.T) {
	r := build(t)
	dir := t.TempDir()
	files, err := r.WritePlots(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 10 {
		t.Fatalf("%d files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(f) {
		case ".svg":
			d := xml.NewDecoder(bytes.NewReader(data))
			for {
				if _, err := d.Token(); err != nil {
					if err.Error() != "EOF" {
						t.Errorf("%s: %v", f, err)
					}
					break
				}
			}
		case ".png":
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil || img.Bounds().Dx() < 400 {
				t.Errorf("%s: %v %v", f, err, img.Bounds())
			}
		}
	}
}

// TestTitle: the sides and their benchmarks, each benchmark once, the
// first three of many.
func TestTitle(t *testing.T) {
	side := func(label string, benches ...string) Side {
		s := Side{Label: label}
		for _, b := range benches {
			s.Profiles = append(s.Profiles, analysis.Profile{Series: analysis.Series{Benchmark: b}})
		}
		return s
	}
	for _, c := range []struct {
		sides []Side
		want  string
	}{
		{[]Side{side("dell, Intel MPI", "PingPong"), side("run 3", "PingPong")}, "dell, Intel MPI vs run 3: PingPong"},
		{[]Side{side("a", "PingPong", "Allreduce", "Bcast", "Reduce", "Barrier")}, "a: PingPong, Allreduce, Bcast, and 2 more"},
	} {
		if got := Title(c.sides); got != c.want {
			t.Errorf("Title: %q, want %q", got, c.want)
		}
	}
}

// TestSuiteInput: a suite's report has its table on top and one side of
// every run its records hold, each named by row, repetition and command
// (a run record without a command too); a run without records has none.
func TestSuiteInput(t *testing.T) {
	run := func(row, rep string, cmd ...string) *result.Bundle {
		return &result.Bundle{Run: &result.Run{Labels: map[string]string{"row": row, "rep": rep}, Command: cmd}}
	}
	tab := &suite.Table{Suite: "s", Title: "S against X", Runs: []*result.Bundle{run("lat", "1", "gomb", "osu", "latency"), run("odd", "")},
		Profiles: []analysis.Profile{{Series: analysis.Series{Benchmark: "latency"}}}}
	in := SuiteInput(tab, time.Time{})
	if in.Title != tab.Title || in.Suite != tab || len(in.Sides) != 1 || in.Sides[0].Label != "s" || len(in.Sides[0].Profiles) != 1 ||
		strings.Join(in.Sides[0].Runs, "|") != "lat rep 1: osu latency|odd rep : " {
		t.Errorf("%+v", in)
	}
	if in := SuiteInput(&suite.Table{Suite: "s"}, time.Time{}); in.Sides != nil {
		t.Errorf("no runs: sides %+v", in.Sides)
	}
}
