package main

// The archive commands that read: list, show, history.

import (
	"flag"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/result"
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

func archiveList(c *archiveCmd) error {
	runs, err := c.db.List(c.sel)
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
	ri := infos[0]
	fmt.Fprintf(c.stdout, "run %d (%s)\n", ri.ID, ri.RunID)
	source := ri.Source
	if ri.File != "" {
		source += " " + ri.File
	}
	fmt.Fprintf(c.stdout, "  suite %s, source %s, started %s, added %s\n", ri.Suite, source, when(ri.Started), when(ri.Added))
	fmt.Fprintf(c.stdout, "  MPI %s, %d processes, %s, status %s\n", dash(ri.MPI), ri.NP, dash(ri.Locality), dash(ri.Status))
	if len(r.Run.Hosts) > 0 {
		fmt.Fprintf(c.stdout, "  hosts %s\n", strings.Join(r.Run.Hosts, " "))
	}
	if j := r.Run.Job; j != nil {
		fmt.Fprintf(c.stdout, "  %s job %s%s, nodes %s%s\n", j.Scheduler, j.ID, arrayTask(j), dash(j.NodeList), taskLayout(j))
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
	fs.IntVar(&q.np, "np", 0, "`N` only runs of N processes (default: any)")
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
	fmt.Fprintf(c.stdout, "# %s, %d bytes, %s\n", q.bench, q.size, q.metric)
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
		fmt.Fprintf(c.stderr, "no run has %s at %d bytes\n", q.bench, q.size)
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

// arrayTask names a job array's task: " (array 40, task 2)".
func arrayTask(j *result.Job) string {
	if j.ArrayJob == "" {
		return ""
	}
	return fmt.Sprintf(" (array %s, task %s)", j.ArrayJob, j.ArrayTask)
}

// taskLayout writes the ranks per node: ", tasks 2+2+0".
func taskLayout(j *result.Job) string {
	if len(j.Tasks) == 0 {
		return ""
	}
	n := make([]string, len(j.Tasks))
	for i, t := range j.Tasks {
		n[i] = strconv.Itoa(t)
	}
	return ", tasks " + strings.Join(n, "+")
}
