//go:build cgo

package mpi

/*
#cgo CFLAGS: -O2 -Wall -Wno-stringop-overflow -fopenmp
#cgo LDFLAGS: -fopenmp
#include <stdlib.h>
#include "gomb.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Available reports whether this binary can call MPI.
const Available = true

func init() {
	// MPI_Init and every later MPI call come from the main thread only,
	// which MPI_THREAD_SINGLE (IMB's level) and plain MPI_Init (OSU's)
	// allow in practice: pin main's goroutine to it.
	runtime.LockOSThread()
}

func mpiErr(rc C.int, action string) error {
	if rc == 0 {
		return nil
	}
	var buf [512]C.char
	C.gomb_error_string(rc, &buf[0], C.int(len(buf)))
	return &Error{Code: int(rc), Class: int(C.gomb_error_class(rc)), Text: C.GoString(&buf[0]), Action: action}
}

// Init initialises MPI with the given thread level (NoThreadInit: plain
// MPI_Init) and returns the level provided. It must be called from the main
// goroutine.
func Init(level kernel.ThreadLevel) (kernel.ThreadLevel, error) {
	var provided C.int
	rc := C.gomb_init(C.int(level), &provided)
	if rc != 0 {
		return kernel.NoThreadInit, fmt.Errorf("MPI_Init failed with code %d", int(rc))
	}
	// MPICH's SIGUSR1 handler would crash a Go process; make it run on the
	// alternate signal stack.
	C.gomb_sigusr1_onstack()
	return kernel.ThreadLevel(provided), nil
}

// GuardCrashes makes a fault inside a library (the MPI library's, or
// one it loads) end the process with one line that says so, exit status
// 1, instead of the Go runtime's dump of every goroutine; faults in the
// executable's own code still reach Go (its nil checks' panics). MPI's
// start calls it (gomb_init); GOTRACEBACK set keeps Go's report of every fault.
func GuardCrashes() { C.gomb_crash_guard() }

// InjectCrash faults inside the C library, as a library's defect would
// (GOMB_FAULT=library-crash).
func InjectCrash() { C.gomb_crash_inject() }

// SessionsAvailable reports whether the MPI library has MPI-4 sessions.
func SessionsAvailable() bool { return C.gomb_sessions() != 0 }

// InitSession starts MPI through an MPI-4 session, as OSU's -I does: the
// world is the communicator made from the "mpi://WORLD" process set.
func InitSession() error {
	if rc := C.gomb_init_session(); rc != 0 {
		return fmt.Errorf("MPI_Session_init failed with code %d", int(rc))
	}
	C.gomb_sigusr1_onstack()
	return nil
}

// Initialized reports whether MPI was started (MPI_Init or a session).
func Initialized() bool { return C.gomb_initialized() != 0 }

// Finalized reports whether MPI was ended (MPI_Finalize, or the
// session's MPI_Session_finalize).
func Finalized() bool { return C.gomb_finalized() != 0 }

// Finalize ends MPI once (MPI_Finalize, or for a session its
// communicator's MPI_Comm_free and MPI_Session_finalize); later calls do
// nothing.
func Finalize() error {
	if !Initialized() || Finalized() {
		return nil
	}
	return mpiErr(C.gomb_finalize(), "MPI_Finalize")
}

// Abort ends the whole job with the given exit code (MPI_Abort).
func Abort(code int) { C.gomb_abort(C.int(code)) }

// LibraryVersion returns MPI_Get_library_version's string.
func LibraryVersion() (string, error) {
	buf := (*C.char)(C.malloc(8192))
	defer C.free(unsafe.Pointer(buf))
	if err := mpiErr(C.gomb_library_version(buf, 8192), "MPI_Get_library_version"); err != nil {
		return "", err
	}
	return C.GoString(buf), nil
}

// ControlVars reads the named MPI_T control variables as text (strings,
// integers, enumeration items by name); names this library does not have
// are left out. Call it after Init.
func ControlVars(names []string) map[string]string {
	if C.gomb_cvars_begin() != C.MPI_SUCCESS {
		return nil
	}
	defer C.gomb_cvars_end()
	buf := (*C.char)(C.malloc(4096))
	defer C.free(unsafe.Pointer(buf))
	out := map[string]string{}
	for _, n := range names {
		cn := C.CString(n)
		ok := C.gomb_cvar(cn, buf, 4096)
		C.free(unsafe.Pointer(cn))
		if ok != 0 {
			out[n] = C.GoString(buf)
		}
	}
	return out
}

// StandardVersion returns the MPI standard version (MPI_Get_version).
func StandardVersion() (major, minor int, err error) {
	var ma, mi C.int
	err = mpiErr(C.gomb_standard_version(&ma, &mi), "MPI_Get_version")
	return int(ma), int(mi), err
}

// ProcessorName returns MPI_Get_processor_name.
func ProcessorName() (string, error) {
	var buf [1024]C.char
	if err := mpiErr(C.gomb_processor_name(&buf[0], C.int(len(buf))), "MPI_Get_processor_name"); err != nil {
		return "", err
	}
	return C.GoString(&buf[0]), nil
}

// Wtime returns MPI_Wtime in seconds.
func Wtime() float64 { return float64(C.gomb_wtime()) }

// PersistentCollectives reports whether this library has MPI-4's
// persistent collectives (MPI_Bcast_init, ...; Open MPI 4's MPIX_ ones).
func PersistentCollectives() bool { return C.gomb_persistent_collectives() != 0 }

// LargeCount reports whether kernel k runs with Params.Large in this
// library: IMB-MPI1's kernels of one count, where the library has MPI-4's
// large-count calls (MPICH 4; not Open MPI 4.1, an MPI 3.1).
func LargeCount(k kernel.ID) bool { return C.gomb_large_count(C.int(k)) != 0 }

// DatatypeUsable reports whether d works in this library, with MPI_SUM when
// reduction is set.
func DatatypeUsable(d kernel.Datatype, reduction bool) bool {
	r := C.int(0)
	if reduction {
		r = 1
	}
	return C.gomb_dtype_usable(C.int(d), r) != 0
}

// Exit ends the process through the C library's exit, so that the handlers
// the MPI library registered with atexit run: MPICH 5 sends its process
// manager PMI's finalize from one, and a process that leaves through Go's
// os.Exit (exit_group, no atexit) looks to Hydra like a rank that died, so
// it SIGKILLs the ranks still running.
func Exit(code int) { C.exit(C.int(code)) }
