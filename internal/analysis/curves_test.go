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

// TestSmallStepRegained: below CliffBWMinBytes every larger size regains
// a small message's bandwidth, so a regain there tells a switch only for
// a step of at most CliffSmallRegain: an allreduce on 8 TCP nodes that
// steps ×6.2 at 32 B (a ring taking over at 8 elements) and stays flat
// for a decade of sizes is a cliff (the held-out ho-06 log's, silent
// before); a ×2 step there, the next buffer of an eager path, is not.
func TestSmallStepRegained(t *testing.T) {
	series := func(step float64) []pt {
		var ps []pt
		for b := int64(4); b <= 1<<20; b *= 2 {
			v := 58 + float64(b)/184
			if b >= 32 {
				v = 58*step + float64(b)/184
			}
			ps = append(ps, pt{bytes: b, tavg: v, tmin: v, tmax: v})
		}
		return ps
	}
	for _, c := range []struct {
		step  float64
		cliff bool
	}{{6.2, true}, {2, false}} {
		fs := Explain(mkRun("osu", "allreduce", 8, result.InterNode, series(c.step), nil), ExplainOptions{})
		f := find(fs, KindCliff)
		if got := f != nil && f.Severity == Warning && strings.Contains(f.Summary, "16 B → 32 B"); got != c.cliff {
			t.Errorf("×%.1f at 32 B: cliff %v, want %v; %s", c.step, got, c.cliff, kinds(fs))
		}
	}
}
