package imbtext

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// width is IMB's column width (ow_format).
const width = 13

// column is one of IMB's table columns, declared once for both sides: its
// header, how the writer prints a record's value, how the reader stores
// a token back.
type column struct {
	name string
	put  func(b *strings.Builder, r *result.Result)
	get  func(r *result.Result, tok []byte) error
}

var errRange = errors.New("is out of range")

func putFloat(b *strings.Builder, v float64) { fmt.Fprintf(b, "%*.2f", width, v) }
func putInt(b *strings.Builder, v int64)     { fmt.Fprintf(b, "%*d", width, v) }

func number(tok []byte) (float64, error) {
	v, ok := textfmt.Number(tok)
	if !ok {
		return 0, textfmt.ErrNumber
	}
	return v, nil
}

func count(tok []byte) (int64, error) {
	v, err := number(tok)
	if err != nil {
		return 0, err
	}
	x, ok := textfmt.AsCount(v)
	if !ok {
		return 0, errRange
	}
	return x, nil
}

// timeColumn is a column of microseconds with two decimals.
func timeColumn(name string, field func(r *result.Result) *float64) *column {
	return &column{name: name,
		put: func(b *strings.Builder, r *result.Result) { putFloat(b, *field(r)) },
		get: func(r *result.Result, tok []byte) (err error) { *field(r), err = textfmt.Value(tok); return err }}
}

// nbcColumn is a column of IMB-NBC's overlap tables (the record's NBC).
func nbcColumn(name string, field func(n *result.NBC) *float64) *column {
	return &column{name: name,
		put: func(b *strings.Builder, r *result.Result) {
			if r.NBC == nil {
				r = &result.Result{NBC: &result.NBC{}}
			}
			putFloat(b, *field(r.NBC))
		},
		get: func(r *result.Result, tok []byte) (err error) {
			if r.NBC == nil {
				r.NBC = &result.NBC{}
			}
			*field(r.NBC), err = textfmt.Value(tok)
			if name == "t_ovrl[usec]" { // the row's time is the overlapped one, the slowest rank's
				r.TMinUS, r.TMaxUS, r.TAvgUS = r.NBC.OverallUS, r.NBC.OverallUS, r.NBC.OverallUS
			}
			return err
		}}
}

// The columns.
var (
	colBytes = &column{name: "#bytes",
		put: func(b *strings.Builder, r *result.Result) { putInt(b, r.Bytes) },
		get: func(r *result.Result, tok []byte) (err error) { r.Bytes, err = count(tok); return err }}
	colReps = &column{name: "#repetitions",
		put: func(b *strings.Builder, r *result.Result) { putInt(b, int64(r.Repetitions)) },
		get: func(r *result.Result, tok []byte) error {
			x, err := count(tok)
			r.Repetitions = int(x)
			return err
		}}
	// t[usec]: single transfers print the slower rank's time alone.
	colTime = &column{name: "t[usec]",
		put: func(b *strings.Builder, r *result.Result) { putFloat(b, r.TMaxUS) },
		get: func(r *result.Result, tok []byte) (err error) {
			r.TMaxUS, err = textfmt.Value(tok)
			r.TMinUS, r.TAvgUS = r.TMaxUS, r.TMaxUS
			return err
		}}
	colTMin = timeColumn("t_min[usec]", func(r *result.Result) *float64 { return &r.TMinUS })
	colTMax = timeColumn("t_max[usec]", func(r *result.Result) *float64 { return &r.TMaxUS })
	colTAvg = timeColumn("t_avg[usec]", func(r *result.Result) *float64 { return &r.TAvgUS })
	colMBps = timeColumn("Mbytes/sec", func(r *result.Result) *float64 { return &r.MBps })
	colRate = &column{name: "Msg/sec",
		put: func(b *strings.Builder, r *result.Result) { fmt.Fprintf(b, "%*.0f", width, r.MsgPerSec) },
		get: func(r *result.Result, tok []byte) (err error) { r.MsgPerSec, err = textfmt.Value(tok); return err }}
	// IMB-NBC's overlap columns: the times of the rank with the longest
	// t_ovrl, and the overlap.
	colOvrl    = nbcColumn("t_ovrl[usec]", func(n *result.NBC) *float64 { return &n.OverallUS })
	colPure    = nbcColumn("t_pure[usec]", func(n *result.NBC) *float64 { return &n.PureUS })
	colCPU     = nbcColumn("t_CPU[usec]", func(n *result.NBC) *float64 { return &n.ComputeUS })
	colOverlap = nbcColumn("overlap[%]", func(n *result.NBC) *float64 { return &n.OverlapPct })
	// defects: -check's count of wrong elements (none printed for a row
	// that was not validated).
	colDefects = &column{name: "defects",
		put: func(b *strings.Builder, r *result.Result) {
			if r.Check != nil {
				putFloat(b, float64(r.Check.Defects))
			}
		},
		get: func(r *result.Result, tok []byte) error {
			v, err := number(tok)
			r.Check = &result.Check{Passed: v == 0, Defects: int64(v)}
			return err
		}}
	// precision[%]: -iter_policy precision; "-" where a size has none.
	colPrecision = &column{name: "precision[%]",
		put: func(b *strings.Builder, r *result.Result) {
			if r.Precision != nil {
				putFloat(b, 100**r.Precision)
			} else {
				fmt.Fprintf(b, "%*s", width, "-")
			}
		},
		get: func(r *result.Result, tok []byte) error {
			if string(tok) == "-" {
				return nil
			}
			v, err := number(tok)
			p := v / 100
			r.Precision = &p
			return err
		}}
)

