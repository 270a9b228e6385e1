package problemgen

import (
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
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

// TestGenerateCoversConstraints checks that a few hundred seeds produce
// every kind of input the generator promises.
func TestGenerateCoversConstraints(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(500) {
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
	}
	for _, name := range []string{"no pools", "3 pools", "uninitialized", "deleting", "bound pods", "daemonsets",
		"selector", "or terms", "preferred", "spread", "minDomains", "affinity", "anti", "ports", "too big",
		"limits", "pool catalog"} {
		assert.True(t, seen[name], "no generated problem has %s", name)
	}
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

func TestDecodeNeverPanics(t *testing.T) {
	inputs := [][]byte{nil, {0}, {255}, make([]byte, 64), []byte("hello, world"), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}
	for _, in := range inputs {
		a, b := Decode(in), Decode(in)
		assert.Equal(t, Dump(a), Dump(b))
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
