package suite

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// PlacementKind is what a row's ranks are counted by.
type PlacementKind string

// The placements.
const (
	PerNode   PlacementKind = "per-node"   // N ranks a node
	PerCore   PlacementKind = "per-core"   // a rank a physical core
	PerSocket PlacementKind = "per-socket" // a rank a processor package
	PerNIC    PlacementKind = "per-nic"    // a rank a network device that is up
	PerGPU    PlacementKind = "per-gpu"    // a rank an accelerator
)

// Placement is how many ranks a row starts on each of its nodes.
type Placement struct {
	Kind PlacementKind
	N    int // per-node's count
}

// ParsePlacement reads "per-node N" (or "per-node", one), "per-core",
// "per-socket", "per-nic", "per-gpu".
func ParsePlacement(s string) (Placement, error) {
	f := strings.Fields(s)
	bad := fmt.Errorf("unknown placement %q (per-node N, per-core, per-socket, per-nic, per-gpu)", s)
	if len(f) == 0 || len(f) > 2 {
		return Placement{}, bad
	}
	switch k := PlacementKind(f[0]); k {
	case PerNode:
		p := Placement{Kind: k, N: 1}
		if len(f) == 2 {
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 || n > 1<<16 {
				return Placement{}, fmt.Errorf("placement %q: want per-node N, N from 1 to 65536", s)
			}
			p.N = n
		}
		return p, nil
	case PerCore, PerSocket, PerNIC, PerGPU:
		if len(f) == 2 {
			return Placement{}, fmt.Errorf("placement %q: %s takes no count (it is one rank a %s)", s, k, strings.TrimPrefix(string(k), "per-"))
		}
		return Placement{Kind: k}, nil
	}
	return Placement{}, bad
}

func (p Placement) String() string {
	if p.Kind == PerNode {
		return fmt.Sprintf("per-node %d", p.N)
	}
	return string(p.Kind)
}

// Words are the placement as the results table says it ("1 per node").
func (p Placement) Words() string {
	switch p.Kind {
	case PerNode:
		return fmt.Sprintf("%d per node", p.N)
	case PerCore:
		return "1 per physical core"
	case PerSocket:
		return "1 per socket"
	case PerNIC:
		return "1 per NIC"
	case PerGPU:
		return "1 per GPU"
	}
	return string(p.Kind)
}

// Path is which pair of nodes a two-node row runs on.
type Path string

// The paths.
const (
	PathAny      Path = "any"
	PathShortest Path = "shortest" // fewest switches between them (lowest latency)
	PathLongest  Path = "longest"  // most switches (highest latency)
)

// ParsePath reads shortest, longest or any.
func ParsePath(s string) (Path, error) {
	switch p := Path(s); p {
	case PathAny, PathShortest, PathLongest:
		return p, nil
	}
	return "", fmt.Errorf("unknown path %q (shortest, longest, any)", s)
}

// Metric is what a row reads from its records.
type Metric string

// The metrics and their units.
const (
	Latency     Metric = "latency"      // µs: the time the benchmark's table leads with
	Bandwidth   Metric = "bandwidth"    // MB/s, 10^6 bytes
	MessageRate Metric = "message-rate" // messages/s
)

// ParseMetric reads latency, bandwidth or message-rate.
func ParseMetric(s string) (Metric, error) {
	switch m := Metric(s); m {
	case Latency, Bandwidth, MessageRate:
		return m, nil
	}
	return "", fmt.Errorf("unknown metric %q (latency, bandwidth, message-rate)", s)
}

// Unit is the metric's unit, as values are normalised to and printed.
func (m Metric) Unit() string {
	switch m {
	case Bandwidth:
		return "MB/s"
	case MessageRate:
		return "msg/s"
	}
	return "us"
}

// HigherIsBetter: bandwidth and message rate.
func (m Metric) HigherIsBetter() bool { return m != Latency }

