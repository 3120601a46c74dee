module github.com/gomb-hpc/gomb

go 1.26.8

require (
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
)
