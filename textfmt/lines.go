package textfmt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/gomb-hpc/gomb/result"
)

// Reading logs line by line and splitting rows: what every parser uses.

// Fields is bytes.Fields(s) appended to dst: the parsers split every row
// into a slice they reuse.
func Fields(dst [][]byte, s []byte) [][]byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf { // Unicode spaces: bytes.Fields knows them
			return append(dst, bytes.Fields(s)...)
		}
	}
	start := -1
	for i, c := range s {
		if c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' {
			if start >= 0 {
				dst = append(dst, s[start:i:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:len(s):len(s)])
	}
	return dst
}

// Lines walks the lines of r, with 1-based numbers, without keeping
// them: fn must copy what it keeps. A line with control characters (NUL,
// escapes) is no row of a table: when it starts like one it is a problem of
// f's, else foreign text; fn does not see it. The last line, where no
// newline ends it, is f.Unended while fn reads it (CutShort).
func (f *File) Lines(r io.Reader, fn func(n int, line []byte)) {
	eachLine(r, func(n int, l []byte, unended bool) {
		if unended {
			f.Unended = n
		}
		if hasControl(l) {
			if t := bytes.Fields(l); len(t) > 0 && IsNumber(t[0]) {
				f.Problem(n, "a row with control characters %q", l)
			} else {
				f.Foreign++
			}
			return
		}
		fn(n, l)
	})
}

// hasControl finds C0 controls but TAB, DEL and C1 controls (U+0080–U+009F,
// 0xC2 0x80–0x9F in UTF-8).
func hasControl(l []byte) bool {
	for i, c := range l {
		if c < 0x20 && c != '\t' || c == 0x7f || c == 0xc2 && i+1 < len(l) && l[i+1] >= 0x80 && l[i+1] <= 0x9f {
			return true
		}
	}
	return false
}

// eachLine walks the lines of r; a line is valid only during its call;
// unended: the content ends in it, with no newline.
func eachLine(r io.Reader, fn func(n int, line []byte, unended bool)) {
	br := bufio.NewReaderSize(r, 1<<16)
	var long []byte // a line longer than the buffer
	n := 0
	for {
		l, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, l...)
			continue
		}
		if long != nil {
			l, long = append(long, l...), nil
		}
		if len(l) > 0 {
			n++
			fn(n, bytes.TrimRight(l, " \t\r\n"), l[len(l)-1] != '\n')
		}
		if err != nil {
			return
		}
	}
}

// Problem reports a malformed line n of the file. What it quotes of the
// line is cut to QuoteMax bytes (a corrupt value may run for megabytes),
// and so is the message.
func (f *File) Problem(n int, format string, a ...any) {
	for i, x := range a {
		switch v := x.(type) {
		case []byte:
			a[i] = clip(string(v))
		case string:
			a[i] = clip(v)
		}
	}
	msg := fmt.Sprintf(format, a...)
	if len(msg) > 4*QuoteMax {
		msg = fmt.Sprintf("%s… (%d bytes in all)", truncate(msg, 4*QuoteMax), len(msg))
	}
	f.Problems = append(f.Problems, &result.SyntaxError{File: f.Name, Line: n, Err: errors.New(msg)})
}

// QuoteMax is the most of a token or line that a problem quotes.
const QuoteMax = 64

// clipped is a value a problem quotes in part: the head, and how long the
// whole was.
type clipped struct {
	head string
	n    int
}

// clip is s, or for a long s its head and length.
func clip(s string) any {
	if len(s) <= QuoteMax {
		return s
	}
	return clipped{truncate(s, QuoteMax), len(s)}
}

// Format writes the head as the verb asks, then the whole's length.
func (c clipped) Format(st fmt.State, verb rune) {
	fmt.Fprintf(st, fmt.FormatString(st, verb), c.head)
	fmt.Fprintf(st, "… (%d bytes)", c.n)
}

// truncate cuts s to at most n bytes, not inside a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// CutShort tells whether line n, a table's row, was cut off by the end of
// the file: it is the last line, no newline ends it, and its last value,
// tok, shows fewer decimals than prev, the same column's value in the row
// before (the tables print every row of a column alike: IMB and OSU with
// two decimals). Such a row holds a number that was being written when
// the job ended ("364.7" of 364.74, "11" of 11499.52): it is no
// measurement. Without a row before, nothing tells, and it is read.
func (f *File) CutShort(n int, tok, prev []byte) bool {
	return n == f.Unended && prev != nil && decimals(tok) < decimals(prev)
}

// decimals is the number of digits after a token's decimal point.
func decimals(tok []byte) int {
	i := bytes.IndexByte(tok, '.')
	if i < 0 {
		return 0
	}
	d := 0
	for _, c := range tok[i+1:] {
		if c < '0' || c > '9' {
			break
		}
		d++
	}
	return d
}

// Number reads a token as a float: a measured value, so finite and not
// negative ("nan", "inf" and "-1" are no measurement).
func Number(tok []byte) (float64, bool) {
	v, ok := SignedNumber(tok)
	return v, ok && v >= 0
}

// SignedNumber reads a token as a finite float of either sign.
func SignedNumber(tok []byte) (float64, bool) {
	v, err := strconv.ParseFloat(string(tok), 64)
	return v, err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
}

// The bounds of a plausible measurement, times in µs and rates in MB/s or
// messages/s alike: a nonzero value under MinValue (a picosecond) or over
// MaxValue (11.6 days for one operation, an exabyte a second) is what a
// corrupt or edited log holds, never what a benchmark measured, and it
// would be stored and printed as a number of hundreds of digits.
const (
	MinValue = 1e-6
	MaxValue = 1e12
)

// Value reads a token as a measured value: a number ≥ 0 (Number), and 0
// or between MinValue and MaxValue (ErrImplausible).
func Value(tok []byte) (float64, error) {
	v, ok := Number(tok)
	if !ok {
		return 0, ErrNumber
	}
	if !Plausible(v) {
		return 0, ErrImplausible
	}
	return v, nil
}

// Plausible tells whether |v| can be a measured time or rate: 0, or from
// MinValue to MaxValue.
func Plausible(v float64) bool {
	v = math.Abs(v)
	return v == 0 || v >= MinValue && v <= MaxValue
}

// The errors of Value.
var (
	ErrNumber      = errors.New("is not a number ≥ 0")
	ErrImplausible = fmt.Errorf("is no plausible measurement (0, or %g to %g)", MinValue, MaxValue)
)

// AsCount is a size or count read as number: false beyond 2^62 (far beyond
// any message; converting more to int64 would wrap).
func AsCount(v float64) (int64, bool) { return int64(v), v < 1<<62 }

// IsNumber reports whether a token starts like a number.
func IsNumber(tok []byte) bool {
	return len(tok) > 0 && (tok[0] >= '0' && tok[0] <= '9' || tok[0] == '-' && len(tok) > 1 || tok[0] == '.')
}
