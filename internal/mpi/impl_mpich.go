//go:build cgo && mpich

package mpi

// #cgo pkg-config: mpich
import "C"

// Impl names the MPI library this binary is built against.
const Impl = "mpich"
