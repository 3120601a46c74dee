package osutext

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

const width = 18 // OSU's FIELD_WIDTH

// column is one of OSU's columns, declared once for both sides: its
// header, its width, how the writer prints a record's value and how the
// reader stores a token back.
type column struct {
	name  string
	width int
	head  int // the header's width, where it is not the values' (0: width)
	put   func(b *strings.Builder, w int, r *result.Result)
	get   func(r *result.Result, tok []byte) error
}

var (
	errSigned = errors.New("is not a number")
	errRange  = errors.New("is out of range")
)

// count reads a size or count.
func count(tok []byte) (int64, error) {
	v, ok := textfmt.Number(tok)
	if !ok {
		return 0, textfmt.ErrNumber
	}
	x, ok := textfmt.AsCount(v)
	if !ok {
		return 0, errRange
	}
	return x, nil
}

func nbc(r *result.Result) *result.NBC {
	if r.NBC == nil {
		r.NBC = &result.NBC{}
	}
	return r.NBC
}

func oneWay(r *result.Result) *result.OneWay {
	if r.OneWay == nil {
		r.OneWay = &result.OneWay{}
	}
	return r.OneWay
}

// value is a column of a number with two decimals; field says where it
// lives in a record (creating the part it lives in). signed: one-way
// times through synchronised clocks, which a clock error can make
// negative, and that is worth keeping.
func value(name string, signed bool, field func(r *result.Result) *float64) *column {
	return &column{name: name, width: width,
		put: func(b *strings.Builder, w int, r *result.Result) { fmt.Fprintf(b, "%*.2f", w, *field(r)) },
		get: func(r *result.Result, tok []byte) error {
			if !signed {
				v, err := textfmt.Value(tok)
				*field(r) = v
				return err
			}
			v, ok := textfmt.SignedNumber(tok)
			switch {
			case !ok:
				return errSigned
			case !textfmt.Plausible(v):
				return textfmt.ErrImplausible
			}
			*field(r) = v
			return nil
		}}
}

// andAvg: what the column reads is also the record's t_avg (the overall
// time of a non-blocking test, half the round trip of the one-way test).
func andAvg(c *column) *column {
	get := c.get
	c.get = func(r *result.Result, tok []byte) error {
		if err := get(r, tok); err != nil {
			return err
		}
		v, _ := textfmt.SignedNumber(tok)
		r.TAvgUS = v
		return nil
	}
	return c
}

// The columns, longest name first where one begins another (the reader
// cuts headers by them).
var (
	colBW   = value("Bandwidth (MB/s)", false, func(r *result.Result) *float64 { return &r.MBps })
	colLat  = value("Latency (us)", false, func(r *result.Result) *float64 { return &r.TAvgUS })
	colAvg  = value("Avg Latency(us)", false, func(r *result.Result) *float64 { return &r.TAvgUS })
	colMin  = value("Min Latency(us)", false, func(r *result.Result) *float64 { return &r.TMinUS })
	colMax  = value("Max Latency(us)", false, func(r *result.Result) *float64 { return &r.TMaxUS })
	colIter = &column{name: "Iterations", width: 12,
		put: func(b *strings.Builder, w int, r *result.Result) { fmt.Fprintf(b, "%*d", w, r.Repetitions) },
		get: func(r *result.Result, tok []byte) error {
			v, err := count(tok)
			r.Repetitions = int(v)
			return err
		}}
	colRate    = value("Messages/s", false, func(r *result.Result) *float64 { return &r.MsgPerSec })
	colMBps    = value("MB/s", false, func(r *result.Result) *float64 { return &r.MBps })
	colOverall = andAvg(value("Overall(us)", false, func(r *result.Result) *float64 { return &nbc(r).OverallUS }))
	colCompute = value("Compute(us)", false, func(r *result.Result) *float64 { return &nbc(r).ComputeUS })
	colInit    = value("Coll. Init(us)", false, func(r *result.Result) *float64 { return &nbc(r).InitUS })
	colTest    = value("MPI_Test(us)", false, func(r *result.Result) *float64 { return &nbc(r).TestUS })
	colWait    = value("MPI_Wait(us)", false, func(r *result.Result) *float64 { return &nbc(r).WaitUS })
	colPure    = value("Pure Comm.(us)", false, func(r *result.Result) *float64 { return &nbc(r).PureUS })
	colMinComm = value("Min Comm.(us)", false, func(r *result.Result) *float64 { return &nbc(r).MinCommUS })
	colMaxComm = value("Max Comm.(us)", false, func(r *result.Result) *float64 { return &nbc(r).MaxCommUS })
	colOverlap = value("Overlap(%)", false, func(r *result.Result) *float64 { return &nbc(r).OverlapPct })
	// Validation: -c, Pass or Fail.
	colValid = &column{name: "Validation", width: width,
		put: func(b *strings.Builder, w int, r *result.Result) {
			v := "Pass"
			if r.Check != nil && !r.Check.Passed {
				v = "Fail"
			}
			fmt.Fprintf(b, "%*s", w, v)
		},
		get: func(r *result.Result, tok []byte) error {
			r.Check = &result.Check{Passed: string(tok) == "Pass"}
			if !r.Check.Passed {
				r.Check.Defects = 1
			}
			return nil
		}}
	// colLatMP: osu_latency_mp prints its values 10 wide (18 with -c)
	// under the usual 18-wide header
	colLatMP   = &column{name: colLat.name, width: 10, head: width, put: colLat.put, get: colLat.get}
	colHalfRTT = andAvg(value("RTT/2 (us)", false, func(r *result.Result) *float64 { return &oneWay(r).HalfRTTUS }))
	colForward = value("0->1 (us)", true, func(r *result.Result) *float64 { return &oneWay(r).ForwardUS })
	colBack    = value("1->0 (us)", true, func(r *result.Result) *float64 { return &oneWay(r).BackwardUS })
	colSync    = value("+-Sync (us)", false, func(r *result.Result) *float64 { return &oneWay(r).ErrorUS })
	// Transmit Size: -D's bytes a message carried, %*zu.
	colTransmit = &column{name: "Transmit Size", width: width,
		put: func(b *strings.Builder, w int, r *result.Result) { fmt.Fprintf(b, "%*d", w, r.TransmitBytes) },
		get: func(r *result.Result, tok []byte) (err error) { r.TransmitBytes, err = count(tok); return err }}
	// Size: the message size, printed %-10d at the start of every row.
	colSize = &column{name: "Size", width: 10,
		put: func(b *strings.Builder, w int, r *result.Result) { fmt.Fprintf(b, "%-*d", w, r.Bytes) },
		get: func(r *result.Result, tok []byte) (err error) { r.Bytes, err = count(tok); return err }}
)

