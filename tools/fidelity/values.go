package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/result"
)

// values reads one launch's text output with gomb's importer (both
// programs print the same layout) and returns the time of every row.
func values(data []byte, name string, j job) (map[string]float64, error) {
	f, err := importer.Import(data, name, importer.Options{NP: j.np})
	if err != nil {
		return nil, err
	}
	if string(f.Format) != j.format {
		return nil, fmt.Errorf("%s: expected %s output, read %q", name, j.format, f.Format)
	}
	out := map[string]float64{}
	ring := map[string][]float64{}
	for _, r := range f.Runs {
		for _, x := range r.Results {
			if x.Status != result.StatusOK {
				continue
			}
			np := x.NP
			if np == 0 {
				np = j.np
			}
			k := key(x.Name(), np, x.Bytes) // a mode is a curve of its own
			if j.format == "ring" {
				ring[k] = append(ring[k], x.TAvgUS)
				continue
			}
			if v := timeOf(x); v > 0 {
				out[k] = v
			}
		}
	}
	for k, v := range ring { // the first sample is cold (connection set-up): left out
		if len(v) > 1 {
			out[k] = quantile(v[1:], 0.5)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no results", name)
	}
	return out, nil
}

// timeOf is a row's headline as a time: the slowest rank's time (IMB's
// t_max, the time OSU prints), or for bandwidth rows the inverse of the
// rate, so that a larger value is always slower.
func timeOf(x *result.Result) float64 {
	switch {
	case x.TMaxUS > 0:
		return x.TMaxUS
	case x.TAvgUS > 0:
		return x.TAvgUS
	case x.MBps > 0:
		return 1 / x.MBps
	case x.MsgPerSec > 0:
		return 1 / x.MsgPerSec
	}
	return 0
}

func key(bench string, np int, bytes int64) string {
	return fmt.Sprintf("%s np%d|%d", bench, np, bytes)
}

func splitKey(k string) (string, int64) {
	i := strings.LastIndexByte(k, '|')
	b, _ := strconv.ParseInt(k[i+1:], 10, 64)
	return k[:i], b
}

// buildWrapper compiles the RSS wrapper into the work directory.
func buildWrapper(out string) (string, error) {
	bin := filepath.Join(out, "rsswrap")
	src := filepath.Join("tools", "fidelity", "csrc", "rsswrap.c")
	if b, err := exec.Command("cc", "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", src, err, b)
	}
	return filepath.Abs(bin)
}

// readRSS reads the wrapper's per-rank files: the peak RSS, PSS and USS
// of the launch (KiB; a file of an older wrapper has only RSS).
func readRSS(dir string) (rss, pss, uss map[int]int64) {
	rss, pss, uss = map[int]int64{}, map[int]int64{}, map[int]int64{}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		r, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "rss."))
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		for _, l := range strings.Split(string(b), "\n") {
			for i, f := range strings.Fields(l) {
				v, err := strconv.ParseInt(f, 10, 64)
				if err != nil || i > 2 {
					continue
				}
				m := []map[int]int64{rss, pss, uss}[i]
				m[r] = max(m[r], v)
			}
		}
	}
	return rss, pss, uss
}
