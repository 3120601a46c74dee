//go:build !cgo

package mpi

import (
	"os"
	"time"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Available reports whether this binary can call MPI.
const Available = false

// BuildInfo says the binary has no MPI.
func BuildInfo() Build { return Build{Family: "none"} }

// Family is "none": built without MPI.
func Family() string { return "none" }

// Init fails: built without MPI.
func Init(level kernel.ThreadLevel) (kernel.ThreadLevel, error) { return kernel.NoThreadInit, ErrNoMPI }

// GuardCrashes does nothing: built without MPI.
func GuardCrashes() {}

// InjectCrash does nothing: built without MPI.
func InjectCrash() {}

// Initialized reports false.
func Initialized() bool { return false }

// Finalized reports false.
func Finalized() bool { return false }

// Finalize does nothing.
func Finalize() error { return nil }

// Abort does nothing.
func Abort(code int) {}

// LibraryVersion fails: built without MPI.
func LibraryVersion() (string, error) { return "", ErrNoMPI }

// ControlVars reads nothing: built without MPI.
func ControlVars(names []string) map[string]string { return nil }

// StandardVersion fails: built without MPI.
func StandardVersion() (int, int, error) { return 0, 0, ErrNoMPI }

// ProcessorName fails: built without MPI.
func ProcessorName() (string, error) { return "", ErrNoMPI }

// Wtime returns 0.
func Wtime() float64 { return 0 }

// PersistentCollectives reports false.
func PersistentCollectives() bool { return false }

// LargeCount reports false.
func LargeCount(k kernel.ID) bool { return false }

// DatatypeUsable reports false.
func DatatypeUsable(d kernel.Datatype, reduction bool) bool { return false }

// Comm is a communicator; without MPI every Comm is null.
type Comm struct{}

// World returns a null Comm.
func World() Comm { return Comm{} }

// Null reports true.
func (c Comm) Null() bool { return true }

// Rank returns -1.
func (c Comm) Rank() int { return -1 }

// Size returns 0.
func (c Comm) Size() int { return 0 }

// OneNode reports false.
func (c Comm) OneNode() bool { return false }

// Defect finds none: built without MPI.
func Defect(p kernel.Params, win kernel.WinMode, oneNode bool) string { return "" }

// CollectiveDefect knows of none.
func CollectiveDefect(p kernel.Params, np int) string { return "" }

// Split fails.
func (c Comm) Split(color, key int) (Comm, error) { return Comm{}, ErrNoMPI }

// Free does nothing.
func (c Comm) Free() {}

// Barrier fails.
func (c Comm) Barrier() error { return ErrNoMPI }

// Agree is unavailable without MPI.
func (c Comm) Agree(yes bool, limit time.Duration) (all, some, done bool, err error) {
	return false, false, false, ErrNoMPI
}

// InjectError is unavailable without MPI.
func InjectError(c Comm) error { return ErrNoMPI }

// MaxFloat64 fails.
func (c Comm) MaxFloat64(v float64) (float64, error) { return 0, ErrNoMPI }

// MaxInt fails.
func (c Comm) MaxInt(v int) (int, error) { return 0, ErrNoMPI }

// MinInt fails.
func (c Comm) MinInt(v int) (int, error) { return 0, ErrNoMPI }

// BcastInt fails.
func (c Comm) BcastInt(v, root int) (int, error) { return 0, ErrNoMPI }

// SendBytes fails.
func (c Comm) SendBytes(b []byte, dest, tag int) error { return ErrNoMPI }

// Probe fails.
func (c Comm) Probe() (source, tag, n int, ok bool, err error) { return 0, 0, 0, false, ErrNoMPI }

// RecvBytes fails.
func (c Comm) RecvBytes(n, source, tag int) ([]byte, error) { return nil, ErrNoMPI }

// BcastFixed fails.
func (c Comm) BcastFixed(b []byte, root int) error { return ErrNoMPI }

// BcastBytes fails.
func (c Comm) BcastBytes(b []byte, root int) ([]byte, error) { return nil, ErrNoMPI }

// GatherFloat64s fails.
func (c Comm) GatherFloat64s(send []float64, root int) ([]float64, error) { return nil, ErrNoMPI }

// GatherInts fails.
func (c Comm) GatherInts(send []int, root int) ([]int, error) { return nil, ErrNoMPI }

// GathervFloat64s fails.
func (c Comm) GathervFloat64s(send []float64, root int) ([][]float64, error) { return nil, ErrNoMPI }

// GatherFloat64v fails.
func (c Comm) GatherFloat64v(send []float64, root int) ([][]float64, error) { return nil, ErrNoMPI }

// GatherSamples fails.
func (c Comm) GatherSamples(j *Job, send bool, root int) ([][]float64, error) { return nil, ErrNoMPI }

// GathervBytes fails.
func (c Comm) GathervBytes(send []byte, root int) ([][]byte, error) { return nil, ErrNoMPI }

// Job is a timed-kernel context; without MPI it cannot be made.
type Job struct{}

// Device is a GPU; without MPI there is none.
type Device struct{}

// OpenCUDA fails: built without MPI.
func OpenCUDA(localRank int) (*Device, error) { return nil, ErrNoMPI }

// CUDAAware reports false.
func CUDAAware() bool { return false }

// Staged reports false.
func (d *Device) Staged() bool { return false }

// Attach fails.
func (d *Device) Attach(j *Job) error { return ErrNoMPI }

// NewJob fails.
func NewJob() (*Job, error) { return nil, ErrNoMPI }

// Free does nothing.
func (j *Job) Free() {}

// Bind fails.
func (j *Job) Bind(c Comm) error { return ErrNoMPI }

// Reserve fails.
func (j *Job) Reserve(sendBytes, recvBytes int64, n int, fillRank int) error { return ErrNoMPI }

// Set does nothing.
func (j *Job) Set(s kernel.Params) {}

// SetBuffers does nothing without MPI.
func (j *Job) SetBuffers(b kernel.Buffers) {}

// SetDelay does nothing without MPI.
func (j *Job) SetDelay(s float64) {}

// Release does nothing without MPI.
func (j *Job) Release() {}

// SetPeers fails: built without MPI.
func (j *Job) SetPeers(peers []int, parent bool) error { return ErrNoMPI }

// SetNeighbours fails: built without MPI.
func (j *Job) SetNeighbours(dims, sources, dests, slots []int) (float64, error) { return 0, ErrNoMPI }

// SetDDT fails: built without MPI.
func (j *Job) SetDDT(kind string, t kernel.Datatype, count, stride, blockLen int, displs, lens []int) (int64, int64, error) {
	return 0, 0, ErrNoMPI
}

// Mismatch is one wrong element a check found.
type Mismatch struct {
	Pos       int64
	Got, Want float64
}

// KeepMismatches fails: built without MPI.
func KeepMismatches(limit int) error { return ErrNoMPI }

// TakeMismatches finds none: built without MPI.
func TakeMismatches(limit int) ([]Mismatch, int64) { return nil, 0 }

// SessionsAvailable: built without MPI, none.
func SessionsAvailable() bool { return false }

// InitSession fails: built without MPI.
func InitSession() error { return ErrNoMPI }

// DimsCreate fails: built without MPI.
func DimsCreate(n, d int) ([]int, error) { return nil, ErrNoMPI }

// IOFile fails: built without MPI.
func (j *Job) IOFile(path string, total int64) error { return ErrNoMPI }

// IOOpen fails: built without MPI.
func (j *Job) IOOpen(size int64) error { return ErrNoMPI }

// IORewind fails: built without MPI.
func (j *Job) IORewind() error { return ErrNoMPI }

// IOCalibrate reports nothing: built without MPI.
func IOCalibrate() (mflops, tcpuUS float64) { return 0, 0 }

// OpenWindow fails: built without MPI.
func (j *Job) OpenWindow() error { return ErrNoMPI }

// IMBHeapStart fails without MPI.
func IMBHeapStart(np int) error { return ErrNoMPI }

// IMBComm fails without MPI.
func IMBComm(c Comm) error { return ErrNoMPI }

// IMBHeapSize fails without MPI.
func IMBHeapSize(np int) error { return ErrNoMPI }

// Run fails.
func (j *Job) Run(n int, record bool) (float64, error) { return 0, ErrNoMPI }

// Samples returns nil.
func (j *Job) Samples() []float64 { return nil }

// Messages reports nothing without MPI.
func (j *Job) Messages() float64 { return 0 }

// NBCTimes returns zeros.
func (j *Job) NBCTimes() NBCTimes { return NBCTimes{} }

// Stamps returns nil.
func (j *Job) Stamps(n int) []float64 { return nil }

// Check fails.
func (j *Job) Validate(iter int) (Validation, error) { return Validation{}, ErrNoMPI }

// SetFaultCorrupt does nothing.
func SetFaultCorrupt(on bool) {}

// MT is an IMB-MT team; without MPI there is none.
type MT struct{}

// MTThread is what one thread measured.
type MTThread struct {
	Seconds  float64
	Result   bool
	Failures int64
	Samples  []float64
}

// NewMT fails without MPI.
func NewMT(multiple bool) (*MT, error) { return nil, ErrNoMPI }

// Threads is 0 without MPI.
func (t *MT) Threads() int { return 0 }

// Buffers fails without MPI.
func (t *MT) Buffers(sendBytes, recvBytes int64, align int, algo kernel.MTMalloc, window, repeat int) error {
	return ErrNoMPI
}

// Run fails without MPI.
func (t *MT) Run(c kernel.MTCall) ([]MTThread, error) { return nil, ErrNoMPI }

// Free does nothing.
func (t *MT) Free() {}

// LatencyMT is osu_latency_mt's threads: none without MPI.
type LatencyMT struct{}

// NewLatencyMT fails: built without MPI.
func NewLatencyMT(c Comm, send, recv int, tagPerIter bool, maxBytes int64) (*LatencyMT, error) {
	return nil, ErrNoMPI
}

// Run fails: built without MPI.
func (l *LatencyMT) Run(t kernel.Datatype, count, iters, skip int, record, check bool) (float64, []float64, Validation, error) {
	return 0, nil, Validation{}, ErrNoMPI
}

// Free does nothing without MPI.
func (l *LatencyMT) Free() {}

// ForkSleepers fails: built without MPI.
func ForkSleepers(n, seconds int) ([]int, error) { return nil, ErrNoMPI }

// Reap does nothing without MPI.
func Reap(pids []int) {}

// SampleGathers reports nothing gathered: built without MPI.
func SampleGathers() (time.Duration, int64) { return 0, 0 }

// Exit is os.Exit: built without MPI.
func Exit(code int) { os.Exit(code) }

// CanaryRing fails without MPI.
func CanaryRing(c Comm, bytes, inflight int, barrier bool, warm, n int) ([]float64, error) {
	return nil, ErrNoMPI
}

// CanaryAllreduce fails without MPI.
func CanaryAllreduce(c Comm, warm, n int) ([]float64, error) { return nil, ErrNoMPI }

// CanaryPhase fails without MPI.
func CanaryPhase(global Comm) error { return ErrNoMPI }

// QuietBarrier fails without MPI.
func QuietBarrier(c Comm, pollS float64) error { return ErrNoMPI }

// Congestor is a congestor of gomb congestion; without MPI there is none.
type Congestor struct{}

// CongestorLoad is what a congestor rank did in a congested phase.
type CongestorLoad struct{ Calls, Sent, Seconds float64 }

// NewCongestor fails without MPI.
func NewCongestor(group, global Comm, p kernel.CongPattern, bytes, batch int, pollS, capS float64) (*Congestor, error) {
	return nil, ErrNoMPI
}

// Isolated fails without MPI.
func (g *Congestor) Isolated() error { return ErrNoMPI }

// Congest fails without MPI.
func (g *Congestor) Congest() (CongestorLoad, error) { return CongestorLoad{}, ErrNoMPI }

// Free does nothing.
func (g *Congestor) Free() {}
