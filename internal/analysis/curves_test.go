package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// TestCurvesReadAsCurves: three shapes that are no step. A bandwidth dip
// at the eager/rendezvous switch that takes several sizes to recover is
// the switch (INFO protocol-switch), not "outlying sizes ... noise"; time
// that doubles with the bytes at tiny sizes (a cost per byte, 0.5 µs a
// byte up to 32 B) is proportional growth, not a cliff; and a smooth
// curve, its cost per byte moving less than 20% a size (t = 0.3 µs + b/1
// GB/s + b^0.8/100 µs), is no protocol switch however lines fitted to it
// break.
func TestCurvesReadAsCurves(t *testing.T) {
	var bw []pt
	for b := int64(1); b <= 4<<20; b *= 2 {
		v := float64(b) / (1.5 + float64(b)/12000)
		switch b {
		case 32 << 10, 64 << 10: // 3873 and 4708 MB/s after 5718 at 16 KiB
			v *= 0.5
		case 128 << 10:
			v *= 0.8
		}
		bw = append(bw, pt{bytes: b, bw: v})
	}
	fs := Explain(mkRun("osu", "bw", 2, result.InterNode, bw, nil), ExplainOptions{})
	if f := find(fs, KindSwitch); f == nil || !strings.Contains(f.Summary, "protocol switch between 16 KiB and 32 KiB") || !strings.Contains(f.Summary, "dips") {
		t.Errorf("bandwidth dip at the switch: %s", kinds(fs))
	}
	for _, f := range fs {
		if strings.Contains(f.Summary, "outlying") || f.Severity == Warning {
			t.Errorf("bandwidth dip at the switch: %s", f.Summary)
		}
	}

	var prop []pt
	for b := int64(4); b <= 1<<20; b *= 2 {
		v := 16 + float64(b)/4000
		if b <= 32 {
			v = 0.5 * float64(b)
		}
		prop = append(prop, pt{bytes: b, tavg: v, tmin: v, tmax: v})
	}
	for _, f := range Explain(mkRun("imb", "Allreduce", 2, result.IntraNode, prop, nil), ExplainOptions{}) {
		if f.Kind == KindCliff || f.Kind == KindSwitch {
			t.Errorf("proportional growth: %s", f.Summary)
		}
	}

	var smooth []pt
	for b := int64(1); b <= 4<<20; b *= 2 {
		v := 0.3 + float64(b)/1000 + 0.01*math.Pow(float64(b), 0.8)
		smooth = append(smooth, pt{bytes: b, tavg: v, tmin: v, tmax: v})
	}
	for _, f := range Explain(mkRun("imb", "PingPong", 2, result.InterNode, smooth, nil), ExplainOptions{}) {
		if f.Kind == KindSwitch {
			t.Errorf("a smooth curve: %s", f.Summary)
		}
	}
}
