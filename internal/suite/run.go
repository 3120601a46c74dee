package suite

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/result"
)

// Launch outcomes, as the ledger records them.
const (
	StatusOK      = "ok"      // the launch ran and its records are complete
	StatusKept    = "kept"    // complete in an earlier run of the suite: not run again
	StatusFailed  = "failed"  // it ran and failed (Reason says how)
	StatusSkipped = "skipped" // the row cannot run here (Reason says why)
	StatusNotRun  = "not-run" // the deadline passed, or a signal came, first
)

// Entry is one line of a suite directory's ledger (DIR/suite.jsonl): what
// became of a launch (or of a skipped row: Rep 0).
type Entry struct {
	Type    string    `json:"type"` // "launch"
	Row     string    `json:"row"`
	Rep     int       `json:"rep"`
	Status  string    `json:"status"`
	Reason  string    `json:"reason,omitempty"`
	Records string    `json:"records,omitempty"`
	Hosts   []string  `json:"hosts,omitempty"`
	Line    []string  `json:"line,omitempty"`
	Start   time.Time `json:"start"`
	Seconds float64   `json:"seconds"`
	Code    int       `json:"exit_code,omitempty"`
	// Attempts is how many times the launch ran, where more than once:
	// Retried says why each attempt before the last ended (it measured
	// nothing: Runner.Retries).
	Attempts int      `json:"attempts,omitempty"`
	Retried  []string `json:"retried,omitempty"`
}

// LedgerFile is the ledger's name in a suite directory.
const LedgerFile = "suite.jsonl"

// FactsFile is the node facts' file in a suite directory.
const FactsFile = "nodes.jsonl"

// Runner runs a plan's launches one after another.
type Runner struct {
	Plan *Plan
	Dir  string
	// Progress gets a line a launch (stderr).
	Progress io.Writer
	// Env is the launches' environment (nil: this process's).
	Env []string
	// Grace is how long a launch has to end after SIGTERM (deadline,
	// signal) before SIGKILL (default 10 s).
	Grace time.Duration
	// Deadline, when set, ends Execute's run after it: the launch under
	// way is stopped, the rest are recorded as not run.
	Deadline time.Duration
	// Retries is how many more times a launch that failed having measured
	// nothing (no result in its records: it ended while MPI was starting,
	// or before its first size) is run. Such a failure loses no
	// measurement, and some are not the system's to answer for: Open MPI
	// 4.1 under srun crashes in MPI_Init now and then (a peer's first
	// message reaches a rank before its point-to-point layer is set up;
	// docs/suite.md). A launch that measured anything is never run again.
	Retries int
}

// Summary is what a run of the suite did.
type Summary struct {
	OK, Kept, Failed, Skipped, NotRun int
	// Retried is how many launches ran more than once (Runner.Retries).
	Retried int
	// Stopped says why launches were left (the deadline, a signal).
	Stopped string
}

// Execute is a whole run of the suite f on a, under Deadline, SIGINT and
// SIGTERM: it takes the node facts of Dir's nodes.jsonl when they cover
// every node, else gathers them (a job of `gomb suite facts` a node) and
// writes them there; plans with o (its Dir is the runner's); and runs
// every launch. The summary is nil when it never came to the launches.
// The error says how the run ended, with gomb's exit status: a row this
// allocation cannot hold (cli.ExitUsage), a signal (cli.ExitSignal plus
// its number), the deadline with launches left (cli.ExitWatchdog), a
// launch that failed (cli.ExitFailure); nil when every launch ran or was
// skipped.
func (r *Runner) Execute(f *File, a *Allocation, o Options) (*Summary, error) {
	base, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	ctx := base
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		if s, ok := <-sigs; ok {
			stop(stopSignal{s.(syscall.Signal)})
		}
	}()
	if r.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, r.Deadline, context.DeadlineExceeded)
		defer cancel()
	}
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return nil, err
	}
	if err := r.facts(ctx, a, &o.Launcher); err != nil {
		return nil, err
	}
	o.Dir = r.Dir
	p, err := MakePlan(f, a, o)
	if err != nil {
		return nil, cli.Usage("%v", err)
	}
	r.Plan = p
	s, err := r.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("suite run: %v", err)
	}
	var sig stopSignal
	switch {
	case errors.As(context.Cause(base), &sig):
		return s, &cli.ExitError{Code: cli.ExitSignal + int(sig.s), Err: fmt.Errorf("suite run: stopped by %v (rerun to resume)", sig.s)}
	case s.NotRun > 0:
		return s, &cli.ExitError{Code: cli.ExitWatchdog, Err: fmt.Errorf("suite run: %s: %d launches not run (rerun to resume)", s.Stopped, s.NotRun)}
	case s.Failed > 0:
		return s, &cli.ExitError{Code: cli.ExitFailure, Err: fmt.Errorf("suite run: %d launches failed (their logs are in %s)", s.Failed, filepath.Join(r.Dir, "logs"))}
	}
	return s, nil
}

