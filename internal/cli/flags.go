package cli

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/result"
)

// MaxCount is the largest count gomb hands MPI and its C loops: a C int.
const MaxCount = math.MaxInt32

// AtLeast is a flag function for a count of what of at least min and at
// most MaxCount, handed to set.
func AtLeast(min int, what string, set func(int)) func(string) error {
	return func(s string) error {
		v, err := strconv.Atoi(s)
		if err != nil || v < min {
			return fmt.Errorf("want a number of %s of at least %d, got %q", what, min, s)
		}
		if v > MaxCount {
			return fmt.Errorf("want a number of %s of at most %d (MPI's int), got %q", what, MaxCount, s)
		}
		set(v)
		return nil
	}
}

// Int is a flag.Value of a whole number of What in [Min, Max], read from
// the whole string (no blanks, no suffix, decimal). Max 0 means MaxCount,
// the C int gomb hands MPI.
type Int struct {
	P        *int
	Min, Max int
	What     string
}

func (v Int) String() string {
	if v.P == nil {
		return ""
	}
	return strconv.Itoa(*v.P)
}

// Set reads a whole number in range.
func (v Int) Set(s string) error {
	x, err := v.parse(s)
	if err == nil {
		*v.P = int(x)
	}
	return err
}

func (v Int) parse(s string) (int64, error) {
	hi := int64(v.Max)
	if hi == 0 {
		hi = MaxCount
	}
	x, err := strconv.ParseInt(s, 10, 64)
	if err != nil || x < int64(v.Min) || x > hi {
		return 0, fmt.Errorf("want a whole number of %s from %d to %d, got %q", v.What, v.Min, hi, s)
	}
	return x, nil
}

// Int64 is Int for a 64-bit number (a seed): any int64.
type Int64 struct {
	P    *int64
	What string
}

func (v Int64) String() string {
	if v.P == nil {
		return ""
	}
	return strconv.FormatInt(*v.P, 10)
}

// Set reads a whole 64-bit number.
func (v Int64) Set(s string) error {
	x, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("want a whole number (%s), got %q", v.What, s)
	}
	*v.P = x
	return nil
}

// Float is a flag.Value of a finite number of What in [Min, Max] (Above:
// Min itself excluded; Below: Max excluded), read from the whole string:
// NaN, infinities and "0.5x" are refused.
type Float struct {
	P            *float64
	Min, Max     float64
	Above, Below bool
	What         string
}

func (v Float) String() string {
	if v.P == nil {
		return ""
	}
	return strconv.FormatFloat(*v.P, 'g', -1, 64)
}

// Set reads a finite number in range.
func (v Float) Set(s string) error {
	x, err := ParseFloat(s)
	if err != nil || x < v.Min || x > v.Max || (v.Above && x == v.Min) || (v.Below && x == v.Max) {
		lo, hi := "from", "to"
		if v.Above {
			lo = "above"
		}
		if v.Below {
			hi = "below"
		}
		return fmt.Errorf("want %s %s %g %s %g, got %q", v.What, lo, v.Min, hi, v.Max, s)
	}
	*v.P = x
	return nil
}

// ParseFloat reads a finite number from the whole of s.
func ParseFloat(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("want a finite number, got %q", s)
	}
	return x, nil
}

// ParseInterleaved parses flags and positional arguments in any order, as
// IMB accepts "PingPong -npmin 2 Allreduce".
func ParseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		for len(args) > 0 && (!strings.HasPrefix(args[0], "-") || args[0] == "-") {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
}

// Labels are the run labels the importing and measuring commands take:
// -system, -config, -label KEY=VALUE, and a campaign's -campaign ID and
// -cell coordinates.
type Labels map[string]string

