package static_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/static"
)

// generate builds a random Input from seed: 1..3 pools with 0..8 replicas,
// half with limits.nodes 0..10, various Drifted budgets, and 0..10
// NodeClaims each, resolved or not, deleting, pending disruption or
// drifted, with no pods, daemonset pods, do-not-disrupt or other pods.
// The same seed gives an equal Input.
func generate(seed uint64) static.Input {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	in := static.Input{Now: now, Catalog: catalog}
	budgets := []string{"0", "1", "2", "50%", "100%"}
	for i := range 1 + r.IntN(3) {
		name := fmt.Sprintf("pool-%d", i)
		p := pool(name, int64(r.IntN(9)), budget(budgets[r.IntN(len(budgets))]))
		if r.IntN(2) == 0 {
			limit(int64(r.IntN(11)))(&p)
		}
		p.Deleting = r.IntN(8) == 0
		if r.IntN(8) == 0 {
			p.NotReady = "Ready=False"
		}
		in.Pools = append(in.Pools, p)
		for j := range r.IntN(11) {
			in.Claims = append(in.Claims, randomClaim(r, fmt.Sprintf("%s-c%d", name, j), name))
		}
	}
	return in
}

func randomClaim(r *rand.Rand, name, pool string) static.Claim {
	c := node(name, pool)
	c.Resolved = r.IntN(5) != 0
	c.Deleting = r.IntN(6) == 0
	c.PendingDisruption = r.IntN(8) == 0
	c.Drifted = r.IntN(3) == 0
	c.Node.Initialized = c.Resolved && r.IntN(6) != 0
	for k := range r.IntN(4) {
		switch r.IntN(4) {
		case 0:
			c.Node.Pods = append(c.Node.Pods, daemon(fmt.Sprintf("%s-ds%d", name, k)))
		case 1:
			c.Node.Pods = append(c.Node.Pods, dnd(fmt.Sprintf("%s-dnd%d", name, k)))
		default:
			p := app("default", fmt.Sprintf("%s-p%d", name, k))
			p.Priority = int32(r.IntN(3)) << 25
			c.Node.Pods = append(c.Node.Pods, p)
		}
	}
	return c
}

// counts returns the pool's active, deleting and pending disruption
// NodeClaims of in.
func counts(in static.Input, pool string) (active, deleting, pending int) {
	for _, c := range in.Claims {
		switch {
		case c.NodePool != pool:
		case c.Deleting || c.Node.MarkedForDeletion:
			deleting++
		case c.PendingDisruption:
			pending++
		default:
			active++
		}
	}
	return active, deleting, pending
}

func poolOf(in static.Input, name string) static.Pool {
	for _, p := range in.Pools {
		if p.NodePool.Name == name {
			return p
		}
	}
	panic("no pool " + name)
}

func TestDecideProperties(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261206) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 500
	props := gopter.NewProperties(params)
	decide := func(in static.Input) static.Result {
		res, err := static.Decide(in)
		if err != nil {
			t.Fatalf("Decide: %v", err)
		}
		return res
	}
	props.Property("never takes a pool past limits.nodes", prop.ForAll(func(seed uint64) bool {
		in := generate(seed)
		for _, d := range decide(in).Pools {
			lim, ok := poolOf(in, d.NodePool).NodePool.Limits[packing.LimitNodes]
			a, del, pend := counts(in, d.NodePool)
			added := d.Create + len(d.Replace)
			if ok && added > 0 && int64(a+del+pend+added) > lim {
				return false
			}
		}
		return true
	}, gen.UInt64()))
	props.Property("scale-down removes exactly the excess, of the pool, none deleting", prop.ForAll(func(seed uint64) bool {
		in := generate(seed)
		for _, d := range decide(in).Pools {
			p := poolOf(in, d.NodePool)
			a, _, _ := counts(in, d.NodePool)
			want := 0
			if !p.Deleting && int64(a) > p.Replicas {
				want = a - int(p.Replicas)
			}
			if len(d.Remove) != want || (want > 0 && d.Create > 0) {
				return false
			}
			seen := map[string]bool{}
			for _, r := range d.Remove {
				c := claimOf(in, r.Claim)
				if seen[r.Claim] || c.NodePool != d.NodePool || c.Deleting {
					return false
				}
				seen[r.Claim] = true
			}
		}
		return true
	}, gen.UInt64()))
	// Karpenter's want is replicas − active: pending disruption NodeClaims
	// only decide whether to scale up at all.
	props.Property("scale-up creates at most replicas − active, only when short", prop.ForAll(func(seed uint64) bool {
		in := generate(seed)
		for _, d := range decide(in).Pools {
			p := poolOf(in, d.NodePool)
			a, _, pend := counts(in, d.NodePool)
			if d.Create > 0 && (p.Deleting || p.NotReady != "" || int64(a+pend) >= p.Replicas || int64(a+d.Create) > p.Replicas) {
				return false
			}
		}
		return true
	}, gen.UInt64()))
	props.Property("drift replaces drifted NodeClaims of the pool, none when overscaled", prop.ForAll(func(seed uint64) bool {
		in := generate(seed)
		for _, d := range decide(in).Pools {
			a, _, pend := counts(in, d.NodePool)
			if len(d.Replace) > 0 && int64(a+pend) > poolOf(in, d.NodePool).Replicas {
				return false
			}
			for _, r := range d.Replace {
				c := claimOf(in, r.Candidate)
				if !c.Drifted || !c.Resolved || c.Deleting || c.PendingDisruption || c.NodePool != d.NodePool {
					return false
				}
			}
		}
		return true
	}, gen.UInt64()))
	props.Property("independent of input order", prop.ForAll(func(seed uint64) bool {
		in := generate(seed)
		want := decide(in)
		r := rand.New(rand.NewPCG(seed, 7))
		r.Shuffle(len(in.Pools), func(i, j int) { in.Pools[i], in.Pools[j] = in.Pools[j], in.Pools[i] })
		r.Shuffle(len(in.Claims), func(i, j int) { in.Claims[i], in.Claims[j] = in.Claims[j], in.Claims[i] })
		return reflect.DeepEqual(want, decide(in))
	}, gen.UInt64()))
	props.Property("input unmodified", prop.ForAll(func(seed uint64) bool {
		in := generate(seed)
		decide(in)
		return reflect.DeepEqual(in, generate(seed))
	}, gen.UInt64()))
	props.TestingRun(t)
}

func claimOf(in static.Input, name string) static.Claim {
	for _, c := range in.Claims {
		if c.Name == name {
			return c
		}
	}
	panic("no claim " + name)
}
