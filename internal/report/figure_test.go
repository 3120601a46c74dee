package report

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/analysis"
)

func labels(ts []tick) []string {
	var out []string
	for _, t := range ts {
		if t.label != "" {
			out = append(out, t.label)
		}
	}
	return out
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		name string
		got  []tick
		all  int
		want string
	}{
		// 1 B .. 4 MiB: 23 powers of two, powers of four labelled (the axis spans
		// more than four decades)
		{"sizes 1 B-4 MiB", sizeTicks(1, 4<<20), 23, "1 B,16 B,256 B,4 KiB,64 KiB,1 MiB"},
		// 8 B .. 4 KiB spans less than four decades: every even power of two
		{"sizes 8 B-4 KiB", sizeTicks(8, 4096), 10, "16 B,64 B,256 B,1 KiB,4 KiB"},
		// 0.3 .. 40 µs: 1, 2, 5 per decade, all labelled (under three decades)
		{"log 0.3-40", logTicks(0.3, 40), 6, "0.5,1,2,5,10,20"},
		// 0.01 .. 1000: 1, 2, 5 in five decades and 1000; only the powers of ten labelled
		{"log 0.01-1000", logTicks(0.01, 1000), 16, "0.01,0.1,1,10,100,1000"},
		// 0 .. 1234 MB/s: steps of 200
		{"linear 0-1234", linearTicks(0, 1234), 7, "0,200,400,600,800,1000,1200"},
	} {
		if len(c.got) != c.all || strings.Join(labels(c.got), ",") != c.want {
			t.Errorf("%s: %d ticks labelled %q, want %d labelled %q", c.name, len(c.got), strings.Join(labels(c.got), ","), c.all, c.want)
		}
	}
}

// TestFigure: a plot is the same bytes every time, its SVG is well-formed
// XML with the title escaped, the band, the line, the dots and the legend,
// and its PNG decodes at the figure's size.
func TestFigure(t *testing.T) {
	prof := analysis.Profile{}
	for i, b := range []int64{0, 1, 8, 1024, 65536, 1 << 20} {
		v := 0.5 + float64(i)*float64(b)/1e4
		prof.Points = append(prof.Points, analysis.ProfilePoint{Bytes: b, TMin: v * 0.9, TAvg: v, TMax: v * 1.2})
	}
	curves := []Curve{{Label: `run <1> & "x"`, Profile: prof}}
	a, ok, err := LatencyPlot("lat", "PingPong <np 2>", curves)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	b, _, _ := LatencyPlot("lat", "PingPong <np 2>", curves)
	if !bytes.Equal(a.SVG, b.SVG) || !bytes.Equal(a.PNG, b.PNG) {
		t.Error("the same figure drawn twice differs")
	}
	svg := string(a.SVG)
	for _, want := range []string{"PingPong &lt;np 2&gt;", "run &lt;1&gt; &amp; &#34;x&#34;", "<polygon", "<polyline", "<circle", ">4 KiB<", ">time [µs]<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	d := xml.NewDecoder(bytes.NewReader(a.SVG))
	for {
		if _, err := d.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Errorf("SVG: %v", err)
			}
			break
		}
	}
	img, err := png.Decode(bytes.NewReader(a.PNG))
	if err != nil || img.Bounds().Dx() != int(figW) || img.Bounds().Dy() != int(figH) {
		t.Fatalf("PNG: %v %v", err, img.Bounds())
	}
	// something was drawn in the plot area: not all white
	dark := 0
	for y := 0; y < int(figH); y++ {
		for x := 0; x < int(figW); x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
				dark++
			}
		}
	}
	if dark < 2000 {
		t.Errorf("PNG: only %d dark pixels", dark)
	}
	if _, ok, _ := LatencyPlot("none", "empty", []Curve{{Label: "x"}}); ok {
		t.Error("a plot without points was drawn")
	}
}
