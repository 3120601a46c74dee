package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"strings"
)

// svgCanvas writes SVG 1.1: one element per mark, coordinates to two
// decimals, so a figure always gives the same bytes.
type svgCanvas struct{ b bytes.Buffer }

func newSVG() *svgCanvas {
	c := &svgCanvas{}
	fmt.Fprintf(&c.b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="16cm" height="10cm" viewBox="0 0 %g %g" font-family="Liberation Sans, Arial, Helvetica, sans-serif" font-size="%g">`+"\n", figW, figH, fontSize)
	fmt.Fprintf(&c.b, `<rect width="%g" height="%g" fill="white"/>`+"\n", figW, figH)
	return c
}

func (c *svgCanvas) bytes() []byte {
	c.b.WriteString("</svg>\n")
	return c.b.Bytes()
}

func rgb(col color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", col.R, col.G, col.B) }

func opacity(col color.NRGBA) string {
	if col.A == 255 {
		return ""
	}
	return fmt.Sprintf(` opacity="%.3f"`, float64(col.A)/255)
}

func points(p []pt) string {
	var s strings.Builder
	for i, q := range p {
		if i > 0 {
			s.WriteByte(' ')
		}
		fmt.Fprintf(&s, "%.2f,%.2f", q.x, q.y)
	}
	return s.String()
}

func (c *svgCanvas) polyline(p []pt, col color.NRGBA, width float64, dashed bool) {
	if len(p) < 2 {
		return
	}
	dash := ""
	if dashed {
		dash = ` stroke-dasharray="6,4"`
	}
	fmt.Fprintf(&c.b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%g"%s%s/>`+"\n", points(p), rgb(col), width, dash, opacity(col))
}

func (c *svgCanvas) polygon(p []pt, col color.NRGBA) {
	if len(p) < 3 {
		return
	}
	fmt.Fprintf(&c.b, `<polygon points="%s" fill="%s"%s/>`+"\n", points(p), rgb(col), opacity(col))
}

func (c *svgCanvas) circle(x, y, r float64, col color.NRGBA) {
	fmt.Fprintf(&c.b, `<circle cx="%.2f" cy="%.2f" r="%g" fill="%s"%s/>`+"\n", x, y, r, rgb(col), opacity(col))
}

func (c *svgCanvas) text(x, y float64, s string, anchor int, vertical bool, col color.NRGBA) {
	if s == "" {
		return
	}
	a := map[int]string{-1: "start", 0: "middle", 1: "end"}[anchor]
	rot := ""
	if vertical {
		rot = fmt.Sprintf(` transform="rotate(-90 %.2f %.2f)"`, x, y)
	}
	fmt.Fprintf(&c.b, `<text x="%.2f" y="%.2f" text-anchor="%s" fill="%s"%s>`, x, y, a, rgb(col), rot)
	xml.EscapeText(&c.b, []byte(s))
	c.b.WriteString("</text>\n")
}
