package report

import (
	"image/color"
	"math"
	"strconv"

	"github.com/gomb-hpc/gomb/internal/analysis"
)

// A figure is one plot before it is drawn: a log-scaled size axis, a
// linear or log value axis, and what goes on them. It draws itself on any
// canvas (svg.go, raster.go) with the same geometry, so the SVG and the
// PNG of a plot show the same thing. It is gomb's own: a plotting library
// parses a dozen fonts when the program starts, which every rank of a
// measurement would pay in memory.
type figure struct {
	title, xlabel, ylabel string
	linearX               bool // a linear x axis (iterations) instead of sizes
	logY                  bool
	yFrom0                bool // a linear axis that starts at 0
	items                 []item
	legend                []legendEntry
}

type itemKind int

const (
	lineItem    itemKind = iota // a polyline
	pointsItem                  // a dot at each point
	polygonItem                 // a filled region
	errorItem                   // a vertical bar from lo to hi at each point
)

type item struct {
	kind   itemKind
	xy     []pt
	lo, hi []float64 // errorItem: the bar's ends
	col    color.NRGBA
	dashed bool
}

type pt struct{ x, y float64 }

type legendEntry struct {
	label  string
	col    color.NRGBA
	line   bool // a line sample
	dot    bool // a dot sample
	dashed bool
}

// The geometry, in pixels of a 640 by 400 canvas (SVG: 16 cm by 10 cm).
const (
	figW, figH                         = 640.0, 400.0
	marginL, marginR, marginT, marginB = 78.0, 16.0, 34.0, 50.0
	fontSize                           = 12.0
	lineWidth                          = 1.5
	dotRadius                          = 2.5
)

// canvas is what a figure draws on; y grows downwards.
type canvas interface {
	polyline(p []pt, c color.NRGBA, width float64, dashed bool)
	polygon(p []pt, c color.NRGBA)
	circle(x, y, r float64, c color.NRGBA)
	// text at (x, y) on its baseline; anchor -1 start, 0 middle, 1 end;
	// vertical turns it a quarter counter-clockwise (y labels).
	text(x, y float64, s string, anchor int, vertical bool, c color.NRGBA)
}

var (
	black = color.NRGBA{0, 0, 0, 255}
	grey  = color.NRGBA{200, 200, 200, 255}
	white = color.NRGBA{255, 255, 255, 220}
)

func opaque(c color.RGBA) color.NRGBA { return color.NRGBA{c.R, c.G, c.B, 255} }

// curve adds a line with a dot at each point, and its legend entry.
func (f *figure) curve(xy []pt, c color.NRGBA, label string) {
	f.items = append(f.items, item{kind: lineItem, xy: xy, col: c}, item{kind: pointsItem, xy: xy, col: c})
	f.legend = append(f.legend, legendEntry{label: label, col: c, line: true, dot: true})
}

// bounds are the data ranges, widened where they are a single value (a log
// axis cannot start at 0).
func (f *figure) bounds() (x0, x1, y0, y1 float64, ok bool) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, it := range f.items {
		for i, p := range it.xy {
			ys := []float64{p.y}
			if it.kind == errorItem {
				ys = []float64{it.lo[i], it.hi[i]}
			}
			for _, y := range ys {
				if p.x <= 0 || (f.logY && y <= 0) || math.IsNaN(y) || math.IsInf(y, 0) {
					continue
				}
				x0, x1 = math.Min(x0, p.x), math.Max(x1, p.x)
				y0, y1 = math.Min(y0, y), math.Max(y1, y)
			}
		}
	}
	if x0 > x1 || y0 > y1 {
		return 0, 0, 0, 0, false
	}
	if f.yFrom0 {
		y0 = 0
	}
	switch {
	case x0 == x1 && f.linearX:
		x0, x1 = x0-1, x1+1
	case x0 == x1:
		x0, x1 = x0/2, x1*2
	}
	switch {
	case y0 == y1 && f.logY:
		y0, y1 = y0/2, y1*2
	case y0 == y1:
		y0, y1 = y0-1, y1+1
	case !f.logY:
		y1 += (y1 - y0) * 0.05 // room above the highest point
	}
	return x0, x1, y0, y1, true
}

// tick is a mark on an axis, labelled or not.
type tick struct {
	v     float64
	label string
}

// sizeTicks marks powers of two in bytes, labelling powers of four (all
// powers of two when the axis spans less than four decades).
func sizeTicks(lo, hi float64) []tick {
	var ts []tick
	for v := 1.0; v <= hi*1.0001; v *= 2 {
		if v < lo/1.0001 {
			continue
		}
		t := tick{v: v}
		if e := int(math.Round(math.Log2(v))); e%4 == 0 || e%2 == 0 && hi/lo < 1e4 {
			t.label = analysis.Size(int64(v))
		}
		ts = append(ts, t)
	}
	return ts
}

