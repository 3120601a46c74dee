// Package imb declares the IMB-MPI1 benchmarks, one file each, and IMB's
// measurement rules: run options, message sizes, repetition policies,
// process counts and groups, and what a run hands its sinks (Table,
// Sink). Everything a benchmark is lives in its Spec: kernel, family,
// time and bandwidth factors, roles for interpretation. The package is
// plain Go (no cgo): the analysis side reads the specs without linking
// MPI. The engine that runs them is package imbrun; their semantics are
// those of IMB-MPI1 2021.
package imb

// Suite is the registry name of the IMB-MPI1 suite.
const Suite = "imb"
