package bound

import (
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

const (
	zoneA = "zone-a"
	zoneB = "zone-b"
	gib   = int64(1) << 30
)

// kind is a test instance type: cores, GiB, max pods and its price per
// zone (0: not offered there), on-demand.
type kind struct {
	name           string
	cpu, mem       int64 // millicores, GiB
	pods           int64
	priceA, priceB float64
}

func (k kind) build() instancetypes.InstanceType {
	var offs []instancetypes.Offering
	for _, z := range []struct {
		zone  string
		price float64
	}{{zoneA, k.priceA}, {zoneB, k.priceB}} {
		if z.price > 0 {
			offs = append(offs, instancetypes.Offering{Zone: z.zone, CapacityType: instancetypes.OnDemand,
				Price: instancetypes.MustPriceFromDollars(z.price), Available: true})
		}
	}
	return instancetypes.InstanceType{
		Name:         k.name,
		Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, k.name)),
		Capacity:     resources.List{CPU: k.cpu, Memory: k.mem * gib, Pods: k.pods},
		Offerings:    offs,
	}
}

func catalog(tb testing.TB, kinds ...kind) *instancetypes.Catalog {
	tb.Helper()
	types := make([]instancetypes.InstanceType, len(kinds))
	for i, k := range kinds {
		types[i] = k.build()
	}
	c, err := instancetypes.New(types)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// pod is a pending pod of cpu millicores and mem MiB.
func pod(name string, cpu, memMi int64) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, Requests: resources.List{CPU: cpu, Memory: memMi << 20}}
}

// anti makes p one of the pods of app that no two share a node.
func anti(p packing.Pod, app string) packing.Pod {
	p.Labels = map[string]string{"app": app}
	p.AntiAffinity = []packing.PodAffinityTerm{{TopologyKey: requirements.LabelHostname,
		Selector: requirements.FromLabels(map[string]string{"app": app})}}
	return p
}

// inZone pins p to zone z.
func inZone(p packing.Pod, z string) packing.Pod {
	p.NodeAffinity = requirements.NodeAffinity{Selector: requirements.FromLabels(map[string]string{requirements.LabelZone: z})}
	return p
}

func pods(n int, cpu, memMi int64) []packing.Pod {
	out := make([]packing.Pod, n)
	for i := range out {
		out[i] = pod("p"+string(rune('a'+i%26))+string(rune('a'+i/26)), cpu, memMi)
	}
	return out
}

func pool(name string) packing.NodePool { return packing.NodePool{Name: name} }
