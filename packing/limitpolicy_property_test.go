package packing_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/leanovate/gopter"
	goptergen "github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// limitProblem draws, from seed, a problem where a NodePool limit often
// binds: a weighted pool "a" with cpu (and sometimes nodes or memory)
// limits that labels its nodes team=a and, sometimes, allows spot; one or
// two lighter pools, on-demand only when "a" allows spot, sometimes
// limited themselves; pods of every size, some that only "a" admits (a
// team=a selector, or spot), a few with hostname anti-affinity or a zone
// spread, and sometimes an existing node of "a" charged to its limits.
func limitProblem(seed uint64, catalogs []*instancetypes.Catalog) packing.Problem {
	g := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	spot := g.IntN(2) == 0
	aOpts := []poolOpt{poolWeight(int32(10 + g.IntN(90))), poolLabels("team", "a"), poolLimits(limitKV(g)...)}
	var bOpts []poolOpt
	if spot {
		aOpts = append(aOpts, poolReq(in(requirements.LabelCapacityType, "spot")))
		bOpts = append(bOpts, poolReq(in(requirements.LabelCapacityType, "on-demand")))
	}
	if g.IntN(4) == 0 {
		bOpts = append(bOpts, poolLimits(limitKV(g)...))
	}
	a, b := pool("a", aOpts...), pool("b", bOpts...)
	pools := []packing.NodePool{a, b}
	if g.IntN(3) == 0 {
		pools = append(pools, pool("c", poolWeight(int32(g.IntN(10)))))
	}
	p := packing.Problem{NodePools: pools, Catalog: catalogs[g.IntN(len(catalogs))]}
	n := 1 + g.IntN(30)
	for i := range n {
		cpu := strconv.Itoa(100+g.IntN(3500)) + "m"
		mem := strconv.Itoa(64+g.IntN(4096)) + "Mi"
		opts := []podOpt{req("cpu", cpu, "memory", mem)}
		switch g.IntN(6) {
		case 0, 1:
			opts = append(opts, nodeSelector("team", "a"))
		case 2:
			if spot {
				opts = append(opts, nodeSelector(requirements.LabelCapacityType, "spot"))
			}
		case 3:
			if g.IntN(2) == 0 {
				opts = append(opts, podLabels("app", "x"), antiAffinity(podTerm(requirements.LabelHostname, 0, "app", "x")))
			} else {
				opts = append(opts, podLabels(app...), spread(spreadBy(requirements.LabelZone, 1, app...)))
			}
		}
		p.Pods = append(p.Pods, mkPod(fmt.Sprintf("p%02d", i), opts...))
	}
	if g.IntN(5) == 0 {
		p.Nodes = []packing.Node{mkNode("old", "a", "fake-it-1", zone1)}
	}
	return p
}

// limitKV draws a cpu limit of 1 to 24 cores, with a nodes or memory limit
// now and then.
func limitKV(g *rand.Rand) []string {
	kv := []string{"cpu", strconv.Itoa(1 + g.IntN(24))}
	switch g.IntN(4) {
	case 0:
		kv = append(kv, "nodes", strconv.Itoa(1+g.IntN(4)))
	case 1:
		kv = append(kv, "memory", strconv.Itoa(2+g.IntN(40))+"Gi")
	}
	return kv
}

// placedPods is how many pods plan places.
func placedPods(p packing.Problem, plan packing.Plan) int {
	return len(p.Pods) - len(plan.Unschedulable)
}

