package consolidation

import (
	"context"
	"runtime"

	"github.com/nodeplan/nodeplan/packing"
)

// Speculation: multiNode's binary search simulates one prefix at a time,
// and each try decides the next; but the try that follows a success is
// known before the simulation ends. With more than one core, multiNode
// simulates it at the same time, on a fork of the state, and keeps the
// result when the search reaches it, or cancels it when the search turns
// the other way. A try's result depends only on the state, which a try
// only reads (what it writes, its claim number, simulation buffers and
// room scratch, are the fork's own), its prefix and the claim number it
// names from, so the commands are the same, byte for byte, with or
// without speculation and for any GOMAXPROCS
// (TestSpeculationSameCommands).

// speculation is one prefix simulated on a fork of the state: its index
// mid, the command or why not, and seq, the claim number after it named
// its claims.
type speculation struct {
	mid      int
	cmd      Command
	why      *Explanation
	seq      int
	fork     *state
	cancel   context.CancelFunc
	done     chan struct{}
	panicked any
}

// simBuffers are the nodes and pods slices a state's simulations refill
// (simulateWith); each fork has its own.
type simBuffers struct {
	nodes []packing.Node
	pods  []packing.Pod
}

// speculates reports whether multiNode simulates ahead: with more than one
// core, unless the state is told not to (tests).
func (s *state) speculates() bool { return !s.serial && runtime.GOMAXPROCS(0) > 1 }

// ahead starts simulating the prefix cands (index mid) on a fork that
// names its claims from seq.
func (s *state) ahead(cands []candidate, mid, seq int) *speculation {
	ctx, cancel := context.WithCancel(context.Background())
	t := &speculation{mid: mid, fork: s.fork(ctx), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		defer func() { t.panicked = recover() }()
		t.fork.seq = seq
		t.cmd, t.why = t.fork.compute(cands, MultiNode, false)
		t.seq = t.fork.seq
	}()
	return t
}

// fork returns a copy of s that simulates under ctx with buffers of its
// own and room scratch of its own, sharing the rest, which a try only
// reads: s's room must be measured and its view made for this version,
// and nothing of s that the fork shares may change until the fork's try
// has ended (the state's version, what-if, room and view).
func (s *state) fork(ctx context.Context) *state {
	f := *s
	f.ctx, f.spare = ctx, nil
	f.buf = s.takeBuffers()
	if s.room != nil {
		r := *s.room
		r.gone = nil
		f.room = &r
	}
	return &f
}

// takeBuffers returns a spare set of simulation buffers, or none.
func (s *state) takeBuffers() simBuffers {
	if n := len(s.spare); n > 0 {
		b := s.spare[n-1]
		s.spare = s.spare[:n-1]
		return b
	}
	return simBuffers{}
}

// wait waits for t's try to end and returns it, its fork's buffers given
// back to s; a panic of the try panics here, its buffers left to the
// deferred stop. A nil t returns the zero speculation.
func (s *state) wait(t *speculation) speculation {
	if t == nil {
		return speculation{}
	}
	<-t.done
	if t.panicked != nil {
		panic(t.panicked)
	}
	t.cancel()
	s.spare = append(s.spare, t.fork.buf)
	s.spec.read++
	return *t
}

// stop cancels t's try, which multiNode will not read, waits for it to
// end and takes its fork's buffers back. A nil t does nothing.
func (s *state) stop(t *speculation) {
	if t == nil {
		return
	}
	t.cancel()
	<-t.done
	s.spare = append(s.spare, t.fork.buf)
	s.spec.stopped++
}
