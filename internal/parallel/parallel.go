// Package parallel runs independent pieces of one job on up to GOMAXPROCS
// goroutines. Each piece writes only its own results, so the job's output
// does not depend on how many goroutines ran it or in which order.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Range calls a body for consecutive ranges [lo, hi) covering [0, n), each
// at most chunk long (chunk < 1 counts as 1), on up to GOMAXPROCS
// goroutines: one when GOMAXPROCS is 1 or n is at most chunk, and then on
// the caller's. newBody is called once per goroutine, so each can keep
// state of its own (a buffer, a decoder). A panic in a body is raised
// again on the caller's goroutine, once every goroutine has stopped, so a
// caller's recover sees it; when bodies on several goroutines panic, the
// first to panic is raised.
func Range(n, chunk int, newBody func() func(lo, hi int)) {
	chunk = max(chunk, 1)
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	if workers <= 1 {
		if n > 0 {
			body := newBody()
			for lo := 0; lo < n; lo += chunk {
				body(lo, min(lo+chunk, n))
			}
		}
		return
	}
	var next atomic.Int64
	var failed atomic.Pointer[any]
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					failed.CompareAndSwap(nil, &v)
				}
			}()
			body := newBody()
			for failed.Load() == nil {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				body(lo, min(lo+chunk, n))
			}
		})
	}
	wg.Wait()
	if v := failed.Load(); v != nil {
		panic(*v)
	}
}

// Both runs a on a new goroutine and b on the caller's, and returns when
// both have. A panic in either is raised again on the caller's goroutine
// once both have stopped (a's first).
func Both(a, b func()) {
	var aPanic any
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { aPanic = recover() }()
		a()
	}()
	defer func() {
		bPanic := recover()
		<-done
		if aPanic != nil {
			panic(aPanic)
		}
		if bPanic != nil {
			panic(bPanic)
		}
	}()
	b()
}
