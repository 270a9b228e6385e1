package static_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/static"
)

// BenchmarkDecide decides pools of n NodeClaims each: a third drifted, a
// third over replicas.
func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{10, 1000} {
		in := static.Input{Now: now, Catalog: catalog}
		for i := range 3 {
			name := fmt.Sprintf("pool-%d", i)
			in.Pools = append(in.Pools, pool(name, int64(n*(2+i%2))/3))
			for j := range n {
				c := node(fmt.Sprintf("%s-%d", name, j), name, app("default", fmt.Sprintf("p%d", j)))
				c.Drifted = j%3 == 0
				in.Claims = append(in.Claims, c)
			}
		}
		b.Run(fmt.Sprintf("claims=%d", 3*n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := static.Decide(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
