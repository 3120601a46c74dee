package mpi

import (
	"strings"
	"testing"
)

// TestIdentify reads the libraries' own MPI_Get_library_version strings.
func TestIdentify(t *testing.T) {
	for _, c := range []struct {
		lib  string
		want Library
	}{
		{"Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022", Library{"Open MPI", "4.1.4", "openmpi"}},
		{"Open MPI v5.0.3, package: Open MPI root@build Distribution, ident: 5.0.3, repo rev: v5.0.3, Apr 08, 2024", Library{"Open MPI", "5.0.3", "openmpi"}},
		{"MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\nMPICH ABI:\t14:2:2\nMPICH Device:\tch4:ofi", Library{"MPICH", "4.0.2", "mpich"}},
		{"MPICH Version:      5.0.1\nMPICH Release date: unreleased\nMPICH ABI:          17:1:5\n", Library{"MPICH", "5.0.1", "mpich"}},
		{"Intel(R) MPI Library 2021.10 for Linux* OS\n", Library{"Intel MPI", "2021.10", "mpich"}},
		{"Intel(R) MPI Library 2019 Update 12 for Linux* OS\n", Library{"Intel MPI", "2019 Update 12", "mpich"}},
		{"MVAPICH2 Version      :\t2.3.7\nMVAPICH2 Release date :\tWed March 02 22:00:00 EST 2022\nMVAPICH2 Device       :\tch3:mrail", Library{"MVAPICH", "2.3.7", "mpich"}},
		{"MVAPICH2-GDR Version      :\t2.3.7\nMVAPICH2-GDR Release date :\tThu Mar 03 2022", Library{"MVAPICH", "2.3.7", "mpich"}},
		{"MVAPICH Version:\t3.0\nMVAPICH Release date:\tTue Feb 27 2024\nMVAPICH Device:\tch4:ofi", Library{"MVAPICH", "3.0", "mpich"}},
		{"MPI VERSION    : CRAY MPICH version 8.1.27.26 (ANL base 3.4a2)\nMPI BUILD INFO : Sun Jun 18  1:09 2023 (git hash 37fa2c5)", Library{"Cray MPICH", "8.1.27.26", "mpich"}},
		{"HPE MPT 2.25  03/21/22 05:53:04", Library{"HPE MPT", "2.25", ""}},
		{"IBM Spectrum MPI v10.4.0.3, package: IBM Spectrum MPI, ident: 10.4.0.3, repo rev: IBM_SPECTRUM_MPI_10.04.00.03_2021.01.12_RTM", Library{"IBM Spectrum MPI", "10.4.0.3", "openmpi"}},
		{"FUJITSU MPI Library 4.0.1 (4.0.1fj4.0.0)", Library{"Fujitsu MPI", "4.0.1", "openmpi"}},
		{"Microsoft MPI 10.1.12498.18", Library{"Microsoft MPI", "10.1.12498.18", "mpich"}},
		{"Some Vendor MPI 1.0", Library{}},
		{"", Library{}},
	} {
		if got := Identify(c.lib); got != c.want {
			t.Errorf("Identify(%q) = %+v, want %+v", c.lib, got, c.want)
		}
	}
	if s := (Library{"Intel MPI", "2021.10", "mpich"}).String(); s != "Intel MPI 2021.10" {
		t.Errorf("String %q", s)
	}
	if s := (Library{}).String(); s != "unknown MPI" {
		t.Errorf("String %q", s)
	}
}

// FuzzIdentify: any string is read without a panic, and what is found is
// whole: a name with a family gomb knows, a version in the text given.
func FuzzIdentify(f *testing.F) {
	for _, s := range []string{"Open MPI v4.1.4, package", "MPICH Version:\t4.0", "Intel(R) MPI Library 2021.10 for Linux",
		"MPI VERSION    : CRAY MPICH version 8.1.27", "MVAPICH2 Version :\t2.3.7", "HPE MPT 2.25", "x"} {
		f.Add(s)
	}
	families := map[string]bool{"": true, "openmpi": true, "mpich": true}
	f.Fuzz(func(t *testing.T, s string) {
		l := Identify(s)
		if !families[l.Family] || (l.Name == "") != (l.Version == "") || !strings.Contains(s, l.Version) {
			t.Errorf("Identify(%q) = %+v", s, l)
		}
	})
}

// TestMayChoose reads Open MPI's component selections.
func TestMayChoose(t *testing.T) {
	for _, c := range []struct {
		sel  string
		want bool
	}{{"", true}, {"rdma", true}, {"pt2pt", false}, {"sm,rdma", true}, {"^ucx,pt2pt", true}, {"^rdma", false}, {"^ucx, rdma", false}, {" ^ucx ", true}} {
		if got := mayChoose(c.sel, "rdma"); got != c.want {
			t.Errorf("mayChoose(%q, rdma) = %v", c.sel, got)
		}
	}
}
