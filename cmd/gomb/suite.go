package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/report"
	"github.com/gomb-hpc/gomb/internal/report/text"
	"github.com/gomb-hpc/gomb/internal/suite"
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
			{Title: "Output:", Flags: []string{"o", "deadline", "retries", "format"}},
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
	extra        map[string][]string // -extra: flags by command
	campaign     string
	system       string
	out          string
	deadline     time.Duration
	retries      int
	format       string
}

// suiteVerbs are the verbs and the flags each takes.
var suiteVerbs = map[string][]string{
	"plan":   {"hostfile", "nodes", "launcher", "launcher-args", "submit", "gomb", "bind", "topology", "fleet", "facts", "repetitions", "extra", "campaign", "system", "o"},
	"run":    {"hostfile", "nodes", "launcher", "launcher-args", "submit", "gomb", "bind", "topology", "fleet", "repetitions", "extra", "campaign", "system", "o", "deadline", "retries"},
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
		if c.extra == nil {
			c.extra = map[string][]string{}
		}
		c.extra[f[0]] = append(c.extra[f[0]], f[1:]...)
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
	fs.Func("retries", "`N` run a launch that failed having measured nothing (it ended while MPI was starting, or before its "+
		"first size) up to N more times (default 1; 0: never); the ledger keeps why each attempt ended", cli.AtLeast(0, "-retries", func(n int) { c.retries = n }))
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
	c := &suiteCmd{retries: 1}
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
		return suite.WriteThisNode(stdout)
	case "report":
		return suiteReport(c, stdout, stderr)
	}
	f, err := suite.Load(c.file)
	if err != nil {
		return cli.Usage("%v", err)
	}
	gomb := c.gomb
	c.where.MPI = mpi.Family()
	if gomb != "" {
		c.where.MPI = suite.GombFamily(gomb)
	} else if gomb, err = os.Executable(); err != nil {
		return err
	}
	a, l, err := suite.Locate(c.where)
	if err != nil {
		return cli.Usage("suite %s: %v", c.verb, err)
	}
	l.Gomb, l.NoBind, l.Args = gomb, c.bind == "none", strings.Fields(c.launcherArgs)
	o := suite.Options{Check: suite.Commands(suiteCommands()), Launcher: l, Campaign: c.campaign, Dir: c.out,
		Repetitions: c.reps, Extra: c.extra}
	if c.system != "" {
		o.Labels = []string{"-system", c.system}
	}
	if c.verb == "plan" {
		if err := a.UseFacts(c.facts, c.out); err != nil {
			return cli.Usage("suite plan: -facts: %v", err)
		}
		if o.Dir == "" {
			o.Dir = "DIR"
		}
		p, err := suite.MakePlan(f, a, o)
		if err != nil {
			return cli.Usage("%v", err)
		}
		return text.SuitePlan(stdout, p)
	}
	r := &suite.Runner{Dir: c.out, Progress: stderr, Deadline: c.deadline, Retries: c.retries}
	s, err := r.Execute(f, a, o)
	if s != nil {
		retried := ""
		if s.Retried > 0 {
			retried = fmt.Sprintf(", %d run again after an attempt that measured nothing (the ledger says why)", s.Retried)
		}
		fmt.Fprintf(stderr, "gomb suite: %d launches ran%s, %d were complete already, %d failed, %d rows skipped, %d launches not run; "+
			"the table: gomb suite report %s %s\n", s.OK, retried, s.Kept, s.Failed, s.Skipped, s.NotRun, c.file, c.out)
	}
	return err
}

// suiteReport writes the results table.
func suiteReport(c *suiteCmd, stdout, stderr io.Writer) error {
	f, err := suite.Load(c.file)
	if err != nil {
		return cli.Usage("%v", err)
	}
	t, err := suite.Results(f, c.dir, suite.TableOptions{Campaign: c.campaign, Explain: c.format == "html"})
	if err != nil {
		return cli.Usage("suite report: %v", err)
	}
	inputs := []string{c.file, c.dir}
	switch c.format {
	case "html":
		rep, err := report.Build(report.SuiteInput(t, time.Now()))
		if err != nil {
			return fmt.Errorf("suite report: %w", err)
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

// suiteTests say, for the commands whose options know their sizes, what
// a test measures (each command's file registers its own); every other
// measuring command is checked by its own parse alone.
var suiteTests = map[string]suite.Checker{}

// measuringCommands is the command table (set in init: the table holds
// gomb suite, which reads it).
var measuringCommands func() []command

func init() { measuringCommands = func() []command { return commands } }

// suiteCommands are the commands a suite's row may run: those that write
// labelled records (-campaign, -json).
func suiteCommands() []suite.Command {
	var out []suite.Command
	for _, c := range measuringCommands() {
		if c.usage == nil || c.usage.fs.Lookup("campaign") == nil || c.usage.fs.Lookup("json") == nil {
			continue
		}
		test := suiteTests[c.name]
		if test == nil {
			test = func(args []string, _ int) (suite.Test, error) { return suite.Test{}, c.parse(args) }
		}
		out = append(out, suite.Command{Name: c.name, Test: test})
	}
	return out
}
