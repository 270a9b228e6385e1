package problemgen

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

func TestGenerateIsValid(t *testing.T) {
	for seed := range uint64(2000) {
		p := Generate(seed, Size{})
		require.NoError(t, p.Validate(), "seed %d:\n%s", seed, Dump(p))
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	for seed := range uint64(200) {
		a, b := Generate(seed, Size{}), Generate(seed, Size{})
		// Catalogs hold functions, which reflect.DeepEqual never equates,
		// so the comparison is of the full dumps.
		require.Equal(t, Dump(a), Dump(b), "seed %d", seed)
	}
}

// TestGenerateCoversConstraints checks that a thousand seeds produce
// every kind of input the generator promises.
func TestGenerateCoversConstraints(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(1000) {
		p := Generate(seed, Size{})
		mark := func(name string, ok bool) { seen[name] = seen[name] || ok }
		mark("no pools", len(p.NodePools) == 0)
		mark("3 pools", len(p.NodePools) == 3)
		mark("uninitialized", slicesAny(p.Nodes, func(n packing.Node) bool { return !n.Initialized }))
		mark("deleting", slicesAny(p.Nodes, func(n packing.Node) bool { return n.MarkedForDeletion }))
		mark("bound pods", slicesAny(p.Nodes, func(n packing.Node) bool { return len(n.Pods) > 0 }))
		mark("daemonsets", len(p.DaemonSets) > 0)
		mark("selector", slicesAny(p.Pods, func(q packing.Pod) bool { return q.NodeAffinity.Selector.Len() > 0 }))
		mark("or terms", slicesAny(p.Pods, func(q packing.Pod) bool { return len(q.NodeAffinity.Required) > 1 }))
		mark("preferred", slicesAny(p.Pods, func(q packing.Pod) bool { return len(q.NodeAffinity.Preferred) > 0 }))
		mark("spread", slicesAny(p.Pods, func(q packing.Pod) bool { return len(q.TopologySpread) > 0 }))
		mark("minDomains", slicesAny(p.Pods, func(q packing.Pod) bool {
			return slicesAny(q.TopologySpread, func(ts packing.TopologySpread) bool { return ts.MinDomains > 0 })
		}))
		mark("affinity", slicesAny(p.Pods, func(q packing.Pod) bool { return len(q.Affinity) > 0 }))
		mark("anti", slicesAny(p.Pods, func(q packing.Pod) bool { return len(q.AntiAffinity) > 0 }))
		mark("ports", slicesAny(p.Pods, func(q packing.Pod) bool { return len(q.HostPorts) > 0 }))
		mark("too big", slicesAny(p.Pods, func(q packing.Pod) bool { return q.Requests.CPU >= 1_000_000 }))
		mark("limits", slicesAny(p.NodePools, func(np packing.NodePool) bool { return len(np.Limits) > 0 }))
		mark("pool catalog", slicesAny(p.NodePools, func(np packing.NodePool) bool { return np.Catalog != nil }))
		markUnusual(p, mark)
	}
	for _, name := range []string{"no pools", "3 pools", "uninitialized", "deleting", "bound pods", "daemonsets",
		"selector", "or terms", "preferred", "spread", "minDomains", "affinity", "anti", "ports", "too big",
		"limits", "pool catalog"} {
		assert.True(t, seen[name], "no generated problem has %s", name)
	}
	for _, name := range unusualNames {
		assert.True(t, seen[name], "no generated problem has %s", name)
	}
}

// unusualNames are the unusual shapes markUnusual recognises.
var unusualNames = []string{"device daemonset", "device daemonset on some types", "self-excluding pool",
	"hostname DoesNotExist", "hostname In", "hostname NotIn", "hostname Exists", "beta zone label",
	"beta zone label disagreeing", "beta instance-type label", "beta zone spread", "beta zone affinity",
	"instance-type spread", "hostname spread", "rack spread", "longest key", "empty value", "longest value",
	"unusual taint", "near-max request", "near-max node", "near-max limit", "near-max price"}

// markUnusual marks the unusual shapes p has.
func markUnusual(p packing.Problem, mark func(string, bool)) {
	pods, nodes := p.Pods, p.Nodes
	mark("device daemonset", slicesAny(p.DaemonSets, func(ds packing.DaemonSet) bool {
		return ds.Requests.Get(resources.GPU) > 0 && len(ds.Tolerations) > 0 && ds.Tolerations[0].Key == ""
	}))
	mark("device daemonset on some types", slicesAny(p.DaemonSets, func(ds packing.DaemonSet) bool {
		return ds.Requests.Get(resources.GPU) > 0 && len(ds.NodeAffinity.Required) > 0
	}))
	mark("self-excluding pool", slicesAny(p.NodePools, func(np packing.NodePool) bool {
		r := np.Requirements.Get(requirements.LabelNodePool)
		return np.Requirements.Has(requirements.LabelNodePool) && !r.Has(np.Name)
	}))
	for _, op := range []requirements.Operator{requirements.DoesNotExist, requirements.In, requirements.NotIn, requirements.Exists} {
		mark("hostname "+op.String(), slicesAny(pods, func(q packing.Pod) bool {
			return slicesAny(q.NodeAffinity.Required, func(s requirements.Set) bool {
				return s.Has(requirements.LabelHostname) && s.Get(requirements.LabelHostname).Operator() == op
			})
		}))
	}
	mark("beta zone label", slicesAny(nodes, func(n packing.Node) bool { return n.Labels[LabelBetaZone] != "" }))
	mark("beta zone label disagreeing", slicesAny(nodes, func(n packing.Node) bool {
		_, stable := n.Labels[requirements.LabelZone]
		return !stable && n.Labels[LabelBetaZone] != "" && n.Labels[LabelBetaZone] != n.Zone
	}))
	mark("beta instance-type label", slicesAny(nodes, func(n packing.Node) bool { return n.Labels[LabelBetaInstanceType] != "" }))
	spreadOn := func(key string) bool {
		return slicesAny(pods, func(q packing.Pod) bool {
			return slicesAny(q.TopologySpread, func(ts packing.TopologySpread) bool { return ts.TopologyKey == key })
		})
	}
	mark("beta zone spread", spreadOn(LabelBetaZone))
	mark("beta zone affinity", slicesAny(pods, func(q packing.Pod) bool {
		return slicesAny(q.Affinity, func(t packing.PodAffinityTerm) bool { return t.TopologyKey == LabelBetaZone })
	}))
	mark("instance-type spread", spreadOn(requirements.LabelInstanceType))
	mark("hostname spread", spreadOn(requirements.LabelHostname))
	mark("rack spread", spreadOn(LabelRack))
	labelled := func(f func(k, v string) bool) bool {
		return slicesAny(pods, func(q packing.Pod) bool { return anyLabel(q.Labels, f) }) ||
			slicesAny(nodes, func(n packing.Node) bool { return anyLabel(n.Labels, f) })
	}
	mark("longest key", labelled(func(k, _ string) bool { return len(k) == 253+1+63 }))
	mark("empty value", labelled(func(_, v string) bool { return v == "" }))
	mark("longest value", labelled(func(_, v string) bool { return len(v) == 63 }))
	mark("unusual taint", slicesAny(p.NodePools, func(np packing.NodePool) bool {
		return slicesAny(np.Taints, func(t requirements.Taint) bool { return slices.Contains(unusualKeys, t.Key) })
	}))
	mark("near-max request", slicesAny(pods, func(q packing.Pod) bool { return largest(q.Requests) >= resources.MaxAmount/2 }))
	mark("near-max node", slicesAny(nodes, func(n packing.Node) bool {
		return n.Allocatable.CPU >= resources.MaxAmount/2 || n.Price >= instancetypes.MaxValidPrice/2
	}))
	mark("near-max limit", slicesAny(p.NodePools, func(np packing.NodePool) bool {
		return slicesAny(slices.Collect(maps.Values(np.Limits)), func(v int64) bool { return v >= resources.MaxAmount })
	}))
	mark("near-max price", p.Catalog != nil && slicesAny(p.Catalog.Types(), func(t *instancetypes.InstanceType) bool {
		return t.Offerings[0].Price >= instancetypes.MaxValidPrice/2
	}))
}

// largest returns the largest of l's amounts the unusual shapes set.
func largest(l resources.List) int64 {
	var m int64
	for _, n := range extremeNames {
		m = max(m, l.Get(n))
	}
	return m
}

func anyLabel(labels map[string]string, f func(k, v string) bool) bool {
	for k, v := range labels {
		if f(k, v) {
			return true
		}
	}
	return false
}

func TestGenerateOptions(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(500) {
		o := GenerateOptions(seed)
		require.NoError(t, o.Validate(), "seed %d: %+v", seed, o)
		require.Equal(t, o, GenerateOptions(seed))
		seen[o.Strategy.String()] = true
		seen["restarts "+strconv.Itoa(o.Restarts)] = true
		seen["max types "+strconv.Itoa(o.MaxInstanceTypes)] = true
		seen[fmt.Sprint("ignore ", o.Preferences == packing.IgnorePreferences, " priority ", o.PriorityOrder)] = true
		seen[fmt.Sprint("preferences ", o.Preferences, " ", o.PreferenceBudget)] = true
		seen["overhead "+o.NodeOverhead.String()] = true
	}
	for _, name := range []string{"Best", "Plain", "CostAware", "restarts -1", "restarts 8", "max types 1",
		"max types 600", "ignore true priority true", "ignore false priority false",
		"overhead " + instancetypes.MaxValidPrice.String(), "overhead " + instancetypes.Price(-1).String(),
		"preferences Budget 0", "preferences Budget 0.1", "preferences Budget 1e+09"} {
		assert.True(t, seen[name], "no generated options have %s", name)
	}
}

func TestCorruptOptionsIsInvalid(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(200) {
		o, what := CorruptOptions(GenerateOptions(seed), seed)
		err := o.Validate()
		require.Error(t, err, "seed %d: %s", seed, what)
		assert.ErrorIs(t, err, packing.ErrInvalidOptions)
		seen[what] = true
	}
	assert.Len(t, seen, len(optionCorruptions))
}

func slicesAny[E any](s []E, f func(E) bool) bool {
	for _, e := range s {
		if f(e) {
			return true
		}
	}
	return false
}

func TestCorruptIsInvalid(t *testing.T) {
	for seed := range uint64(1000) {
		p := Generate(seed, Size{})
		before := Dump(p)
		q, what := Corrupt(p, seed)
		err := q.Validate()
		require.Error(t, err, "seed %d: %s", seed, what)
		assert.True(t, errors.Is(err, packing.ErrInvalidProblem), "seed %d: %v", seed, err)
		require.Equal(t, before, Dump(p), "Corrupt modified its input")
	}
}

// TestCorruptNodeIsInvalid: every node CorruptNode breaks, of a valid
// problem with pods on its nodes, makes the problem invalid, and each
// corruption is drawn.
func TestCorruptNodeIsInvalid(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(300) {
		p := Generate(seed, Size{})
		i := slices.IndexFunc(p.Nodes, func(n packing.Node) bool { return len(n.Pods) > 0 })
		if i < 0 {
			continue
		}
		before := Dump(p)
		n, what := CorruptNode(p.Nodes[i], seed)
		q := Clone(p)
		q.Nodes[i] = n
		assert.ErrorIs(t, q.Validate(), packing.ErrInvalidProblem, "seed %d: %s", seed, what)
		require.Equal(t, before, Dump(p), "CorruptNode modified its input")
		seen[what] = true
	}
	assert.Len(t, seen, len(nodeCorruptions))
}

func TestDecodeNeverPanics(t *testing.T) {
	inputs := [][]byte{nil, {0}, {255}, make([]byte, 64), []byte("hello, world"), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}
	for _, in := range inputs {
		a, b := Decode(in), Decode(in)
		assert.Equal(t, Dump(a), Dump(b))
	}
}

// TestUnusualShapesOnHostileProblems applies every unusual shape to
// problems whose names and labels Decode's hostilities made hostile, as
// Decode does: no shape may panic on them.
func TestUnusualShapesOnHostileProblems(t *testing.T) {
	for seed := range uint64(300) {
		for i, shape := range unusualShapes {
			g := &gen{src: rand.New(rand.NewPCG(seed, uint64(i)))}
			p := Clone(Generate(seed, Size{}))
			g.zones, g.types = catalogVocabulary(p.Catalog)
			g.apps = []string{"app-0"}
			for range 8 {
				g.hostile(&p)
			}
			require.NotPanics(t, func() { shape(g, &p) }, "seed %d, shape %d", seed, i)
		}
	}
}

func TestCloneIsDeep(t *testing.T) {
	for seed := range uint64(100) {
		p := Generate(seed, Size{})
		q := Clone(p)
		require.True(t, reflect.DeepEqual(p, q))
		for i := range q.Pods {
			q.Pods[i].Labels["x"] = "y"
		}
		for i := range q.Nodes {
			q.Nodes[i].Labels["x"] = "y"
		}
		if len(p.Pods)+len(p.Nodes) > 0 {
			assert.False(t, reflect.DeepEqual(p, q))
		}
		assert.Equal(t, Dump(Generate(seed, Size{})), Dump(p))
	}
}

// TestCloneVolumes: a clone's pods hold volumes of their own, not the
// original's pointer, and nil stays nil.
func TestCloneVolumes(t *testing.T) {
	vols := &packing.Volumes{Claims: []packing.Volume{{Driver: "d", Claim: "ns/a"}},
		Requirements: []requirements.Set{requirements.NewSet(requirements.MustNew(requirements.LabelZone, requirements.In, "z1"))}}
	p := packing.Problem{Pods: []packing.Pod{{Name: "a", Volumes: vols}, {Name: "b"}}}
	q := Clone(p)
	require.True(t, reflect.DeepEqual(p, q))
	require.NotSame(t, p.Pods[0].Volumes, q.Pods[0].Volumes)
	assert.Nil(t, q.Pods[1].Volumes)
	q.Pods[0].Volumes.Claims[0].Claim = "ns/b"
	q.Pods[0].Volumes.Requirements[0] = requirements.Set{}
	assert.Equal(t, "ns/a", vols.Claims[0].Claim)
	assert.Equal(t, 1, vols.Requirements[0].Len())
}

func TestMinimize(t *testing.T) {
	// The failure: some pending pod requests at least 1 cpu. The minimum is
	// one such pod and nothing else.
	failing := func(p packing.Problem) bool {
		return slicesAny(p.Pods, func(q packing.Pod) bool { return q.Requests.CPU >= 1000 })
	}
	for seed := range uint64(50) {
		p := Generate(seed, Size{})
		if !failing(p) {
			continue
		}
		before := Dump(p)
		m := Minimize(p, failing)
		require.True(t, failing(m))
		assert.Len(t, m.Pods, 1)
		assert.Empty(t, m.Nodes)
		assert.Empty(t, m.NodePools)
		assert.Empty(t, m.DaemonSets)
		assert.LessOrEqual(t, m.Catalog.Len(), 1)
		assert.Equal(t, before, Dump(p), "Minimize modified its input")
	}
}

// TestDumpCurrency: a dump names the catalog's currency once and claims no
// other; its prices are the exact amounts.
func TestDumpCurrency(t *testing.T) {
	cn, err := instancetypes.AWS(instancetypes.Options{Region: "cn-north-1", Zones: []string{"cn-north-1a"}})
	require.NoError(t, err)
	d := Dump(packing.Problem{Catalog: cn})
	assert.Contains(t, d, "catalog: ")
	assert.Contains(t, d, " types, prices in CNY\n")
	assert.Contains(t, d, "cn-north-1a/on-demand/1.013000/h")
	assert.NotContains(t, d, "$")
	assert.NotContains(t, d, "USD")
	assert.Contains(t, Dump(Generate(1, Size{})), " types, prices in USD\n", "a catalog built by New is in the default currency")
}

func TestRandomInputs(t *testing.T) {
	a := RandomInputs(1, 2, 7, 16, 3)
	if len(a) != 7 {
		t.Fatalf("%d inputs, want 7", len(a))
	}
	for i, b := range a {
		if want := 16 << (i % 3); len(b) != want {
			t.Fatalf("input %d: %d bytes, want %d", i, len(b), want)
		}
	}
	if !reflect.DeepEqual(a, RandomInputs(1, 2, 7, 16, 3)) {
		t.Fatal("not deterministic")
	}
	if reflect.DeepEqual(a, RandomInputs(2, 1, 7, 16, 3)) {
		t.Fatal("the seeds change nothing")
	}
	if got := RandomInputs(1, 2, 2, 0, 0); len(got) != 2 || len(got[0]) != 1 {
		t.Fatalf("base and sizes below 1: %v", got)
	}
}