// groupColumn heads the rows of -multi 1 tables: the group of the row.
const groupColumn = "Group"

// format is the column layout of a table.
type format int

const (
	timeBW      format = iota // #bytes #repetitions t[usec] Mbytes/sec
	bwMsgRate                 // #bytes #repetitions Mbytes/sec Msg/sec
	timeRangeBW               // #bytes #repetitions t_min t_max t_avg Mbytes/sec
	timeRange                 // #bytes #repetitions t_min t_max t_avg
	syncFmt                   // #repetitions t_min t_max t_avg
	overlapFmt                // #bytes #repetitions t_ovrl t_pure t_CPU overlap (IMB-NBC)
	syncOverlap               // #repetitions t_ovrl t_pure t_CPU overlap (Ibarrier)
	passive                   // #bytes #repetitions t_pure t_ovrl (IMB-RMA's Truly_passive_put)
)

var layouts = map[format][]*column{
	timeBW:      {colBytes, colReps, colTime, colMBps},
	bwMsgRate:   {colBytes, colReps, colMBps, colRate},
	timeRangeBW: {colBytes, colReps, colTMin, colTMax, colTAvg, colMBps},
	timeRange:   {colBytes, colReps, colTMin, colTMax, colTAvg},
	syncFmt:     {colReps, colTMin, colTMax, colTAvg},
	overlapFmt:  {colBytes, colReps, colOvrl, colPure, colCPU, colOverlap},
	syncOverlap: {colReps, colOvrl, colPure, colCPU, colOverlap},
	passive:     {colBytes, colReps, colPure, colOvrl},
}

// columnNamed is the reader's way in: the column of a header word (nil for
// a word no IMB table has).
var columnNamed = func() map[string]*column {
	m := map[string]*column{}
	for _, cs := range layouts {
		for _, c := range cs {
			m[c.name] = c
		}
	}
	m[colDefects.name], m[colPrecision.name] = colDefects, colPrecision
	return m
}()

// layout picks IMB's output format for a benchmark (IMB_output).
func layout(t *imb.Table) format {
	if t.Spec.Overlap {
		if t.Spec.Family == imb.Sync {
			return syncOverlap
		}
		return overlapFmt
	}
	if t.Spec.Passive {
		return passive
	}
	switch t.Spec.Family {
	case imb.MultPassive:
		return timeBW
	case imb.SingleTransfer:
		if t.Multi == 0 {
			return timeRangeBW
		}
		return timeBW
	case imb.ParallelTransfer:
		return timeRangeBW
	case imb.MsgRate:
		return bwMsgRate
	case imb.Collective:
		if t.Spec.BWScale > 0 { // IMB-IO's C_ benchmarks
			return timeRangeBW
		}
		return timeRange
	}
	return syncFmt
}

// columns of a table after the Group column.
func columns(t *imb.Table) []*column {
	c := append([]*column{}, layouts[layout(t)]...)
	if t.Check && t.Spec.Family != imb.Sync {
		c = append(c, colDefects)
	}
	if t.Precision {
		c = append(c, colPrecision)
	}
	return c
}
