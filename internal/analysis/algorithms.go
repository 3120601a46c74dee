package analysis

import (
	"fmt"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// Default collective algorithms of the MPI libraries gomb is tested with,
// read from their sources: which algorithm a collective runs at each
// message size for a few process counts. Explain names the algorithm on
// each side of a step and in a collective's miss of its model, and how to
// force another, so a finding is something to try rather than a riddle.
//
// Open MPI 4.1: coll/tuned's fixed decision rules
// (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, v4.1.4), commutative
// operations, thresholds on the bytes of one rank's message (total_dsize).
// MPICH 4.0: the MPIR-level selection table compiled into libmpich
// (csel JSON, MPICH 4.0.2), thresholds on avg_msg_size (one rank's
// message) or total_msg_size (all ranks'); built-in operations.

// algoTable is one library's choice for one collective over a range of
// process counts.
type algoTable struct {
	impl, version string // result.MPI.Impl; the library version it was read from (a prefix)
	op            string // bench.Traits.Collective
	minNP, maxNP  int    // the process counts it holds for, inclusive
	pow2          int    // 1: powers of two only, -1: others only, 0: any
	total         bool   // thresholds on the bytes of all ranks (bytes × np)
	steps         []algoStep
}

// algoStep: the algorithm up to below bytes (exclusive; 0: no bound).
type algoStep struct {
	below int64
	name  string
	id    int // Open MPI's coll_tuned_<op>_algorithm number
}

const (
	ompiSource  = "Open MPI 4.1's coll/tuned rules"
	mpichSource = "MPICH 4.0's selection table"
)

var algoTables = []algoTable{
	{impl: "openmpi", version: "Open MPI v4.1", op: "allreduce", minNP: 2, maxNP: 3, steps: []algoStep{
		{8, "ring", 4}, {4096, "recursive_doubling", 3}, {8192, "ring", 4}, {16384, "recursive_doubling", 3},
		{65536, "ring", 4}, {262144, "segmented_ring", 5}, {0, "rabenseifner", 6}}},
	{impl: "openmpi", version: "Open MPI v4.1", op: "allreduce", minNP: 4, maxNP: 7, steps: []algoStep{
		{16, "ring", 4}, {8192, "recursive_doubling", 3}, {0, "rabenseifner", 6}}},
	{impl: "openmpi", version: "Open MPI v4.1", op: "bcast", minNP: 2, maxNP: 3, steps: []algoStep{
		{32, "pipeline", 3}, {256, "binary_tree", 5}, {512, "pipeline", 3}, {1024, "knomial", 7},
		{32768, "basic_linear", 1}, {131072, "binary_tree", 5}, {262144, "chain", 2}, {524288, "basic_linear", 1},
		{1048576, "binomial", 6}, {0, "binary_tree", 5}}},
	{impl: "openmpi", version: "Open MPI v4.1", op: "bcast", minNP: 4, maxNP: 7, steps: []algoStep{
		{64, "binary_tree", 5}, {128, "binomial", 6}, {2048, "binary_tree", 5}, {8192, "binomial", 6},
		{1048576, "basic_linear", 1}, {0, "chain", 2}}},
	{impl: "openmpi", version: "Open MPI v4.1", op: "reduce", minNP: 2, maxNP: 3, steps: []algoStep{
		{8, "rabenseifner", 7}, {16, "binary", 4}, {32, "pipeline", 3}, {262144, "linear", 1},
		{524288, "pipeline", 3}, {1048576, "chain", 2}, {0, "pipeline", 3}}},
	{impl: "openmpi", version: "Open MPI v4.1", op: "reduce", minNP: 4, maxNP: 7, steps: []algoStep{
		{4096, "binary", 4}, {65536, "chain", 2}, {262144, "binomial", 5}, {524288, "linear", 1},
		{1048576, "binomial", 5}, {0, "linear", 1}}},
	{impl: "openmpi", version: "Open MPI v4.1", op: "alltoall", minNP: 2, maxNP: 2, steps: []algoStep{
		{2, "pairwise", 2}, {4, "two_proc", 5}, {16, "pairwise", 2}, {64, "two_proc", 5}, {256, "pairwise", 2},
		{4096, "two_proc", 5}, {32768, "pairwise", 2}, {262144, "linear_sync", 4}, {1048576, "two_proc", 5},
		{0, "pairwise", 2}}},
	{impl: "openmpi", version: "Open MPI v4.1", op: "alltoall", minNP: 3, maxNP: 7, steps: []algoStep{
		{8192, "linear_sync", 4}, {16384, "linear", 1}, {65536, "linear_sync", 4}, {524288, "linear", 1},
		{1048576, "pairwise", 2}, {0, "linear", 1}}},
	{impl: "openmpi", version: "Open MPI v4.1", op: "allgather", minNP: 2, maxNP: 2, steps: []algoStep{{0, "two_proc", 6}}},
	{impl: "openmpi", version: "Open MPI v4.1", op: "allgather", minNP: 3, maxNP: 31, steps: []algoStep{{0, "recursive_doubling", 3}}},

	{impl: "mpich", version: "MPICH Version:\t4.0", op: "bcast", minNP: 2, maxNP: 7, steps: []algoStep{{0, "binomial", 0}}},
	{impl: "mpich", version: "MPICH Version:\t4.0", op: "bcast", minNP: 8, maxNP: 1 << 30, pow2: 1, steps: []algoStep{
		{12289, "binomial", 0}, {524289, "scatter_recursive_doubling_allgather", 0}, {0, "scatter_ring_allgather", 0}}},
	{impl: "mpich", version: "MPICH Version:\t4.0", op: "bcast", minNP: 8, maxNP: 1 << 30, pow2: -1, steps: []algoStep{
		{12289, "binomial", 0}, {0, "scatter_ring_allgather", 0}}},
	// count < the process count's power of two keeps recursive doubling:
	// with 4-byte elements that is below 16 bytes up to 7 processes
	{impl: "mpich", version: "MPICH Version:\t4.0", op: "allreduce", minNP: 2, maxNP: 7, steps: []algoStep{
		{9, "recursive_doubling", 0}, {0, "reduce_scatter_allgather", 0}}},
	{impl: "mpich", version: "MPICH Version:\t4.0", op: "reduce", minNP: 2, maxNP: 1 << 30, steps: []algoStep{
		{2049, "binomial", 0}, {0, "reduce_scatter_gather", 0}}},
	{impl: "mpich", version: "MPICH Version:\t4.0", op: "allgather", minNP: 2, maxNP: 1 << 30, pow2: 1, total: true, steps: []algoStep{
		{524288, "recursive_doubling", 0}, {0, "ring", 0}}},
	{impl: "mpich", version: "MPICH Version:\t4.0", op: "allgather", minNP: 3, maxNP: 1 << 30, pow2: -1, total: true, steps: []algoStep{
		{81920, "brucks", 0}, {0, "ring", 0}}},
	{impl: "mpich", version: "MPICH Version:\t4.0", op: "alltoall", minNP: 2, maxNP: 7, steps: []algoStep{
		{32769, "scattered", 0}, {0, "pairwise", 0}}},
	{impl: "mpich", version: "MPICH Version:\t4.0", op: "alltoall", minNP: 8, maxNP: 1 << 30, steps: []algoStep{
		{257, "brucks", 0}, {32769, "scattered", 0}, {0, "pairwise", 0}}},
	{impl: "mpich", version: "MPICH Version:\t4.0", op: "reduce_scatter", minNP: 2, maxNP: 1 << 30, total: true, steps: []algoStep{
		{524288, "recursive_halving", 0}, {0, "pairwise", 0}}},
}

// algorithms is the table for a run's library, a collective and a
// process count; nil when gomb does not know it.
func algorithms(run *result.Run, op string, np int) *algoTable {
	if run == nil || op == "" {
		return nil
	}
	pow2 := np&(np-1) == 0
	for i := range algoTables {
		t := &algoTables[i]
		if t.op != op || t.impl != run.MPI.Impl || !strings.HasPrefix(run.MPI.Library, t.version) || np < t.minNP || np > t.maxNP {
			continue
		}
		if t.pow2 == 1 && !pow2 || t.pow2 == -1 && pow2 {
			continue
		}
		return t
	}
	return nil
}

// at is the algorithm for messages of bytes on np processes.
func (t *algoTable) at(bytes int64, np int) algoStep {
	if t.total {
		bytes *= int64(np)
	}
	for _, s := range t.steps {
		if s.below == 0 || bytes < s.below {
			return s
		}
	}
	return t.steps[len(t.steps)-1]
}

// change says how the algorithm changes between two sizes, "" when it
// does not (or the table is unknown: nil).
func (t *algoTable) change(a, b int64, np int) string {
	if t == nil {
		return ""
	}
	x, y := t.at(a, np), t.at(b, np)
	if x == y {
		return ""
	}
	return fmt.Sprintf("%s: %s goes from %s to %s between %s and %s (%d ranks); %s",
		t.source(), t.op, x.name, y.name, Size(a), Size(b), np, t.force(x))
}

// uses says which algorithm runs at a size.
func (t *algoTable) uses(bytes int64, np int) string {
	s := t.at(bytes, np)
	return fmt.Sprintf("%s: %s runs %s at %s with %d ranks; %s", t.source(), t.op, s.name, Size(bytes), np, t.force(s))
}

func (t *algoTable) source() string {
	if t.impl == "openmpi" {
		return ompiSource
	}
	return mpichSource
}

// force is how to run another algorithm (here: the one named).
func (t *algoTable) force(s algoStep) string {
	if t.impl == "openmpi" {
		return fmt.Sprintf("choose one with --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_%s_algorithm N (%s is %d)", t.op, s.name, s.id)
	}
	return fmt.Sprintf("choose one with MPIR_CVAR_%s_INTRA_ALGORITHM=<name> (%s is %s)", strings.ToUpper(t.op), s.name, s.name)
}
