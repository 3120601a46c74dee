//go:build cgo

package mpi

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/testutil"
)

func TestMain(m *testing.M) {
	// a test binary started with testutil.RankEnv set is one rank of the
	// job TestKernelFamilies launches: it runs every family's kernels and
	// reports on stdout (rank 0) what failed
	if os.Getenv(testutil.RankEnv) == "1" {
		os.Exit(rankMain())
	}
	os.Exit(m.Run())
}

// family is a kernel family and the calls that exercise it.
type family struct {
	name  string
	specs []kernel.Params
}

// families are one or more kernels of each file and loop shape: IMB's
// point-to-point and collective loops (imb_mpi1.c), OSU's point-to-point
// and one-way (osu.c), non-blocking (osu_nbc.c) and, with two ranks,
// one-sided loops (osu_rma.c), the ring (ring.c). (memcpy runs on one rank
// alone: gomb ring --mem-copy-local.)
func families(np int) []family {
	// bytes (elements for typed kernels): not a multiple of the pattern's
	// 256-byte rows, so blocks at offsets me*n start and end mid-row
	n := 1000
	fams := []family{
		{"imb point-to-point", []kernel.Params{
			{Kernel: kernel.PingPong, Count: n}, {Kernel: kernel.PingPing, Count: n},
			{Kernel: kernel.Sendrecv, Count: n}, {Kernel: kernel.Exchange, Count: n},
			{Kernel: kernel.Uniband, Count: n, Window: 4}, {Kernel: kernel.Biband, Count: n, Window: 4}}},
		{"imb collectives", []kernel.Params{
			{Kernel: kernel.Barrier}, {Kernel: kernel.Bcast, Count: n}, {Kernel: kernel.Scatter, Count: n},
			{Kernel: kernel.Gatherv, Count: n}, {Kernel: kernel.Allgather, Count: n},
			{Kernel: kernel.Alltoallv, Count: n}, {Kernel: kernel.ReduceLocal, Type: kernel.Float, Count: n / 4},
			{Kernel: kernel.Allreduce, Type: kernel.Float, Count: n / 4}, {Kernel: kernel.ReduceScatterBlock, Type: kernel.Int, Count: n / 4},
			{Kernel: kernel.Reduce, Type: kernel.Double, Count: n / 8, RootShift: true}}},
		{"osu collectives", []kernel.Params{
			{Kernel: kernel.BarrierCalls}, {Kernel: kernel.ReduceScatterSplit, Type: kernel.Float, Count: n / 4}}},
		{"osu point-to-point", []kernel.Params{
			{Kernel: kernel.OSULatency, Count: n}, {Kernel: kernel.OSUBw, Count: n, Window: 8},
			{Kernel: kernel.OSUBibw, Count: n, Window: 8}}},
		{"osu non-blocking", []kernel.Params{
			{Kernel: kernel.NBC, NBCOp: kernel.NBCIallreduce, Type: kernel.Float, Count: n / 4, Sync: true},
			{Kernel: kernel.NBC, NBCOp: kernel.NBCIbcast, Count: n, Sync: true}}},
		{"ring", []kernel.Params{{Kernel: kernel.Ring, Count: n}}},
	}
	if np != 2 { // OSU's one-sided tests and one-way run between two ranks only
		return fams
	}
	return append(fams,
		family{"osu one-sided", []kernel.Params{
			{Kernel: kernel.RMA, Count: n, RMAOp: kernel.RMAPut, RMAKind: kernel.RMALatency, SyncMode: kernel.SyncLock},
			{Kernel: kernel.RMA, Count: n, RMAOp: kernel.RMAGet, RMAKind: kernel.RMABandwidth, SyncMode: kernel.SyncFlush, Window: 4},
			{Kernel: kernel.RMA, Type: kernel.Int, Count: n / 4, RMAOp: kernel.RMAAcc, RMAKind: kernel.RMALatency, SyncMode: kernel.SyncFence}}},
		family{"one-way", []kernel.Params{{Kernel: kernel.OneWay, Count: n}}})
}

