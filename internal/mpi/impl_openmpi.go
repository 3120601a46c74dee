//go:build cgo && !mpich

package mpi

// #cgo pkg-config: ompi-c
import "C"

// Impl names the MPI library this binary is built against.
const Impl = "openmpi"
