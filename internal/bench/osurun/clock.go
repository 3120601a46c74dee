package osurun

import (
	"errors"
	"math"

	"github.com/gomb-hpc/gomb/result"
)

// Exchange is one ping-pong between rank 0 and rank 1 with four stamps,
// each on its own rank's clock: A rank 0 sends, B rank 1 receives, C rank 1
// sends back, D rank 0 receives.
type Exchange struct{ A, B, C, D float64 }

// SyncPoint is one estimate of rank 1's clock offset against rank 0's.
type SyncPoint struct {
	At     float64 // rank 0 time of the estimate (mid-point of the exchange)
	Offset float64 // rank 1 clock minus rank 0 clock
	Bound  float64 // |true offset - Offset| <= Bound
}

// EstimateOffset takes the exchange with the shortest round trip (the one
// least disturbed by queuing) and returns NTP's offset estimate,
// ((B-A) + (C-D)) / 2, whose error is at most half the network round trip,
// ((D-A) - (C-B)) / 2: the offset lies where the two one-way delays are
// both non-negative.
func EstimateOffset(ex []Exchange) (SyncPoint, error) {
	best := -1
	bestDelay := math.Inf(1)
	for i, e := range ex {
		d := (e.D - e.A) - (e.C - e.B)
		if d >= 0 && d < bestDelay {
			best, bestDelay = i, d
		}
	}
	if best < 0 {
		return SyncPoint{}, errors.New("clock sync: no usable exchange")
	}
	e := ex[best]
	return SyncPoint{At: (e.A + e.D) / 2, Offset: ((e.B - e.A) + (e.C - e.D)) / 2, Bound: bestDelay / 2}, nil
}

// Clock maps rank 1's clock onto rank 0's from two sync points, before and
// after a measurement: offset and drift, linear in between, as SKaMPI and
// ReproMPI model it.
type Clock struct {
	At, Offset float64 // first sync point
	Drift      float64 // d offset / d t
	Bound      float64 // the larger of the two points' bounds
}

// NewClock fits the linear model through two sync points.
func NewClock(p1, p2 SyncPoint) Clock {
	c := Clock{At: p1.At, Offset: p1.Offset, Bound: math.Max(p1.Bound, p2.Bound)}
	if dt := p2.At - p1.At; dt > 0 {
		c.Drift = (p2.Offset - p1.Offset) / dt
	}
	return c
}

// OffsetAt is the offset at rank 0 time t.
func (c Clock) OffsetAt(t float64) float64 { return c.Offset + c.Drift*(t-c.At) }

// OneWayTimes returns the mean time of each direction of the exchanges on
// the synchronised clock: forward (rank 0 to 1) = (B - offset) - A,
// backward (1 to 0) = D - (C - offset); and half the mean round trip.
func (c Clock) OneWayTimes(ex []Exchange) (fwd, back, halfRTT float64) {
	if len(ex) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	for _, e := range ex {
		fwd += e.B - c.OffsetAt(e.A) - e.A
		back += e.D - (e.C - c.OffsetAt(e.D))
		halfRTT += (e.D - e.A) / 2
	}
	n := float64(len(ex))
	return fwd / n, back / n, halfRTT / n
}

// exchanges merges the stamps of ranks 0 and 1 of one kernel run.
func exchanges(st [][]float64) []Exchange {
	if len(st) < 2 {
		return nil
	}
	n := min(len(st[0]), len(st[1])) / 4
	ex := make([]Exchange, n)
	for i := range ex {
		ex[i] = Exchange{A: st[0][4*i], B: st[1][4*i+1], C: st[1][4*i+2], D: st[0][4*i+3]}
	}
	return ex
}

// oneWay synchronises the clocks before and after the measurement and
// splits its round trips into the two directions.
func oneWay(stamps [3][][]float64) (*result.OneWay, error) {
	p1, err := EstimateOffset(exchanges(stamps[0]))
	if err != nil {
		return nil, err
	}
	p2, err := EstimateOffset(exchanges(stamps[2]))
	if err != nil {
		return nil, err
	}
	c := NewClock(p1, p2)
	fwd, back, half := c.OneWayTimes(exchanges(stamps[1]))
	return &result.OneWay{HalfRTTUS: half * 1e6, ForwardUS: fwd * 1e6, BackwardUS: back * 1e6,
		ErrorUS: c.Bound * 1e6, OffsetUS: c.Offset * 1e6, DriftPPM: c.Drift * 1e6}, nil
}
