package sidebyside

import (
	"cmp"
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
)

// Move is one consolidation command of either side: the method that
// produced it (Emptiness, MultiNode, SingleNode, nodeplan's Repack), the
// nodes it deletes, the nodes it launches, where each displaced pod goes,
// and what it saves in $/h (the candidates' prices minus the launches').
// [Fragmented.Complete] carries it out.
type Move struct {
	Method     string
	Candidates []string
	Launches   []Launch
	Homes      []Home
	Savings    float64
}

// String is "SingleNode [node-03] -> [fake-it-1] saves 0.3147/h".
func (m Move) String() string {
	types := make([]string, len(m.Launches))
	for i, l := range m.Launches {
		types[i] = l.InstanceType
	}
	return fmt.Sprintf("%s %v -> %v saves %.4f/h", m.Method, m.Candidates, types, m.Savings)
}

// Consolidated is what one consolidation run did to a [Fragmented]
// cluster: its $/h before and after, the commands in order, and the time
// the decisions took (conversion and setup excluded).
type Consolidated struct {
	Before, After float64
	Moves         []Move
	Duration      time.Duration
	// End is the cluster once every command has completed (a loop's
	// result); the zero Fragmented after one Plan or a wave.
	End Fragmented
}

// Saved is Before − After, in $/h.
func (c Consolidated) Saved() float64 { return c.Before - c.After }

// RunNodeplanConsolidation converts f and times one consolidation.Plan on
// it with o, the decision at one instant (compare Karpenter's
// DisruptionOptions.Wave); After is Before less the commands' savings.
func RunNodeplanConsolidation(f Fragmented, o consolidation.Options) (Consolidated, error) {
	out := Consolidated{Before: f.Price()}
	r, err := timedPlan(f, o, &out)
	if err != nil {
		return out, err
	}
	saved := 0.0
	for _, cmd := range r.Commands {
		m, err := nodeplanMove(cmd)
		if err != nil {
			return out, fmt.Errorf("%s: %w", f.Name, err)
		}
		out.Moves = append(out.Moves, m)
		saved += m.Savings
	}
	out.After = out.Before - saved
	return out, nil
}

// RunNodeplanLoop runs nodeplan's consolidation as Karpenter's full loop
// runs (RunKarpenterConsolidation): consolidation.Plan with o, then every
// command of its result completed in order by [Fragmented.Complete] (the
// code that completes Karpenter's commands), then Plan again on the
// cluster as it now is, until a Plan yields no command or maxCommands
// (0 or less: 500) have completed. After is the final cluster's price;
// Duration sums the Plans (conversion and completion excluded).
func RunNodeplanLoop(f Fragmented, o consolidation.Options, maxCommands int) (Consolidated, error) {
	out := Consolidated{Before: f.Price()}
	limit := cmp.Or(max(maxCommands, 0), 500)
	for len(out.Moves) < limit {
		r, err := timedPlan(f, o, &out)
		if err != nil {
			return out, err
		}
		if len(r.Commands) == 0 {
			break
		}
		for _, cmd := range r.Commands[:min(len(r.Commands), limit-len(out.Moves))] {
			m, err := nodeplanMove(cmd)
			if err != nil {
				return out, fmt.Errorf("%s: %w", f.Name, err)
			}
			if f, err = f.Complete(m); err != nil {
				return out, err
			}
			out.Moves = append(out.Moves, m)
		}
	}
	out.After, out.End = f.Price(), f
	return out, nil
}

// timedPlan converts f and adds the time consolidation.Plan takes on it to
// out.Duration.
func timedPlan(f Fragmented, o consolidation.Options, out *Consolidated) (consolidation.Result, error) {
	c, err := f.NodeplanCluster()
	if err != nil {
		return consolidation.Result{}, err
	}
	start := time.Now()
	r, err := consolidation.Plan(c, o)
	out.Duration += time.Since(start)
	if err != nil {
		return r, fmt.Errorf("%s: nodeplan consolidation: %w", f.Name, err)
	}
	return r, nil
}

// nodeplanMove is cmd as a Move: its replacements launched at the
// offerings Plan chose, its Homes (consolidation.Command.Homes, from
// disruption.Homes) by pod name, a NodeClaim's pods to its launch.
func nodeplanMove(cmd consolidation.Command) (Move, error) {
	m := Move{Method: cmd.Method.String(), Candidates: cmd.Candidates, Savings: cmd.Savings.Dollars()}
	launch := map[string]int{}
	for i, r := range cmd.Replacements {
		launch[r.Name] = i
		m.Launches = append(m.Launches, Launch{InstanceType: r.InstanceType, Zone: r.Offering.Zone, Price: r.Offering.Price.Dollars()})
	}
	for _, h := range cmd.Homes {
		i, ok := launch[h.NodeClaim]
		switch {
		case h.Node != "":
			m.Homes = append(m.Homes, Home{Pod: h.Pod.Name, Node: h.Node})
		case h.NodeClaim != "" && ok:
			m.Homes = append(m.Homes, Home{Pod: h.Pod.Name, Launch: i})
		default:
			return m, fmt.Errorf("%w: %s: pod %s has no home (%q)", ErrCompletion, cmd, h.Pod, h.Unschedulable)
		}
	}
	return m, nil
}
