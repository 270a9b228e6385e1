package instancetypes

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Labels of Karpenter's fake cloud provider, used by [KarpenterDiverse].
const (
	LabelFakeSize    = "size"
	LabelFakeSpecial = "special"
	LabelFakeInteger = "integer"
)

// KarpenterDiverse returns the 400 instance types of the karpenter-diverse
// benchmark, as Karpenter's fake cloud provider builds them: fake-it-i has
// i+1 cores, 2(i+1) GiB and 10(i+1) pods, an overhead of 100m and 10Mi, os
// In [darwin linux windows], the labels integer (its cores), size ("large"
// with special=optional when it has more than 4 cores and 8Gi, else "small"
// with special absent), and five available offerings (spot in test-zone-1
// and -2, on-demand in test-zone-1, -2 and -3) all at 0.1·cores +
// 0.1·bytes/1e9 dollars per hour, rounded to the nano-dollar.
func KarpenterDiverse() *Catalog {
	types := make([]InstanceType, 400)
	for i := range types {
		types[i] = fakeType(i)
	}
	return mustNew(types)
}

func fakeType(i int) InstanceType {
	cpu, mem := int64(i+1), int64(2*(i+1))*gib
	price := MustPriceFromDollars(0.1*float64(cpu) + 0.1*float64(mem)/1e9)
	reqs := []requirements.Requirement{
		requirements.MustNew(requirements.LabelArch, requirements.In, "amd64"),
		requirements.MustNew(requirements.LabelOS, requirements.In, "linux", "windows", "darwin"),
		requirements.MustNew(LabelFakeInteger, requirements.In, strconv.FormatInt(cpu, 10)),
	}
	if cpu > 4 && mem > 8*gib {
		reqs = append(reqs, requirements.MustNew(LabelFakeSize, requirements.In, "large"),
			requirements.MustNew(LabelFakeSpecial, requirements.In, "optional"))
	} else {
		reqs = append(reqs, requirements.MustNew(LabelFakeSize, requirements.In, "small"),
			requirements.MustNew(LabelFakeSpecial, requirements.DoesNotExist))
	}
	offs := []Offering{{"test-zone-1", Spot, price, true, "", 0}, {"test-zone-2", Spot, price, true, "", 0},
		{"test-zone-1", OnDemand, price, true, "", 0}, {"test-zone-2", OnDemand, price, true, "", 0},
		{"test-zone-3", OnDemand, price, true, "", 0}}
	return InstanceType{
		Name:         fmt.Sprintf("fake-it-%d", i),
		Requirements: requirements.NewSet(reqs...),
		Capacity:     resources.List{CPU: cpu * 1000, Memory: mem, Pods: 10 * cpu},
		Overhead:     resources.List{CPU: 100, Memory: 10 * mib},
		Offerings:    offs,
	}
}

// mustNew is New for catalogs built by this package, which are valid by
// construction; an error is a bug in this package.
func mustNew(types []InstanceType) *Catalog {
	c, err := New(types)
	if err != nil {
		panic(fmt.Sprintf("instancetypes: built-in catalog is invalid: %v", err))
	}
	return c
}

// syntheticFamily is one family shape of a synthetic catalog.
type syntheticFamily struct {
	category  string
	gibPerCPU int64
	arm       bool
	gpu       string // GPU maker, "" for none
}

var syntheticFamilies = [...]syntheticFamily{
	{"c", 2, false, ""}, {"m", 4, false, ""}, {"r", 8, false, ""}, {"c", 2, true, ""},
	{"m", 4, true, ""}, {"r", 8, true, ""}, {"x", 16, false, ""}, {"g", 4, false, "nvidia"},
	{"p", 8, false, "nvidia"}, {"g", 4, false, "amd"}, {"t", 2, true, ""}, {"i", 8, false, ""},
}

var syntheticSizes = [...]struct {
	name string
	cpus int64
}{{"medium", 1}, {"large", 2}, {"xlarge", 4}, {"2xlarge", 8}, {"4xlarge", 16}, {"8xlarge", 32},
	{"12xlarge", 48}, {"16xlarge", 64}, {"24xlarge", 96}, {"metal", 96}}

