package imbtext

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/internal/bench/p2p"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// WriteRecords prints a stored run (gomb's own or an imported log) as
// IMB-MPI1 text: the preamble from the run's provenance, a table for each
// benchmark and process count in the order of the records, the closing
// line. What the records do not hold stays empty (an imported log's data
// types, say); nothing is measured or computed.
func WriteRecords(w io.Writer, b *result.Bundle) error {
	run := b.Run
	switch run.Suite {
	case p2p.Suite:
		return writeP2P(w, b)
	case mt.Suite:
		return writeMT(w, b)
	}
	var o imb.Options
	known := run.DecodeOptions(&o)
	tables := textfmt.Tables(b.Results)
	h := Header{Tool: strings.TrimSpace(run.Tool.Name + " " + run.Tool.Version), Suite: run.Suite, Date: run.Start,
		MPIVersion: run.MPI.Standard, Argv: run.Command}
	if len(run.Ranks) > 0 {
		r0 := run.Ranks[0]
		h.Machine, h.Release, h.Version = r0.Machine, r0.Kernel, r0.KernelVersion
	}
	for _, t := range tables {
		if name := t[0].Benchmark; !slices.Contains(h.Benchmarks, name) { // once for both modes
			h.Benchmarks = append(h.Benchmarks, name)
		}
		for _, r := range t {
			h.MaxMsg = max(h.MaxMsg, r.Bytes)
		}
	}
	if known {
		h.Type, h.RedType, h.UserSizes = o.Type.String(), o.RedType.String(), o.Sizes != nil
		h.MaxMsg = int64(1) << o.MsgLogMax
	} else if run.Source != nil {
		h.UserSizes = run.Source.Meta["lengths"] == "user defined" // an imported log's
	}
	tw := NewWriter(w)
	if err := tw.Preamble(h); err != nil {
		return err
	}
	for _, rows := range tables {
		if err := tw.Table(tableOf(rows, run.WorldSize, o.Multi, known)); err != nil {
			return err
		}
		for _, r := range rows {
			if err := tw.Result(r); err != nil {
				return err
			}
		}
	}
	return tw.Footer()
}

// writeP2P prints a stored IMB-P2P run as IMB-P2P text.
func writeP2P(w io.Writer, b *result.Bundle) error {
	run := b.Run
	h := P2PHeader{Tool: strings.TrimSpace(run.Tool.Name + " " + run.Tool.Version), Date: run.Start,
		MPIVersion: run.MPI.Standard, Argv: run.Command, MinSize: -1}
	if len(run.Ranks) > 0 {
		r0 := run.Ranks[0]
		h.Machine, h.System, h.Release, h.Version = r0.Machine, "Linux", r0.Kernel, r0.KernelVersion
	}
	tables := textfmt.Tables(b.Results)
	for _, t := range tables {
		h.Benchmarks = append(h.Benchmarks, t[0].Benchmark)
		for _, r := range t {
			h.MaxSize = max(h.MaxSize, r.Bytes)
			if h.MinSize < 0 || r.Bytes < h.MinSize {
				h.MinSize = r.Bytes
			}
		}
	}
	h.MinSize = max(h.MinSize, 0)
	tw := NewP2PWriter(w)
	if err := tw.Preamble(h); err != nil {
		return err
	}
	for _, rows := range tables {
		r0 := rows[0]
		title := r0.Benchmark
		if s, ok := p2p.Lookup(r0.Benchmark); ok {
			title = s.Title(r0.NP)
		}
		if err := tw.Table(title, r0.NP); err != nil {
			return err
		}
		for _, r := range rows {
			if err := tw.Result(r); err != nil {
				return err
			}
		}
	}
	return tw.Footer()
}

// writeMT prints a stored IMB-MT run as IMB-MT text; the threads come
// from the run's options (gomb's) or its source (an imported log).
func writeMT(w io.Writer, b *result.Bundle) error {
	run := b.Run
	var o mt.Options
	threads := 1
	if run.DecodeOptions(&o) && o.Threads > 0 {
		threads = o.Threads
	} else if run.Source != nil {
		if n, err := strconv.Atoi(run.Source.Meta["threads"]); err == nil && n > 0 {
			threads = n
		}
	}
	tw := NewMTWriter(w)
	if err := tw.Preamble(strings.TrimSpace(run.Tool.Name + " " + run.Tool.Version)); err != nil {
		return err
	}
	for _, rows := range textfmt.Tables(b.Results) {
		r0 := rows[0]
		s, ok := mt.Lookup(r0.Benchmark)
		if !ok {
			return fmt.Errorf("IMB-MT text: no benchmark %q", r0.Benchmark)
		}
		if err := tw.Table(s, r0.NP, threads, o.Window); err != nil {
			return err
		}
		for _, r := range rows {
			if err := tw.Result(s, r); err != nil {
				return err
			}
		}
	}
	return tw.Footer()
}

// tableOf is the header of one table, from its rows: a benchmark gomb does
// not run is laid out as a collective (t_min, t_max, t_avg).
func tableOf(rows []*result.Result, world, multi int, known bool) *imb.Table {
	r0 := rows[0]
	spec, ok := imb.Lookup(r0.Suite, r0.Benchmark)
	if !ok {
		spec = &imb.Spec{Suite: r0.Suite, Name: r0.Benchmark, Family: imb.Collective}
	}
	t := &imb.Table{Spec: spec, NP: r0.NP, Multi: -1, World: max(world, r0.NP*r0.Groups), Mode: r0.Mode}
	groups := make([][]int, max(r0.Groups, 1))
	for _, r := range rows {
		if r.Group >= 0 && r.Group < len(groups) {
			groups[r.Group] = r.Ranks
			t.Multi = 1
		} else if groups[0] == nil {
			groups[0] = r.Ranks
		}
		t.Check = t.Check || r.Check != nil
		t.Precision = t.Precision || r.Precision != nil
	}
	if r0.Groups > 1 && t.Multi != 1 {
		t.Multi = 0
	}
	if known && multi >= 0 && r0.Groups > 1 {
		t.Multi = multi
	}
	t.Groups = groups
	t.Idle = max(t.World-t.NP*len(groups), 0)
	return t
}