// allColumns in the reader's matching order.
var allColumns = []*column{colBW, colLat, colAvg, colMin, colMax, colIter, colRate, colMBps, colOverall, colCompute,
	colInit, colTest, colWait, colPure, colMinComm, colMaxComm, colOverlap, colValid,
	colHalfRTT, colForward, colBack, colSync, colTransmit, colSize}

// tailHead is a tail column's header: OSU 7.4's -z columns.
var tailHead = regexp.MustCompile(`^P([0-9]+) Tail (Lat\(us\)|BW\(MB/s\))`)

// tailColumn is the -z column of percentile p, in MB/s for bandwidth
// tests (bw) and µs otherwise; the value lives in the record's Tail.
func tailColumn(p int, bw bool) *column {
	unit := "Lat(us)"
	if bw {
		unit = "BW(MB/s)"
	}
	c := &column{name: fmt.Sprintf("P%d Tail %s", p, unit), width: width,
		put: func(b *strings.Builder, w int, r *result.Result) {
			v, _ := r.TailAt(p)
			fmt.Fprintf(b, "%*.2f", w, v)
		},
		get: func(r *result.Result, tok []byte) error {
			v, err := textfmt.Value(tok)
			if err != nil {
				return err
			}
			r.Tail = append(r.Tail, result.Tail{P: p, Value: v})
			return nil
		}}
	if p >= 100 {
		c.head = width + 1 // OSU pads as for two digits
	}
	return c
}

// bwTail: the test's tail columns are bandwidths.
func bwTail(s *osu.Spec) bool {
	return s.Kind == osu.Bandwidth || s.Kind == osu.RMABandwidth || s.Kind == osu.MsgRate
}

// columns lists the value columns of a test's table after the size (the
// first is the only column of tests without a size).
func columns(t *osu.Table) []*column {
	s, o := t.Spec, t.Opt
	var c []*column
	switch s.Kind {
	case osu.Latency, osu.RMALatency:
		c = []*column{colLat}
		if s.Processes && !o.Validate {
			c = []*column{colLatMP}
		}
	case osu.Bandwidth, osu.RMABandwidth:
		c = []*column{colBW}
	case osu.MsgRate:
		c = []*column{colMBps, colRate}
	case osu.Collective:
		c = []*column{colAvg}
		if o.Full {
			c = append(c, colMin, colMax, colIter)
		}
	case osu.NonBlocking:
		if o.Full {
			c = []*column{colOverall, colCompute, colInit, colTest, colWait, colPure, colMinComm, colMaxComm, colOverlap}
		} else {
			c = []*column{colOverall, colCompute, colPure, colOverlap}
		}
	case osu.OneWay:
		c = []*column{colHalfRTT, colForward, colBack, colSync}
	}
	for _, p := range o.TailList() {
		c = append(c, tailColumn(p, bwTail(s)))
	}
	if o.Validate {
		c = append(c, colValid)
	}
	if o.DDT != nil {
		c = append(c, colTransmit)
	}
	return c
}