// syntheticZones are the zones of synthetic offerings.
var syntheticZones = [...]string{"zone-a", "zone-b", "zone-c"}

// MaxSynthetic is the largest catalog [Synthetic] builds: seven times the
// embedded AWS catalog.
const MaxSynthetic = 10_000

// Synthetic returns a random but realistic catalog of n types for property
// tests and benchmarks, the same for the same (n, seed). Types follow the
// AWS naming and labels (family, size, category, generation, cpu, memory,
// arch, GPUs), have the EKS overhead, and one to three zones times one to
// three capacity types of offerings, about a tenth of them unavailable,
// priced by the resource model ±25%. n must be in 0..[MaxSynthetic]; any
// other gives an error wrapping [ErrInvalidOptions]. The complexity is
// O(n log n).
func Synthetic(n int, seed uint64) (*Catalog, error) {
	if n < 0 || n > MaxSynthetic {
		return nil, fieldErr("", "n", ErrInvalidOptions, "%d types is not in 0..%d", n, MaxSynthetic)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	types := make([]InstanceType, 0, n)
	for i := 0; len(types) < n; i++ {
		fam := syntheticFamilies[rng.IntN(len(syntheticFamilies))]
		gen := int64(3 + rng.IntN(6))
		for _, size := range syntheticSizes {
			if len(types) == n {
				break
			}
			if rng.IntN(4) == 0 {
				continue // families skip some sizes
			}
			t, err := syntheticType(rng, fam, gen, i, size.name, size.cpus)
			if err != nil {
				return nil, err
			}
			types = append(types, t)
		}
	}
	return New(types)
}

func syntheticType(rng *rand.Rand, fam syntheticFamily, gen int64, i int, size string, cpus int64) (InstanceType, error) {
	family := fmt.Sprintf("%s%d%s%d", fam.category, gen, map[bool]string{true: "g", false: ""}[fam.arm], i)
	arch, mem, pods := "amd64", cpus*fam.gibPerCPU*1024, min(8+cpus*15, 737)
	if fam.arm {
		arch = "arm64"
	}
	sp := spec{Name: family + "." + size, Family: family, Size: size, Generation: &gen, Category: &fam.category,
		VCPU: &cpus, MemoryMiB: &mem, Arch: arch, MaxPods: &pods, BareMetal: size == "metal"}
	if fam.gpu != "" {
		sp.GPUs, sp.GPUManufacturer, sp.GPUName = max(1, cpus/8), fam.gpu, fam.gpu+"-x"
	}
	s := settings{region: "synthetic-1"}
	offs := syntheticOfferings(rng, modelPrice(&sp))
	reqs, err := sp.labels(s.region, offs, &labelBuilder{})
	src := s.source(&sp)
	capacity, overhead, err2 := src.resources(Kubelet{})
	if err := errors.Join(err, err2); err != nil {
		return InstanceType{}, err
	}
	return InstanceType{Name: sp.Name, Requirements: reqs, Capacity: capacity, Overhead: overhead,
		Offerings: offs, src: src}, nil
}

// syntheticOfferings draws a non-empty set of zones and capacity types.
func syntheticOfferings(rng *rand.Rand, base Price) []Offering {
	var offs []Offering
	for len(offs) == 0 {
		for _, z := range syntheticZones {
			if rng.IntN(3) == 0 {
				continue
			}
			for ct := range CapacityType(3) {
				if ct == Reserved && rng.IntN(8) != 0 || ct != Reserved && rng.IntN(4) == 0 {
					continue
				}
				offs = append(offs, syntheticOffering(rng, base, z, ct))
			}
		}
	}
	return offs
}

func syntheticOffering(rng *rand.Rand, base Price, zone string, ct CapacityType) Offering {
	p := base.scale(int64(rng.IntN(500_000)) - 250_000)
	o := Offering{Zone: zone, CapacityType: ct, Price: p, Available: rng.IntN(10) != 0}
	switch ct {
	case Spot:
		o.Price = p.scale(600_000)
	case Reserved:
		o.Price, o.ReservationID, o.ReservedUnits = p/1000, "cr-"+zone, rng.IntN(3)
	}
	return o
}
