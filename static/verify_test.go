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
	params := gopter.DefaultTestParameters()
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
