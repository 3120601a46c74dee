package result

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Labels (system, config, KEY=VALUE) end up in table rows and terminal
// lines: a newline, TAB, escape sequence or bidirectional override in one
// would break rows or drive the terminal. Labels given on the command line
// are refused (CheckLabel); labels read from records are stored escaped
// (EscapeLabel).

// unprintable reports control and format characters (U+0000–U+001F, DEL,
// C1 controls, U+202E and the other bidirectional controls, zero-width
// characters).
func unprintable(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

// CheckLabel fails for a label key or value with characters that are not
// printable.
func CheckLabel(s string) error {
	if strings.IndexFunc(s, unprintable) >= 0 {
		return fmt.Errorf("%s: control or formatting characters are not allowed in a label", strconv.QuoteToASCII(s))
	}
	return nil
}

// EscapeLabel writes a label's unprintable characters as Go escapes
// (\n, \t, \x1b, \u202e); printable text, any script, is kept.
func EscapeLabel(s string) string {
	if strings.IndexFunc(s, unprintable) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unprintable(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
