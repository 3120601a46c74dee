package suite

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gomb-hpc/gomb/suites"
)

// File is a suite file: a benchmark's run rules, one Row each, and the
// reference values its results are held against (docs/suite.md has the
// schema).
type File struct {
	Name string // the file's path as given, for errors
	// Suite names the suite: the campaign its records are labelled with.
	Suite string
	Title string
	// Reference is the system the report compares with ("" : the one the
	// rows name, when they name one).
	Reference string
	// Repetitions is the rows' default number of launches.
	Repetitions int
	Rows        []*Row
	// Systems are the reference systems the rows name, in order of first
	// mention.
	Systems []string
	line    map[string]int // top-level fields' lines
}

// Row is one line of the run rules: a test, where and how often it runs,
// and what is read from its records.
type Row struct {
	Index int    // 1-based, in the file's order
	ID    string // its cell in the records (row=ID)
	Title string // the results table's Test column
	// Test is the gomb measuring command line, without the binary ("osu
	// latency -m 8:8"), split into words.
	Test        []string
	Sizes       []int64 // bytes; nil: the test has no size (Barrier)
	Nodes       int     // 0: all of the allocation
	Placement   Placement
	Path        Path
	Metric      Metric
	Repetitions int
	// References are each system's values: one for every size, or one a
	// size in the order of Sizes (nil where a size has none).
	References map[string][]*Value
	Required   *Requirement
	line       map[string]int
	file       string
	refOrder   []string // References' systems, as written
	refList    []string // those given as a list (a value a size)
}

// Reference is a system's value at the i-th of the row's sizes (nil:
// none).
func (r *Row) Reference(system string, i int) *Value {
	vs := r.References[system]
	switch {
	case len(vs) == 1 && !contains(r.refList, system):
		return vs[0]
	case i >= 0 && i < len(vs):
		return vs[i]
	}
	return nil
}

// Error is a problem of a suite file: the file, line and field it is at.
type Error struct {
	File  string
	Line  int
	Field string // "rows[3].placement"; "" for the file as a whole
	Msg   string
}

func (e *Error) Error() string {
	where := e.File
	if e.Line > 0 {
		where += ":" + strconv.Itoa(e.Line)
	}
	if e.Field == "" {
		return where + ": " + e.Msg
	}
	return where + ": " + e.Field + ": " + e.Msg
}

// errorf is an Error at a row's field (the row itself when the field
// has no line of its own).
func (r *Row) errorf(field, format string, a ...any) *Error {
	line, ok := r.line[field]
	if !ok {
		line = r.line[""]
	}
	return &Error{File: r.file, Line: line, Field: fmt.Sprintf("rows[%d].%s", r.Index, field), Msg: fmt.Sprintf(format, a...)}
}

// Line is the line of one of the row's fields (the row's own where the
// field is absent).
func (r *Row) Line(field string) int {
	if l, ok := r.line[field]; ok {
		return l
	}
	return r.line[""]
}

