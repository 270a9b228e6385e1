package packing_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/nodeplan/nodeplan/resources"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
)

// FuzzGroupClasses decodes arbitrary bytes into a problem (possibly
// invalid, with hostile strings and extreme numbers) and checks that
// GroupClasses never panics, rejects an invalid problem with
// ErrInvalidProblem, and otherwise puts every pod in exactly one class of
// pods with its requests, admitted only on offers and nodes that exist.
// Its seed corpus runs in the normal go test.
func FuzzGroupClasses(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := problemgen.Decode(data)
		c, err := packing.GroupClasses(p)
		if p.Validate() != nil {
			if !errors.Is(err, packing.ErrInvalidProblem) {
				t.Fatalf("invalid problem: got %v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid problem: %v", err)
		}
		seen := make([]int, len(p.Pods))
		for _, cl := range c.Classes {
			if cl.Rules < 0 || cl.Rules >= c.Rules() || len(cl.Pods) == 0 {
				t.Fatalf("class %+v", cl)
			}
			for _, i := range cl.Pods {
				seen[i]++
				if req := p.Pods[i].Requests; req.CPU != cl.Requests.CPU || req.Memory != cl.Requests.Memory {
					t.Fatalf("pod %d requests %v in a class of %v", i, req, cl.Requests)
				}
			}
			for pl, room := range c.Pools {
				for o, off := range room.Offers {
					if off.Type < 0 || off.Type >= len(room.Types) {
						t.Fatalf("offer %d of pool %d names type %d", o, pl, off.Type)
					}
					_ = c.Admits(cl.Rules, pl, o)
				}
			}
			for n := range c.Nodes {
				_ = c.AdmitsNode(cl.Rules, n)
			}
		}
		for i, n := range seen {
			if n != 1 {
				t.Fatalf("pod %d is in %d classes", i, n)
			}
		}
	})
}

// TestPropertyClassesAdmitPlan: GroupClasses admits what Solve does: for
// the default plan of every generated problem, every claim's offering is
// admitted for the classes of its pods and its pods fit its type's room,
// and every binding's node is admitted for its pod's class.
func TestPropertyClassesAdmitPlan(t *testing.T) {
	forSeeds(t, 0, max(propertyCount(t)/4, 1), func(p packing.Problem) error {
		plan, err := solve(p, packing.Options{})
		if err != nil {
			return err
		}
		c, err := packing.GroupClasses(p)
		if err != nil {
			return err
		}
		classOf := map[int]packing.Class{}
		for _, cl := range c.Classes {
			for _, i := range cl.Pods {
				classOf[i] = cl
			}
		}
		for _, claim := range plan.NodeClaims {
			if err := claimAdmitted(&c, classOf, claim); err != nil {
				return err
			}
		}
		for _, b := range plan.Bindings {
			n := slices.IndexFunc(c.Nodes, func(r packing.NodeRoom) bool { return r.Name == b.Node })
			if n < 0 || !c.AdmitsNode(classOf[b.Pod].Rules, n) {
				return fmt.Errorf("pod %d bound to node %s, which GroupClasses does not admit it on (index %d)", b.Pod, b.Node, n)
			}
		}
		return nil
	})
}

// claimAdmitted checks one claim against c: its offer is admitted for its
// pods' classes, which fit its type's room together.
func claimAdmitted(c *packing.Classes, classOf map[int]packing.Class, claim packing.NodeClaim) error {
	pl := slices.IndexFunc(c.Pools, func(r packing.PoolRoom) bool { return r.Name == claim.NodePool })
	if pl < 0 {
		return fmt.Errorf("claim %s: pool %s is not in GroupClasses' pools", claim.Name, claim.NodePool)
	}
	room := c.Pools[pl]
	o := slices.IndexFunc(room.Offers, func(off packing.Offer) bool {
		return room.Types[off.Type].Name == claim.InstanceType && off.Zone == claim.Offering.Zone && off.CapacityType == claim.Offering.CapacityType
	})
	if o < 0 {
		return fmt.Errorf("claim %s: offer %s %s/%s is not among pool %s's offers", claim.Name, claim.InstanceType, claim.Offering.Zone, claim.Offering.CapacityType, claim.NodePool)
	}
	var sum resources.List
	for _, i := range claim.Pods {
		cl := classOf[i]
		if !c.Admits(cl.Rules, pl, o) {
			return fmt.Errorf("claim %s: pod %d's class does not admit its offer %s %s/%s", claim.Name, i, claim.InstanceType, claim.Offering.Zone, claim.Offering.CapacityType)
		}
		sum = sum.Add(cl.Requests)
	}
	if alloc := room.Types[room.Offers[o].Type].Alloc; !sum.Fits(alloc) {
		return fmt.Errorf("claim %s: its pods request %v, beyond its room %v", claim.Name, sum, alloc)
	}
	return nil
}
