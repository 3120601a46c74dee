package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
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

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/host"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/report"
	"github.com/gomb-hpc/gomb/internal/report/text"
	"github.com/gomb-hpc/gomb/internal/suite"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/suites"
)

func suiteHelp() *cli.Help {
	return &cli.Help{
		Usage: "gomb suite plan|run|report [flags] FILE [DIR]",
		Intro: `Runs an acceptance suite: a benchmark's run rules in, its results table out,
as one job. FILE is a suite file (YAML; docs/suite.md has the schema) or
the name of a shipped one (` + strings.Join(suites.Names(), ", ") + `).

  plan FILE        the launches the suite makes on this allocation, each
                   with its launcher line, nodes and ranks (no MPI)
  run FILE -o DIR  inside one allocation (salloc, sbatch; or -hostfile for
                   mpirun and mpiexec): gathers every node's hardware in a
                   small job, then runs the launches one after another,
                   each record labelled -campaign SUITE -cell row=ID,rep=K,
                   into DIR; a row that fails or cannot run here is kept
                   with its reason and the others go on; run it again to
                   resume (complete launches are not run again)
  report FILE DIR  the results table (Test, Ranks, Msg Size, Num Nodes,
                   Result, the spread over repetitions, the reference and
                   the ratio, PASS or FAIL against required values), as
                   text, Markdown, CSV or an HTML report with explain's
                   findings under each row (no MPI)`,
		Groups: []cli.Group{
			{Title: "Where the suite runs (plan, run):", Flags: []string{"hostfile", "nodes", "launcher", "launcher-args",
				"submit", "gomb", "bind", "topology", "fleet", "facts"}},
			{Title: "What runs (plan, run):", Flags: []string{"repetitions", "extra", "campaign", "system"}},
			{Title: "Output:", Flags: []string{"o", "deadline", "format"}},
		},
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitRegression, cli.ExitWatchdog, cli.ExitSignal},
			map[int]string{0: "done (run: every launch ran or was skipped; report: no required value missed)",
				cli.ExitFailure: "run: some launches failed (the others ran)", cli.ExitUsage: "a bad suite file (one line names its file, line and field) or flag",
				cli.ExitRegression: "report: a required value was missed", cli.ExitWatchdog: "run: the -deadline passed (launches left are recorded as not run)"}),
		Examples: []string{
			"gomb suite plan osu-crossroads -nodes 'nid[001-064]' -topology topology.conf",
			"salloc -N 64 gomb suite run osu-crossroads -o osu-run -deadline 2h",
			"gomb suite run my-suite.yaml -hostfile hosts -o run1      # mpirun (mpiexec for gomb-mpich)",
			"gomb suite run osu-crossroads -o small -repetitions 1 -extra 'osu -i 100 -x 10'",
			"gomb suite report osu-crossroads osu-run",
			"gomb suite report -format csv osu-crossroads osu-run > osu.csv",
			"gomb suite report -format html -o osu.html osu-crossroads osu-run",
		},
	}
}

// suiteCmd is gomb suite's command line.
type suiteCmd struct {
	verb         string
	file, dir    string
	where        suite.Where
	facts        string
	gomb         string
	launcherArgs string
	bind         string
	reps         int
	extra        []string
	campaign     string
	system       string
	out          string
	deadline     time.Duration
	format       string
}

// suiteVerbs are the verbs and the flags each takes.
var suiteVerbs = map[string][]string{
	"plan":   {"hostfile", "nodes", "launcher", "launcher-args", "submit", "gomb", "bind", "topology", "fleet", "facts", "repetitions", "extra", "campaign", "system", "o"},
	"run":    {"hostfile", "nodes", "launcher", "launcher-args", "submit", "gomb", "bind", "topology", "fleet", "repetitions", "extra", "campaign", "system", "o", "deadline"},
	"report": {"campaign", "o", "format"},
}