// Load reads and parses a suite file, or, where no file has that name,
// the suite gomb ships under it (package suites); the error of a name
// that is neither lists the shipped suites.
func Load(name string) (*File, error) {
	data, err := os.ReadFile(name)
	path := name
	if err != nil {
		var ok bool
		if data, path, ok = suites.Open(name); !ok {
			return nil, fmt.Errorf("suite: %v (nor is it a shipped suite: %s)", err, strings.Join(suites.Names(), ", "))
		}
	}
	return Parse(path, data)
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Parse reads a suite file (YAML). name is its path, for errors. Unknown
// keys are errors, as are values of the wrong kind; every error names the
// file, line and field.
func Parse(name string, data []byte) (*File, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(name, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &Error{File: name, Line: 1, Msg: "empty suite file: want a mapping with suite and rows"}
	}
	root := doc.Content[0]
	f := &File{Name: name, Repetitions: 1, line: map[string]int{}}
	err := fields(name, "", root, map[string]func(*yaml.Node) error{
		"suite": func(n *yaml.Node) error {
			s, err := str(name, "suite", n)
			if err == nil && !idPattern.MatchString(s) {
				err = &Error{name, n.Line, "suite", fmt.Sprintf("%q: a name of letters, digits, '.', '_' and '-'", s)}
			}
			f.Suite = s
			return err
		},
		"title": func(n *yaml.Node) (err error) {
			f.Title, err = str(name, "title", n)
			return err
		},
		"reference": func(n *yaml.Node) (err error) {
			f.Reference, err = str(name, "reference", n)
			return err
		},
		"repetitions": func(n *yaml.Node) (err error) {
			f.Repetitions, err = count(name, "repetitions", n)
			return err
		},
		"rows": func(n *yaml.Node) error {
			if n.Kind != yaml.SequenceNode {
				return &Error{name, n.Line, "rows", "want a list of rows"}
			}
			for i, rn := range n.Content {
				r, err := parseRow(name, i+1, rn)
				if err != nil {
					return err
				}
				f.Rows = append(f.Rows, r)
			}
			return nil
		},
	}, f.line)
	if err != nil {
		return nil, err
	}
	switch {
	case f.Suite == "":
		return nil, &Error{File: name, Line: root.Line, Msg: "no suite: name the suite (suite: NAME)"}
	case len(f.Rows) == 0:
		return nil, &Error{File: name, Line: root.Line, Msg: "no rows: list the run rules under rows"}
	}
	ids := map[string]*Row{}
	for _, r := range f.Rows {
		if r.Repetitions == 0 {
			r.Repetitions = f.Repetitions
		}
		if r.ID == "" {
			r.ID = "r" + strconv.Itoa(r.Index)
		}
		if o := ids[r.ID]; o != nil {
			return nil, r.errorf("id", "%q is also row %d's id (line %d)", r.ID, o.Index, o.line[""])
		}
		ids[r.ID] = r
		if r.Title == "" {
			r.Title = testName(r.Test)
		}
		for sys := range r.References {
			if !contains(f.Systems, sys) {
				f.Systems = append(f.Systems, sys)
			}
		}
	}
	sortSystems(f)
	if f.Reference != "" && !contains(f.Systems, f.Reference) {
		return nil, &Error{name, f.line["reference"], "reference", fmt.Sprintf("%q is no system the rows' references name (%s)", f.Reference, orNone(f.Systems))}
	}
	if f.Reference == "" && len(f.Systems) == 1 {
		f.Reference = f.Systems[0]
	}
	return f, nil
}

// sortSystems orders the systems as the rows first name them (map order
// is random; the rows are walked again in file order, references by the
// order their keys were written).
func sortSystems(f *File) {
	var out []string
	for _, r := range f.Rows {
		for _, s := range r.refOrder {
			if !contains(out, s) {
				out = append(out, s)
			}
		}
	}
	f.Systems = out
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// testName is a test without its flags: "osu latency".
func testName(words []string) string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			break
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

func parseRow(file string, index int, n *yaml.Node) (*Row, error) {
	r := &Row{Index: index, Placement: Placement{Kind: PerNode, N: 1}, Path: PathAny, Metric: Latency,
		line: map[string]int{"": n.Line}, file: file}
	at := fmt.Sprintf("rows[%d]", index)
	if n.Kind != yaml.MappingNode {
		return nil, &Error{file, n.Line, at, "want a mapping (test, sizes, nodes, placement, ...)"}
	}
	if err := fields(file, at, n, r.fieldParsers(at), r.line); err != nil {
		return nil, err
	}
	if err := r.checkParsed(n); err != nil {
		return nil, err
	}
	return r, nil
}

// fieldParsers are the row's fields, each with what reads it into r; at
// is the row's place in the file (rows[N]).
func (r *Row) fieldParsers(at string) map[string]func(*yaml.Node) error {
	file := r.file
	field := func(f string) string { return at + "." + f }
	return map[string]func(*yaml.Node) error{
		"id": func(v *yaml.Node) error {
			s, err := str(file, field("id"), v)
			if err == nil && !idPattern.MatchString(s) {
				err = &Error{file, v.Line, field("id"), fmt.Sprintf("%q: an id of letters, digits, '.', '_' and '-'", s)}
			}
			r.ID = s
			return err
		},
		"title": func(v *yaml.Node) (err error) {
			r.Title, err = str(file, field("title"), v)
			return err
		},
		"test": func(v *yaml.Node) error {
			s, err := str(file, field("test"), v)
			if err != nil {
				return err
			}
			if r.Test, err = splitWords(s); err != nil || len(r.Test) == 0 {
				return &Error{file, v.Line, field("test"), fmt.Sprintf("%q: want a gomb measuring command and its flags (osu latency -m 8:8)", s)}
			}
			if r.Test[0] == "gomb" {
				r.Test = r.Test[1:]
			}
			return nil
		},
		"sizes": func(v *yaml.Node) error { return r.parseSizes(field("sizes"), v) },
		"nodes": func(v *yaml.Node) error {
			s, err := str(file, field("nodes"), v)
			if err != nil {
				return err
			}
			if s == "all" {
				r.Nodes = 0
				return nil
			}
			k, err := strconv.Atoi(s)
			if err != nil || k < 1 {
				return &Error{file, v.Line, field("nodes"), fmt.Sprintf("%q: want a number of nodes (1 or more) or all", s)}
			}
			r.Nodes = k
			return nil
		},
		"placement": scalar(file, field("placement"), &r.Placement, ParsePlacement),
		"path":      scalar(file, field("path"), &r.Path, ParsePath),
		"metric":    scalar(file, field("metric"), &r.Metric, ParseMetric),
		"repetitions": func(v *yaml.Node) (err error) {
			r.Repetitions, err = count(file, field("repetitions"), v)
			return err
		},
		"references": func(v *yaml.Node) error { return r.parseReferences(field("references"), v) },
		"required": func(v *yaml.Node) error {
			s, err := str(file, field("required"), v)
			if err != nil {
				return err
			}
			req, err := ParseRequirement(s)
			if err != nil {
				return &Error{file, v.Line, field("required"), err.Error()}
			}
			r.Required = &req
			return nil
		},
	}
}

// parseSizes reads sizes: one size or a list of them.
func (r *Row) parseSizes(at string, v *yaml.Node) error {
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	for _, it := range items {
		s, err := str(r.file, at, it)
		if err != nil {
			return err
		}
		b, err := ParseSize(s)
		if err != nil {
			return &Error{r.file, it.Line, at, err.Error()}
		}
		r.Sizes = append(r.Sizes, b)
	}
	if len(r.Sizes) == 0 {
		return &Error{r.file, v.Line, at, "an empty list: leave sizes out for a test without sizes"}
	}
	return nil
}

// parseReferences reads references: system: value, or system: [a value
// a size]; the values stay text until the metric is known (checkParsed).
func (r *Row) parseReferences(at string, v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return &Error{r.file, v.Line, at, "want a mapping of system: value (Crossroads: 1.61 us), or system: [a value a size]"}
	}
	r.References = map[string][]*Value{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		sys := "references." + k.Value
		items := []*yaml.Node{val}
		if val.Kind == yaml.SequenceNode {
			items = val.Content
			r.refList = append(r.refList, k.Value)
		}
		var vals []*Value
		for _, it := range items {
			s, err := str(r.file, at+"."+k.Value, it)
			if err != nil {
				return err
			}
			if s == "-" {
				vals = append(vals, nil)
				continue
			}
			vals = append(vals, &Value{Text: s, line: it.Line})
		}
		r.References[k.Value] = vals
		r.refOrder = append(r.refOrder, k.Value)
		r.line[sys] = val.Line
	}
	return nil
}

// checkParsed checks what the fields say together, once all are read:
// the test and nodes given, a path only on two-node rows, and the
// reference and required values in the metric's units.
func (r *Row) checkParsed(n *yaml.Node) error {
	at := fmt.Sprintf("rows[%d]", r.Index)
	if len(r.Test) == 0 {
		return &Error{r.file, n.Line, at, "no test: name the gomb measuring command (test: osu latency)"}
	}
	if _, ok := r.line["nodes"]; !ok {
		return &Error{r.file, n.Line, at, "no nodes: say how many (nodes: 2, or nodes: all)"}
	}
	if r.Path != PathAny && r.Nodes != 2 {
		return r.errorf("path", "%s applies to two-node rows (this row has nodes: %s)", r.Path, nodesWord(r.Nodes))
	}
	for _, sys := range r.refOrder {
		vs := r.References[sys]
		if contains(r.refList, sys) && len(vs) != max(len(r.Sizes), 1) {
			return r.errorf("references."+sys, "%d values for %d sizes: give one a size (- for none), or one for all", len(vs), len(r.Sizes))
		}
		for i, v := range vs {
			if v == nil {
				continue
			}
			x, err := ParseValue(v.Text, r.Metric)
			if err != nil {
				return &Error{r.file, v.line, fmt.Sprintf("%s.references.%s", at, sys), err.Error()}
			}
			x.line = v.line
			vs[i] = &x
		}
	}
	if r.Required != nil {
		x, err := ParseValue(r.Required.Value.Text, r.Metric)
		if err != nil {
			return r.errorf("required", "%v", err)
		}
		r.Required.Value = x
	}
	return nil
}

func nodesWord(n int) string {
	if n == 0 {
		return "all"
	}
	return strconv.Itoa(n)
}

// fields walks a mapping: each key must be one of known (an unknown key
// is an error naming the keys there are), and each is given once.
func fields(file, at string, n *yaml.Node, known map[string]func(*yaml.Node) error, lines map[string]int) error {
	if n.Kind != yaml.MappingNode {
		what := "the file"
		if at != "" {
			what = at
		}
		return &Error{file, n.Line, at, what + ": want a mapping of keys and values"}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := k.Value
		field := name
		if at != "" {
			field = at + "." + name
		}
		set, ok := known[name]
		if !ok {
			return &Error{file, k.Line, field, fmt.Sprintf("unknown key (keys: %s)", keyList(known))}
		}
		if _, dup := lines[name]; dup {
			return &Error{file, k.Line, field, fmt.Sprintf("given twice (first at line %d)", lines[name])}
		}
		lines[name] = k.Line
		if err := set(v); err != nil {
			return err
		}
	}
	return nil
}

func keyList(known map[string]func(*yaml.Node) error) string {
	var keys []string
	for k := range known {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return strings.Join(keys, ", ")
}

// str is a scalar's text (numbers included: they are read by the field).
func str(file, field string, n *yaml.Node) (string, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.ScalarNode {
		return "", &Error{file, n.Line, field, "want a single value, not a list or mapping"}
	}
	if n.Tag == "!!null" {
		return "", &Error{file, n.Line, field, "no value"}
	}
	return strings.TrimSpace(n.Value), nil
}

// scalar sets *dst to what parse reads of a field's value; parse's error
// is the field's.
func scalar[T any](file, field string, dst *T, parse func(string) (T, error)) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		s, err := str(file, field, v)
		if err != nil {
			return err
		}
		x, err := parse(s)
		if err != nil {
			return &Error{file, v.Line, field, err.Error()}
		}
		*dst = x
		return nil
	}
}

func count(file, field string, n *yaml.Node) (int, error) {
	s, err := str(file, field, n)
	if err != nil {
		return 0, err
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > 1000 {
		return 0, &Error{file, n.Line, field, fmt.Sprintf("%q: want a whole number from 1 to 1000", s)}
	}
	return k, nil
}

// yamlError turns the YAML library's error into an Error with the line
// it names ("yaml: line 3: ...").
func yamlError(file string, err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimPrefix(msg[len(m[0]):], ": ")
	}
	return &Error{File: file, Line: line, Msg: "not YAML: " + msg}
}

var yamlLine = regexp.MustCompile(`^line (\d+)`)

// splitWords splits a test line as a shell would for the quoting a test
// needs: blanks separate words, '...' and "..." group them.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	quote, in := rune(0), false
	for _, c := range s {
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed quote")
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}
