package bench

import (
	"sort"
	"strings"
	"sync"
)

// Registry holds a suite's benchmark specs by case-insensitive name, for
// the suites whose files register themselves from init (package p2p,
// mt).
type Registry[S any] struct {
	mu sync.RWMutex
	m  map[string]S
}

// Add registers s under name; false where the name is taken.
func (r *Registry[S]) Add(name string, s S) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := strings.ToLower(name)
	if _, dup := r.m[k]; dup {
		return false
	}
	if r.m == nil {
		r.m = map[string]S{}
	}
	r.m[k] = s
	return true
}

// Lookup finds a spec by case-insensitive name.
func (r *Registry[S]) Lookup(name string) (S, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.m[strings.ToLower(name)]
	return s, ok
}

// Sorted returns every spec, ordered by less.
func (r *Registry[S]) Sorted(less func(a, b S) bool) []S {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]S, 0, len(r.m))
	for _, s := range r.m {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}