// Register adds -system, -config, -label, -campaign and -cell to fs.
func (l *Labels) Register(fs *flag.FlagSet) {
	set := func(k string) func(string) error {
		return func(v string) error {
			if v == "" {
				return fmt.Errorf("empty %s", k)
			}
			if err := result.CheckLabel(v); err != nil {
				return err
			}
			l.put(k, v)
			return nil
		}
	}
	fs.Func("system", "`S` label the runs with the system they ran on (system=S)", set("system"))
	fs.Func("config", "`C` label the runs with their configuration (config=C)", set("config"))
	fs.Func("label", "`KEY=VALUE` another label (repeatable)", func(s string) error {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" || v == "" {
			return fmt.Errorf("want KEY=VALUE, got %q", s)
		}
		if err := result.CheckLabel(s); err != nil {
			return err
		}
		l.put(k, v)
		return nil
	})
	fs.Func("campaign", "`ID` the campaign the run is a cell of (campaign=ID): archive selections, compare, report and history take campaign=ID", set("campaign"))
	fs.Func("cell", "`K=V[,K=V...]` the cell's coordinates in its campaign (nodes=2,ppn=16,bench=PingPong), each a label", func(s string) error {
		for _, kv := range strings.Split(s, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				return fmt.Errorf("want K=V[,K=V...], got %q", s)
			}
			if k == "system" || k == "config" || k == "campaign" {
				return fmt.Errorf("%q is not a coordinate: use -%s", k, k)
			}
			if err := result.CheckLabel(kv); err != nil {
				return err
			}
			l.put(k, v)
		}
		return nil
	})
}

func (l *Labels) put(k, v string) {
	if *l == nil {
		*l = Labels{}
	}
	(*l)[k] = v
}

// Switch is IMB's on/off flag value (IMB-P2P's and IMB-MT's words too):
// on, yes, enable, 1, true / off, no, disable, 0, false.
type Switch struct{ P *bool }

func (v Switch) String() string {
	if v.P != nil && *v.P {
		return "on"
	}
	return "off"
}

// Set reads an on/off word.
func (v Switch) Set(s string) error {
	switch strings.ToLower(s) {
	case "on", "yes", "enable", "1", "true":
		*v.P = true
	case "off", "no", "disable", "0", "false":
		*v.P = false
	default:
		return fmt.Errorf("want on or off, got %q", s)
	}
	return nil
}

// Samples is -samples all|auto|none (on and off as all and none): which
// raw samples the records keep. None and All are set for none and all;
// neither for auto.
type Samples struct{ None, All *bool }

func (v Samples) String() string {
	switch {
	case v.None != nil && *v.None:
		return "none"
	case v.All != nil && *v.All:
		return "all"
	}
	return "auto"
}

// Set reads all, auto or none (on, off).
func (v Samples) Set(s string) error {
	switch strings.ToLower(s) {
	case "all", "on":
		*v.None, *v.All = false, true
	case "auto":
		*v.None, *v.All = false, false
	case "none", "off":
		*v.None, *v.All = true, false
	default:
		return fmt.Errorf("want all, auto or none, got %q", s)
	}
	return nil
}

// OffSwitch is an on/off flag stored inverted: -samples on sets
// NoSamples false.
type OffSwitch struct{ P *bool }

func (v OffSwitch) String() string {
	if v.P != nil && *v.P {
		return "off"
	}
	return "on"
}

// Set reads an on/off word into the inverse.
func (v OffSwitch) Set(s string) error {
	var on bool
	if err := (Switch{&on}).Set(s); err != nil {
		return err
	}
	*v.P = !on
	return nil
}

// ParseDuration reads a positive duration: "90", "90s", "5m", "1h30m".
func ParseDuration(s string) (time.Duration, error) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if !(v > 0) || v > 1e7 {
			return 0, fmt.Errorf("want a positive duration, got %q", s)
		}
		return time.Duration(v * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a positive duration (90, 90s, 5m), got %q", s)
	}
	return d, nil
}

// Seconds is a flag.Func setting *p to a duration's seconds
// (ParseDuration).
func Seconds(p *float64) func(string) error {
	return func(s string) error {
		d, err := ParseDuration(s)
		if err == nil {
			*p = d.Seconds()
		}
		return err
	}
}