func suiteCmdFlags(c *suiteCmd, verb string) *flag.FlagSet {
	fs := cli.NewFlagSet("suite")
	if verb != "" {
		fs = cli.NewFlagSet("suite " + verb)
	}
	fs.StringVar(&c.where.Hostfile, "hostfile", "", "`FILE` the nodes, a host a line (node01, node01 slots=4, node01:4), for mpirun or mpiexec")
	fs.StringVar(&c.where.Nodes, "nodes", "", "`LIST` the nodes, as a Slurm host list (nid[001-064]): to plan outside an allocation, or with -submit")
	fs.StringVar(&c.where.Launcher, "launcher", "auto", "`KIND[=PROGRAM]` srun (job steps), mpirun (Open MPI), mpiexec (MPICH's Hydra), or auto: "+
		"srun in a Slurm allocation, else the gomb binary's MPI's own with -hostfile; =PROGRAM names its command (mpiexec=mpirun.mpich)")
	fs.StringVar(&c.launcherArgs, "launcher-args", "", "`ARGS` more arguments for every launch, before the program (--mca btl tcp,self)")
	fs.BoolVar(&c.where.Submit, "submit", false, "outside an allocation: every launch is an srun job of its own, a shortest-path row "+
		"under one switch as Slurm picks it (--switches=1); give the nodes with -nodes")
	fs.StringVar(&c.gomb, "gomb", "", "`PATH` the gomb binary the ranks run (default: this one)")
	fs.StringVar(&c.bind, "bind", "auto", "`auto|none` auto: ranks bound as the placement says (a core each; the socket or "+
		"NUMA domain of per-socket, per-nic and per-gpu rows); none: unbound (VMs and emulated hosts, whose nodes share cores)")
	fs.StringVar(&c.where.Topology, "topology", "", "`FILE` the switch tree for shortest and longest paths: Slurm's topology.conf, "+
		"or what scontrol show topology prints (default: scontrol show topology inside an allocation)")
	fs.StringVar(&c.where.Fleet, "fleet", "", "`FILE` a gomb fleet sweep's records: the paths are the pairs of lowest and highest latency")
	fs.StringVar(&c.facts, "facts", "", "`FILE` the nodes' hardware (a run's nodes.jsonl) to plan with (default: -o DIR's, else "+
		"this machine's for every node)")
	fs.Func("repetitions", "`N` launches of every row, instead of the file's", cli.AtLeast(1, "-repetitions", func(n int) { c.reps = n }))
	fs.Func("extra", "`'CMD FLAGS'` flags added to every row whose test is gomb CMD (repeatable): 'osu -i 100 -x 10', 'imb -iter 100'", func(s string) error {
		f := strings.Fields(s)
		if len(f) < 2 {
			return fmt.Errorf("want a command and its flags ('osu -i 100 -x 10'), got %q", s)
		}
		c.extra = append(c.extra, s)
		return nil
	})
	fs.StringVar(&c.campaign, "campaign", "", "`ID` the campaign the records are labelled with (default: the suite's name)")
	fs.StringVar(&c.system, "system", "", "`S` label the records with the system they ran on (system=S)")
	fs.StringVar(&c.out, "o", "", "`DIR|FILE` plan and run: the suite's directory (records/, logs/, nodes.jsonl, suite.jsonl); "+
		"report: the file the table goes to (default stdout)")
	fs.Func("deadline", "`D` end the whole run after D (90m, 2h): the launch under way is stopped, the rest recorded as not run", func(s string) error {
		d, err := cli.ParseDuration(s)
		c.deadline = d
		return err
	})
	fs.StringVar(&c.format, "format", "text", "`text|markdown|csv|html` the results table's format (html: a gomb report, -o FILE)")
	if verb != "" {
		keep := suiteVerbs[verb]
		out := cli.NewFlagSet("suite " + verb)
		fs.VisitAll(func(f *flag.Flag) {
			if slices.Contains(keep, f.Name) {
				out.Var(f.Value, f.Name, f.Usage)
			}
		})
		return out
	}
	return fs
}

var suiteUsage = helpWriter(suiteHelp, suiteCmdFlags(&suiteCmd{}, ""))

