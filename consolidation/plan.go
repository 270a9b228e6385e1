package consolidation

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/packing"
)

// ErrInvalidCluster is wrapped by Plan's and Validate's errors for a bad
// snapshot.
var ErrInvalidCluster = errors.New("invalid cluster")

// state is the cluster as the commands so far leave it, and what Plan has
// learnt about the nodes.
type state struct {
	// c is the input without its Nodes, which w holds as the commands so
	// far leave them.
	c Cluster
	o Options
	// base is the problem of every simulation but its pods and nodes:
	// the NodePools, catalog and daemonsets.
	base packing.Problem
	// w is the what-if: the nodes, of which the input's were validated
	// once by newState, so the simulations' solves check only the rest
	// (packing.SolveVouched).
	w     *disruption.WhatIf
	pools map[string]*packing.NodePool
	kept  map[string]Explanation
	seq   int
	// retry is what single-node consolidation remembers of the candidates
	// whose simulation failed (retry.go).
	retry retries
	// room bounds what a node that took pods can still shed (room.go);
	// nil until first needed.
	room *room
	// buffers is the provisioning pass's headroom (buffer.go).
	buffers headroom
	// facts is what each node's pods tell its candidacy, by node name,
	// for the pods it was read from (candidates.go).
	facts map[string]podFacts
	// events counts the pod events recorded (bind); with the what-if's
	// generation it makes the state's version. cands is the candidates
	// found at one version (candidates.go).
	events int
	cands  candidateList
	// view is the nodes as the simulations of one version see them; buf
	// is the nodes and pods slices each simulation refills (simulate.go),
	// spare those of forks that ended (speculate.go).
	view  simView
	buf   simBuffers
	spare []simBuffers
	// ctx is the simulations' context: nil for the state, a fork's to
	// cancel its move; forked says the state is a fork (speculate.go).
	// serial turns speculation off, and spec counts the moves simulated
	// ahead that a search read and those it stopped (tests).
	ctx    context.Context
	forked bool
	serial bool
	spec   struct{ read, stopped int }
}

func newState(c Cluster, o Options) (*state, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	s := &state{c: c, o: o, pools: map[string]*packing.NodePool{}, kept: map[string]Explanation{}, retry: newRetries(),
		facts: map[string]podFacts{}}
	s.c.Nodes = nil
	s.c.LastPodEvent = c.podEvents() // bind records the moves' pod events
	for i := range c.NodePools {
		p := &c.NodePools[i]
		if s.pools[p.Name] != nil {
			return nil, fmt.Errorf("%w: nodepool %q: name: duplicate", ErrInvalidCluster, p.Name)
		}
		s.pools[p.Name] = p
	}
	if len(c.Nodes) > 0 && c.Catalog == nil {
		return nil, fmt.Errorf("%w: cluster: catalog: no instance catalog is given", ErrInvalidCluster)
	}
	// What packing would reject in a simulation is rejected up front, so
	// that commands no simulation checks (emptiness) never rest on it either:
	// duplicate node names, negative requests, unknown values.
	s.base = packing.Problem{NodePools: c.NodePools, Catalog: c.Catalog, DaemonSets: c.DaemonSets}
	p := s.base
	p.Pods, p.Nodes = c.Pending, c.Nodes
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidCluster, err)
	}
	v := vouch.Of(c.Nodes, func(n *packing.Node) string { return n.Name })
	if c.podNamesUnique() {
		v = v.WithPods() // a simulation's pending pods are the cluster's, each once
	}
	s.w = disruption.NewWhatIf(c.Nodes, s.base, v, o.Solver)
	if err := s.checkBudgets(); err != nil {
		return s, err
	}
	return s, s.provisioningHeadroom()
}

// podNamesUnique reports whether no two of c's pods, pending or bound,
// share a namespace and name. Only then may the simulations' solves take
// their pending pods as validated (vouch.Nodes.WithPods): a simulation of
// a cluster that names two pods alike fails, as it did before, on the
// duplicate a move makes pending.
func (c Cluster) podNamesUnique() bool {
	type key struct{ ns, name string }
	n := len(c.Pending)
	for i := range c.Nodes {
		n += len(c.Nodes[i].Pods)
	}
	seen := make(map[key]struct{}, n)
	add := func(pods []packing.Pod) bool {
		for j := range pods {
			k := key{pods[j].Namespace, pods[j].Name}
			if _, dup := seen[k]; dup {
				return false
			}
			seen[k] = struct{}{}
		}
		return true
	}
	if !add(c.Pending) {
		return false
	}
	for i := range c.Nodes {
		if !add(c.Nodes[i].Pods) {
			return false
		}
	}
	return true
}

