package input

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// How the analysing commands name runs and sides for people.

// Describe names a run in a title line, its file as given (a
// terminal's reader typed it: /dev/fd/3 stays whole).
func Describe(r *result.Bundle) string { return describeWith(r, func(f string) string { return f }) }

// DescribeShort names a run for a page others read: its file by base
// name, never a directory.
func DescribeShort(r *result.Bundle) string { return describeWith(r, filepath.Base) }

func describeWith(r *result.Bundle, file func(string) string) string {
	parts := []string{r.Run.Suite}
	if r.Run.Source != nil && r.Run.Source.File != "" {
		parts = append(parts, file(r.Run.Source.File))
	}
	if !r.Run.Start.IsZero() {
		parts = append(parts, r.Run.Start.UTC().Format("2006-01-02 15:04"))
	}
	for _, k := range []string{"system", "config"} {
		if v := r.Run.Labels[k]; v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	if m := r.Run.MPIName(); m != "" {
		parts = append(parts, m)
	}
	return strings.Join(parts, ", ")
}

// SideName names a side by what the user gave, the first few items of a
// long list (a glob) with a count.
func SideName(items []string) string {
	its := Items(items)
	if len(its) > 3 {
		return fmt.Sprintf("%s, %s ... (%d items)", its[0], its[1], len(its))
	}
	return strings.Join(its, " ")
}

// ReadableNames name the sides of a report for people, never by a path:
// by what the labels of a side's runs share (system, config, MPI library;
// a lone run's date), or, where those do not tell the sides apart, by the
// items given (files by base name, archive ids as "run N", selections as
// written); sides still alike are prefixed A: and B:.
func ReadableNames(items [][]string, runs [][]*result.Bundle) []string {
	byLabels := make([]string, len(runs))
	byItems := make([]string, len(items))
	for i := range runs {
		byLabels[i] = labelName(runs[i])
		byItems[i] = itemName(items[i])
	}
	distinct := func(names []string) bool {
		for i, n := range names {
			if n == "" || slices.Contains(names[:i], n) {
				return false
			}
		}
		return true
	}
	switch {
	case distinct(byLabels):
		return byLabels
	case distinct(byItems):
		return byItems
	}
	out := make([]string, len(byItems))
	for i, n := range byItems {
		out[i] = string(rune('A'+i)) + ": " + n
	}
	return out
}

// labelName is what all of a side's runs share: system, config, MPI
// library, and the date when the side is one run; "" when they share
// nothing.
func labelName(runs []*result.Bundle) string {
	if len(runs) == 0 {
		return ""
	}
	common := func(get func(*result.Bundle) string) string {
		v := get(runs[0])
		for _, r := range runs[1:] {
			if get(r) != v {
				return ""
			}
		}
		return v
	}
	var parts []string
	for _, k := range []string{"system", "config"} {
		if v := common(func(r *result.Bundle) string { return r.Run.Labels[k] }); v != "" {
			parts = append(parts, v)
		}
	}
	if v := common(func(r *result.Bundle) string { return r.Run.MPIName() }); v != "" {
		parts = append(parts, v)
	}
	if len(parts) == 0 {
		return ""
	}
	if len(runs) == 1 && !runs[0].Run.Start.IsZero() {
		parts = append(parts, runs[0].Run.Start.UTC().Format("2006-01-02"))
	} else if len(runs) > 1 {
		parts = append(parts, fmt.Sprintf("%d runs", len(runs)))
	}
	return strings.Join(parts, ", ")
}

// itemName names a side by its items: a file by its base name, an archive
// id as "run N", a selection as written.
func itemName(items []string) string {
	var names, sel []string
	flush := func() {
		if len(sel) > 0 {
			names = append(names, strings.Join(sel, " "))
			sel = nil
		}
	}
	for _, it := range Items(items) {
		switch {
		case strings.Contains(it, "=") && !fileExists(it):
			sel = append(sel, it)
			continue
		case fileExists(it):
			flush()
			names = append(names, filepath.Base(it))
		default:
			flush()
			if _, err := strconv.Atoi(it); err == nil {
				it = "run " + it
			}
			names = append(names, it)
		}
	}
	flush()
	if len(names) > 3 {
		return fmt.Sprintf("%s, %s ... (%d items)", names[0], names[1], len(names))
	}
	return strings.Join(names, ", ")
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
