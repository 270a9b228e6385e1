package packing

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
)

// spreadWork is the work (see run.work) of one Plain pass placing n pods
// spread with maxSkew 1 over key, on the 400 types of karpenter-diverse,
// and the number of domains of key.
func spreadWork(t *testing.T, n int, key string) (work, domains int) {
	t.Helper()
	sel := requirements.FromLabels(map[string]string{"app": "a"})
	pods := make([]Pod, n)
	for i := range pods {
		pods[i] = Pod{Namespace: "default", Name: fmt.Sprintf("p-%d", i), UID: fmt.Sprint(i), Labels: map[string]string{"app": "a"},
			TopologySpread: []TopologySpread{{TopologyKey: key, MaxSkew: 1, Selector: sel}}}
		pods[i].Requests.CPU = 1000
	}
	p := Problem{Pods: pods, NodePools: []NodePool{{Name: "default"}}, Catalog: instancetypes.KarpenterDiverse()}
	s := compile(&p, Options{Strategy: Plain})
	r := newRun(s, passSpec{seq: seqFFD}, nil, nil)
	r.solve()
	for i := range pods {
		if r.where[i].kind == unplaced {
			t.Fatalf("pod %d unschedulable: %v", i, r.fails[i])
		}
	}
	return r.counts.work, len(s.domains[key])
}

// TestSpreadWorkLinearInDomains bounds, without a clock, what a spread over
// many domains costs: the topology checks of a pass visit each domain a
// few times per pod, not once per pair of domains or per (domain, type).
func TestSpreadWorkLinearInDomains(t *testing.T) {
	for _, key := range []string{requirements.LabelZone, requirements.LabelInstanceType} {
		for _, n := range []int{4, 32} {
			work, domains := spreadWork(t, n, key)
			t.Logf("key=%s pods=%d domains=%d work=%d", key, n, domains, work)
			assert.LessOrEqual(t, work, 4*n*(domains+64), "key=%s pods=%d: work grows faster than pods × domains", key, n)
		}
	}
}
