// Package suite runs acceptance suites: a benchmark's run rules in, its
// results table out, as one job (docs/suite.md).
//
// The pipeline, one step a file:
//
//  1. Parse (file.go, values.go) reads a suite file (YAML): rows of a
//     gomb measuring command, its sizes, nodes, placement, path and
//     metric, repetitions, reference and required values; every error
//     names the file, line and field, unknown keys among them. Load
//     reads a file, or a suite gomb ships (package suites), by name.
//  2. An Allocation (alloc.go) is the nodes a suite runs on (a Slurm job's
//     node list, or a hostfile), each node's hardware facts (gathered by a
//     small job of `gomb suite facts`, internal/host.Facts), and the
//     network's shape: a switch tree (topo.go: topology.conf, scontrol
//     show topology) or a fleet sweep's pair latencies.
//  3. MakePlan (plan.go) turns rows into launches: the nodes (the pair
//     with the most or fewest switches between them for a longest or
//     shortest path), the ranks a node the placement counts, the test
//     checked by its own command's flag parsing (Commands: those gomb's
//     command table lends), and the launcher line (launch.go: srun job
//     steps, Open MPI's mpirun, MPICH's mpiexec), with the records
//     labelled -campaign and -cell row=ID,rep=K.
//  4. Run (run.go) launches them one after another as child processes,
//     keeps a ledger of what ran, failed or was skipped, resumes, and
//     stops at a deadline; Execute is a whole run (the node facts
//     gathered or reused, the plan, Run under the deadline and the
//     signals) ending in gomb's exit status.
//  5. Results (table.go) reads the records back (with the importer)
//     into the results table: a line a row and size, its value, spread,
//     reference, ratio and verdict; internal/report renders it, and
//     internal/report/text the plan too.
package suite
