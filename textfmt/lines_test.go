package textfmt

import (
	"bytes"
	"testing"
)

// FuzzFields: the parsers' row splitter is bytes.Fields.
func FuzzFields(f *testing.F) {
	for _, s := range []string{"", "  ", "1 2\t3", "   16   1000    0.53   ", "a\u00a0b\u2003c", "\x85x\r\ny\v\fz", "\xff 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := bytes.Fields([]byte(s))
		got := Fields([][]byte{[]byte("left over")}[:0], []byte(s))
		if len(got) != len(want) {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) || cap(got[i]) != len(got[i]) {
				t.Fatalf("%q: %q, want %q", s, got, want)
			}
		}
	})
}
