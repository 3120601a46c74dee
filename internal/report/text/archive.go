package text

// The archive's listings: gomb archive list, show and history.

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gomb-hpc/gomb/internal/archive"
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

// Runs writes gomb archive list's table: a run a line.
func Runs(w io.Writer, runs []archive.RunInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTARTED (UTC)\tSUITE\tSYSTEM\tCONFIG\tMPI\tNP\tLOCALITY\tRESULTS\tSTATUS\tSOURCE")
	for _, r := range runs {
		src := r.Source
		if r.File != "" {
			src += ":" + r.File
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%d\t%s\t%s\n", r.ID, when(r.Started), r.Suite, dash(r.System),
			dash(r.Config), dash(r.MPI), r.NP, dash(r.Locality), r.Results, dash(r.Status), src)
	}
	return tw.Flush()
}

// Run writes gomb archive show's page of one run: what the archive knows
// of it (ri), its provenance and a line a result row of r.
func Run(w io.Writer, ri archive.RunInfo, r *result.Bundle) error {
	fmt.Fprintf(w, "run %d (%s)\n", ri.ID, ri.RunID)
	source := ri.Source
	if ri.File != "" {
		source += " " + ri.File
	}
	fmt.Fprintf(w, "  suite %s, source %s, started %s, added %s\n", ri.Suite, source, when(ri.Started), when(ri.Added))
	fmt.Fprintf(w, "  MPI %s, %d processes, %s, status %s\n", dash(ri.MPI), ri.NP, dash(ri.Locality), dash(ri.Status))
	if len(r.Run.Hosts) > 0 {
		fmt.Fprintf(w, "  hosts %s\n", strings.Join(r.Run.Hosts, " "))
	}
	if j := r.Run.Job; j != nil {
		fmt.Fprintf(w, "  %s job %s%s, nodes %s%s\n", j.Scheduler, j.ID, arrayTask(j), dash(j.NodeList), taskLayout(j))
	}
	if len(r.Run.Command) > 0 {
		fmt.Fprintf(w, "  command %s\n", strings.Join(r.Run.Command, " "))
	}
	for _, k := range sortedKeys(ri.Labels) {
		fmt.Fprintf(w, "  label %s=%s\n", k, ri.Labels[k])
	}
	if r.Run.Source != nil {
		for _, k := range sortedKeys(r.Run.Source.Meta) {
			fmt.Fprintf(w, "  log %s: %s\n", k, r.Run.Source.Meta[k])
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
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

// Points writes gomb archive history's table: the value of one metric of
// benchmark at bytes in every run that has it.
func Points(w io.Writer, benchmark string, bytes int64, metric string, pts []archive.Point) error {
	fmt.Fprintf(w, "# %s, %d bytes, %s\n", benchmark, bytes, metric)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTARTED (UTC)\tSYSTEM\tCONFIG\tMPI\tNP\tLOCALITY\tVALUE\tSTATUS")
	for _, p := range pts {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\t%.4g\t%s\n", p.Run.ID, when(p.Run.Started), dash(p.Run.System),
			dash(p.Run.Config), dash(p.Run.MPI), p.NP, dash(p.Run.Locality), p.Value, p.Status)
	}
	return tw.Flush()
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
