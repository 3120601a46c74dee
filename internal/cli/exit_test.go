package cli

import (
	"strings"
	"testing"
)

func TestExitHelp(t *testing.T) {
	cases := []struct {
		codes []int
		own   map[int]string
		want  string
	}{
		{[]int{0, ExitUsage}, nil, "Exit status: 0 success, 2 bad flags or input."},
		{[]int{0, ExitRegression, ExitUsage}, map[int]string{0: "no regression"},
			"Exit status: 0 no regression, 4 a regression, 2 bad flags or input."},
		{[]int{0, ExitFailure, ExitUsage, ExitCheckFailed, ExitRegression, ExitWatchdog, ExitSignal}, nil,
			"Exit status: 0 success, 1 run failed, 2 bad flags or input, 3 -check found\n" +
				"wrong data, 4 a regression, 5 the watchdog ended the job, 128+signal when\n" +
				"interrupted (records written so far stay valid)."},
	}
	for _, c := range cases {
		if got := ExitHelp(c.codes, c.own); got != c.want {
			t.Errorf("ExitHelp(%v, %v):\n%s\nwant\n%s", c.codes, c.own, got, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("ExitHelp of a status cli does not know did not panic")
		}
	}()
	ExitHelp([]int{7}, nil)
}

// TestStatuses: every exit constant has one entry, in increasing order,
// and every rendering names each.
func TestStatuses(t *testing.T) {
	consts := []int{ExitFailure, ExitUsage, ExitCheckFailed, ExitRegression, ExitWatchdog, ExitNotRun, ExitSignal}
	for _, c := range consts {
		n := 0
		for _, s := range Statuses {
			if s.Code == c {
				n++
			}
		}
		if n != 1 {
			t.Errorf("exit status %d has %d entries in Statuses", c, n)
		}
	}
	if len(Statuses) != len(consts)+1 {
		t.Errorf("%d statuses for %d constants and success", len(Statuses), len(consts))
	}
	sum, table := ExitSummary(), ExitTable()
	for i, s := range Statuses {
		if i > 0 && s.Code <= Statuses[i-1].Code {
			t.Errorf("status %d after %d", s.Code, Statuses[i-1].Code)
		}
		if !strings.Contains(sum, statusWord(s.Code)+" "+s.Short) || !strings.Contains(table, "| "+statusWord(s.Code)+" | "+s.Meaning+" |") {
			t.Errorf("status %d missing from the summary or the table", s.Code)
		}
	}
}
