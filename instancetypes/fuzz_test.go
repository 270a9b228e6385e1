package instancetypes

import (
	"testing"

	"github.com/nodeplan/nodeplan/requirements"
)

// FuzzParse checks that Parse never panics, and that whatever it accepts is
// a consistent catalog: every type is compatible with its own labels'
// instance-type requirement and Allocatable = Capacity − Overhead.
func FuzzParse(f *testing.F) {
	f.Add([]byte(userCatalog))
	f.Add([]byte(`{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":4096,"arch":"amd64"}]}`))
	f.Add([]byte(`{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":4096,"arch":"arm64","capacity":{"cpu":"-1"}}]}`))
	f.Add([]byte(`{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":65,"arch":"arm64","maxPods":1}]}`))
	f.Add([]byte(`{"region_prices":["r"],"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":4096,"arch":"x","price":{"r":1e300}}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, Options{})
		if err != nil {
			return
		}
		for _, it := range c.Types() {
			self := requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, it.Name))
			if _, ok := it.Cheapest(self); !ok {
				t.Fatalf("%s: no offering for itself", it.Name)
			}
			if !it.Capacity.Sub(it.Overhead).Equal(it.Allocatable) || !it.Overhead.Fits(it.Capacity) {
				t.Fatalf("%s: allocatable %s != %s - %s", it.Name, it.Allocatable, it.Capacity, it.Overhead)
			}
		}
	})
}
