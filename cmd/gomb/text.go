package main

import (
	"io"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/bench/p2p"
	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
	"github.com/gomb-hpc/gomb/textfmt/osutext"
	"github.com/gomb-hpc/gomb/textfmt/ringtext"
)

// writeSuiteText prints a stored run in its suite's own text layout.
func writeSuiteText(w io.Writer, b *result.Bundle) error {
	switch s := b.Run.Suite; {
	case slices.Contains(imb.Suites, s) || s == p2p.Suite || s == mt.Suite:
		return imbtext.WriteRecords(w, b)
	case s == osu.Suite:
		return osutext.WriteRecords(w, b)
	case s == ring.Suite:
		return ringtext.WriteRecords(w, b)
	}
	return cli.Usage("run %s: suite %q has no text layout (%s, %s, %s, %s, %s)", b.Run.RunID, b.Run.Suite,
		strings.Join(imb.Suites, ", "), p2p.Suite, mt.Suite, osu.Suite, ring.Suite)
}