func (s *state) checkBudgets() error {
	var errs []error
	for _, p := range s.c.NodePools {
		errs = append(errs, disruption.ValidateBudgets(p))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidCluster, err)
	}
	return nil
}

// Plan returns the consolidation commands for c, in execution order, and an
// explanation for every node they leave alone. It is pure: c is not
// modified and the same input gives the same Result. Errors name the
// object and field of an invalid snapshot or wrap the packing error of a
// failed simulation setup.
func Plan(c Cluster, o Options) (Result, error) {
	s, err := newState(c, o)
	if err != nil {
		return Result{}, err
	}
	return s.result(c.Nodes)
}

// result plans the state, whose input nodes are nodes.
func (s *state) result(nodes []packing.Node) (Result, error) {
	cmds, err := s.rounds()
	if err != nil {
		return Result{}, err
	}
	return Result{Commands: cmds, Kept: s.explanations(nodes, cmds)}, nil
}

// rounds runs Karpenter's loop (passes) to its end and then, with
// Options.Repack, the m→n search; each repack command is followed by the
// loop again, until neither finds a command. Every command retires at
// least one initialized node and replacements are not candidates, so
// there are at most as many rounds as nodes.
func (s *state) rounds() ([]Command, error) {
	var cmds []Command
	for {
		more, err := s.passes()
		cmds = append(cmds, more...)
		if err != nil {
			return nil, err
		}
		if more, err = s.repack(); err != nil || len(more) == 0 {
			return cmds, err
		}
		cmds = append(cmds, more...)
	}
}

// passes runs Karpenter's disruption loop on the evolving state: each pass
// tries emptiness, then multi-node, then single-node consolidation, and
// the first method that finds a command ends the pass; every node, those
// that took displaced pods included, is a candidate again on the next
// pass (if its consolidateAfter allows). Multi-node is not retried after
// it found nothing until an emptiness or multi-node command changes the
// cluster, which keeps a long tail of single-node commands from costing
// seven extra simulations each; but before the loop ends it runs once more
// on the state the single-node commands left, so that the plan ends only
// when a full pass finds nothing.
func (s *state) passes() ([]Command, error) {
	var cmds []Command
	singles, multi, skipped := 0, true, false
	for {
		cmd, err := s.emptiness()
		if err == nil && cmd == nil && multi {
			skipped = false
			if cmd, err = s.multiNode(); cmd == nil {
				multi = false
			}
		}
		if err == nil && cmd == nil && (s.o.MaxSingle == 0 || singles < s.o.MaxSingle) {
			if cmd, err = s.nextSingle(); cmd != nil {
				singles++
			}
		}
		if err == nil && cmd == nil && skipped {
			cmd, err = s.multiNode()
			skipped = false
		}
		if err == nil && cmd == nil && s.o.MaxSingle > 0 && singles >= s.o.MaxSingle {
			s.keepCapped()
		}
		if err != nil || cmd == nil {
			return cmds, err
		}
		multi = multi || cmd.Method != SingleNode
		skipped = skipped || !multi
		s.apply(*cmd)
		cmds = append(cmds, *cmd)
	}
}

// keepCapped explains the candidates Options.MaxSingle left untried.
func (s *state) keepCapped() {
	for _, c := range s.underutilized() {
		if _, ok := s.kept[c.name]; !ok {
			s.keep(*explain(c.name, Capped, "Options.MaxSingle (%d) single-node commands were planned before node %s was tried", s.o.MaxSingle, c.name))
		}
	}
}

// keep records why a node is kept; a later, more specific reason wins.
func (s *state) keep(e Explanation) { s.kept[e.Node] = e }

