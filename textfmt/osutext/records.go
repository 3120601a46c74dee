package osutext

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// toolName names the tool of a run read from an OSU log.
const toolName = "OSU Micro-Benchmarks"

// WriteRecords prints a stored run (gomb's own or an imported log) as OSU
// text, a table per test in the order of the records. The columns and
// settings lines follow the run's options where gomb stored them, else
// what the log said (window creation, synchronisation, data type, pairs)
// and what the records hold (-f's min, max and iterations, -z's
// percentiles, -c's validation). Nothing is measured or computed.
func WriteRecords(w io.Writer, b *result.Bundle) error {
	var stored struct {
		Options *osu.Options `json:"options"`
		// several tests in one job: each test's own
		TestOptions map[string]*osu.Options `json:"test_options"`
	}
	known := b.Run.DecodeOptions(&stored) && stored.Options != nil
	var meta map[string]string
	if b.Run.Source != nil {
		meta = b.Run.Source.Meta
	}
	tw := NewWriter(w)
	if !known && b.Run.Tool.Name == toolName {
		// an imported log: its release and whether it printed the data type
		tw.logged, tw.version, tw.datatype = true, b.Run.Tool.Version, meta["Datatype"] != ""
		if t := meta["title"]; osuTitle.MatchString("# " + t) {
			tw.title = t
		}
	}
	for i, rows := range textfmt.Tables(b.Results) {
		s, ok := osu.Lookup(rows[0].Benchmark)
		if !ok {
			return fmt.Errorf("osu text: %q is no OSU test gomb knows", rows[0].Benchmark)
		}
		o := osu.DefaultOptions()
		if own := stored.TestOptions[s.Name]; own != nil {
			o = *own
			o.Place = [2]byte{'H', 'H'}
		} else if known {
			o = *stored.Options
			o.Place = [2]byte{'H', 'H'} // not stored: the records hold no device placement
		} else {
			logOptions(&o, s, meta, rows)
		}
		t := &osu.Table{Spec: s, Opt: &o, NP: rows[0].NP, Win: s.Win, Sync: s.Sync}
		if s.IsFan() {
			t.Fan = fanOf(b, meta)
		}
		if s.Neighbour() && rows[0].Topology != nil {
			tp := rows[0].Topology
			t.Nbr = &osu.Neighbourhood{Topology: osu.Topology{Kind: tp.Kind, Dim: len(tp.Dims), Radius: tp.Radius, File: tp.File},
				Dims: tp.Dims}
			t.NbrCreateUS = tp.CreateUS
		}
		if o.WinSet {
			t.Win = o.Win
		}
		if o.SyncSet {
			t.Sync = o.Sync
		}
		if i > 0 { // several tests of one job
			if err := tw.Between(s); err != nil {
				return err
			}
		}
		if err := tw.Table(t); err != nil {
			return err
		}
		for _, r := range rows {
			if err := tw.Result(r); err != nil {
				return err
			}
		}
	}
	return tw.Flush()
}

// logOptions reads back the options of an imported log from what its
// header lines said and what its rows hold.
// placeLine is OSU's buffer line, as the reader keeps it (Meta "note").
var placeLine = regexp.MustCompile(`^Send Buffer on (?:DEVICE|HOST|MANAGED) \(([DHM])\) and Receive Buffer on (?:DEVICE|HOST|MANAGED) \(([DHM])\)`)

func logOptions(o *osu.Options, s *osu.Spec, meta map[string]string, rows []*result.Result) {
	for d := kernel.Byte; d <= kernel.LongLong; d++ {
		if meta["Datatype"] == d.String() {
			o.Type = d
		}
	}
	for m := kernel.WinCreate; m <= kernel.WinDynamic; m++ {
		if meta["Window creation"] == osu.WinName(m) {
			o.Win, o.WinSet = m, true
		}
	}
	for m := kernel.SyncLock; m <= kernel.SyncFence; m++ {
		if meta["Synchronization"] == osu.SyncName(m) {
			o.Sync, o.SyncSet = m, true
		}
	}
	var pairs, window int
	if _, err := fmt.Sscanf(meta["pairs"], "[ pairs: %d ] [ window size: %d ]", &pairs, &window); err == nil {
		o.Window = window
	}
	if m := placeLine.FindStringSubmatch(meta["note"]); m != nil { // -d cuda D H
		o.Device, o.Place = "cuda", [2]byte{m[1][0], m[2][0]}
		for _, d := range []string{"rocm", "openacc"} {
			if strings.Contains(strings.ToLower(meta["title"]), "-"+d) {
				o.Device = d
			}
		}
	}
	var blen, stride int
	if _, err := fmt.Sscanf(meta["ddt"], "%d:%d", &blen, &stride); err == nil {
		o.DDT = &osu.DDT{BlockLen: blen, Stride: stride} // the type itself: not in the log
	}
	if s.Processes { // OSU's defaults where the log does not say
		o.SendProcs = metaInt(meta, "Number of forked processes in sender", 2)
		o.RecvProcs = metaInt(meta, "Number of forked processes in receiver", 2)
	}
	if s.Threads {
		o.SendThreads = metaInt(meta, "Number of Sender threads", 1)
		o.RecvThreads = metaInt(meta, "Number of Receiver threads", 2)
	}
	for _, r := range rows {
		if len(r.Tail) > 0 && !o.Percentiles {
			o.Percentiles = true
			for _, t := range r.Tail {
				o.PercentileList = append(o.PercentileList, t.P)
			}
		}
		o.Percentiles = o.Percentiles || r.P50US > 0
		o.Validate = o.Validate || r.Check != nil
		switch s.Kind {
		case osu.Collective:
			o.Full = o.Full || r.Repetitions > 0
		case osu.NonBlocking:
			o.Full = o.Full || r.NBC != nil && (r.NBC.InitUS > 0 || r.NBC.MinCommUS > 0)
		}
	}
}

// metaInt is a header line's number, or def where the log has none.
func metaInt(meta map[string]string, key string, def int) int {
	if v, err := strconv.Atoi(meta[key]); err == nil {
		return v
	}
	return def
}

// fanOf is the fan tests' layout of a stored run: from its ranks' hosts
// (gomb's records) or from gomb's line in an imported text; nil when
// neither says (OSU 7.4's own logs).
func fanOf(b *result.Bundle, meta map[string]string) *osu.Fan {
	var hosts []string
	for _, r := range b.Run.Ranks {
		hosts = append(hosts, r.Host)
	}
	if f, err := osu.NewFan(hosts); err == nil {
		return f
	}
	var word string
	var nodes, ppn int
	if _, err := fmt.Sscanf(meta["fan"], "[ %s ] [ nodes: %d ] [ processes per node: %d ]", &word, &nodes, &ppn); err == nil {
		return &osu.Fan{Nodes: nodes, PPN: ppn}
	}
	return nil
}