func parseSuiteCmd(args []string) (*suiteCmd, error) {
	c := &suiteCmd{}
	if len(args) == 0 {
		return nil, cli.Usage("suite: give plan, run or report ('gomb suite -help')")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		return nil, flag.ErrHelp
	}
	c.verb = args[0]
	if _, ok := suiteVerbs[c.verb]; !ok && c.verb != "facts" {
		return nil, cli.Usage("suite: unknown command %q (plan, run, report)", c.verb)
	}
	if c.verb == "facts" {
		if len(args) > 1 {
			return nil, cli.Usage("suite facts takes no arguments")
		}
		return c, nil
	}
	pos, err := cli.ParseCommand(suiteCmdFlags(c, c.verb), args[1:])
	if err != nil {
		return nil, err
	}
	want := 1
	if c.verb == "report" {
		want = 2
	}
	switch {
	case len(pos) != want && want == 1:
		return nil, cli.Usage("suite %s: give one suite file (or a shipped suite's name)", c.verb)
	case len(pos) != want:
		return nil, cli.Usage("suite report: give the suite file and the run's directory (gomb suite report FILE DIR)")
	case c.verb == "run" && c.out == "":
		return nil, cli.Usage("suite run: give -o DIR, where the records, logs and ledger go (and a rerun resumes)")
	case c.bind != "auto" && c.bind != "none":
		return nil, cli.Usage("suite: -bind %s: want auto or none", c.bind)
	case c.verb == "report" && !slices.Contains([]string{"text", "markdown", "csv", "html"}, c.format):
		return nil, cli.Usage("suite report: -format %s: want text, markdown, csv or html", c.format)
	case c.verb == "report" && c.format == "html" && c.out == "":
		return nil, cli.Usage("suite report: -format html writes a file: give -o FILE")
	}
	c.file = pos[0]
	if want == 2 {
		c.dir = pos[1]
	}
	return c, nil
}

func runSuiteCmd(stdout, stderr io.Writer, args []string) error {
	c, err := parseSuiteCmd(args)
	if err != nil {
		return helpOr(err, stdout, suiteUsage)
	}
	switch c.verb {
	case "facts":
		return suiteFacts(stdout)
	case "report":
		return suiteReport(c, stdout, stderr)
	}
	f, err := readSuiteFile(c.file)
	if err != nil {
		return err
	}
	gomb := c.gomb
	if gomb == "" {
		if gomb, err = os.Executable(); err != nil {
			return err
		}
	}
	c.where.MPI = gombFamily(gomb, c.gomb == "")
	a, l, err := suite.Locate(c.where)
	if err != nil {
		return cli.Usage("suite %s: %v", c.verb, err)
	}
	l.Gomb, l.NoBind, l.Args = gomb, c.bind == "none", strings.Fields(c.launcherArgs)
	if c.verb == "plan" {
		if err := suiteFactsFor(c, a); err != nil {
			return err
		}
		p, err := c.plan(f, a, l)
		if err != nil {
			return err
		}
		return writePlan(stdout, p, l)
	}
	return suiteRun(c, f, a, l, stderr)
}

// readSuiteFile reads and parses a suite file, or a shipped suite by name.
func readSuiteFile(name string) (*suite.File, error) {
	data, err := os.ReadFile(name)
	path := name
	if err != nil {
		var ok bool
		if data, path, ok = suites.Open(name); !ok {
			return nil, cli.Usage("suite: %v (nor is it a shipped suite: %s)", err, strings.Join(suites.Names(), ", "))
		}
	}
	f, err := suite.Parse(path, data)
	if err != nil {
		return nil, cli.Usage("%v", err)
	}
	return f, nil
}

// gombFamily is the MPI family of the gomb binary the ranks run: this
// one's, or another's as its version says.
func gombFamily(gomb string, self bool) string {
	if self {
		return mpi.Family()
	}
	out, _ := exec.Command(gomb, "version").Output()
	for _, fam := range []string{"openmpi", "mpich"} {
		if bytes.Contains(out, []byte("MPI build: "+fam)) {
			return fam
		}
	}
	return ""
}

// suiteFactsFor gives the allocation node facts to plan with: -facts, or
// the run directory's, else this machine's standing for every node.
func suiteFactsFor(c *suiteCmd, a *suite.Allocation) error {
	path := c.facts
	if path == "" && c.out != "" {
		if _, err := os.Stat(filepath.Join(c.out, suite.FactsFile)); err == nil {
			path = filepath.Join(c.out, suite.FactsFile)
		}
	}
	if path != "" {
		facts, err := suite.ReadFactsFile(path)
		if err != nil {
			return cli.Usage("suite plan: -facts: %v", err)
		}
		a.Facts = facts
		return nil
	}
	here := host.Facts("/sys", nodeName())
	a.Assumed = &here
	return nil
}

