package packing_test

import (
	"errors"
	"testing"

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
