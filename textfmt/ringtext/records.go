package ringtext

import (
	"io"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/result"
)

// WriteRecords prints a stored run (gomb ring's or an imported
// mpi-comm-bench log) as the ring's text: the header from the run's
// options (or the log's header lines), then every sample. The summary is
// left out: it is statistics, which gomb ring and gomb explain compute.
func WriteRecords(w io.Writer, b *result.Bundle) error {
	o := ring.DefaultOptions()
	if !b.Run.DecodeOptions(&o) && b.Run.Source != nil {
		meta := b.Run.Source.Meta
		if f := strings.Fields(meta["interval"]); len(f) > 0 {
			o.IntervalS, _ = strconv.ParseFloat(f[0], 64)
		}
		o.GPU, o.MemCopyLocal = meta["gpu_mode"] == "on", meta["mem_copy_local"] == "on"
	}
	if len(b.Results) > 0 {
		o.MsgSize = b.Results[0].Bytes
	}
	tw := NewWriter(w)
	if err := tw.Header(o); err != nil {
		return err
	}
	for _, r := range b.Results {
		s := ring.Sample{Index: r.Sample, Cold: r.Cold, Time: r.Time,
			MinS: r.TMinUS / 1e6, MaxS: r.TMaxUS / 1e6, AvgS: r.TAvgUS / 1e6, AvgGBps: r.MBps / 1e3}
		// each rank's bandwidth falls as its duration grows
		s.MinGBps, s.MaxGBps = ring.GBps(r.Bytes, s.MaxS), ring.GBps(r.Bytes, s.MinS)
		if err := tw.Sample(s); err != nil {
			return err
		}
	}
	return nil
}
