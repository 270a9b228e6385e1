package verify_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// TestPropertyTalliesCountAsFromScratch: the topology replay's running
// tallies report the same violations as counting every domain from
// scratch for each pod, on generated problems (spreads, affinities,
// anti-affinities in several namespaces) with Solve's plan, with its
// Order reversed (so that constraints break part-way through), and with
// two claims' pods swapped.
func TestPropertyTalliesCountAsFromScratch(t *testing.T) {
	props := problemgen.Properties(2105, 200)
	broken := 0
	props.Property("tallies count as from scratch", prop.ForAll(func(s problemgen.Seeded) string {
		plan, err := packing.Solve(s.Problem, packing.Options{})
		if err != nil {
			return ""
		}
		for i, pl := range variants(plan) {
			got, want := verify.Plan(s.Problem, pl), verify.PlanFreshCounts(s.Problem, pl)
			if !reflect.DeepEqual(got, want) {
				return fmt.Sprintf("seed %d, variant %d: tallies %v, from scratch %v", s.Seed, i, got, want)
			}
			if slices.ContainsFunc(got, isTopology) {
				broken++
			}
		}
		return ""
	}, problemgen.GenSeeded(problemgen.Size{Pods: 40, Types: 8})))
	props.TestingRun(t)
	if broken == 0 {
		t.Fatal("no variant broke a topology rule: the comparison saw no violation")
	}
	t.Logf("variants with topology violations: %d", broken)
}

func isTopology(v verify.Violation) bool {
	return v.Rule == verify.RuleTopologySpread || v.Rule == verify.RulePodAffinity || v.Rule == verify.RulePodAntiAffinity
}

// variants are plan, plan with its Order reversed, and plan with the pods
// of its first two claims swapped.
func variants(plan packing.Plan) []packing.Plan {
	rev := plan
	rev.Order = slices.Clone(plan.Order)
	slices.Reverse(rev.Order)
	out := []packing.Plan{plan, rev}
	if len(plan.NodeClaims) >= 2 {
		sw := plan
		sw.NodeClaims = slices.Clone(plan.NodeClaims)
		sw.NodeClaims[0].Pods, sw.NodeClaims[1].Pods = sw.NodeClaims[1].Pods, sw.NodeClaims[0].Pods
		out = append(out, sw)
	}
	return out
}
