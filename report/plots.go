package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gomb-hpc/gomb/analysis"
)

// palette: one colour per side or run (colour-blind friendly, Okabe-Ito).
var palette = []color.RGBA{
	{0, 114, 178, 255}, {213, 94, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255},
	{230, 159, 0, 255}, {86, 180, 233, 255}, {0, 0, 0, 255},
}

func colour(i int) color.RGBA { return palette[i%len(palette)] }

// faded is the colour, mostly transparent (not premultiplied).
func faded(c color.RGBA) color.NRGBA { return color.NRGBA{c.R, c.G, c.B, 60} }

// Plot is one rendered figure.
type Plot struct {
	Name string // file name without extension
	SVG  []byte
	PNG  []byte
}

// Curve is one side's profile of a series.
type Curve struct {
	Label   string
	Profile analysis.Profile
}

const width, height = 16 * vg.Centimeter, 10 * vg.Centimeter

func newPlot(title, xlabel, ylabel string, logY bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = sizeTicks{}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = valueTicks{}
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	return p
}

// sizeTicks marks powers of four in bytes: 1 B, 4 B, ..., 1 KiB, ..., 4 MiB.
type sizeTicks struct{}

func (sizeTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for v := 1.0; v <= max*1.0001; v *= 2 {
		if v < min/1.0001 {
			continue
		}
		t := plot.Tick{Value: v}
		if e := int(math.Round(math.Log2(v))); e%4 == 0 || e%2 == 0 && max/min < 1e4 {
			t.Label = analysis.Size(int64(v))
		}
		ts = append(ts, t)
	}
	return ts
}

// valueTicks marks 1, 2 and 5 times the powers of ten on a log axis, all
// labelled when the axis spans less than three decades, else the powers
// of ten only.
type valueTicks struct{}

func (valueTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	few := max/min < 1000
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v < min/1.0001 || v > max*1.0001 {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || few {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// render writes the plot as SVG and PNG. A range of one value (one size,
// or every speed exactly 1) is widened: a log axis cannot start at 0.
func render(p *plot.Plot, name string) (Plot, error) {
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		if ax.Min == ax.Max {
			if _, isLog := ax.Scale.(plot.LogScale); isLog {
				ax.Min, ax.Max = ax.Min/2, ax.Max*2
			} else {
				ax.Min, ax.Max = ax.Min-1, ax.Max+1
			}
		}
	}
	out := Plot{Name: name}
	for _, f := range []struct {
		format string
		dst    *[]byte
	}{{"svg", &out.SVG}, {"png", &out.PNG}} {
		w, err := p.WriterTo(width, height, f.format)
		if err != nil {
			return out, err
		}
		var b bytes.Buffer
		if _, err := w.WriteTo(&b); err != nil {
			return out, fmt.Errorf("plot %s: %w", name, err)
		}
		*f.dst = b.Bytes()
	}
	return out, nil
}

// addCurve draws a line with a dot at each point in the i-th colour.
func addCurve(p *plot.Plot, xy plotter.XYs, i int, label string) error {
	l, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return err
	}
	l.Color, pts.Color = colour(i), colour(i)
	pts.Shape = draw.CircleGlyph{}
	pts.Radius = vg.Points(2)
	p.Add(l, pts)
	p.Legend.Add(label, l, pts)
	return nil
}

// LatencyPlot draws time against size on log-log axes: each curve's t_avg
// as a line, the band from t_min to t_max shaded. Sizes of 0 bytes have
// no place on a log axis and are left out.
func LatencyPlot(name, title string, curves []Curve) (Plot, bool, error) {
	p := newPlot(title, "message size", "time [µs]", true)
	drawn := false
	for i, c := range curves {
		var line, band plotter.XYs
		var lower plotter.XYs
		for _, pt := range c.Profile.Points {
			if pt.Bytes <= 0 || !(pt.TAvg > 0) {
				continue
			}
			line = append(line, plotter.XY{X: float64(pt.Bytes), Y: pt.TAvg})
			if pt.TMin > 0 && pt.TMax > 0 {
				band = append(band, plotter.XY{X: float64(pt.Bytes), Y: pt.TMax})
				lower = append(lower, plotter.XY{X: float64(pt.Bytes), Y: pt.TMin})
			}
		}
		if len(line) == 0 {
			continue
		}
		drawn = true
		if len(band) > 1 {
			for j := len(lower) - 1; j >= 0; j-- {
				band = append(band, lower[j])
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return Plot{}, false, err
			}
			poly.Color = faded(colour(i))
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		if err := addCurve(p, line, i, c.Label+" (t_avg; band t_min-t_max)"); err != nil {
			return Plot{}, false, err
		}
	}
	if !drawn {
		return Plot{}, false, nil
	}
	out, err := render(p, name)
	return out, true, err
}

// BandwidthPlot draws MB/s against size, and the link rate when known.
func BandwidthPlot(name, title string, curves []Curve, linkMBps float64, linkLabel string) (Plot, bool, error) {
	p := newPlot(title, "message size", "bandwidth [MB/s, 10^6 B/s]", false)
	drawn := false
	maxX := 0.0
	for i, c := range curves {
		var line plotter.XYs
		for _, pt := range c.Profile.Points {
			if pt.Bytes <= 0 {
				continue
			}
			if v := pt.MBps; v > 0 {
				line = append(line, plotter.XY{X: float64(pt.Bytes), Y: v})
				maxX = math.Max(maxX, float64(pt.Bytes))
			}
		}
		if len(line) < 2 {
			continue
		}
		drawn = true
		if err := addCurve(p, line, i, c.Label); err != nil {
			return Plot{}, false, err
		}
	}
	if !drawn {
		return Plot{}, false, nil
	}
	if linkMBps > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: 1, Y: linkMBps}, {X: math.Max(maxX, 2), Y: linkMBps}})
		if err != nil {
			return Plot{}, false, err
		}
		l.Color = color.RGBA{150, 0, 0, 255}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add(linkLabel, l)
	}
	p.Y.Min = 0
	out, err := render(p, name)
	return out, true, err
}

// RatioPlot draws the speed multiplier per size with its interval, and
// the line of no change.
func RatioPlot(name, title string, rows []analysis.Row) (Plot, bool, error) {
	p := newPlot(title, "message size", "speed of B over A (higher = faster)", true)
	var pts plotter.XYs
	var errs plotter.YErrors
	for _, r := range rows {
		if r.Key.Bytes <= 0 || !(r.Speed > 0) {
			continue
		}
		pts = append(pts, plotter.XY{X: float64(r.Key.Bytes), Y: r.Speed})
		lo, hi := 0.0, 0.0
		if r.CI {
			lo, hi = r.Speed-r.Lo, r.Hi-r.Speed
		}
		errs = append(errs, struct{ Low, High float64 }{lo, hi})
	}
	if len(pts) == 0 {
		return Plot{}, false, nil
	}
	one, err := plotter.NewLine(plotter.XYs{{X: pts[0].X, Y: 1}, {X: pts[len(pts)-1].X, Y: 1}})
	if err != nil {
		return Plot{}, false, err
	}
	one.Color = color.RGBA{120, 120, 120, 255}
	one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return Plot{}, false, err
	}
	sc.Color = colour(0)
	sc.Shape = draw.CircleGlyph{}
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{pts, errs})
	if err != nil {
		return Plot{}, false, err
	}
	eb.Color = colour(0)
	p.Add(one, eb, sc)
	p.Legend.Add("B / A with its interval", sc)
	p.Legend.Add("no change", one)
	out, err := render(p, name)
	return out, true, err
}
