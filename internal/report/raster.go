package report

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// rasterCanvas draws a figure into an RGBA image for PNG: shapes through
// an anti-aliasing rasteriser, text in a 7x13 bitmap face (ASCII; µ is
// written u).
type rasterCanvas struct {
	img *image.RGBA
	r   *vector.Rasterizer
}

func newRaster() *rasterCanvas {
	img := image.NewRGBA(image.Rect(0, 0, int(figW), int(figH)))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	return &rasterCanvas{img: img, r: vector.NewRasterizer(int(figW), int(figH))}
}

func (c *rasterCanvas) png() ([]byte, error) {
	var b bytes.Buffer
	err := png.Encode(&b, c.img)
	return b.Bytes(), err
}

// fill rasterises one closed path (already added to c.r) in col.
func (c *rasterCanvas) fill(col color.NRGBA) {
	c.r.Draw(c.img, c.img.Bounds(), image.NewUniform(col), image.Point{})
	c.r.Reset(int(figW), int(figH))
}

func (c *rasterCanvas) polygon(p []pt, col color.NRGBA) {
	if len(p) < 3 {
		return
	}
	c.r.MoveTo(float32(p[0].x), float32(p[0].y))
	for _, q := range p[1:] {
		c.r.LineTo(float32(q.x), float32(q.y))
	}
	c.r.ClosePath()
	c.fill(col)
}

// polyline strokes each segment as a thin quadrilateral; dashed lines are
// cut into 6-on, 4-off pieces along their length.
func (c *rasterCanvas) polyline(p []pt, col color.NRGBA, width float64, dashed bool) {
	for i := 1; i < len(p); i++ {
		a, b := p[i-1], p[i]
		if !dashed {
			c.segment(a, b, width)
			continue
		}
		dx, dy := b.x-a.x, b.y-a.y
		n := math.Hypot(dx, dy)
		for s := 0.0; s < n; s += 10 {
			e := math.Min(s+6, n)
			c.segment(pt{a.x + dx*s/n, a.y + dy*s/n}, pt{a.x + dx*e/n, a.y + dy*e/n}, width)
		}
	}
	c.fill(col)
}

func (c *rasterCanvas) segment(a, b pt, width float64) {
	dx, dy := b.x-a.x, b.y-a.y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	ox, oy := -dy/n*width/2, dx/n*width/2
	c.r.MoveTo(float32(a.x+ox), float32(a.y+oy))
	c.r.LineTo(float32(b.x+ox), float32(b.y+oy))
	c.r.LineTo(float32(b.x-ox), float32(b.y-oy))
	c.r.LineTo(float32(a.x-ox), float32(a.y-oy))
	c.r.ClosePath()
}

func (c *rasterCanvas) circle(x, y, r float64, col color.NRGBA) {
	const n = 16
	p := make([]pt, n)
	for i := range p {
		a := 2 * math.Pi * float64(i) / n
		p[i] = pt{x + r*math.Cos(a), y + r*math.Sin(a)}
	}
	c.polygon(p, col)
}

func (c *rasterCanvas) text(x, y float64, s string, anchor int, vertical bool, col color.NRGBA) {
	s = strings.ReplaceAll(s, "µ", "u")
	if s == "" {
		return
	}
	face := basicfont.Face7x13
	w := font.MeasureString(face, s).Ceil()
	shift := map[int]int{-1: 0, 0: w / 2, 1: w}[anchor]
	if !vertical {
		d := font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: face,
			Dot: fixed.P(int(math.Round(x))-shift, int(math.Round(y)))}
		d.DrawString(s)
		return
	}
	// draw upright into a strip, then turn it a quarter counter-clockwise
	const h = 13
	strip := image.NewRGBA(image.Rect(0, 0, w, h))
	d := font.Drawer{Dst: strip, Src: image.NewUniform(col), Face: face, Dot: fixed.P(0, 10)}
	d.DrawString(s)
	rot := image.NewRGBA(image.Rect(0, 0, h, w))
	for sy := 0; sy < h; sy++ {
		for sx := 0; sx < w; sx++ {
			rot.SetRGBA(sy, w-1-sx, strip.RGBAAt(sx, sy))
		}
	}
	x0, y1 := int(math.Round(x))-10, int(math.Round(y))+shift
	draw.Draw(c.img, image.Rect(x0, y1-w+1, x0+h, y1+1), rot, image.Point{}, draw.Over)
}
