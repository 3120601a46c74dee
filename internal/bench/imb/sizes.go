package imb

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
)

// MaxMsg is the largest message of a sweep: 2^MsgLogMax bytes rounded down
// to the element size.
func (o *Options) MaxMsg(unit int64) int64 {
	m := int64(1) << o.MsgLogMax
	return m / unit * unit
}

func roundUp(v, unit int64) int64 { return (v + unit - 1) / unit * unit }

// SizeList returns the message sizes of a sweep in bytes, as IMB-MPI1 does:
// 0 (unless -zero_size off), then powers of two from 2^MsgLogMin to
// 2^MsgLogMax, each rounded up to the element size with repeats dropped
// (reductions: 0, 4, 8, ...); or the user's list (-msglen, -msgsize), each
// rounded up to the element size and capped at MaxMsg.
func (o *Options) SizeList(unit int64) []int64 {
	maxMsg := o.MaxMsg(unit)
	var out []int64
	if o.Sizes != nil {
		for _, s := range o.Sizes {
			if s == 0 && !o.ZeroSize {
				continue
			}
			out = append(out, min(roundUp(s, unit), maxMsg))
		}
		return out
	}
	if o.ZeroSize {
		out = append(out, 0)
	}
	for k := o.MsgLogMin; k <= o.MsgLogMax; k++ {
		s := min(roundUp(int64(1)<<k, unit), maxMsg)
		if len(out) > 0 && out[len(out)-1] == s {
			continue
		}
		out = append(out, s)
	}
	return out
}

// TimeLimit is IMB's time budget for one benchmark at one process count,
// in seconds: -time times max(n-1, 1), n being the number of -msglen
// entries or max-min of -msglog.
func (o *Options) TimeLimit() float64 {
	n := o.MsgLogMax - o.MsgLogMin
	if o.Sizes != nil {
		n = len(o.Sizes)
	}
	return float64(max(n-1, 1)) * o.TimeS
}

// ParseMsgLen reads an IMB -msglen file: one length per line, blank lines
// and lines starting with '#' ignored. Errors name file and line.
func ParseMsgLen(r io.Reader, file string) ([]int64, error) {
	var out []int64
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 4096), 1<<20)
	line := 0
	for s.Scan() {
		line++
		t := strings.TrimSpace(s.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		v, err := bench.ParseSize(t)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, line, err)
		}
		out = append(out, v)
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", file, line+1, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no message lengths in the file", file)
	}
	return out, nil
}

// ParseMsgSize reads an -msgsize list: lengths separated by commas.
func ParseMsgSize(list string) ([]int64, error) {
	var out []int64
	for i, tok := range strings.Split(list, ",") {
		v, err := bench.ParseSize(tok)
		if err != nil {
			return nil, fmt.Errorf("-msgsize entry %d: %v", i+1, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// MaxMsgLog is the largest -msglog: 16 GiB messages. IMB stops at 2^30;
// past 2^30 sizes run through MPI-4's large-count calls where the library
// has them (imbrun's intLimit), else print an int-overflow row.
const MaxMsgLog = 34

// ParseMsgLog reads -msglog [min:]max.
func ParseMsgLog(s string) (lo, hi int, err error) {
	a, b, two := strings.Cut(s, ":")
	if !two {
		a, b = "0", s
	}
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || lo < 0 || hi < lo || hi > MaxMsgLog {
		return 0, 0, fmt.Errorf("-msglog %q: want [min:]max with 0 <= min <= max <= %d", s, MaxMsgLog)
	}
	return lo, hi, nil
}
