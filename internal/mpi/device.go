//go:build cgo

package mpi

/*
#include <stdlib.h>
#include "gomb.h"
*/
import "C"

import (
	"errors"
	"os"
)

// Device is this rank's GPU, from the CUDA runtime loaded at run time.
type Device struct {
	staged bool
}

// OpenCUDA loads the CUDA runtime (dlopen libcudart.so), selects device
// localRank modulo the device count, and asks the MPI library whether it
// takes device pointers (GOMB_CUDA_AWARE=0/1 overrides the answer). Without
// a CUDA-aware MPI, transfers are staged through host memory.
func OpenCUDA(localRank int) (*Device, error) {
	var buf [512]C.char
	if C.gomb_cuda_load(C.int(localRank), &buf[0], C.int(len(buf))) != 0 {
		return nil, errors.New(C.GoString(&buf[0]))
	}
	return &Device{staged: !CUDAAware()}, nil
}

// CUDAAware reports whether the MPI library takes device pointers (without
// loading CUDA); GOMB_CUDA_AWARE=0 or 1 overrides the library's answer.
// It is the one place that decides whether GPU transfers are staged
// through host memory.
func CUDAAware() bool {
	switch os.Getenv("GOMB_CUDA_AWARE") {
	case "0":
		return false
	case "1":
		return true
	}
	return C.gomb_cuda_aware() != 0
}

// Staged reports whether transfers go through host memory.
func (d *Device) Staged() bool { return d.staged }

// Attach puts the job's buffers in device memory; later Reserve calls keep
// the device buffers as large as the host ones.
func (d *Device) Attach(j *Job) error {
	j.dev = d
	return j.syncDevice()
}

func (j *Job) syncDevice() error {
	if j.dev == nil {
		return nil
	}
	var buf [512]C.char
	if C.gomb_job_device(j.j, cbool(j.dev.staged), &buf[0], C.int(len(buf))) != 0 {
		return errors.New(C.GoString(&buf[0]))
	}
	return nil
}
