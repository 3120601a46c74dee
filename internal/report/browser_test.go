package report

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestReportInBrowser drives the page in headless Chromium through the
// DevTools protocol (chromedp), as a reader would: the charts render;
// hovering a chart shows a size and every curve's value; a legend click
// hides a curve (and its line leaves the tooltip); dragging across sizes
// zooms; the log-y box switches the axis; the console stays silent (a
// script error or a content-security-policy violation would show there)
// and no request leaves the page. A screenshot goes to $GOMB_TEST_OUT
// (else out/test). Without Chromium the test is skipped, unless
// GOMB_REQUIRE_CHROMIUM is set (the test script sets it).
func TestReportInBrowser(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("GOMB_REQUIRE_CHROMIUM") != "" {
			t.Fatal("chromium is not installed")
		}
		t.Skip("chromium is not installed")
	}
	outDir := os.Getenv("GOMB_TEST_OUT")
	if outDir == "" {
		outDir = filepath.Join("..", "..", "out", "test")
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	outDir, _ = filepath.Abs(outDir)
	page := filepath.Join(outDir, "report.html")
	if err := os.WriteFile(page, []byte(html(t, build(t))), 0o644); err != nil {
		t.Fatal(err)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 1000), chromedp.UserDataDir(t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelT()

	var mu sync.Mutex
	var console, requests []string
	err = chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			console = append(console, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
		case *runtime.EventExceptionThrown:
			console = append(console, fmt.Sprintf("exception: %s %+v", e.ExceptionDetails.Text, e.ExceptionDetails.Exception))
		case *cdplog.EventEntryAdded:
			console = append(console, fmt.Sprintf("log %s %s: %s", e.Entry.Source, e.Entry.Level, e.Entry.Text))
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS(`body[data-rendered]`))); err != nil {
		t.Fatal(err)
	}
	rendered, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`body`), "data-rendered"))
	if err != nil {
		t.Fatal(err)
	}
	// PingPong: latency, bandwidth, speed of B over A; osu latency: latency, bandwidth
	if rendered.Value != "5 charts" {
		t.Fatalf("rendered %q, want 5 charts", rendered.Value)
	}

	// the fleet's heat maps: 6 x 6 cells a matrix, the slow link's two
	// coloured as 2x worse, the diagonal empty
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.heat td").length`)); err != nil || n != 72 {
		t.Errorf("heat map cells: %d (%v), want 72", n, err)
	}
	if c, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("table.heat td.h4")).backgroundColor`)); err != nil || c != "rgb(229, 115, 115)" {
		t.Errorf("a slow pair's cell is coloured %q (%v)", c, err)
	}

	first := "#c-01-imb-PingPong-np2-latency"
	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	floats := func(js string) []float64 {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	do(chromedp.ScrollIntoView(chromedp.CSS(first)))
	rect := floats(`(() => { const r = document.querySelector("` + first + ` .u-over").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
	if len(rect) != 4 || rect[2] < 200 {
		t.Fatalf("plot area %v", rect)
	}
	x, y := rect[0]+rect[2]*0.5, rect[1]+rect[3]*0.5
	tip := func() string {
		t.Helper()
		do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("`+first+` .tip").textContent`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// hover: the size and both sides' values
	hover := tip()
	if !regexp.MustCompile(`^\d+ (B|KiB|MiB)\n`).MatchString(hover) || strings.Count(hover, " µs") != 2 ||
		!strings.Contains(hover, "\nTCP: ") || !strings.Contains(hover, `IB <script>alert("x")</script>`) {
		t.Errorf("tooltip %q", hover)
	}
	// a legend click hides the first side's curve
	do(chromedp.Click(chromedp.CSS(first + " .u-legend .u-series:nth-child(2)")))
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`gombCharts[0].series[1].show`))
	if hover = tip(); err != nil || shown || strings.Contains(hover, "IB ") || !strings.Contains(hover, "TCP: ") {
		t.Errorf("after hiding the first curve: shown %v (%v), tooltip %q", shown, err, hover)
	}
	// dragging across a quarter of the sizes zooms in
	before := floats(`[gombCharts[0].scales.x.min, gombCharts[0].scales.x.max]`)
	do(chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, rect[0]+rect[2]*0.25, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, rect[0]+rect[2]*0.4, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, rect[0]+rect[2]*0.5, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, rect[0]+rect[2]*0.5, y, chromedp.ButtonLeft))
	after := floats(`[gombCharts[0].scales.x.min, gombCharts[0].scales.x.max]`)
	if len(before) != 2 || len(after) != 2 || !(after[0] > before[0] && after[1] < before[1]) {
		t.Errorf("zoom: sizes %v, then %v", before, after)
	}
	// log y off: the time axis turns linear
	do(chromedp.Click(chromedp.CSS(first + " input.logy")))
	if distr := floats(`[gombCharts[0].scales.y.distr]`); len(distr) != 1 || distr[0] != 1 {
		t.Errorf("y axis distribution %v after unticking log y, want 1 (linear)", distr)
	}

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: PNG
	if err != nil {
		t.Fatal(err)
	}
	shotFile := filepath.Join(outDir, "report.png")
	if err := os.WriteFile(shotFile, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s (%d bytes)", shotFile, len(shot))

	// the history dashboard: a chart per series; a hovered point names its
	// run, a click on it goes to the run's row
	hist := filepath.Join(outDir, "history.html")
	if err := os.WriteFile(hist, []byte(html(t, buildHistory(t))), 0o644); err != nil {
		t.Fatal(err)
	}
	do(chromedp.Navigate("file://"+hist), chromedp.WaitVisible(chromedp.CSS(`body[data-rendered]`)))
	if rendered, err = chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`body`), "data-rendered")); err != nil || rendered.Value != "3 charts" {
		t.Fatalf("history rendered %q (%v), want 3 charts", rendered.Value, err)
	}
	first = "#h-01"
	do(chromedp.ScrollIntoView(chromedp.CSS(first)))
	rect = floats(`(() => { const r = document.querySelector("` + first + ` .u-over").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
	x, y = rect[0]+rect[2]-1, rect[1]+rect[3]*0.5 // the newest run, slow
	if hover = tip(); !strings.Contains(hover, "UTC\nrun 100 (ucx, Open MPI v4.1.4): beyond the band\n") {
		t.Errorf("history tooltip %q", hover)
	}
	do(chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	if hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`)); err != nil || hash != "#run-100" {
		t.Errorf("a click on run 100's point went to %q (%v)", hash, err)
	}
	if shot, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outDir, "history.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, c := range console {
		t.Errorf("%s", c)
	}
	for _, u := range requests {
		if u != "file://"+page && u != "file://"+hist {
			t.Errorf("the page made a request: %s", u)
		}
	}
}

// BenchmarkReportLoad: how long a page takes to load and draw in headless
// Chromium, from navigation to the charts' rendered mark, and its size:
// the A/B report of the blog's logs (24 sizes, 5 charts) and a history of
// 100 runs (3 series).
func BenchmarkReportLoad(b *testing.B) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		b.Skip("chromium is not installed")
	}
	t := &testing.T{}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.UserDataDir(b.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		r    *Report
	}{{"ab-24-sizes", build(t)}, {"history-100-runs", buildHistory(t)}} {
		b.Run(c.name, func(b *testing.B) {
			page := filepath.Join(b.TempDir(), "report.html")
			data := html(t, c.r)
			if err := os.WriteFile(page, []byte(data), 0o644); err != nil {
				b.Fatal(err)
			}
			for range b.N {
				if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS(`body[data-rendered]`))); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(data)), "page-bytes")
		})
	}
}