// rankMain is one rank: for every kernel, a timed loop of 20 calls whose
// time is positive where the rank times, then -check's validation twice.
// Rank 0 prints one line per failure and "done".
func rankMain() int {
	if _, err := Init(kernel.ThreadSingle); err != nil {
		fmt.Println("FAIL init:", err)
		return 1
	}
	SetFaultCorrupt(os.Getenv("GOMB_MPI_TEST_CORRUPT") == "1") // the test of the test
	defer Finalize()
	w := World()
	np, rank := w.Size(), w.Rank()
	var fails []string
	fail := func(f string, a ...any) { fails = append(fails, fmt.Sprintf(f, a...)) }
	if extra, err := controlVarsLoadNothing(w); err != nil {
		fail("shared objects after ControlVars: %v", err)
	} else if len(extra) > 0 {
		fail("rank 0 keeps %d shared objects loaded after reading control variables that rank 1 does not map: %s",
			len(extra), strings.Join(extra[:min(len(extra), 5)], ", "))
	}
	for _, fam := range families(np) {
		for _, s := range fam.specs {
			job, err := NewJob()
			if err != nil {
				fail("%s: new job: %v", fam.name, err)
				continue
			}
			name := fmt.Sprintf("%s kernel %d", fam.name, s.Kernel)
			if s.Kernel == kernel.RMA {
				name = fmt.Sprintf("%s op %d kind %d sync %d", fam.name, s.RMAOp, s.RMAKind, s.SyncMode)
			}
			bytes := int64(max(s.Count, 1)*s.Type.Size()) * int64(np) * 4
			err = job.Bind(w)
			if err == nil {
				err = job.Reserve(bytes, bytes, 20, rank)
			}
			if err == nil {
				if ok, rerr := job.stampsResident(); !ok {
					fail("%s: the repetitions' arrays are not in memory after Reserve (%v): a timed loop's first stamps would fault", name, rerr)
				}
			}
			if os.Getenv("GOMB_MPI_TEST_TRACE") != "" {
				fmt.Fprintf(os.Stderr, "rank %d: %s\n", rank, name)
			}
			if err == nil {
				job.Set(s)
				var el float64
				if el, err = job.Run(20, true); err == nil && rank == 0 && !(el > 0) {
					fail("%s: rank 0 timed %g s", name, el)
				}
			}
			for it := 0; err == nil && it < 2; it++ {
				var v Validation
				if v, err = job.Validate(it); err == nil && v.Bad > 0 {
					fail("%s: rank %d: %d wrong elements, first %d: got %g want %g", name, rank, v.Bad, v.FirstBad, v.Got, v.Want)
				}
			}
			if err != nil {
				fail("%s: %v", name, err)
			}
			job.Free()
		}
	}
	agreement(w, fail)
	// every rank's failures reach rank 0
	return testutil.ReportRanks(rank, fails, func(b []byte) ([][]byte, error) { return w.GathervBytes(b, 0) })
}

// agreement checks Agree over a communicator split off w, and that the
// call InjectError makes fails with an MPI error and leaves w usable.
func agreement(w Comm, fail func(string, ...any)) {
	c, err := w.Split(0, w.Rank())
	if err != nil {
		fail("split: %v", err)
		return
	}
	defer c.Free()
	for _, a := range []struct {
		name            string
		yes             bool
		all, some, done bool
	}{
		{"every rank", true, true, true, true},
		{"rank 0 only", w.Rank() == 0, false, true, true},
		{"no rank", false, false, false, true},
	} {
		limit := time.Duration(0)
		if a.yes {
			limit = time.Minute
		}
		all, some, done, err := c.Agree(a.yes, limit)
		if err != nil || all != a.all || some != a.some || done != a.done {
			fail("agree, %s: all %v some %v done %v, %v", a.name, all, some, done, err)
		}
	}
	ierr := InjectError(w)
	if e, ok := ierr.(*Error); !ok || e.Code == 0 || !strings.HasPrefix(e.Error(), "MPI_Send (GOMB_FAULT=mpi-error): MPI error ") {
		fail("InjectError: %v, want an MPI error", ierr)
	}
	if err := w.Barrier(); err != nil {
		fail("barrier after InjectError: %v", err)
	}
}

// controlVarsLoadNothing reads control variables on rank 0, as a run
// record does, and returns the shared objects rank 0 then maps and rank 1
// does not (rank 0 only): Open MPI's MPI_T_init_thread loads every
// component of every framework, and a rank that keeps MPI_T started keeps
// them all, some 4 MB of private pages, for its whole sweep.
func controlVarsLoadNothing(w Comm) ([]string, error) {
	if w.Rank() == 0 {
		ControlVars([]string{"pml", "btl", "MPIR_CVAR_CH4_NETMOD"})
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return nil, err
	}
	objs := map[string]bool{}
	for _, line := range strings.Split(string(maps), "\n") {
		if f := strings.Fields(line); len(f) == 6 && strings.Contains(f[5], ".so") {
			objs[f[5]] = true
		}
	}
	var mine []string
	for o := range objs {
		mine = append(mine, o)
	}
	all, err := w.GathervBytes([]byte(strings.Join(mine, "\n")), 0)
	if err != nil || w.Rank() != 0 {
		return nil, err
	}
	other := map[string]bool{}
	for _, o := range strings.Split(string(all[1]), "\n") {
		other[o] = true
	}
	var extra []string
	for _, o := range mine {
		if !other[o] {
			extra = append(extra, o)
		}
	}
	sort.Strings(extra)
	return extra, nil
}

// TestKernelFamilies runs every family's kernels, timed and validated, in
// a real MPI job of 2 and of 3 ranks (an odd count: pairs, rings and
// roots that do not divide evenly).
func TestKernelFamilies(t *testing.T) {
	run := func(t *testing.T, np int, env ...string) []string {
		return testutil.Failures(testutil.LaunchSelf(t, Family(), np, 2*time.Minute, env...))
	}
	for _, np := range []int{2, 3} {
		t.Run(fmt.Sprint(np), func(t *testing.T) {
			for _, f := range run(t, np) {
				t.Error(f)
			}
		})
	}
	// With received data corrupted, every family that receives data fails
	// its validation: the checks above can fail.
	t.Run("corrupted", func(t *testing.T) {
		fails := strings.Join(run(t, 2, "GOMB_MPI_TEST_CORRUPT=1"), "\n")
		for _, fam := range families(2) {
			if fam.name != "osu collectives" && !strings.Contains(fails, fam.name+" ") {
				t.Errorf("%s: no failure with corrupted data", fam.name)
			}
		}
	})
}
