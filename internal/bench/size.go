package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads one message length: a non-negative integer with an
// optional k/K (x1024), m/M (x1048576) or g/G (x1073741824) suffix.
func ParseSize(tok string) (int64, error) {
	t := strings.TrimSpace(tok)
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'k', 'K':
			mult, t = 1<<10, t[:len(t)-1]
		case 'm', 'M':
			mult, t = 1<<20, t[:len(t)-1]
		case 'g', 'G':
			mult, t = 1<<30, t[:len(t)-1]
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a message length (want a non-negative integer, optionally with k, m or g)", tok)
	}
	if v > (1<<40)/mult {
		return 0, fmt.Errorf("message length %q is too large", tok)
	}
	return v * mult, nil
}

// SizeFlag is a flag.Func setting *p to a message size (ParseSize) from lo
// to hi bytes.
func SizeFlag(p *int64, lo, hi int64) func(string) error {
	return func(s string) error {
		v, err := ParseSize(s)
		if err == nil && (v < lo || v > hi) {
			err = fmt.Errorf("%d bytes: want %d to %d", v, lo, hi)
		}
		if err == nil {
			*p = v
		}
		return err
	}
}