// logTicks marks 1, 2 and 5 times the powers of ten, all labelled when the
// axis spans less than three decades, else the powers of ten only.
func logTicks(lo, hi float64) []tick {
	var ts []tick
	few := hi/lo < 1000
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v < lo/1.0001 || v > hi*1.0001 {
				continue
			}
			t := tick{v: v}
			if m == 1 || few {
				t.label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// linearTicks marks round values (1, 2 or 5 times a power of ten apart),
// about six over the range.
func linearTicks(lo, hi float64) []tick {
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/6)))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(m*step) <= 7 {
			step *= m
			break
		}
	}
	var ts []tick
	for v := math.Ceil(lo/step) * step; v <= hi*1.0000001; v += step {
		ts = append(ts, tick{v: v, label: strconv.FormatFloat(v, 'g', 6, 64)})
	}
	return ts
}

// draw lays the figure out and draws it on c.
func (f *figure) draw(c canvas) {
	x0, x1, y0, y1, ok := f.bounds()
	if !ok {
		return
	}
	left, right, top, bottom := marginL, figW-marginR, marginT, figH-marginB
	lx0, lx1 := math.Log10(x0), math.Log10(x1)
	px := func(x float64) float64 { return left + (math.Log10(x)-lx0)/(lx1-lx0)*(right-left) }
	xticks := sizeTicks(x0, x1)
	if f.linearX {
		px = func(x float64) float64 { return left + (x-x0)/(x1-x0)*(right-left) }
		xticks = linearTicks(x0, x1)
	}
	py := func(y float64) float64 { return bottom - (y-y0)/(y1-y0)*(bottom-top) }
	yticks := linearTicks(y0, y1)
	if f.logY {
		ly0, ly1 := math.Log10(y0), math.Log10(y1)
		py = func(y float64) float64 { return bottom - (math.Log10(y)-ly0)/(ly1-ly0)*(bottom-top) }
		yticks = logTicks(y0, y1)
	}

	// grid and ticks
	for _, t := range xticks {
		x := px(t.v)
		c.polyline([]pt{{x, bottom}, {x, bottom + 4}}, black, 1, false)
		if t.label != "" {
			c.polyline([]pt{{x, top}, {x, bottom}}, grey, 0.7, false)
			c.text(x, bottom+17, t.label, 0, false, black)
		}
	}
	for _, t := range yticks {
		y := py(t.v)
		c.polyline([]pt{{left - 4, y}, {left, y}}, black, 1, false)
		if t.label != "" {
			c.polyline([]pt{{left, y}, {right, y}}, grey, 0.7, false)
			c.text(left-7, y+4, t.label, 1, false, black)
		}
	}

	// the data, clipped to positive values on log axes
	proj := func(p []pt) []pt {
		var out []pt
		for _, q := range p {
			if q.x > 0 && (!f.logY || q.y > 0) {
				out = append(out, pt{px(q.x), py(q.y)})
			}
		}
		return out
	}
	for _, it := range f.items {
		switch it.kind {
		case polygonItem:
			c.polygon(proj(it.xy), it.col)
		case lineItem:
			c.polyline(proj(it.xy), it.col, lineWidth, it.dashed)
		case pointsItem:
			for _, q := range proj(it.xy) {
				c.circle(q.x, q.y, dotRadius, it.col)
			}
		case errorItem:
			for i, q := range it.xy {
				if it.hi[i] > it.lo[i] && (!f.logY || it.lo[i] > 0) {
					x := px(q.x)
					c.polyline([]pt{{x, py(it.lo[i])}, {x, py(it.hi[i])}}, it.col, 1, false)
					c.polyline([]pt{{x - 3, py(it.lo[i])}, {x + 3, py(it.lo[i])}}, it.col, 1, false)
					c.polyline([]pt{{x - 3, py(it.hi[i])}, {x + 3, py(it.hi[i])}}, it.col, 1, false)
				}
			}
		}
	}

	// frame, labels, title
	c.polyline([]pt{{left, top}, {right, top}, {right, bottom}, {left, bottom}, {left, top}}, black, 1, false)
	c.text((left+right)/2, figH-12, f.xlabel, 0, false, black)
	c.text(16, (top+bottom)/2, f.ylabel, 0, true, black)
	c.text((left+right)/2, 20, f.title, 0, false, black)

	// legend, top left inside the frame
	if len(f.legend) > 0 {
		lw := 0.0
		for _, e := range f.legend {
			lw = math.Max(lw, float64(len([]rune(e.label)))*fontSize*0.6)
		}
		lh := float64(len(f.legend))*16 + 6
		c.polygon([]pt{{left + 6, top + 6}, {left + 40 + lw, top + 6}, {left + 40 + lw, top + 6 + lh}, {left + 6, top + 6 + lh}}, white)
		for i, e := range f.legend {
			y := top + 18 + float64(i)*16
			if e.line {
				c.polyline([]pt{{left + 10, y - 4}, {left + 30, y - 4}}, e.col, lineWidth, e.dashed)
			}
			if e.dot {
				c.circle(left+20, y-4, dotRadius, e.col)
			}
			c.text(left+36, y, e.label, -1, false, black)
		}
	}
}