// units are the units a value of each metric may be given in, with their
// factor to the metric's unit.
var units = map[Metric]map[string]float64{
	Latency: {"ns": 1e-3, "us": 1, "µs": 1, "usec": 1, "ms": 1e3, "s": 1e6},
	Bandwidth: {"B/s": 1e-6, "KB/s": 1e-3, "MB/s": 1, "GB/s": 1e3, "TB/s": 1e6,
		"KiB/s": 1024.0 / 1e6, "MiB/s": 1048576.0 / 1e6, "GiB/s": 1073741824.0 / 1e6, "Gb/s": 125, "Gbit/s": 125},
	MessageRate: {"msg/s": 1, "/s": 1, "Kmsg/s": 1e3, "Mmsg/s": 1e6},
}

// Value is a number in its metric's unit (Text as written).
type Value struct {
	V    float64
	Text string
	line int
}

// ParseValue reads "1.61 us", "45307.17 MB/s", "12 GB/s", a number alone
// being in the metric's unit.
func ParseValue(s string, m Metric) (Value, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == '+' || s[i] == '-') {
		i++
	}
	// "1e3" is a number, but "1 ms" must not read "e" from "ms": back off
	// an exponent letter not followed by a digit
	for i > 0 && (s[i-1] == 'e' || s[i-1] == 'E') {
		i--
	}
	num, unit := s[:i], strings.TrimSpace(s[i:])
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return Value{}, fmt.Errorf("%q: want a number and a unit (%s)", s, unitList(m))
	}
	if unit == "" {
		unit = m.Unit()
	}
	f, ok := units[m][unit]
	if !ok {
		return Value{}, fmt.Errorf("%q: %s is no unit of %s (%s)", s, unit, m, unitList(m))
	}
	return Value{V: v * f, Text: s}, nil
}

func unitList(m Metric) string {
	var us []string
	for u := range units[m] {
		us = append(us, u)
	}
	sort.Slice(us, func(i, j int) bool {
		return units[m][us[i]] < units[m][us[j]] || units[m][us[i]] == units[m][us[j]] && us[i] < us[j]
	})
	return strings.Join(us, ", ")
}

// Requirement is a required value: the result must be at most (<=, <) or
// at least (>=, >) Value.
type Requirement struct {
	Op    string
	Value Value
}

// ParseRequirement reads "<= 2 us", ">= 40000 MB/s". The value's unit is
// checked against the row's metric when the row is read.
func ParseRequirement(s string) (Requirement, error) {
	s = strings.TrimSpace(s)
	for _, op := range []string{"<=", ">=", "<", ">"} {
		if rest, ok := strings.CutPrefix(s, op); ok {
			return Requirement{Op: op, Value: Value{Text: strings.TrimSpace(rest)}}, nil
		}
	}
	return Requirement{}, fmt.Errorf("%q: want <=, <, >= or > and a value (<= 2 us, >= 40000 MB/s)", s)
}

// Met says whether v satisfies the requirement.
func (q Requirement) Met(v float64) bool {
	switch q.Op {
	case "<=":
		return v <= q.Value.V
	case "<":
		return v < q.Value.V
	case ">=":
		return v >= q.Value.V
	}
	return v > q.Value.V
}

func (q Requirement) String() string { return q.Op + " " + q.Value.Text }

// ParseSize reads a message size: a number of bytes with an optional
// suffix k, K, KB, KiB (1024), m, M, MB, MiB (1024^2), g, G, GB, GiB;
// sizes are powers of 1024 whatever the suffix, as OSU's and IMB's tables
// label them ("16 KB" is 16384 bytes).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	num, suffix := t[:i], strings.TrimSpace(t[i:])
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: want bytes, with k, m or g (8, 16k, 1 MiB)", s)
	}
	mult, ok := sizeSuffixes[strings.ToLower(suffix)]
	if !ok {
		return 0, fmt.Errorf("size %q: unknown suffix %q (k, m, g; KB, KiB, MB, MiB, ...)", s, suffix)
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("size %q: too large", s)
	}
	return n * mult, nil
}

var sizeSuffixes = map[string]int64{"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30}

func sortStrings(s []string) { sort.Strings(s) }