func (c *suiteCmd) plan(f *suite.File, a *suite.Allocation, l suite.Launcher) (*suite.Plan, error) {
	extra := map[string][]string{}
	for _, e := range c.extra {
		w := strings.Fields(e)
		extra[w[0]] = append(extra[w[0]], w[1:]...)
	}
	var labels []string
	if c.system != "" {
		labels = []string{"-system", c.system}
	}
	dir := c.out
	if dir == "" {
		dir = "DIR"
	}
	p, err := suite.MakePlan(f, a, suite.Options{Check: checkSuiteTest, Launcher: l, Campaign: c.campaign, Dir: dir,
		Repetitions: c.reps, Extra: extra, Labels: labels})
	if err != nil {
		return nil, cli.Usage("%v", err)
	}
	return p, nil
}

// writePlan prints the plan: the allocation, then every row with its
// nodes, ranks and launcher lines.
func writePlan(w io.Writer, p *suite.Plan, l suite.Launcher) error {
	a := p.Alloc
	fmt.Fprintf(w, "# suite %s: %d rows, %d launches on %d nodes (%s), launcher %s\n", p.File.Suite, len(p.Rows), len(p.Launches()),
		len(a.Nodes), a.Source, l.Kind)
	switch {
	case a.Tree != nil:
		fmt.Fprintf(w, "# topology: the switch tree of %s\n", a.Tree.Source)
	case a.Fleet != nil:
		fmt.Fprintf(w, "# topology: the pair latencies of %s\n", a.Fleet.Source)
	default:
		fmt.Fprintf(w, "# topology: none\n")
	}
	if a.Assumed != nil {
		fmt.Fprintf(w, "# nodes: this machine's hardware stands for every node (%s); gomb suite run gathers each node's\n", suite.Describe(a.Assumed))
	} else {
		fmt.Fprintf(w, "# nodes: %d with their hardware known (%s, ...)\n", len(a.Facts), suite.Describe(a.FactsOf(a.Nodes[0])))
	}
	fmt.Fprintf(w, "# records labelled campaign=%s and cell row=ID,rep=K\n", p.Campaign)
	for _, r := range p.Rows {
		fmt.Fprintf(w, "\nrow %s (%s:%d): %s\n", r.Row.ID, p.File.Name, r.Row.Line(""), strings.Join(r.Row.Test, " "))
		if r.Skip != "" {
			fmt.Fprintf(w, "  skipped: %s\n", r.Skip)
			continue
		}
		hosts := suite.Compress(r.Hosts)
		if hosts == "" {
			hosts = "Slurm's pick"
		}
		fmt.Fprintf(w, "  %d nodes (%s), %s: %d a node, %d ranks; %d repetitions\n", r.Nodes, hosts, r.Row.Placement.Words(),
			r.PerNode, r.NP, len(r.Launches))
		if r.Path != "" {
			fmt.Fprintf(w, "  %s path: %s\n", r.Row.Path, r.Path)
		}
		for _, x := range r.Launches {
			fmt.Fprintf(w, "  %s\n", strings.Join(x.Line, " "))
		}
	}
	return nil
}

