package osu

import (
	"strings"
	"testing"
)

func TestSelect(t *testing.T) {
	names := func(specs []*Spec) string {
		var n []string
		for _, s := range specs {
			n = append(n, s.Name)
		}
		return strings.Join(n, " ")
	}
	for _, c := range []struct {
		words []string
		want  string
		err   string
	}{
		{[]string{"latency", "osu_bw", "latency"}, "latency bw", ""},
		{[]string{"startup"}, "hello init", ""},
		{[]string{"bw", "STARTUP", "init"}, "bw hello init", ""},
		{[]string{"latency", "latancy"}, "", `unknown test "latancy"`},
		{nil, "", "no test named"},
	} {
		got, err := Select(c.words)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: %v, want %q", c.words, err, c.err)
			}
			continue
		}
		if err != nil || names(got) != c.want {
			t.Errorf("%v: %q, %v; want %q", c.words, names(got), err, c.want)
		}
	}
	// every OSU test is in exactly one suite besides all, gomb's oneway in none
	all, _ := Select([]string{"all"})
	for _, s := range Specs() {
		n := 0
		for _, suite := range Suites[:len(Suites)-1] {
			if inSuite(s, suite) {
				n++
			}
		}
		if want := map[bool]int{true: 0, false: 1}[s.Name == "oneway"]; n != want {
			t.Errorf("%s in %d suites, want %d", s.Name, n, want)
		}
	}
	if len(all) != len(Specs())-1 {
		t.Errorf("all: %d tests of %d", len(all), len(Specs()))
	}
}

func TestParseGraph(t *testing.T) {
	for in, want := range map[string]string{"tty": "tty", "PNG": "png", "tty,png": "tty png", "png,tty,png": "png tty", "pdf": "", "": "", "tty,": ""} {
		got, err := parseGraph(in)
		if (err != nil) != (want == "") || strings.Join(got, " ") != want {
			t.Errorf("%q: %v, %v; want %q", in, got, err, want)
		}
	}
	o := DefaultOptions()
	o.Graph = []string{"tty"}
	if err := o.Check(spec(t, "init")); err == nil || !strings.Contains(err.Error(), "-G") {
		t.Errorf("-G on init: %v", err)
	}
}
