package shadow

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEventDifference: a disruption is compared with nodeplan's planner
// for Karpenter's reason (drift for Drifted and Expired, consolidation
// otherwise), and a node of unknown price that planner deletes makes the
// difference unknown.
func TestEventDifference(t *testing.T) {
	same := Karpenter{Launched: []Claim{{Name: "new", Price: usd(0.096), Priced: true}}, Removed: []Claim{{Name: "old", Price: usd(0.096), Priced: true}}}
	decided := Decision{Drift: Commands{Commands: 1, Deleted: 1, Launched: 1}, Consolidation: Commands{Commands: 1, Deleted: 1, Change: -usd(0.096)}}
	tests := []struct {
		name    string
		reason  string
		d       Decision
		want    float64
		unknown bool
	}{
		{name: "drift with drift", reason: ReasonDrifted, d: decided, want: 0},
		{name: "expiry with drift", reason: ReasonExpired, d: decided, want: 0},
		{name: "consolidation with consolidation", reason: ReasonUnderutilized, d: decided, want: 0.096},
		{name: "no reason with consolidation", d: decided, want: 0.096},
		{name: "an unpriced drift candidate", reason: ReasonDrifted, d: Decision{Drift: Commands{Commands: 1, Deleted: 1, Unpriced: 1}}, unknown: true},
		{name: "an unpriced consolidation candidate", reason: ReasonEmpty, d: Decision{Consolidation: Commands{Commands: 2, Deleted: 2, Unpriced: 1, Change: -usd(0.1)}}, unknown: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := same
			k.Reason = tc.reason
			e := Event{Type: Disruption, Karpenter: k, Nodeplan: tc.d}
			d, ok := e.Difference()
			assert.Equal(t, !tc.unknown, ok, "known")
			assert.Equal(t, usd(tc.want), d)
		})
	}
}

// TestTotalsCompared: a drift counts nodeplan's drift commands.
func TestTotalsCompared(t *testing.T) {
	var tot Totals
	tot.Add(&Event{Type: Disruption, Karpenter: Karpenter{Reason: ReasonDrifted},
		Nodeplan: Decision{Drift: Commands{Commands: 1, Deleted: 1, Launched: 1, Change: usd(0.01)}, Consolidation: Commands{Commands: 1, Deleted: 2}}})
	assert.Equal(t, Side{Launched: 1, Removed: 1, Change: usd(0.01)}, tot.Nodeplan)
}

// TestTotalsCountEachPodOnce: a pod pending in several provisioning
// events (its node not registered yet) counts once, and once placed
// though nodeplan placed it in one event only.
func TestTotalsCountEachPodOnce(t *testing.T) {
	var tot Totals
	for _, d := range []Decision{
		{PendingPods: []string{"a/p1", "a/p2"}, UnschedulablePods: []string{"a/p2"}},
		{PendingPods: []string{"a/p1", "a/p2", "b/p1"}},
		{PendingPods: []string{"b/p1", "b/p3"}, UnschedulablePods: []string{"b/p1", "b/p3"}},
	} {
		tot.Add(&Event{Type: Provisioning, Nodeplan: d})
	}
	assert.Equal(t, [2]int{4, 3}, [2]int{tot.Pods, tot.Placed}, "pods, placed")
}
