package kernel

import "testing"

// TestDatatypeWords: every -data_type word parses to a type whose Word
// is that word again, in any case; long long is no word of IMB's.
func TestDatatypeWords(t *testing.T) {
	for _, w := range []string{"byte", "char", "int", "float", "double", "float16", "bfloat16"} {
		for _, in := range []string{w, upper(w)} {
			d, err := ParseDatatype(in)
			if err != nil || d.Word() != w {
				t.Errorf("%q: %v, %v (word %q)", in, d, err, d.Word())
			}
		}
	}
	for _, bad := range []string{"", "long_long", "float8", "half"} {
		if _, err := ParseDatatype(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if Float16.Size() != 2 || BFloat16.Size() != 2 || Float16.String() != "MPIX_C_FLOAT16" {
		t.Errorf("float16: size %d, name %s", Float16.Size(), Float16)
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}
