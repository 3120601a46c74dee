// Package imb declares the IMB-MPI1 benchmarks, one file each. Importing
// it registers them with package bench; their timed loops are the kernels
// of package mpi, their semantics those of IMB-MPI1 2021.
package imb

// Suite is the registry name of the IMB-MPI1 suite.
const Suite = "imb"
