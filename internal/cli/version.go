package cli

import (
	"runtime/debug"
	"strings"
	"time"
)

// StampVersion is gomb's version as a build recorded it: source is the
// source's version, module the module's (debug.BuildInfo.Main.Version)
// and settings the build's VCS settings.
func StampVersion(source, module string, settings []debug.BuildSetting) string {
	v := source
	// A module version names a release (go install ...@v0.2.0, or a
	// tagged checkout); v0.0.0-date-rev is Go's name for an untagged
	// commit, which the source's version and the revision say better.
	if module != "" && module != "(devel)" && !strings.HasPrefix(module, "v0.0.0-") {
		v = strings.TrimPrefix(module, "v")
	}
	var rev, when string
	dirty := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) >= 12 && !strings.Contains(v, rev[:12]) {
		rev = rev[:12]
		if dirty {
			rev += "+dirty"
		}
		if t, err := time.Parse(time.RFC3339, when); err == nil {
			rev += ", " + t.UTC().Format("2006-01-02")
		}
		v += " (" + rev + ")"
	}
	return v
}