// stopSignal is the signal that stopped the run, as its context's cause.
type stopSignal struct{ s syscall.Signal }

func (e stopSignal) Error() string { return fmt.Sprintf("the suite was stopped by %v", e.s) }

// facts gives a the node facts of Dir's nodes.jsonl when they cover every
// node, else gathers them and writes them there.
func (r *Runner) facts(ctx context.Context, a *Allocation, l *Launcher) error {
	path := filepath.Join(r.Dir, FactsFile)
	facts, _ := ReadFactsFile(path)
	for _, n := range a.Nodes {
		if facts[n] == nil {
			facts = nil
			break
		}
	}
	if facts == nil {
		r.say("gathering the hardware of %d nodes: %s", len(a.Nodes), strings.Join(l.FactsLine(a.Nodes), " "))
		var err error
		if facts, err = r.GatherFacts(ctx, l, a.Nodes); err != nil {
			return fmt.Errorf("suite run: %v", err)
		}
		var b bytes.Buffer
		if err := WriteFacts(&b, a.Nodes, facts); err != nil {
			return err
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	a.Facts = facts
	r.say("%d nodes (%s): %s", len(a.Nodes), a.Source, Describe(facts[a.Nodes[0]]))
	return nil
}

// say writes a progress line.
func (r *Runner) say(format string, a ...any) {
	if r.Progress != nil {
		fmt.Fprintf(r.Progress, "gomb suite: "+format+"\n", a...)
	}
}

// Run runs every launch not complete in Dir already; ctx ends it (a
// deadline, a signal): the launch under way gets SIGTERM, the rest are
// recorded as not run. One failing launch does not stop the others.
func (r *Runner) Run(ctx context.Context) (*Summary, error) {
	for _, d := range []string{r.Dir, filepath.Join(r.Dir, "records"), filepath.Join(r.Dir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	ledger, err := os.OpenFile(filepath.Join(r.Dir, LedgerFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer ledger.Close()
	enc := json.NewEncoder(ledger)
	put := func(e *Entry) error {
		e.Type = "launch"
		return enc.Encode(e)
	}
	s := &Summary{}
	total := len(r.Plan.Launches())
	n := 0
	say := r.say
	for _, pr := range r.Plan.Rows {
		row := pr.Row
		if pr.Skip != "" {
			s.Skipped++
			say("row %s skipped: %s", row.ID, pr.Skip)
			if err := put(&Entry{Row: row.ID, Status: StatusSkipped, Reason: pr.Skip, Start: time.Now()}); err != nil {
				return s, err
			}
			continue
		}
		for _, l := range pr.Launches {
			n++
			e := &Entry{Row: row.ID, Rep: l.Rep, Records: l.Records, Hosts: pr.Hosts, Line: l.Line, Start: time.Now()}
			if Complete(l.Records, l.Gomb) {
				s.Kept++
				e.Status = StatusKept
				say("[%d/%d] row %s rep %d: complete already (%s)", n, total, row.ID, l.Rep, l.Records)
				if err := put(e); err != nil {
					return s, err
				}
				continue
			}
			if ctx.Err() != nil {
				s.NotRun++
				e.Status, e.Reason = StatusNotRun, stopReason(ctx)
				s.Stopped = e.Reason
				if err := put(e); err != nil {
					return s, err
				}
				continue
			}
			say("[%d/%d] row %s rep %d/%d: %s", n, total, row.ID, l.Rep, len(pr.Launches), strings.Join(l.Line, " "))
			code, reason := r.launch(ctx, l, 1)
			for attempt := 2; attempt <= 1+r.Retries && retryable(ctx, l); attempt++ {
				if reason == "" {
					reason = notComplete
				}
				e.Retried = append(e.Retried, reason)
				e.Attempts = attempt
				say("[%d/%d] row %s rep %d: measured nothing (%s); running it again, attempt %d of %d",
					n, total, row.ID, l.Rep, reason, attempt, 1+r.Retries)
				code, reason = r.launch(ctx, l, attempt)
			}
			if e.Attempts > 1 {
				s.Retried++
			}
			e.Seconds, e.Code = time.Since(e.Start).Seconds(), code
			switch {
			case Complete(l.Records, l.Gomb):
				// the records are whole whatever came after them (MPICH over
				// UCX's TCP hangs in MPI_Finalize, and gomb's watchdog ends it
				// with every record written): the measurement stands
				s.OK++
				e.Status = StatusOK
				if reason != "" {
					e.Reason = "its records are complete; then " + reason
				}
				say("[%d/%d] row %s rep %d: ok in %.1f s", n, total, row.ID, l.Rep, e.Seconds)
			case ctx.Err() != nil:
				s.NotRun++
				e.Status, e.Reason = StatusNotRun, stopReason(ctx)+" (it was under way: ended)"
				s.Stopped = stopReason(ctx)
				say("[%d/%d] row %s rep %d: %s", n, total, row.ID, l.Rep, e.Reason)
			default:
				if reason == "" {
					reason = notComplete
				}
				s.Failed++
				e.Status, e.Reason = StatusFailed, reason
				say("[%d/%d] row %s rep %d: failed: %s (log: %s)", n, total, row.ID, l.Rep, reason, r.logPath(l))
			}
			if err := put(e); err != nil {
				return s, err
			}
		}
	}
	return s, nil
}

// notComplete is why a launch failed that exited without saying why.
const notComplete = "its records did not end complete"

// stopReason says what ended the run early.
func stopReason(ctx context.Context) string {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return "the suite's deadline passed"
	}
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
		return c.Error()
	}
	return "the suite was stopped"
}

func (r *Runner) logPath(l *Launch) string {
	return filepath.Join(r.Dir, "logs", fmt.Sprintf("%s-rep%d.log", l.Row.Row.ID, l.Rep))
}

// retryable says whether a launch that just ended may run again: it
// failed, no signal or deadline ended it, and its records hold no result.
func retryable(ctx context.Context, l *Launch) bool {
	if ctx.Err() != nil || Complete(l.Records, l.Gomb) {
		return false
	}
	bs, _ := readBundles(l.Records)
	for _, b := range bs {
		if len(b.Results) > 0 {
			return false
		}
	}
	return true
}

// launch runs one attempt of a launch, its output into its log (the
// first attempt starts the log, later ones add to it); it returns the
// exit status and, when it failed, why in one line.
func (r *Runner) launch(ctx context.Context, l *Launch, attempt int) (int, string) {
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if attempt > 1 {
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	log, err := os.OpenFile(r.logPath(l), flags, 0o644)
	if err != nil {
		return -1, err.Error()
	}
	defer log.Close()
	_ = os.Remove(l.Records) // a failed attempt's records: this launch writes them anew
	if attempt > 1 {
		fmt.Fprintf(log, "# attempt %d\n", attempt)
	}
	fmt.Fprintf(log, "# %s\n", strings.Join(l.Line, " "))
	var tail lastLines
	code, err := r.command(ctx, l.Line, io.MultiWriter(log, &tail), io.MultiWriter(log, &tail))
	if err != nil {
		return code, err.Error()
	}
	if code != 0 {
		return code, fmt.Sprintf("exit status %d: %s", code, tail.reason())
	}
	return 0, ""
}

// command runs a launcher line, in a process group of its own (a Ctrl-C
// at the terminal is the runner's to forward), SIGTERM when ctx ends and
// SIGKILL Grace later.
func (r *Runner) command(ctx context.Context, line []string, stdout, stderr io.Writer) (int, error) {
	cmd := exec.Command(line[0], line[1:]...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = r.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return -1, fmt.Errorf("cannot start %s: %v", line[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	grace := r.Grace
	if grace == 0 {
		grace = 10 * time.Second
	}
	var werr error
	select {
	case werr = <-done:
	case <-ctx.Done():
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case werr = <-done:
		case <-time.After(grace):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			werr = <-done
		}
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	if werr != nil {
		return -1, werr
	}
	return 0, nil
}

// lastLines keeps the last lines written, to say why a launch failed.
type lastLines struct {
	buf   bytes.Buffer
	lines []string
}

func (t *lastLines) Write(p []byte) (int, error) {
	t.buf.Write(p)
	for {
		i := bytes.IndexByte(t.buf.Bytes(), '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(string(t.buf.Next(i + 1)))
		if line != "" {
			t.lines = append(t.lines, line)
			if len(t.lines) > 50 {
				t.lines = t.lines[1:]
			}
		}
	}
	return len(p), nil
}

// reason is the line that says most: gomb's own error line ("gomb osu:
// ...", or "gomb: a library crashed ..." from a rank a library crashed),
// else the launcher's last.
func (t *lastLines) reason() string {
	if s := strings.TrimSpace(t.buf.String()); s != "" {
		t.lines = append(t.lines, s)
	}
	for i := len(t.lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(t.lines[i], "gomb ") || strings.HasPrefix(t.lines[i], "gomb: ") {
			return t.lines[i]
		}
	}
	if len(t.lines) > 0 {
		return t.lines[len(t.lines)-1]
	}
	return "no output"
}

// Complete says whether a record file holds a complete run of this very
// command line (args: the measuring command and its flags).
func Complete(path string, args []string) bool {
	bs, err := readBundles(path)
	if err != nil || len(bs) != 1 {
		return false
	}
	b := bs[0]
	return b.End != nil && b.End.Status == result.EndComplete && len(b.Run.Command) > 1 && slices.Equal(b.Run.Command[1:], args)
}

// GatherFacts runs the facts job over nodes and returns each node's
// record; a node that printed none is an error naming it.
func (r *Runner) GatherFacts(ctx context.Context, l *Launcher, nodes []string) (map[string]*result.Node, error) {
	line := l.FactsLine(nodes)
	var out, errb bytes.Buffer
	code, err := r.command(ctx, line, &out, &errb)
	if err != nil {
		return nil, err
	}
	facts, _ := ReadFacts(bytes.NewReader(out.Bytes()))
	var missing []string
	for _, n := range nodes {
		if facts[n] == nil {
			missing = append(missing, n)
		}
	}
	if code != 0 || len(missing) > 0 {
		var tail lastLines
		tail.Write(errb.Bytes())
		tail.Write(out.Bytes())
		return nil, fmt.Errorf("the node facts job (%s) exited %d without the facts of %s: %s", strings.Join(line, " "), code,
			Compress(missing), tail.reason())
	}
	return facts, nil
}

// ReadLedger reads a suite directory's ledger: the last entry of each
// launch (row, rep) and of each skipped row.
func ReadLedger(dir string) (map[string]*Entry, error) {
	f, err := os.Open(filepath.Join(dir, LedgerFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]*Entry{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Type != "launch" {
			continue
		}
		out[LedgerKey(e.Row, e.Rep)] = &e
	}
	return out, sc.Err()
}

// LedgerKey keys a launch (rep from 1) or a row (rep 0) in ReadLedger's map.
func LedgerKey(row string, rep int) string { return fmt.Sprintf("%s#%d", row, rep) }
