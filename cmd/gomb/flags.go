package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
)

// atLeast is a flag function for a count of what of at least min, handed
// to set.
func atLeast(min int, what string, set func(int)) func(string) error {
	return func(s string) error {
		v, err := strconv.Atoi(s)
		if err != nil || v < min {
			return fmt.Errorf("want a number of %s of at least %d, got %q", what, min, s)
		}
		set(v)
		return nil
	}
}

// switchValue is IMB's on/off flag value: on, yes, enable, 1 / off, no,
// disable, 0.
type switchValue struct{ p *bool }

func (v switchValue) String() string {
	if v.p == nil || !*v.p {
		return "off"
	}
	return "on"
}

func (v switchValue) Set(s string) error {
	switch strings.ToLower(s) {
	case "on", "yes", "enable", "1":
		*v.p = true
	case "off", "no", "disable", "0":
		*v.p = false
	default:
		return fmt.Errorf("want on or off, got %q", s)
	}
	return nil
}

// iterValue is -iter msgspersample[,overall_vol[,msgs_nonaggr]].
type iterValue struct{ o *imb.Options }

func (v iterValue) String() string {
	if v.o == nil {
		return ""
	}
	return fmt.Sprintf("%d,%d,%d", v.o.MsgsPerSample, v.o.OverallVolMiB, v.o.MsgsNonAggr)
}

func (v iterValue) Set(s string) error {
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return fmt.Errorf("want n[,vol_MiB[,nonaggr]], got %q", s)
	}
	dst := []*int{&v.o.MsgsPerSample, &v.o.OverallVolMiB, &v.o.MsgsNonAggr}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n <= 0 {
			return fmt.Errorf("want positive integers n[,vol_MiB[,nonaggr]], got %q", s)
		}
		*dst[i] = n
	}
	return nil
}

// offCacheValue is -off_cache cache_size_MB[,line_size_B]; -1 means 8 MB, 64 B.
type offCacheValue struct{ o *imb.Options }

func (v offCacheValue) String() string {
	if v.o == nil || !v.o.OffCache {
		return ""
	}
	return fmt.Sprintf("%g,%d", v.o.CacheMB, v.o.CacheLine)
}

func (v offCacheValue) Set(s string) error {
	a, b, two := strings.Cut(s, ",")
	mb, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
	if err != nil {
		return fmt.Errorf("want cache_size_MB[,line_size], got %q", s)
	}
	line := 64
	if two {
		if line, err = strconv.Atoi(strings.TrimSpace(b)); err != nil || line <= 0 {
			return fmt.Errorf("want a positive cache line size in bytes, got %q", b)
		}
	}
	if mb < 0 {
		mb = 8
	}
	if mb == 0 {
		return fmt.Errorf("cache size must not be 0")
	}
	v.o.OffCache, v.o.CacheMB, v.o.CacheLine = true, mb, line
	return nil
}

// msglogValue is -msglog [min:]max.
type msglogValue struct{ o *imb.Options }

func (v msglogValue) String() string {
	if v.o == nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", v.o.MsgLogMin, v.o.MsgLogMax)
}

func (v msglogValue) Set(s string) (err error) {
	v.o.MsgLogMin, v.o.MsgLogMax, err = imb.ParseMsgLog(s)
	return err
}

// mapValue is -map PxQ.
type mapValue struct{ o *imb.Options }

func (v mapValue) String() string {
	if v.o == nil || v.o.MapP == 0 {
		return ""
	}
	return fmt.Sprintf("%dx%d", v.o.MapP, v.o.MapQ)
}

func (v mapValue) Set(s string) error {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	p, err1 := strconv.Atoi(a)
	q, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || p <= 0 || q <= 0 {
		return fmt.Errorf("want PxQ with positive integers, got %q", s)
	}
	v.o.MapP, v.o.MapQ = p, q
	return nil
}

// policyValue is -iter_policy.
type policyValue struct{ p *imb.Policy }

func (v policyValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

func (v policyValue) Set(s string) (err error) {
	*v.p, err = imb.ParsePolicy(s)
	return err
}

// offSwitch is an on/off flag stored inverted: -samples on sets
// NoSamples false.
type offSwitch struct{ p *bool }

func (v offSwitch) String() string {
	if v.p != nil && *v.p {
		return "off"
	}
	return "on"
}

func (v offSwitch) Set(s string) error {
	var on bool
	if err := (switchValue{&on}).Set(s); err != nil {
		return err
	}
	*v.p = !on
	return nil
}

// precisionValue is -precision: "1%" or the fraction 0.01.
type precisionValue struct{ p *float64 }

func (v precisionValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(100**v.p, 'g', -1, 64) + "%"
}

func (v precisionValue) Set(s string) error {
	num, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	x, err := strconv.ParseFloat(num, 64)
	if pct {
		x /= 100
	}
	if err != nil || !(x > 0 && x < 1) {
		return fmt.Errorf("want a percentage above 0 and below 100 (2%%) or a fraction (0.02), got %q", s)
	}
	*v.p = x
	return nil
}

// dtypeValue is -data_type / -red_data_type.
type dtypeValue struct{ p *kernel.Datatype }

func (v dtypeValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(v.p.String(), "MPI_"))
}

func (v dtypeValue) Set(s string) (err error) {
	*v.p, err = kernel.ParseDatatype(s)
	return err
}

// listValue collects comma-separated names; the flag may repeat.
type listValue struct{ p *[]string }

func (v listValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

func (v listValue) Set(s string) error {
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			*v.p = append(*v.p, n)
		}
	}
	return nil
}

// parseInterleaved parses flags and positional arguments in any order, as
// IMB accepts "PingPong -npmin 2 Allreduce".
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
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

// watchFlags are the watchdog's deadlines: -watchdog per size (a duration,
// "auto" or "off") and -deadline for the whole run.
type watchFlags struct {
	size, run time.Duration
}

func (w *watchFlags) register(fs *flag.FlagSet) {
	fs.Func("watchdog", "", func(s string) error {
		switch s {
		case "auto":
			w.size = 0
			return nil
		case "off":
			w.size = -1
			return nil
		}
		d, err := parseSeconds(s)
		w.size = d
		return err
	})
	fs.Func("deadline", "", func(s string) error {
		d, err := parseSeconds(s)
		w.run = d
		return err
	})
}

// parseSeconds reads a positive duration: "90", "90s", "5m", "1h30m".
func parseSeconds(s string) (time.Duration, error) {
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

// watchHelp describes the watchdog flags in a command's usage.
const watchHelp = `  -watchdog D|auto|off  end the job when one size runs longer than D (auto: 60 s
                        plus the benchmark's time budget plus 10 x what the previous size
                        took, scaled by its bytes); the job is aborted, rank 0 says what was
                        in flight, the records end with status "deadline", exit status 5;
                        MPI_Finalize gets 30 s (or D if shorter), the records being complete
  -deadline D           end the job when the whole run takes longer than D (off)
`

// labelFlags are the run labels every importing and measuring command
// takes: -system, -config, -label KEY=VALUE.
type labelFlags struct {
	labels map[string]string
}

func (l *labelFlags) register(fs *flag.FlagSet) {
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
	fs.Func("system", "", set("system"))
	fs.Func("config", "", set("config"))
	fs.Func("label", "", func(s string) error {
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
}

func (l *labelFlags) put(k, v string) {
	if l.labels == nil {
		l.labels = map[string]string{}
	}
	l.labels[k] = v
}
