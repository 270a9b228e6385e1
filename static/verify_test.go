package static_test

import (
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/static"
)

// Verify accepts every Result of Decide.
func TestVerifyAcceptsDecide(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261205) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 500
	props := gopter.NewProperties(params)
	props.Property("Verify(Decide(in)) is empty", prop.ForAll(func(seed uint64) bool {
		in := generate(seed)
		res, err := static.Decide(in)
		if err != nil {
			return false
		}
		v := static.Verify(in, res)
		if len(v) > 0 {
			t.Logf("seed %d: %v", seed, v)
		}
		return len(v) == 0
	}, gen.UInt64()))
	props.TestingRun(t)
}

// Verify rejects a Result broken in each rule.
func TestVerifyRejects(t *testing.T) {
	in := static.Input{Now: now, Catalog: catalog, Pools: []static.Pool{pool("np", 2, limit(3), budget("1"))},
		Claims: append(nodes("np", 3), unresolved("u", "np"))}
	in.Claims[0].Drifted = true
	res, err := static.Decide(in)
	require.NoError(t, err)
	require.Empty(t, static.Verify(in, res))
	d := res.Pools[0]
	require.Len(t, d.Remove, 2, "active 4, replicas 2")
	tests := []struct {
		name  string
		edit  func(d *static.Decision)
		rules []static.Rule
	}{
		{"one removal short", func(d *static.Decision) { d.Remove = d.Remove[:1] }, []static.Rule{static.RemoveExact}},
		{"an unknown claim removed", func(d *static.Decision) { d.Remove[1].Claim = "nope" }, []static.Rule{static.RemoveExact}},
		{"empty before unresolved", func(d *static.Decision) { d.Remove[0], d.Remove[1] = d.Remove[1], d.Remove[0] },
			[]static.Rule{static.RemoveExact}},
		{"creates while over", func(d *static.Decision) { d.Create = 1 }, []static.Rule{static.WithinLimit, static.CreateWarranted}},
		{"replaces while over", func(d *static.Decision) { d.Replace = []static.Replacement{{Candidate: "np-0"}} },
			[]static.Rule{static.WithinLimit, static.ReplaceDrifted}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			broken := static.Result{Pools: []static.Decision{d}}
			broken.Pools[0].Remove = append([]static.Removal{}, d.Remove...)
			tc.edit(&broken.Pools[0])
			var rules []static.Rule
			for _, v := range static.Verify(in, broken) {
				rules = append(rules, v.Rule)
			}
			assert.Equal(t, tc.rules, rules)
		})
	}
	assert.Equal(t, []static.Violation{{NodePool: "np", Rule: static.Decided, Message: "0 decisions"},
		{NodePool: "other", Rule: static.Decided, Message: "a decision for a pool not in the input"}},
		static.Verify(in, static.Result{Pools: []static.Decision{{NodePool: "other"}}}))
	assert.Equal(t, "ReplaceDrifted", static.ReplaceDrifted.String())
}

// TestVerifyRemoveOrder: Verify recomputes the scale-down order, so a
// Result that removes the wrong node, even of the right kind and count,
// breaks RemoveExact.
func TestVerifyRemoveOrder(t *testing.T) {
	dsTerminating := terminating(packing_dsDND())
	tests := []struct {
		name   string
		pool   static.Pool
		claims []static.Claim
		remove []static.Removal
	}{
		// Finding 1's regression: a terminating daemonset pod with do-not-disrupt=true taken as no blocker
		// (K/controllers/static/deprovisioning/controller.go:256, K/utils/pod/scheduling.go:210-240).
		{"terminating do-not-disrupt taken as empty", pool("np", 1),
			[]static.Claim{node("a", "np", dsTerminating), node("b", "np", app("default", "x"))},
			[]static.Removal{{Claim: "a", Kind: static.Empty}}},
		{"empty ties not by name", pool("np", 1), []static.Claim{node("a", "np"), node("b", "np")},
			[]static.Removal{{Claim: "b", Kind: static.Empty}}},
		{"do-not-disrupt node before a free one", pool("np", 1),
			[]static.Claim{node("a", "np", dnd("x")), node("b", "np", app("default", "y"))},
			[]static.Removal{{Claim: "a", Kind: static.Occupied, DoNotDisrupt: true}}},
		{"costlier node first", pool("np", 1),
			[]static.Claim{node("a", "np", app("default", "x"), app("default", "y")), node("b", "np", app("default", "z"))},
			[]static.Removal{{Claim: "a", Kind: static.Occupied}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := static.Input{Now: now, Catalog: catalog, Pools: []static.Pool{tc.pool}, Claims: tc.claims}
			res, err := static.Decide(in)
			require.NoError(t, err)
			require.Empty(t, static.Verify(in, res), "Decide's own result passes")
			require.NotEqual(t, tc.remove[0].Claim, res.Pools[0].Remove[0].Claim)
			res.Pools[0].Remove = tc.remove
			vs := static.Verify(in, res)
			require.Len(t, vs, 1)
			assert.Equal(t, static.RemoveExact, vs[0].Rule)
			assert.Contains(t, vs[0].Message, "removal 0 is "+tc.remove[0].Claim)
		})
	}
}
