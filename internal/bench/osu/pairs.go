package osu

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// intPairs reads OSU's files of number pairs (-N graph's adjacency lists,
// -D indx's blocks): an "A,B" pair of whole numbers from 0 to 2^30 a
// line, lines starting with '#' and blank lines skipped; what names the
// pair in errors ("SRC,DST ranks"). each gets every pair with its line.
func intPairs(data []byte, what string, each func(line, a, b int) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == '#' {
			continue
		}
		x, y, ok := strings.Cut(t, ",")
		a, err1 := strconv.Atoi(strings.TrimSpace(x))
		b, err2 := strconv.Atoi(strings.TrimSpace(y))
		if !ok || err1 != nil || err2 != nil || a < 0 || b < 0 || a > 1<<30 || b > 1<<30 {
			return fmt.Errorf("line %d: want %s, got %q", line, what, t)
		}
		if err := each(line, a, b); err != nil {
			return err
		}
	}
	return sc.Err()
}
