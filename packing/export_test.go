package packing

import (
	"context"

	"github.com/nodeplan/nodeplan/internal/vouch"
)

// SolveWithoutTwins is Solve with no answer kept for runs of twins
// (twins.go): every claim is asked again for every pod.
func SolveWithoutTwins(p Problem, o Options) (Plan, error) {
	return solveContext(context.Background(), p, o, vouch.Nodes{}, hooks{noTwins: true})
}

// SolveEagerMinValues is Solve with minValues asked of every claim that
// otherwise takes the pod, as before worth.
func SolveEagerMinValues(p Problem, o Options) (Plan, error) {
	return solveContext(context.Background(), p, o, vouch.Nodes{}, hooks{eagerMinValues: true})
}

// SolveSequential is Solve with each strategy's passes searched in turn,
// never all at once (see greedyAtOnce).
func SolveSequential(p Problem, o Options) (Plan, error) {
	return solveContext(context.Background(), p, o, vouch.Nodes{}, hooks{sequential: true})
}