// TestPropertyLimitPolicy: on problems where limits bind, every plan of
// both policies and every strategy passes verify.Plan (no NodePool limit
// is exceeded, every pod once); LimitMostPods places at least as many pods
// as LimitLargestFirst with the same strategy; the same input gives the
// same plan, also under GOMAXPROCS(1) (see samePlansOneProc). It also checks that the problems exercise the rule: some
// plan of LimitMostPods places more pods.
func TestPropertyLimitPolicy(t *testing.T) {
	catalogs := []*instancetypes.Catalog{buildCatalog(t, fakeIts(4)), buildCatalog(t, fakeIts(10)), buildCatalog(t, defaultTypes())}
	params := gopter.DefaultTestParametersWithSeed(20261204)
	params.MinSuccessfulTests = max(50, propertyCount(t)/25)
	if testing.Short() {
		params.MinSuccessfulTests = 50
	}
	params.Workers = 2
	var more, fewer atomic.Int64
	props := gopter.NewProperties(params)
	props.Property("limits hold, LimitMostPods places no fewer pods, deterministic", prop.ForAll(func(seed uint64) string {
		p := limitProblem(seed, catalogs)
		for _, s := range []packing.Strategy{packing.Best, packing.Plain, packing.CostAware} {
			o := packing.Options{Strategy: s, Restarts: 4}
			o.LimitPolicy = packing.LimitLargestFirst
			lf, err := verified(p, o)
			if isFailure(err) {
				return fmt.Sprintf("seed %d, %v/%v: %v\n%s", seed, s, o.LimitPolicy, err, problemgen.Dump(p))
			}
			o.LimitPolicy = packing.LimitMostPods
			mp, err := verified(p, o)
			if isFailure(err) {
				return fmt.Sprintf("seed %d, %v/%v: %v\n%s", seed, s, o.LimitPolicy, err, problemgen.Dump(p))
			}
			switch nl, nm := placedPods(p, lf), placedPods(p, mp); {
			case nm < nl:
				fewer.Add(1)
				return fmt.Sprintf("seed %d, %v: LimitMostPods places %d pods, LimitLargestFirst %d\n%s", seed, s, nm, nl, problemgen.Dump(p))
			case nm > nl:
				more.Add(1)
			}
			again, _ := packing.Solve(p, o)
			if !reflect.DeepEqual(mp, again) {
				return fmt.Sprintf("seed %d, %v: two solves differ\n%s", seed, s, problemgen.Dump(p))
			}
		}
		return ""
	}, goptergen.UInt64()))
	props.TestingRun(t)
	assert.Positive(t, more.Load(), "no generated problem had LimitMostPods place more pods: the generator misses binding limits")
	t.Logf("LimitMostPods placed more pods than LimitLargestFirst in %d strategy runs", more.Load())
	samePlansOneProc(t, catalogs)
}

// samePlansOneProc checks that the default plans of a few binding-limit
// problems are the same under GOMAXPROCS(1): Best's reruns happen on its
// two goroutines, whose results must not depend on timing.
func samePlansOneProc(t *testing.T, catalogs []*instancetypes.Catalog) {
	const n = 40
	plans := make([]packing.Plan, n)
	for seed := range uint64(n) {
		plans[seed], _ = packing.Solve(limitProblem(seed, catalogs), packing.Options{})
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for seed := range uint64(n) {
		if c, _ := packing.Solve(limitProblem(seed, catalogs), packing.Options{}); !reflect.DeepEqual(plans[seed], c) {
			t.Fatalf("seed %d: the plan under GOMAXPROCS(1) differs:\n%+v\n%+v", seed, plans[seed], c)
		}
	}
}

// TestPropertyLimitPolicyGenerated: on the general generated problems,
// with generated options, LimitMostPods never places fewer pods than
// LimitLargestFirst, and where the two plans differ some NodePool has
// limits.
func TestPropertyLimitPolicyGenerated(t *testing.T) {
	forSeedsWith(t, 1<<43, propertyCount(t)/10, func(seed uint64) property {
		return func(p packing.Problem) error { return comparePolicies(p, problemgen.GenerateOptions(seed)) }
	})
}

// comparePolicies solves p with o under both policies and checks that
// LimitMostPods places no fewer pods and changes nothing without limits.
func comparePolicies(p packing.Problem, o packing.Options) error {
	o.LimitPolicy = packing.LimitLargestFirst
	lf, err := solve(p, o)
	if err != nil {
		return err
	}
	o.LimitPolicy = packing.LimitMostPods
	mp, err := solve(p, o)
	if err != nil {
		return err
	}
	if placedPods(p, mp) < placedPods(p, lf) {
		return fmt.Errorf("%v: LimitMostPods places %d pods, LimitLargestFirst %d", o.Strategy, placedPods(p, mp), placedPods(p, lf))
	}
	if !reflect.DeepEqual(mp, lf) && !anyLimits(p) {
		return fmt.Errorf("%v: the policies' plans differ with no NodePool limits", o.Strategy)
	}
	return nil
}

func anyLimits(p packing.Problem) bool {
	for _, np := range p.NodePools {
		if len(np.Limits) > 0 {
			return true
		}
	}
	return false
}
