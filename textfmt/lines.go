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
// f's, else foreign text; fn does not see it.
func (f *File) Lines(r io.Reader, fn func(n int, line []byte)) {
	eachLine(r, func(n int, l []byte) {
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

// eachLine walks the lines of r; a line is valid only during its call.
func eachLine(r io.Reader, fn func(n int, line []byte)) {
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
			fn(n, bytes.TrimRight(l, " \t\r\n"))
		}
		if err != nil {
			return
		}
	}
}

// Problem reports a malformed line n of the file.
func (f *File) Problem(n int, format string, a ...any) {
	f.Problems = append(f.Problems, &result.SyntaxError{File: f.Name, Line: n, Err: fmt.Errorf(format, a...)})
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

// AsCount is a size or count read as number: false beyond 2^62 (far beyond
// any message; converting more to int64 would wrap).
func AsCount(v float64) (int64, bool) { return int64(v), v < 1<<62 }

// IsNumber reports whether a token starts like a number.
func IsNumber(tok []byte) bool {
	return len(tok) > 0 && (tok[0] >= '0' && tok[0] <= '9' || tok[0] == '-' && len(tok) > 1 || tok[0] == '.')
}
