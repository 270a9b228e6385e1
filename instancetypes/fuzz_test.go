package instancetypes

import (
	"testing"

	"github.com/nodeplan/nodeplan/requirements"
)

// FuzzParse checks that Parse never panics, and that whatever it accepts is
// a consistent catalog: every type is compatible with its own labels'
// instance-type requirement, Allocatable = Capacity − Overhead, and no
// offering is free.
func FuzzParse(f *testing.F) {
	f.Add([]byte(userCatalog))
	f.Add([]byte(`{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":4096,"arch":"amd64"}]}`))
	f.Add([]byte(`{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":4096,"arch":"arm64","capacity":{"cpu":"-1"}}]}`))
	f.Add([]byte(`{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":65,"arch":"arm64","maxPods":1}]}`))
	f.Add([]byte(`{"region_prices":["r"],"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":4096,"arch":"x","price":{"r":1e300}}]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":4096,"arch":"amd64","family":"Big Family!","labels":{"x.io/y":"z","topology.kubernetes.io/zone":"q"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, Options{})
		if err != nil {
			return
		}
		for _, it := range c.Types() {
			if err := it.Requirements.Validate(); err != nil { // Parse vouches for them (newOf)
				t.Fatalf("%s: %v", it.Name, err)
			}
			self := requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, it.Name))
			if _, ok := it.Cheapest(self); !ok {
				t.Fatalf("%s: no offering for itself", it.Name)
			}
			if !it.Capacity.Sub(it.Overhead).Equal(it.Allocatable) || !it.Overhead.Fits(it.Capacity) {
				t.Fatalf("%s: allocatable %s != %s - %s", it.Name, it.Allocatable, it.Capacity, it.Overhead)
			}
			for _, o := range it.Offerings {
				if o.Price <= 0 {
					t.Fatalf("%s: free %s offering", it.Name, o.CapacityType)
				}
			}
		}
	})
}

// FuzzParsePrices checks that ParsePrices never panics, and that whatever
// it accepts is a usable price table: a valid currency, at least one
// price, each in MinListPrice..MaxValidPrice, that Options.Prices takes.
func FuzzParsePrices(f *testing.F) {
	f.Add(awsPrices, "us-east-1")
	f.Add([]byte(`{"partitions":{"x":{"currency":"EUR","tableGenerated":"2026-01-02","regions":{"r":{"m5.large":0.1}}}}}`), "")
	f.Add([]byte(`{"source":["s"],"partitions":{"x":{"currency":"EUR","source":0,"regions":{"r":{"a":1},"s":{"a":2}}}}}`), "s")
	f.Fuzz(func(t *testing.T, data []byte, region string) {
		p, err := ParsePrices(data, region)
		if err != nil {
			return
		}
		if !ValidCurrency(p.Currency) || len(p.PerHour) == 0 || p.Region == "" {
			t.Fatalf("accepted %+v", p)
		}
		for typ, d := range p.PerHour {
			if _, err := listPrice(d); err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
		}
		if _, err := givenPrices(p, p.Region); err != nil {
			t.Fatalf("Options.Prices rejects what ParsePrices accepts: %v", err)
		}
	})
}
