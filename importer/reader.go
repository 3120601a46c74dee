package importer

import (
	"errors"

	"github.com/gomb-hpc/gomb/result"
)

// Reader reads the runs of a list of files — logs of any format Sniff
// knows, or gomb record files; "-" is stdin — one at a time, in the order
// of the files and of the runs in each, like bufio.Scanner:
//
//	r := importer.NewReader(files, opt)
//	defer r.Close()
//	for r.Scan() {
//		if run := r.Run(); run != nil {
//			// a run of r.Name()
//		} else {
//			// the end of r.Name(): r.File() says what reading it found
//			// (malformed lines, foreign lines, runs), r.FileErr() why it
//			// could not be read or recognised
//		}
//	}
//	err := r.Err()
//
// Reading and parsing run on a goroutine of their own, a few runs ahead of
// Scan, so that what the caller does with a run (encode it, store it)
// overlaps the parsing of the next. A file is parsed as it is read, and a
// run is handed on when its table ends, so memory does not grow with the
// file (stdin and gomb record files are read whole).
type Reader struct {
	// Prepare, when set before the first Scan, is called with every run on
	// the reading goroutine (work the caller would do on each run, which
	// then overlaps the reading of the next); Prepared gives its result.
	// Its error ends the reading, and Err returns it.
	Prepare func(*result.Bundle) (any, error)

	files []string
	opt   Options
	queue chan []item
	stop  chan struct{}
	batch []item // the items Scan is walking through
	cur   item
	err   error // Prepare's, ending the reading
}

// item is what Scan steps to: a run, or the end of a file.
type item struct {
	name    string
	run     *result.Bundle
	prep    any
	file    *File // at the end of a file
	fileErr error // at the end of a file that could not be read
}

// readBatch runs go from the reading goroutine to Scan at once: waking the
// other goroutine for each costs more than the work on a small run.
const readBatch = 32

// NewReader reads files with opt.
func NewReader(files []string, opt Options) *Reader {
	return &Reader{files: files, opt: opt}
}

// Scan steps to the next run, or to the end of a file; false when every
// file is read, or the reading ended on Prepare's error.
func (r *Reader) Scan() bool {
	if r.queue == nil {
		r.start()
	}
	for len(r.batch) == 0 {
		b, ok := <-r.queue
		if !ok {
			r.cur = item{}
			return false
		}
		r.batch = b
	}
	r.cur, r.batch = r.batch[0], r.batch[1:]
	return true
}

// Run is the run Scan stepped to; nil at the end of a file.
func (r *Reader) Run() *result.Bundle { return r.cur.run }

// Prepared is what Prepare made of Run.
func (r *Reader) Prepared() any { return r.cur.prep }

// Name is the file the current run or end comes from.
func (r *Reader) Name() string { return r.cur.name }

// File is, at the end of a file, what reading it found: its format, the
// runs counted, the malformed lines (Problems; the runs are handed on one
// at a time, not kept in Runs). nil when the file could not be read.
func (r *Reader) File() *File { return r.cur.file }

// FileErr is, at the end of a file, why it could not be read (an
// *fs.PathError) or is in no known format.
func (r *Reader) FileErr() error { return r.cur.fileErr }

// Err is Prepare's error, if it ended the reading.
func (r *Reader) Err() error { return r.err }

// Close stops the reading early and waits for the reading goroutine to
// end. Reading to the end needs no Close.
func (r *Reader) Close() {
	if r.queue == nil {
		return
	}
	select {
	case <-r.stop:
	default:
		close(r.stop)
	}
	for range r.queue {
	}
	r.batch = nil
}

var errStopped = errors.New("reader closed")

func (r *Reader) start() {
	r.queue = make(chan []item, 2)
	r.stop = make(chan struct{})
	go func() {
		defer close(r.queue)
		var batch []item
		send := func() error {
			select {
			case r.queue <- batch:
				batch = nil
				return nil
			case <-r.stop:
				return errStopped
			}
		}
		add := func(it item) error {
			if batch = append(batch, it); len(batch) == readBatch {
				return send()
			}
			return nil
		}
		for _, name := range r.files {
			var stopped error // Prepare's error, or Close
			f, err := r.readFile(name, func(b *result.Bundle) error {
				it := item{name: name, run: b}
				if r.Prepare != nil {
					if it.prep, stopped = r.Prepare(b); stopped != nil {
						r.err = stopped
						return stopped
					}
				}
				stopped = add(it)
				return stopped
			})
			if stopped != nil {
				break
			}
			if add(item{name: name, file: f, fileErr: err}) != nil {
				break
			}
		}
		if len(batch) > 0 {
			send()
		}
	}()
}

// readFile imports one file, handing each run to emit; "-" is stdin.
func (r *Reader) readFile(name string, emit func(*result.Bundle) error) (*File, error) {
	path := name
	if name == "-" {
		path = "/dev/stdin"
	}
	return ImportFile(path, name, r.opt, emit)
}
