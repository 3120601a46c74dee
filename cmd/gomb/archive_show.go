package main

// The archive commands that read: list, show, history.

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/report/text"
)

func archiveList(c *archiveCmd) error {
	runs, err := c.db.List(c.sel)
	if err != nil {
		return err
	}
	if err := text.Runs(c.stdout, runs); err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "%d runs\n", len(runs))
	return nil
}

func archiveShow(c *archiveCmd) error {
	ids := c.ids
	infos, err := c.db.List(archive.Selector{IDs: ids})
	if err != nil {
		return err
	}
	if len(infos) == 0 {
		return cli.Usage("archive show: no run %d", ids[0])
	}
	r, err := c.db.Load(ids[0])
	if err != nil {
		return err
	}
	if c.text {
		return writeSuiteText(c.stdout, r)
	}
	return text.Run(c.stdout, infos[0], r)
}

// historyQuery is what archive history asks for.
type historyQuery struct {
	bench  string
	size   int64
	np     int
	metric string
}

func historyFlags(c *archiveCmd, fs *flag.FlagSet) {
	q := &c.hist
	fs.StringVar(&q.bench, "b", "", "`BENCH` the benchmark (required)")
	q.size = -1
	fs.Func("bytes", "`N` the message size in bytes (required)", func(s string) (err error) {
		if q.size, err = strconv.ParseInt(s, 10, 64); err != nil || q.size < 0 {
			return fmt.Errorf("want a size in bytes, got %q", s)
		}
		return nil
	})
	fs.Var(cli.Int{P: &q.np, Min: 0, What: "processes"}, "np", "`N` only runs of N processes (default: any)")
	fs.StringVar(&q.metric, "metric", "t_avg_us", "`M` t_avg_us, t_min_us, t_max_us or mbytes_per_sec")
}

func archiveHistoryArgs(c *archiveCmd, words []string) error {
	if err := archiveSelection(c, words); err != nil {
		return err
	}
	if c.hist.bench == "" || c.hist.size < 0 {
		return cli.Usage("archive history: give -b BENCHMARK and -bytes SIZE")
	}
	return nil
}

func archiveHistory(c *archiveCmd) error {
	q := c.hist
	pts, err := c.db.History(c.sel, q.bench, q.size, q.np, q.metric)
	if err != nil {
		return cli.Usage("archive history: %v", err)
	}
	if err := text.Points(c.stdout, q.bench, q.size, q.metric, pts); err != nil {
		return err
	}
	if len(pts) == 0 {
		fmt.Fprintf(c.stderr, "no run has %s at %d bytes\n", q.bench, q.size)
	}
	return nil
}