// explanations lists, for the input nodes no command touches, why.
func (s *state) explanations(nodes []packing.Node, cmds []Command) []Explanation {
	touched := map[string]bool{}
	for _, c := range cmds {
		for _, n := range c.Candidates {
			touched[n] = true
		}
	}
	input := map[string]bool{}
	for _, n := range nodes {
		input[n.Name] = true
	}
	var out []Explanation
	for _, name := range slices.Sorted(maps.Keys(s.kept)) {
		if input[name] && !touched[name] {
			out = append(out, s.kept[name])
		}
	}
	return out
}

// budgets returns, per pool, how many nodes reason may still disrupt.
func (s *state) budgets(reason disruption.Reason) (map[string]int, error) {
	out := map[string]int{}
	for _, p := range s.c.NodePools {
		n, err := disruption.AllowedDisruptions(p, s.w.Nodes(), reason, s.c.Now)
		if err != nil {
			return nil, err
		}
		out[p.Name] = n
	}
	return out, nil
}

// withinBudget keeps the candidates the budgets allow, in order, charging
// each; the others are explained. Where a pool's budget ends within a run
// of candidates of equal savings ratio (see candidate.ratioKey), it keeps
// the dearer of them: Karpenter's unstable sort leaves such a run in any
// order, and the dearer save more.
func (s *state) withinBudget(cands []candidate, budget map[string]int, reason disruption.Reason) []candidate {
	out := make([]candidate, 0, len(cands))
	for len(cands) > 0 {
		n := 1
		for n < len(cands) && cands[n].ratioKey() == cands[0].ratioKey() {
			n++
		}
		kept := chargeDearerFirst(cands[:n], budget)
		for k, c := range cands[:n] {
			if kept[k] {
				out = append(out, c)
			} else {
				s.keep(*explain(c.name, Budget, "NodePool %s has no %s disruptions left in its budget", c.pool.Name, reason))
			}
		}
		cands = cands[n:]
	}
	return out
}

// chargeDearerFirst charges budget for the candidates of run, the dearer
// first (in run's order on a tie), while their pools' budgets last, and
// reports which it charged.
func chargeDearerFirst(run []candidate, budget map[string]int) []bool {
	order := make([]int, len(run))
	for k := range order {
		order[k] = k
	}
	if len(run) > 1 {
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(run[b].price, run[a].price) })
	}
	kept := make([]bool, len(run))
	for _, k := range order {
		if budget[run[k].pool.Name] > 0 {
			budget[run[k].pool.Name]--
			kept[k] = true
		}
	}
	return kept
}

// emptiness deletes every empty candidate the Empty budgets allow, in one
// command.
func (s *state) emptiness() (*Command, error) {
	budget, err := s.budgets(disruption.Empty)
	if err != nil {
		return nil, err
	}
	empty := slices.DeleteFunc(s.candidates(), func(c candidate) bool { return !c.empty() || s.holdsHeadroom(c) })
	empty = s.withinBudget(empty, budget, disruption.Empty)
	if len(empty) == 0 {
		return nil, nil
	}
	cmd := Command{Reason: disruption.Empty, Method: Emptiness, Savings: sumPrice(empty)}
	for _, c := range empty {
		cmd.Candidates = append(cmd.Candidates, c.name)
		if c.node.PriceUnknown {
			cmd.Unpriced++
		}
	}
	return &cmd, nil
}

// underutilized returns the candidates that are not empty, whose price is
// known and whose pool allows consolidating them, explaining the others.
func (s *state) underutilized() []candidate {
	cands := s.candidates()
	out := cands[:0] // in place: candidates made a new slice
	for _, c := range cands {
		switch {
		case c.empty() && !s.holdsHeadroom(c):
			s.keep(*explain(c.name, Budget, "node %s is empty but the Empty budget of NodePool %s is spent", c.name, c.pool.Name))
		case c.node.PriceUnknown:
			s.keep(*s.unpriced(c.node))
		case c.pool.Disruption.Policy == packing.WhenEmpty && c.empty():
			s.keep(*explain(c.name, BufferHeadroom, "node %s is empty but holds %d buffer pods (capacity buffer headroom)", c.name, s.buffers.onNode[c.name]))
		case c.pool.Disruption.Policy == packing.WhenEmpty:
			s.keep(*explain(c.name, PolicyWhenEmpty, "NodePool %s consolidates only empty nodes", c.pool.Name))
		default:
			out = append(out, c)
		}
	}
	return out
}

