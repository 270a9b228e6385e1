package consolidation

import (
	"testing"

	"github.com/nodeplan/nodeplan/packing"
)

// TestRetries: a failed single-node simulation is skipped until something
// that can change its outcome happens (retry.go).
func TestRetries(t *testing.T) {
	a := candidate{name: "a", pool: &packing.NodePool{Name: "p"}}
	tests := []struct {
		name  string
		why   Why
		after func(r *retries)
		skip  bool
	}{
		{"nothing happened", PodsDoNotFit, func(*retries) {}, true},
		{"another node took pods", NoCheaperReplacement, func(r *retries) { r.received("b", "p") }, true},
		{"the node took pods", NoCheaperReplacement, func(r *retries) { r.received("a", "p") }, false},
		{"a deleting node's pods got homes", SpotToSpot, func(r *retries) { r.left("q", false, 2) }, false},
		{"a deleting node with nothing to move", PodsDoNotFit, func(r *retries) { r.left("q", false, 0) }, true},
		{"a candidate of the pool went", PodsDoNotFit, func(r *retries) { r.left("p", true, 3) }, true},
		{"score, with the pool unchanged", ScoreTooLow, func(r *retries) { r.left("q", true, 3) }, true},
		{"score, after a candidate of the pool went", ScoreTooLow, func(r *retries) { r.left("p", true, 3) }, false},
		{"score, after a node of the pool took pods", ScoreTooLow, func(r *retries) { r.received("b", "p") }, false},
		{"a budget is not remembered", Budget, func(*retries) {}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRetries()
			if r.skip(a) {
				t.Fatal("skipped before any failure")
			}
			r.fail(a, tc.why)
			tc.after(&r)
			if got := r.skip(a); got != tc.skip {
				t.Errorf("skip = %t; want %t", got, tc.skip)
			}
		})
	}
}
