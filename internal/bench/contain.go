package bench

// Contain is what an engine that runs several benchmarks in one job (IMB's
// list, gomb osu's tests) asks after each one, on every rank, with how it
// ended (err nil: well): nil to go on with the next benchmark, or the
// error that ends the job. session.Session.Contain makes it: an MPI error
// that every rank met ends that benchmark only (rank 0 records it and
// says so); any other error, or one some ranks met and others did not,
// ends the job. An engine without one ends the job at the first error.
type Contain func(benchmark string, err error) error
