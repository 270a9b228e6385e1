package problemgen

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Label keys of generated instance types and pools beyond the well-known
// ones.
const (
	LabelGeneration = "example.com/generation" // an integer, for Gt and Lt
	LabelTeam       = "example.com/team"       // a NodePool label
	LabelUnknown    = "example.com/unknown"    // no node or type has it
	TaintDedicated  = "example.com/dedicated"
	TaintSoft       = "example.com/soft"
	TaintStartup    = "example.com/startup"
)

const (
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// Zones are the zones of generated catalogs.
var genZones = []string{"zone-1", "zone-2", "zone-3"}

// diverse is Karpenter's 400-type benchmark catalog, built once; catalogs
// are immutable, so sharing it is safe.
var diverse = sync.OnceValue(instancetypes.KarpenterDiverse)

// catalog draws a catalog: usually random types, sometimes the synthetic
// AWS-like catalog, rarely Karpenter's diverse one.
func (g *gen) catalog() *instancetypes.Catalog {
	switch g.intn(40) {
	case 0:
		return diverse()
	case 1, 2, 3, 4:
		n := min(1+g.intn(2*g.size.Types), instancetypes.MaxSynthetic)
		if c, err := instancetypes.Synthetic(n, uint64(g.intn(1<<30))); err == nil {
			return c
		}
	}
	return g.randomCatalog("t", 1+g.intn(g.size.Types))
}

// randomCatalog builds n random types named prefix-i.
func (g *gen) randomCatalog(prefix string, n int) *instancetypes.Catalog {
	types := make([]instancetypes.InstanceType, n)
	for i := range types {
		types[i] = g.instanceType(fmt.Sprintf("%s-%d", prefix, i))
	}
	c, err := instancetypes.New(types)
	if err != nil {
		panic(fmt.Sprintf("problemgen: generated catalog is invalid: %v", err)) // a bug here
	}
	return c
}

var (
	coreChoices = []int64{1, 2, 4, 8, 16, 32}
	podChoices  = []int64{4, 8, 16, 29, 58, 110}
	families    = []string{"c", "m", "r"} // 2, 4 and 8 GiB per core
)

func (g *gen) instanceType(name string) instancetypes.InstanceType {
	cores, fam := pick(g, coreChoices), g.intn(len(families))
	mem := cores * (2 << fam) * gib
	arch := "amd64"
	if g.chance(1, 3) {
		arch = "arm64"
	}
	generation := 1 + g.intn(6)
	capacity := resources.List{CPU: cores * 1000, Memory: mem, Pods: pick(g, podChoices), EphemeralStorage: 40 * gib}
	reqs := requirements.NewSet(
		requirements.MustNew(requirements.LabelArch, requirements.In, arch),
		requirements.MustNew(requirements.LabelOS, requirements.In, "linux"),
		requirements.MustNew(requirements.LabelInstanceCPU, requirements.In, strconv.FormatInt(cores, 10)),
		requirements.MustNew(requirements.LabelInstanceFamily, requirements.In, families[fam]),
		requirements.MustNew(LabelGeneration, requirements.In, strconv.Itoa(generation)))
	price := instancetypes.Price(cores*40_000_000 + mem/gib*5_000_000 + int64(g.intn(3))*1_000_000)
	if g.chance(1, 6) {
		gpus := int64(1) << g.intn(3)
		capacity = capacity.With(resources.GPU, gpus)
		reqs = reqs.Add(requirements.MustNew(requirements.LabelInstanceGPUCount, requirements.In, strconv.FormatInt(gpus, 10)))
		price += instancetypes.Price(gpus * 900_000_000)
	}
	overhead := resources.List{CPU: 50 + cores*10, Memory: 200 * mib, EphemeralStorage: gib}
	return instancetypes.InstanceType{Name: name, Requirements: reqs, Capacity: capacity, Overhead: overhead,
		Offerings: g.offerings(name, price)}
}

// offerings draws on-demand, spot and reserved offerings in some zones,
// about an eighth unavailable; at least one offering.
func (g *gen) offerings(typ string, price instancetypes.Price) []instancetypes.Offering {
	var offs []instancetypes.Offering
	add := func(zone string, ct instancetypes.CapacityType, p instancetypes.Price) {
		o := instancetypes.Offering{Zone: zone, CapacityType: ct, Price: p, Available: !g.chance(1, 8)}
		if ct == instancetypes.Reserved {
			o.ReservationID, o.ReservedUnits = "cr-"+typ+"-"+zone, g.intn(3)
		}
		offs = append(offs, o)
	}
	for _, z := range subset(g, genZones) {
		if g.chance(3, 4) {
			add(z, instancetypes.OnDemand, price)
		}
		if g.chance(1, 2) {
			add(z, instancetypes.Spot, price*2/5)
		}
		if g.chance(1, 10) {
			add(z, instancetypes.Reserved, price/100)
		}
	}
	if len(offs) == 0 {
		add(pick(g, genZones), instancetypes.OnDemand, price)
	}
	return offs
}

// catalogVocabulary returns the zones of c's offerings and its type names,
// sorted.
func catalogVocabulary(c *instancetypes.Catalog) (zones, types []string) {
	for _, t := range c.Types() {
		types = append(types, t.Name)
		for _, o := range t.Offerings {
			zones = append(zones, o.Zone)
		}
	}
	slices.Sort(zones)
	return slices.Compact(zones), types
}
