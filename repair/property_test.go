package repair_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/repair"
)

// randomInput returns a valid Input of n nodes drawn from seed: pools "",
// "a" and "b", conditions of the AWS and fake types in any status up to two
// hours old, some nodes unmanaged or deleting, and the fake or AWS policies.
func randomInput(seed uint64, n int) repair.Input {
	r := rand.New(rand.NewPCG(seed, 18))
	types := []string{"Ready", "BadNode", "AcceleratedHardwareReady", "Other"}
	in := repair.Input{Now: noon}
	if r.IntN(2) == 0 {
		in.Policies = badNode
	}
	for i := range n {
		node := repair.Node{Name: fmt.Sprintf("n%03d.%05d", r.IntN(1000), i), NodePool: []string{"", "a", "b"}[r.IntN(3)],
			Unmanaged: r.IntN(8) == 0, Deleting: r.IntN(8) == 0}
		for range r.IntN(3) {
			node.Conditions = append(node.Conditions, repair.Condition{Type: types[r.IntN(len(types))],
				Status: repair.Status(1 + r.IntN(3)), LastTransitionTime: noon.Add(-time.Duration(r.IntN(120)) * time.Minute)})
		}
		in.Nodes = append(in.Nodes, node)
	}
	return in
}

func clone(in repair.Input) repair.Input {
	out := in
	out.Policies = slices.Clone(in.Policies)
	out.Nodes = slices.Clone(in.Nodes)
	for i := range out.Nodes {
		out.Nodes[i].Conditions = slices.Clone(in.Nodes[i].Conditions)
	}
	return out
}

// exactlyOnce reports whether res names every node of in once, each list
// sorted by name.
func exactlyOnce(in repair.Input, res repair.Result) bool {
	var names []string
	for _, r := range res.Replace {
		names = append(names, r.Node)
	}
	kept := make([]string, 0, len(res.Kept))
	for _, k := range res.Kept {
		kept = append(kept, k.Node)
	}
	if !slices.IsSorted(names) || !slices.IsSorted(kept) {
		return false
	}
	names = append(names, kept...)
	slices.Sort(names)
	want := make([]string, 0, len(in.Nodes))
	for _, n := range in.Nodes {
		want = append(want, n.Name)
	}
	slices.Sort(want)
	return slices.Equal(names, want)
}

// TestDecideProperties: every node comes out exactly once; the result does
// not depend on the order of the nodes; the input is not modified; a
// replaced node's toleration has ended and its pool is within the cap.
func TestDecideProperties(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261209) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 300
	props := gopter.NewProperties(params)
	decide := func(in repair.Input) repair.Result {
		res, err := repair.Decide(in)
		if err != nil {
			t.Fatalf("Decide: %v", err)
		}
		return res
	}
	props.Property("every node exactly once", prop.ForAll(func(seed uint64, n int) bool {
		in := randomInput(seed, n)
		return exactlyOnce(in, decide(in))
	}, gen.UInt64(), gen.IntRange(0, 40)))
	props.Property("independent of node order", prop.ForAll(func(seed uint64, n int) bool {
		in := randomInput(seed, n)
		shuffled := clone(in)
		rand.New(rand.NewPCG(seed, 1)).Shuffle(n, func(i, j int) {
			shuffled.Nodes[i], shuffled.Nodes[j] = shuffled.Nodes[j], shuffled.Nodes[i]
		})
		return reflect.DeepEqual(decide(in), decide(shuffled))
	}, gen.UInt64(), gen.IntRange(0, 40)))
	props.Property("input unmodified", prop.ForAll(func(seed uint64, n int) bool {
		in := randomInput(seed, n)
		before := clone(in)
		decide(in)
		return reflect.DeepEqual(in, before)
	}, gen.UInt64(), gen.IntRange(0, 40)))
	props.Property("replaced: toleration ended, within the cap", prop.ForAll(func(seed uint64, n int) bool {
		in := randomInput(seed, n)
		res := decide(in)
		for _, r := range res.Replace {
			if r.Deadline.After(in.Now) || !withinCap(in, r) {
				return false
			}
		}
		for _, k := range res.Kept {
			if (k.Why == repair.PoolUnhealthy || k.Why == repair.ClusterUnhealthy) != (k.Unhealthy > k.Cap) ||
				!strings.Contains(k.Message, fmt.Sprint(k.Unhealthy)) && k.Unhealthy > 0 {
				return false
			}
		}
		return true
	}, gen.UInt64(), gen.IntRange(0, 40)))
	props.Property("Pools agree with the verdicts", prop.ForAll(func(seed uint64, n int) bool {
		in := randomInput(seed, n)
		res := decide(in)
		blocked := map[string]bool{}
		for _, p := range res.Pools {
			blocked[p.NodePool] = p.Blocked
			if p.Blocked != (p.Unhealthy > p.Cap) || p.Cap != (p.Total+4)/5 {
				return false
			}
		}
		for _, r := range res.Replace {
			if b, ok := blocked[r.NodePool]; !ok || b {
				return false
			}
		}
		return true
	}, gen.UInt64(), gen.IntRange(0, 40)))
	props.TestingRun(t)
}

// withinCap recounts, independently of Decide, that r's pool (or the
// cluster for no pool) has at most ceil(20 %) unhealthy nodes.
func withinCap(in repair.Input, r repair.Repair) bool {
	policies := in.Policies
	if len(policies) == 0 {
		policies = repair.AWSPolicies()
	}
	total, unhealthy := 0, 0
	for _, n := range in.Nodes {
		if r.NodePool != "" && n.NodePool != r.NodePool {
			continue
		}
		total++
		if slices.ContainsFunc(policies, func(p repair.Policy) bool {
			i := slices.IndexFunc(n.Conditions, func(c repair.Condition) bool { return c.Type == p.ConditionType })
			return i >= 0 && n.Conditions[i].Status == p.ConditionStatus
		}) {
			unhealthy++
		}
	}
	return unhealthy <= (total+4)/5
}