// multiNode binary-searches the prefixes of the candidates (within budget,
// at most MaxCandidates) for the longest that can be deleted or replaced
// by one cheaper node, as Karpenter's firstNConsolidationOption. A prefix
// whose pods room shows cannot fit the other nodes and one cheaper node
// fails without a simulation.
func (s *state) multiNode() (*Command, error) {
	budget, err := s.budgets(disruption.Underutilized)
	if err != nil {
		return nil, err
	}
	cands := s.withinBudget(s.underutilized(), budget, disruption.Underutilized)
	if len(cands) < 2 {
		return nil, nil
	}
	var best *Command
	s.measureRoom()
	t := s.newTries(MultiNode, false) // every try names its claims from the same number
	defer t.drop()
	named := t.seq
	lo := 1
	mid, hi := s.nextPrefix(cands, lo, min(len(cands)-1, s.o.maxCandidates()-1))
	for mid >= 0 {
		// The try that follows a success is known now: it is simulated
		// ahead while mid is (speculate.go).
		next, nextHi := s.nextPrefix(cands, mid+1, hi)
		if next >= 0 {
			t.goAhead(next, cands[:next+1])
		}
		if r := t.result(mid, cands[:mid+1]); r.why == nil {
			best, named = &r.cmd, r.seq
			lo, mid, hi = mid+1, next, nextHi
			continue
		}
		t.drop()
		mid, hi = s.nextPrefix(cands, lo, mid-1)
	}
	s.seq = named
	return best, nil
}

// nextPrefix returns the next try of multiNode's binary search between lo
// and hi, the index of the last candidate of the prefix, with the search's
// new hi: a prefix whose pods room shows cannot fit the other nodes and
// one cheaper node fails without a simulation. It returns -1 when the
// search ends.
func (s *state) nextPrefix(cands []candidate, lo, hi int) (int, int) {
	for lo <= hi {
		mid := (lo + hi) / 2
		if s.room.fitsOne(s, cands[:mid+1], s.threshold(sumPrice(cands[:mid+1]))) {
			return mid, hi
		}
		hi = mid - 1
	}
	return -1, hi
}

// nextSingle tries the candidates alone, in order, for the first that can
// be deleted or replaced by one cheaper node, skipping those whose failure
// still holds (retries).
func (s *state) nextSingle() (*Command, error) {
	budget, err := s.budgets(disruption.Underutilized)
	if err != nil {
		return nil, err
	}
	cands := s.underutilized()
	t := s.newTries(SingleNode, false)
	defer t.drop()
	checks := make([]*checked, len(cands))
	check := func(i int) *checked {
		if checks[i] == nil {
			checks[i] = s.precheck(cands[i], budget)
		}
		return checks[i]
	}
	ahead := s.speculates()
	for i, c := range cands {
		if p := check(i); !p.simulate {
			if p.why != nil {
				s.keep(*p.why)
			}
			if p.failed {
				s.retry.fail(c, p.why.Why)
			}
			continue
		}
		// The candidate tried after a failure is known now: it is
		// simulated ahead while c is (speculate.go). A candidate's checks
		// do not depend on the ones before it.
		for j := i + 1; j < len(cands) && ahead; j++ {
			if check(j).simulate {
				t.goAhead(j, cands[j:j+1])
				break
			}
		}
		r := t.result(i, cands[i:i+1])
		if r.why != nil {
			s.keep(*r.why)
			s.retry.fail(c, r.why.Why)
			continue
		}
		s.seq = r.seq
		return &r.cmd, nil
	}
	return nil, nil
}

// checked is what nextSingle knows of a candidate before simulating it:
// whether to, else why not (nil: a failure that still holds, retries),
// and whether that is a failure to record.
type checked struct {
	simulate, failed bool
	why              *Explanation
}

// precheck checks c, a candidate of nextSingle, against its pool's budget,
// its earlier failures and room.
func (s *state) precheck(c candidate, budget map[string]int) *checked {
	switch {
	case budget[c.pool.Name] <= 0:
		return &checked{why: explain(c.name, Budget, "NodePool %s has no %s disruptions left in its budget", c.pool.Name, disruption.Underutilized)}
	case s.retry.skip(c):
		return &checked{}
	}
	if why := s.noRoom(c); why != nil {
		return &checked{why: why, failed: true}
	}
	return &checked{simulate: true}
}
