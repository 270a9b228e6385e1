package static_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/nodeplan/nodeplan/static"
)

// FuzzDecide feeds arbitrary pool and claim names, budgets, replicas,
// limits and claim shapes to Decide: it must not panic; an error is an
// ErrInvalid *InputError or a *disruption.BudgetError and comes with an
// empty Result; otherwise every pool is decided once, at most one of
// Create and Remove is set, Verify accepts the result, and the same input
// decides the same. Each
// byte of shape is one NodeClaim: bit 0 resolved, 1 deleting, 2 pending
// disruption, 3 drifted, 4 initialized, 5 a pod, 6 a daemonset pod, 7 a
// do-not-disrupt pod.
func FuzzDecide(f *testing.F) {
	f.Add("np", "claim", "100%", int64(3), int64(-1), []byte{0x19, 0x39, 0x1b, 0x00, 0x59})
	f.Add("", "", "2", int64(0), int64(0), []byte{})
	f.Add("np", "np", "10%", int64(-4), int64(5), []byte{0xff, 0xff})
	f.Add("ünï\x00code", "a\nb", "abc%", int64(1<<62), int64(1<<62), []byte{0x01, 0x02})
	f.Add("np", "n", "0", int64(1), int64(2), []byte{0x39, 0x39, 0x39})
	f.Add("np", "n", "101%", int64(9), int64(-3), []byte{0x11})
	f.Fuzz(func(t *testing.T, poolName, claimPrefix, nodes string, replicas, lim int64, shape []byte) {
		p := static.Pool{NodePool: packing.NodePool{Name: poolName,
			Disruption: packing.Disruption{Budgets: []packing.Budget{{Nodes: nodes}}}}, Replicas: replicas}
		if lim >= 0 || lim%2 != 0 {
			p.NodePool.Limits = map[resources.Name]int64{packing.LimitNodes: lim}
		}
		in := static.Input{Pools: []static.Pool{p}, Now: now, Catalog: catalog}
		for i, b := range shape {
			in.Claims = append(in.Claims, shaped(fmt.Sprintf("%s%d", claimPrefix, i%7), poolName, b))
		}
		res, err := static.Decide(in)
		if err != nil {
			var be *disruption.BudgetError
			if !errors.Is(err, static.ErrInvalid) && !errors.As(err, &be) {
				t.Fatalf("error %v is neither ErrInvalid nor a BudgetError", err)
			}
			if len(res.Pools) != 0 {
				t.Fatalf("error %v with a result", err)
			}
			return
		}
		if len(res.Pools) != 1 {
			t.Fatalf("%d decisions for 1 pool", len(res.Pools))
		}
		if d := res.Pools[0]; d.Create > 0 && len(d.Remove) > 0 {
			t.Fatalf("creates %d and removes %v", d.Create, d.Remove)
		}
		if v := static.Verify(in, res); len(v) > 0 {
			t.Fatalf("Verify rejects Decide's result: %v", v)
		}
		again, _ := static.Decide(in)
		if fmt.Sprint(again) != fmt.Sprint(res) {
			t.Fatalf("not deterministic: %v vs %v", res, again)
		}
	})
}

func shaped(name, pool string, b byte) static.Claim {
	c := static.Claim{Name: name, NodePool: pool, Resolved: b&1 != 0, Deleting: b&2 != 0,
		PendingDisruption: b&4 != 0, Drifted: b&8 != 0}
	c.Node.Initialized = b&16 != 0
	if b&32 != 0 {
		c.Node.Pods = append(c.Node.Pods, app("default", name+"-p"))
	}
	if b&64 != 0 {
		c.Node.Pods = append(c.Node.Pods, daemon(name+"-ds"))
	}
	if b&128 != 0 {
		c.Node.Pods = append(c.Node.Pods, dnd(name+"-dnd"))
	}
	return c
}
