package cli

import (
	"runtime/debug"
	"testing"
)

// TestStampVersion: the version names the module's release or the
// source's, and the commit a checkout was built from.
func TestStampVersion(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-12-03T17:37:21Z"}}
	dirty := append(rev[:2:2], debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	for _, c := range []struct {
		module string
		set    []debug.BuildSetting
		want   string
	}{
		{"(devel)", nil, "0.1.0"},
		{"", nil, "0.1.0"},
		{"(devel)", rev, "0.1.0 (0123456789ab, 2026-12-03)"},
		{"(devel)", dirty, "0.1.0 (0123456789ab+dirty, 2026-12-03)"},
		{"v0.2.0", nil, "0.2.0"},
		{"v0.0.0-20261203175906-0123456789ab+dirty", dirty, "0.1.0 (0123456789ab+dirty, 2026-12-03)"},
		{"v0.2.1-0.20261203173721-0123456789ab", rev, "0.2.1-0.20261203173721-0123456789ab"},
	} {
		if got := StampVersion("0.1.0", c.module, c.set); got != c.want {
			t.Errorf("StampVersion(%q, %v) = %q, want %q", c.module, c.set, got, c.want)
		}
	}
}
