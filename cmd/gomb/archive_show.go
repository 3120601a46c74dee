package main

// The archive commands that read: list, show, history.

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gomb-hpc/gomb/internal/archive"
)

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

func archiveList(c *archiveCmd, args []string) error {
	sel, err := c.selection(c.flags(), args)
	if err != nil {
		return err
	}
	runs, err := c.db.List(sel)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTARTED (UTC)\tSUITE\tSYSTEM\tCONFIG\tMPI\tNP\tLOCALITY\tRESULTS\tSTATUS\tSOURCE")
	for _, r := range runs {
		src := r.Source
		if r.File != "" {
			src += ":" + r.File
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%d\t%s\t%s\n", r.ID, when(r.Started), r.Suite, dash(r.System),
			dash(r.Config), dash(r.MPI), r.NP, dash(r.Locality), r.Results, dash(r.Status), src)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "%d runs\n", len(runs))
	return nil
}

func archiveShow(c *archiveCmd, args []string) error {
	fs := c.flags()
	text := fs.Bool("text", false, "")
	ids, err := c.idsWith(fs, args)
	if err != nil {
		return err
	}
	if len(ids) != 1 {
		return usageErr("archive show: give one run id")
	}
	infos, err := c.db.List(archive.Selector{IDs: ids})
	if err != nil {
		return err
	}
	if len(infos) == 0 {
		return usageErr("archive show: no run %d", ids[0])
	}
	r, err := c.db.Load(ids[0])
	if err != nil {
		return err
	}
	if *text {
		return writeSuiteText(c.stdout, r)
	}
	ri := infos[0]
	fmt.Fprintf(c.stdout, "run %d (%s)\n", ri.ID, ri.RunID)
	fmt.Fprintf(c.stdout, "  suite %s, source %s %s, started %s, added %s\n", ri.Suite, ri.Source, ri.File, when(ri.Started), when(ri.Added))
	fmt.Fprintf(c.stdout, "  MPI %s, %d processes, %s, status %s\n", dash(ri.MPI), ri.NP, dash(ri.Locality), dash(ri.Status))
	if len(r.Run.Hosts) > 0 {
		fmt.Fprintf(c.stdout, "  hosts %s\n", strings.Join(r.Run.Hosts, " "))
	}
	if len(r.Run.Command) > 0 {
		fmt.Fprintf(c.stdout, "  command %s\n", strings.Join(r.Run.Command, " "))
	}
	for _, k := range sortedKeys(ri.Labels) {
		fmt.Fprintf(c.stdout, "  label %s=%s\n", k, ri.Labels[k])
	}
	if r.Run.Source != nil {
		for _, k := range sortedKeys(r.Run.Source.Meta) {
			fmt.Fprintf(c.stdout, "  log %s: %s\n", k, r.Run.Source.Meta[k])
		}
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "BENCHMARK\tNP\tGROUP\tBYTES\tREPS\tT_MIN_US\tT_MAX_US\tT_AVG_US\tMB/S\tSAMPLES\tSTATUS\t")
	for _, x := range r.Results {
		n := 0
		for _, s := range x.SamplesUS {
			n += len(s)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t%s\t\n", x.Benchmark, x.NP, x.Group, x.Bytes,
			x.Repetitions, x.TMinUS, x.TMaxUS, x.TAvgUS, x.MBps, n, x.Status)
	}
	return tw.Flush()
}

func archiveHistory(c *archiveCmd, args []string) error {
	fs := c.flags()
	bench := fs.String("b", "", "")
	size := fs.Int64("bytes", -1, "")
	np := fs.Int("np", 0, "")
	metric := fs.String("metric", "t_avg_us", "")
	sel, err := c.selection(fs, args)
	if err != nil {
		return err
	}
	if *bench == "" || *size < 0 {
		return usageErr("archive history: give -b BENCHMARK and -bytes SIZE")
	}
	pts, err := c.db.History(sel, *bench, *size, *np, *metric)
	if err != nil {
		return usageErr("archive history: %v", err)
	}
	fmt.Fprintf(c.stdout, "# %s, %d bytes, %s\n", *bench, *size, *metric)
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTARTED (UTC)\tSYSTEM\tCONFIG\tMPI\tNP\tLOCALITY\tVALUE\tSTATUS")
	for _, p := range pts {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\t%.4g\t%s\n", p.Run.ID, when(p.Run.Started), dash(p.Run.System),
			dash(p.Run.Config), dash(p.Run.MPI), p.NP, dash(p.Run.Locality), p.Value, p.Status)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(pts) == 0 {
		fmt.Fprintf(c.stderr, "no run has %s at %d bytes\n", *bench, *size)
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
