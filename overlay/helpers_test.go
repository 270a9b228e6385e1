package overlay_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

const (
	defaultType = "default-instance-type" // the type of Karpenter's suite (suite_test.go:80-91)
	smallType   = "small-instance-type"
	zone        = requirements.LabelZone
	ct          = requirements.LabelCapacityType
	itype       = requirements.LabelInstanceType
)

func usd(d float64) instancetypes.Price { return instancetypes.MustPriceFromDollars(d) }

func offering(zone string, c instancetypes.CapacityType, dollars float64) instancetypes.Offering {
	o := instancetypes.Offering{Zone: zone, CapacityType: c, Price: usd(dollars), Available: true}
	if c == instancetypes.Reserved {
		o.ReservationID, o.ReservedUnits = "cr-"+zone, 1
	}
	return o
}

func itOf(name string, offs ...instancetypes.Offering) instancetypes.InstanceType {
	return instancetypes.InstanceType{Name: name,
		Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "amd64")),
		Capacity:     resources.List{CPU: 4000, Memory: 16 << 30, Pods: 110},
		Offerings:    offs}
}

// suiteType is Karpenter's suite default: one spot offering in test-zone-1
// at 1.02.
func suiteType() instancetypes.InstanceType {
	return itOf(defaultType, offering("test-zone-1", instancetypes.Spot, 1.02))
}

// threeOfferings is the type of suite_test.go:1416-1440.
func threeOfferings() instancetypes.InstanceType {
	return itOf(defaultType, offering("test-zone-1", instancetypes.Spot, 1.02),
		offering("test-zone-2", instancetypes.OnDemand, 2.02), offering("test-zone-4", instancetypes.Reserved, 4.02))
}

func catalogOf(t testing.TB, types ...instancetypes.InstanceType) *instancetypes.Catalog {
	t.Helper()
	c, err := instancetypes.New(types)
	require.NoError(t, err)
	return c
}

func req(key, op string, values ...string) overlay.Requirement {
	return overlay.Requirement{Key: key, Operator: op, Values: values}
}

func reqs(rs ...overlay.Requirement) []overlay.Requirement { return rs }

func capacity(amounts ...resources.Amount) resources.List { return resources.New(amounts...) }

// price returns the price of the offering of typ in zone in pool's
// catalog of res (cat when the pool has none).
func price(t testing.TB, cat *instancetypes.Catalog, res overlay.Result, pool, typ, zone string) instancetypes.Price {
	t.Helper()
	it := typeIn(t, cat, res, pool, typ)
	for _, o := range it.Offerings {
		if o.Zone == zone {
			return o.Price
		}
	}
	t.Fatalf("no offering of %s in %s", typ, zone)
	return 0
}

func typeIn(t testing.TB, cat *instancetypes.Catalog, res overlay.Result, pool, typ string) *instancetypes.InstanceType {
	t.Helper()
	p := packing.Problem{Catalog: cat, NodePools: res.NodePools}
	it, ok := p.CatalogOf(pool).Get(typ)
	require.True(t, ok, "type %s in pool %s", typ, pool)
	return it
}

func statuses(r overlay.Report) map[string]overlay.Status {
	out := map[string]overlay.Status{}
	for _, o := range r {
		out[o.Overlay] = o.Status
	}
	return out
}

func poolsOf(names ...string) []packing.NodePool {
	out := make([]packing.NodePool, len(names))
	for i, n := range names {
		out[i] = packing.NodePool{Name: n}
	}
	return out
}

func key(pool, typ, z string) string { return fmt.Sprintf("%s/%s/%s", pool, typ, z) }

// fakeType is a type of Karpenter's fake cloud provider
// (K/cloudprovider/fake/instancetype.go:105-160): spot in test-zone-1 and
// -2, on-demand in test-zone-1, -2 and -3.
func fakeType(name, arch string, oses ...string) instancetypes.InstanceType {
	if len(oses) == 0 {
		oses = []string{"darwin", "linux", "windows"}
	}
	t := itOf(name, offering("test-zone-1", instancetypes.Spot, 1), offering("test-zone-2", instancetypes.Spot, 1),
		offering("test-zone-1", instancetypes.OnDemand, 2), offering("test-zone-2", instancetypes.OnDemand, 2),
		offering("test-zone-3", instancetypes.OnDemand, 2))
	t.Requirements = requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, arch),
		requirements.MustNew(requirements.LabelOS, requirements.In, oses...))
	return t
}

// fakeTypes are the fake cloud provider's six default types
// (K/cloudprovider/fake/cloudprovider.go:233-262).
func fakeTypes() []instancetypes.InstanceType {
	return []instancetypes.InstanceType{fakeType(defaultType, "amd64"), fakeType(smallType, "amd64"),
		fakeType("gpu-vendor-instance-type", "amd64"), fakeType("gpu-vendor-b-instance-type", "amd64"),
		fakeType("arm-instance-type", "arm64", "darwin", "ios", "linux", "windows"), fakeType("single-pod-instance-type", "amd64")}
}
