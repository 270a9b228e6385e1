package consolidation

import (
	"context"
	"runtime"
	"slices"

	"github.com/nodeplan/nodeplan/packing"
)

// Speculation: each search of the plan simulates one move at a time, and
// each result decides the next move; but the move that comes next on the
// likelier result is known before the simulation ends: after a success in
// multiNode's binary search, after a failure in nextSingle's walk down the
// candidates and in the repack's growing, and whatever the result in the
// repack's scan of prefixes. With more than one core the search simulates
// it at the same time, on a fork of the state (tries.goAhead), and reads the
// result when the search reaches that move, or cancels it when the search
// turns the other way. A move's result depends only on the state, which a
// simulation only reads (what it writes, its claim number, simulation
// buffers and room scratch, are the fork's own), the move and the claim
// number it names from, so the commands are the same, byte for byte, with
// or without speculation and for any GOMAXPROCS
// (TestSpeculationSameCommands).

// tries runs the moves of one search, with method and many (see compute),
// each naming its claims from seq, the state's claim number when the
// search began; ahead holds the moves simulating ahead. A move is named
// by a key of the search's choosing: a key names one set of candidates
// until the search drops the moves ahead.
type tries struct {
	s      *state
	method Method
	many   bool
	seq    int
	ahead  []*speculation
}

// speculation is one move simulated on a fork of the state: its key and
// candidates, the command or why not, and seq, the claim number after it
// named its claims.
type speculation struct {
	key      int
	set      []candidate
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

// newTries starts a search of method, many, from the state as it stands.
func (s *state) newTries(method Method, many bool) *tries {
	return &tries{s: s, method: method, many: many, seq: s.seq}
}

// speculates reports whether the searches simulate ahead: with more than
// one core, unless the state is told not to (tests).
func (s *state) speculates() bool { return !s.serial && runtime.GOMAXPROCS(0) > 1 }

// goAhead starts simulating move key, the candidates set, on a fork,
// unless it runs already or the state does not speculate.
func (t *tries) goAhead(key int, set []candidate) {
	if !t.s.speculates() || slices.ContainsFunc(t.ahead, func(a *speculation) bool { return a.key == key }) {
		return
	}
	// What the forks share is made before the first (a no-op after it:
	// the state does not change during a search).
	t.s.measureRoom()
	t.s.simView(t.method == Repack)
	ctx, cancel := context.WithCancel(context.Background())
	a := &speculation{key: key, set: set, fork: t.s.fork(ctx), cancel: cancel, done: make(chan struct{})}
	t.ahead = append(t.ahead, a)
	go func() {
		defer close(a.done)
		defer func() { a.panicked = recover() }()
		a.fork.seq = t.seq
		a.cmd, a.why = a.fork.compute(set, t.method, t.many)
		a.seq = a.fork.seq
	}()
}

// result returns the result of move key, the candidates set: the one
// simulated ahead, or one simulated now on the state, whose claim number
// stays the search's (the caller takes the result's when it keeps the
// command).
func (t *tries) result(key int, set []candidate) speculation {
	if i := slices.IndexFunc(t.ahead, func(a *speculation) bool { return a.key == key }); i >= 0 {
		a := t.ahead[i]
		t.ahead = slices.Delete(t.ahead, i, i+1)
		if !sameCandidates(a.set, set) {
			t.s.stop(a)
			panic("consolidation: a move simulated ahead is not the one its key names")
		}
		return t.s.wait(a)
	}
	s := t.s
	s.seq = t.seq
	r := speculation{key: key, set: set}
	r.cmd, r.why = s.compute(set, t.method, t.many)
	r.seq, s.seq = s.seq, t.seq
	return r
}

// drop cancels the moves simulated ahead: the search turned another way.
func (t *tries) drop() {
	for _, a := range t.ahead {
		t.s.stop(a)
	}
	t.ahead = t.ahead[:0]
}

// sameCandidates reports whether a and b are the same candidates.
func sameCandidates(a, b []candidate) bool {
	return slices.EqualFunc(a, b, func(x, y candidate) bool { return x.name == y.name })
}

// fork returns a copy of s that simulates under ctx with buffers of its
// own and room scratch of its own, sharing the rest, which a move only
// reads: s's room must be measured and its view made for this version
// (goAhead), and nothing of s that the fork shares may change until the
// fork's move has ended (the state's version, what-if, room and view). A
// fork that needs another view makes it in slices of its own (simView).
func (s *state) fork(ctx context.Context) *state {
	f := *s
	f.ctx, f.spare, f.forked = ctx, nil, true
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

// wait waits for a's move to end and returns it, its fork's buffers given
// back to s; a panic of the move panics here, its buffers dropped.
func (s *state) wait(a *speculation) speculation {
	<-a.done
	a.cancel()
	if a.panicked != nil {
		panic(a.panicked)
	}
	s.spare = append(s.spare, a.fork.buf)
	s.spec.read++
	return *a
}

// stop cancels a's move, which the search will not read, waits for it to
// end and takes its fork's buffers back.
func (s *state) stop(a *speculation) {
	a.cancel()
	<-a.done
	s.spare = append(s.spare, a.fork.buf)
	s.spec.stopped++
}
