package report

import (
	"fmt"
	"image/color"
	"math"

	"github.com/gomb-hpc/gomb/internal/analysis"
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

// render draws the figure as SVG and as PNG.
func render(f *figure, name string) (Plot, error) {
	svg, raster := newSVG(), newRaster()
	f.draw(svg)
	f.draw(raster)
	out := Plot{Name: name, SVG: svg.bytes()}
	var err error
	if out.PNG, err = raster.png(); err != nil {
		return out, fmt.Errorf("plot %s: %w", name, err)
	}
	return out, nil
}

// LatencyPlot draws time against size on log-log axes: each curve's t_avg
// as a line, the band from t_min to t_max shaded. Sizes of 0 bytes have
// no place on a log axis and are left out.
func LatencyPlot(name, title string, curves []Curve) (Plot, bool, error) {
	f := &figure{title: title, xlabel: "message size", ylabel: "time [µs]", logY: true}
	for i, c := range curves {
		var line, upper, lower []pt
		for _, p := range c.Profile.Points {
			if p.Bytes <= 0 || !(p.TAvg > 0) {
				continue
			}
			line = append(line, pt{float64(p.Bytes), p.TAvg})
			if p.TMin > 0 && p.TMax > 0 {
				upper = append(upper, pt{float64(p.Bytes), p.TMax})
				lower = append(lower, pt{float64(p.Bytes), p.TMin})
			}
		}
		if len(line) == 0 {
			continue
		}
		if len(upper) > 1 {
			band := upper
			for j := len(lower) - 1; j >= 0; j-- {
				band = append(band, lower[j])
			}
			f.items = append(f.items, item{kind: polygonItem, xy: band, col: faded(colour(i))})
		}
		f.curve(line, opaque(colour(i)), c.Label+" (t_avg; band t_min-t_max)")
	}
	if len(f.legend) == 0 {
		return Plot{}, false, nil
	}
	out, err := render(f, name)
	return out, true, err
}

// BandwidthPlot draws MB/s against size, and the link rate when known.
func BandwidthPlot(name, title string, curves []Curve, linkMBps float64, linkLabel string) (Plot, bool, error) {
	f := &figure{title: title, xlabel: "message size", ylabel: "bandwidth [MB/s, 10^6 B/s]", yFrom0: true}
	maxX := 0.0
	for i, c := range curves {
		var line []pt
		for _, p := range c.Profile.Points {
			if p.Bytes > 0 && p.MBps > 0 {
				line = append(line, pt{float64(p.Bytes), p.MBps})
				maxX = math.Max(maxX, float64(p.Bytes))
			}
		}
		if len(line) >= 2 {
			f.curve(line, opaque(colour(i)), c.Label)
		}
	}
	if len(f.legend) == 0 {
		return Plot{}, false, nil
	}
	if linkMBps > 0 {
		red := color.NRGBA{150, 0, 0, 255}
		f.items = append(f.items, item{kind: lineItem, xy: []pt{{1, linkMBps}, {math.Max(maxX, 2), linkMBps}}, col: red, dashed: true})
		f.legend = append(f.legend, legendEntry{label: linkLabel, col: red, line: true, dashed: true})
	}
	out, err := render(f, name)
	return out, true, err
}

// RatioPlot draws the speed multiplier per size with its interval, and
// the line of no change.
func RatioPlot(name, title string, rows []analysis.Row) (Plot, bool, error) {
	f := &figure{title: title, xlabel: "message size", ylabel: "speed of B over A (higher = faster)", logY: true}
	var pts []pt
	var lo, hi []float64
	for _, r := range rows {
		if r.Key.Bytes <= 0 || !(r.Speed > 0) {
			continue
		}
		pts = append(pts, pt{float64(r.Key.Bytes), float64(r.Speed)})
		if r.CI {
			lo, hi = append(lo, float64(r.Lo)), append(hi, float64(r.Hi))
		} else {
			lo, hi = append(lo, float64(r.Speed)), append(hi, float64(r.Speed))
		}
	}
	if len(pts) == 0 {
		return Plot{}, false, nil
	}
	c, gray := opaque(colour(0)), color.NRGBA{120, 120, 120, 255}
	f.items = append(f.items,
		item{kind: lineItem, xy: []pt{{pts[0].x, 1}, {pts[len(pts)-1].x, 1}}, col: gray, dashed: true},
		item{kind: errorItem, xy: pts, lo: lo, hi: hi, col: c},
		item{kind: pointsItem, xy: pts, col: c})
	f.legend = append(f.legend,
		legendEntry{label: "B / A with its interval", col: c, dot: true},
		legendEntry{label: "no change", col: gray, line: true, dashed: true})
	out, err := render(f, name)
	return out, true, err
}

// IterationPlot draws a size's value at every timed iteration (osu -G
// png, as OSU's graphs: the iteration on a linear axis, the value as a
// dot), titled as OSU titles them.
func IterationPlot(name, title, ylabel string, values []float64) (Plot, error) {
	f := &figure{title: title, xlabel: "iteration", ylabel: ylabel, linearX: true, yFrom0: true}
	xy := make([]pt, len(values))
	for i, v := range values {
		xy[i] = pt{float64(i + 1), v}
	}
	f.items = append(f.items, item{kind: pointsItem, xy: xy, col: opaque(colour(0))})
	return render(f, name)
}
