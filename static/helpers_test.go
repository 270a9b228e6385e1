package static_test

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/nodeplan/nodeplan/static"
)

// now is the instant of every test decision.
var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// pool is a Ready static pool with Karpenter's test budget of 100%
// (sigs.k8s.io/karpenter/pkg/test NodePool) unless opts change it.
func pool(name string, replicas int64, opts ...func(*static.Pool)) static.Pool {
	p := static.Pool{NodePool: packing.NodePool{Name: name,
		Disruption: packing.Disruption{Budgets: []packing.Budget{{Nodes: "100%"}}}}, Replicas: replicas}
	for _, o := range opts {
		o(&p)
	}
	return p
}

func limit(n int64) func(*static.Pool) {
	return func(p *static.Pool) { p.NodePool.Limits = map[resources.Name]int64{packing.LimitNodes: n} }
}

func budget(nodes string) func(*static.Pool) {
	return func(p *static.Pool) {
		p.NodePool.Disruption.Budgets = []packing.Budget{{Nodes: nodes, Reasons: []string{"Drifted"}}}
	}
}

// node is a resolved, initialized NodeClaim of pool with pods.
func node(name, pool string, pods ...packing.Pod) static.Claim {
	return static.Claim{Name: name, NodePool: pool, Resolved: true,
		Node: packing.Node{Initialized: true, Pods: pods, CreationTime: now.Add(-time.Hour)}}
}

// nodes are n resolved NodeClaims of pool named <pool>-<i>.
func nodes(pool string, n int, opts ...func(*static.Claim)) []static.Claim {
	var out []static.Claim
	for i := range n {
		c := node(fmt.Sprintf("%s-%d", pool, i), pool)
		for _, o := range opts {
			o(&c)
		}
		out = append(out, c)
	}
	return out
}

func drifted(c *static.Claim) { c.Drifted = true }

func unresolved(name, pool string) static.Claim {
	return static.Claim{Name: name, NodePool: pool}
}

func app(ns, name string) packing.Pod { return packing.Pod{Namespace: ns, Name: name} }

func daemon(name string) packing.Pod {
	return packing.Pod{Namespace: "kube-system", Name: name, Owner: "DaemonSet/test-daemonset"}
}

func dnd(name string) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, DoNotDisrupt: "true"}
}

// packing_dsDND is a daemonset pod with an active do-not-disrupt.
func packing_dsDND() packing.Pod {
	p := daemon("ds-dnd")
	p.DoNotDisrupt = "true"
	return p
}

// terminating returns p marked terminating (deletionTimestamp set).
func terminating(p packing.Pod) packing.Pod {
	p.Terminating = true
	return p
}