// suiteRun gathers the node facts (or reuses the directory's), plans,
// and runs, under -deadline and the signals.
func suiteRun(c *suiteCmd, f *suite.File, a *suite.Allocation, l suite.Launcher, stderr io.Writer) error {
	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var got os.Signal
	go func() {
		if s, ok := <-sigs; ok {
			got = s
			stop(fmt.Errorf("the suite was stopped by %v", s))
		}
	}()
	if c.deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, c.deadline, context.DeadlineExceeded)
		defer cancel()
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	runner := &suite.Runner{Dir: c.out, Progress: stderr}
	factsPath := filepath.Join(c.out, suite.FactsFile)
	facts, _ := suite.ReadFactsFile(factsPath)
	for _, n := range a.Nodes {
		if facts[n] == nil {
			facts = nil
			break
		}
	}
	if facts == nil {
		fmt.Fprintf(stderr, "gomb suite: gathering the hardware of %d nodes: %s\n", len(a.Nodes), strings.Join(l.FactsLine(a.Nodes), " "))
		var err error
		if facts, err = runner.GatherFacts(ctx, &l, a.Nodes); err != nil {
			return fmt.Errorf("suite run: %v", err)
		}
		var b bytes.Buffer
		if err := suite.WriteFacts(&b, a.Nodes, facts); err != nil {
			return err
		}
		if err := os.WriteFile(factsPath, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	a.Facts = facts
	fmt.Fprintf(stderr, "gomb suite: %d nodes (%s): %s\n", len(a.Nodes), a.Source, suite.Describe(facts[a.Nodes[0]]))
	p, err := c.plan(f, a, l)
	if err != nil {
		return err
	}
	runner.Plan = p
	s, err := runner.Run(ctx)
	if err != nil {
		return fmt.Errorf("suite run: %v", err)
	}
	fmt.Fprintf(stderr, "gomb suite: %d launches ran, %d were complete already, %d failed, %d rows skipped, %d launches not run; "+
		"the table: gomb suite report %s %s\n", s.OK, s.Kept, s.Failed, s.Skipped, s.NotRun, c.file, c.out)
	switch {
	case got != nil:
		return &cli.ExitError{Code: cli.ExitSignal + int(got.(syscall.Signal)), Err: fmt.Errorf("suite run: stopped by %v (rerun to resume)", got)}
	case s.NotRun > 0:
		return &cli.ExitError{Code: cli.ExitWatchdog, Err: fmt.Errorf("suite run: %s: %d launches not run (rerun to resume)", s.Stopped, s.NotRun)}
	case s.Failed > 0:
		return &cli.ExitError{Code: cli.ExitFailure, Err: fmt.Errorf("suite run: %d launches failed (their logs are in %s)", s.Failed, filepath.Join(c.out, "logs"))}
	}
	return nil
}

// suiteReport writes the results table.
func suiteReport(c *suiteCmd, stdout, stderr io.Writer) error {
	f, err := readSuiteFile(c.file)
	if err != nil {
		return err
	}
	t, err := suite.Results(f, c.dir, suite.TableOptions{Campaign: c.campaign, Explain: c.format == "html"})
	if err != nil {
		return cli.Usage("suite report: %v", err)
	}
	inputs := []string{c.file, c.dir}
	switch c.format {
	case "html":
		rep, err := suiteHTML(t, c.dir)
		if err != nil {
			return err
		}
		if _, _, err := rep.WritePlotsFor("", c.out); err != nil {
			return fmt.Errorf("suite report: %w", err)
		}
		if err := cli.WriteOutput(stdout, "-o", c.out, inputs, rep.WriteHTML); err != nil {
			return fmt.Errorf("suite report: %w", err)
		}
		fmt.Fprintf(stderr, "gomb suite report: wrote %s\n", c.out)
	default:
		write := map[string]func(io.Writer, *suite.Table) error{"text": text.Suite, "markdown": text.SuiteMarkdown, "csv": text.SuiteCSV}[c.format]
		out := c.out
		if out == "" {
			out = "-"
		}
		if err := cli.WriteOutput(stdout, "-o", out, inputs, func(w io.Writer) error { return write(w, t) }); err != nil {
			return fmt.Errorf("suite report: %w", err)
		}
	}
	if t.Missed > 0 {
		return &cli.ExitError{Code: cli.ExitRegression, Err: fmt.Errorf("suite report: %d required values missed", t.Missed)}
	}
	return nil
}

// suiteHTML is a gomb report of the suite's records with the results
// table on top.
func suiteHTML(t *suite.Table, dir string) (*report.Report, error) {
	in := report.Input{Title: t.Title, Generated: time.Now(), Suite: t}
	files, _ := filepath.Glob(filepath.Join(dir, "records", "*.jsonl"))
	var runs []*result.Bundle
	for _, file := range files {
		bs, err := suiteBundles(file)
		if err != nil {
			return nil, err
		}
		runs = append(runs, bs...)
	}
	if len(runs) > 0 {
		side := report.Side{Label: t.Suite, Profiles: analysis.Profiles(runs)}
		for _, r := range runs {
			side.Runs = append(side.Runs, fmt.Sprintf("%s rep %s: %s", r.Run.Labels["row"], r.Run.Labels["rep"], strings.Join(r.Run.Command[1:], " ")))
		}
		in.Sides = []report.Side{side}
	}
	rep, err := report.Build(in)
	if err != nil {
		return nil, fmt.Errorf("suite report: %w", err)
	}
	return rep, nil
}

// suiteBundles reads a record file's complete runs.
func suiteBundles(path string) ([]*result.Bundle, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	d := result.NewDecoder(fh, path)
	var out []*result.Bundle
	for d.Scan() {
		switch r := d.Record().(type) {
		case *result.Run:
			out = append(out, &result.Bundle{Run: r})
		case *result.Result:
			if len(out) > 0 {
				out[len(out)-1].Results = append(out[len(out)-1].Results, r)
			}
		case *result.End:
			if len(out) > 0 {
				out[len(out)-1].End = r
			}
		}
	}
	return out, d.Err()
}

// suiteFacts prints this node's hardware as a node record: what the
// suite's facts job runs on every node.
func suiteFacts(stdout io.Writer) error {
	n := host.Facts("/sys", nodeName())
	return suite.WriteFacts(stdout, []string{n.Host}, map[string]*result.Node{n.Host: &n})
}

// nodeName is this node's name as the allocation names it: Slurm's
// SLURMD_NODENAME under srun, else the host name.
func nodeName() string {
	if n := os.Getenv("SLURMD_NODENAME"); n != "" {
		return n
	}
	h, _ := os.Hostname()
	return h
}

// suiteTests say, for the commands whose options know their sizes, what
// a test measures; every other measuring command is checked by its own
// parse alone.
var suiteTests = map[string]func(args []string, np int) (suite.Test, error){"osu": osuSuiteTest}

func init() {
	for _, s := range imb.Suites {
		suiteTests[s] = func(args []string, np int) (suite.Test, error) { return imbSuiteTest(s, args, np) }
	}
}

// measuringCommands is the command table (set in init: the table holds
// gomb suite, which reads it).
var measuringCommands func() []command

func init() { measuringCommands = func() []command { return commands } }

// checkSuiteTest checks a row's test with its command's own parsing.
func checkSuiteTest(args []string, np int) (suite.Test, error) {
	var measuring []string
	var cmd *command
	commands := measuringCommands()
	for i := range commands {
		c := &commands[i]
		if c.usage == nil || c.usage.fs.Lookup("campaign") == nil || c.usage.fs.Lookup("json") == nil {
			continue // not a measuring command: it writes no labelled records
		}
		measuring = append(measuring, c.name)
		if c.name == args[0] {
			cmd = c
		}
	}
	if cmd == nil {
		return suite.Test{}, fmt.Errorf("%q is no gomb measuring command (%s)", args[0], strings.Join(measuring, ", "))
	}
	if slices.Contains(args[1:], "-list") || slices.Contains(args[1:], "-help") {
		return suite.Test{}, errors.New("-list and -help run no test")
	}
	if t, ok := suiteTests[args[0]]; ok {
		return t(args[1:], np)
	}
	return suite.Test{}, cmd.parse(args[1:])
}

func osuSuiteTest(args []string, np int) (suite.Test, error) {
	cfg, err := parseOSU(args)
	if err != nil {
		return suite.Test{}, err
	}
	specs := cfg.specs
	if cfg.spec != nil {
		specs = append(specs, cfg.spec)
	}
	t := suite.Test{Device: cfg.opt.Device != ""}
	for _, s := range specs {
		for _, b := range cfg.opt.Sizes(s, np) {
			if !slices.Contains(t.Sizes, b) {
				t.Sizes = append(t.Sizes, b)
			}
		}
	}
	return t, nil
}

func imbSuiteTest(name string, args []string, np int) (suite.Test, error) {
	cfg, err := parseIMBSuite(name, args)
	if err != nil {
		return suite.Test{}, err
	}
	p, err := imb.Resolve(cfg.Request, np)
	if err != nil {
		return suite.Test{}, err
	}
	var t suite.Test
	for _, b := range p.Benchmarks {
		s, ok := imb.Lookup(name, b)
		if !ok {
			continue
		}
		for _, x := range p.Options.SizesOf(s) {
			if !slices.Contains(t.Sizes, x) {
				t.Sizes = append(t.Sizes, x)
			}
		}
	}
	return t, nil
}
