package packing_test

import (
	"testing"

	"github.com/nodeplan/nodeplan/packing"
)

// TestPropertyCandidatesMatchFirstFit: a claim's topology domain is chosen
// among exactly the domains where one of its types holds the pod with the
// claim's other pods, within the pool's limits, with an offering (see
// packing.CandidatesMatchFirstFit): no domain such a type holds is left
// out, none where no type does is offered.
func TestPropertyCandidatesMatchFirstFit(t *testing.T) {
	forSeeds(t, 5<<40, propertyCount(t)/5, packing.CandidatesMatchFirstFit)
}
