package osurun

import (
	"math"
	"math/rand/v2"
	"testing"
)

// simulate makes exchanges between a rank-0 clock and a rank-1 clock that
// runs offset + drift*t ahead, with one-way delays fwd and back plus
// random queuing.
func simulate(n int, offset, drift, fwd, back, jitter float64, rng *rand.Rand) []Exchange {
	var ex []Exchange
	t := 1.0
	for i := 0; i < n; i++ {
		a := t
		b0 := a + fwd + jitter*rng.ExpFloat64() // rank 0 time of the receive
		c0 := b0 + 1e-7
		d := c0 + back + jitter*rng.ExpFloat64()
		clock1 := func(t0 float64) float64 { return t0 + offset + drift*t0 }
		ex = append(ex, Exchange{A: a, B: clock1(b0), C: clock1(c0), D: d})
		t = d + 1e-6
	}
	return ex
}

func TestEstimateOffsetBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct{ offset, fwd, back float64 }{
		{0, 1e-6, 1e-6},     // same clock, symmetric path
		{3.5, 2e-6, 2e-6},   // clocks far apart
		{-0.25, 5e-6, 1e-6}, // asymmetric path: the estimate is off, but within the bound
	}
	for _, c := range cases {
		p, err := EstimateOffset(simulate(200, c.offset, 0, c.fwd, c.back, 2e-6, rng))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.Offset-c.offset) > p.Bound+1e-12 {
			t.Errorf("offset %g: estimate %g outside its bound %g", c.offset, p.Offset, p.Bound)
		}
		// The bound is half the best round trip: (fwd+back)/2 plus a little queuing.
		if p.Bound < (c.fwd+c.back)/2 || p.Bound > (c.fwd+c.back)/2+2e-6 {
			t.Errorf("bound %g for delays %g/%g", p.Bound, c.fwd, c.back)
		}
	}
	if _, err := EstimateOffset(nil); err == nil {
		t.Error("no exchanges accepted")
	}
}

func TestClockDriftAndOneWay(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const offset, drift = 0.5, 20e-6 // 20 ppm
	before := simulate(100, offset, drift, 1e-6, 1e-6, 0, rng)
	// The measurement: 5 us out, 1 us back (an asymmetric path).
	meas := simulate(100, offset, drift, 5e-6, 1e-6, 0, rng)
	after := simulate(100, offset, drift, 1e-6, 1e-6, 0, rng)
	p1, _ := EstimateOffset(before)
	p2, _ := EstimateOffset(after)
	c := NewClock(p1, p2)
	fwd, back, half := c.OneWayTimes(meas)
	// Symmetric sync exchanges: the offset is exact, so each direction is
	// recovered to well within the bound of 1 us.
	if math.Abs(fwd-5e-6) > c.Bound || math.Abs(back-1e-6) > c.Bound {
		t.Errorf("forward %g, backward %g, bound %g", fwd, back, c.Bound)
	}
	// (5 us + 1 us + 0.1 us turnaround) / 2
	if math.Abs(half-3.05e-6) > 1e-9 {
		t.Errorf("half round trip %g, want 3.05e-6", half)
	}
	// The two directions add up to the round trip less rank 1's turnaround
	// (0.1 us), whatever the offset: the drift term is 20 ppm of 6 us.
	if d := fwd + back - (2*half - 0.1e-6); math.Abs(d) > 1e-9 {
		t.Errorf("forward + backward %g, round trip less turnaround %g", fwd+back, 2*half-0.1e-6)
	}
	if fwd <= back {
		t.Errorf("the asymmetry does not show: %g <= %g", fwd, back)
	}
}
