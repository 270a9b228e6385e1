package sidebyside

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
)

// Move is one consolidation command of either side: the method that
// produced it (Emptiness, MultiNode, SingleNode, nodeplan's Repack), the
// nodes it deletes, the instance types it launches and what it saves in
// $/h (the candidates' prices minus the replacements').
type Move struct {
	Method       string
	Candidates   []string
	Replacements []string
	Savings      float64
}

// String is "SingleNode [node-03] -> [fake-it-1] saves 0.3147/h".
func (m Move) String() string {
	return fmt.Sprintf("%s %v -> %v saves %.4f/h", m.Method, m.Candidates, m.Replacements, m.Savings)
}

// Consolidated is what one consolidation run did to a [Fragmented]
// cluster: its $/h before and after, the commands in order, and the time
// the decisions took (conversion and setup excluded).
type Consolidated struct {
	Before, After float64
	Moves         []Move
	Duration      time.Duration
}

// Saved is Before − After, in $/h.
func (c Consolidated) Saved() float64 { return c.Before - c.After }

// RunNodeplanConsolidation converts f and times consolidation.Plan on it
// with o; After is Before less the commands' savings.
func RunNodeplanConsolidation(f Fragmented, o consolidation.Options) (Consolidated, error) {
	c, err := f.NodeplanCluster()
	if err != nil {
		return Consolidated{}, err
	}
	start := time.Now()
	r, err := consolidation.Plan(c, o)
	elapsed := time.Since(start)
	if err != nil {
		return Consolidated{}, fmt.Errorf("%s: nodeplan consolidation: %w", f.Name, err)
	}
	out := Consolidated{Before: f.Price(), Duration: elapsed}
	saved := 0.0
	for _, cmd := range r.Commands {
		m := Move{Method: cmd.Method.String(), Candidates: cmd.Candidates, Savings: cmd.Savings.Dollars()}
		for _, rep := range cmd.Replacements {
			m.Replacements = append(m.Replacements, rep.InstanceType)
		}
		out.Moves = append(out.Moves, m)
		saved += m.Savings
	}
	out.After = out.Before - saved
	return out, nil
}
