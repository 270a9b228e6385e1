package instancetypes

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/requirements"
)

// propertyKeys are the label keys generated requirement sets draw from: the
// indexed ones, the offering ones, an undefined well-known one and an unknown
// one.
var propertyKeys = []string{
	requirements.LabelArch, requirements.LabelOS, requirements.LabelInstanceCPU, requirements.LabelInstanceMemory,
	requirements.LabelInstanceFamily, requirements.LabelInstanceCategory, requirements.LabelInstanceGeneration,
	requirements.LabelInstanceGPUName, requirements.LabelInstanceGPUCount, requirements.LabelInstanceSize,
	requirements.LabelInstanceType, requirements.LabelZone, requirements.LabelCapacityType,
	requirements.LabelInstanceHypervisor, requirements.LabelInstanceEncryptionInTransit, "example.com/team",
}

// valuesOf returns the values the types of c list for key, plus strangers.
func valuesOf(c *Catalog, key string) []string {
	if vs, ok := valueCache.Load(valueKey{c, key}); ok {
		return vs.([]string)
	}
	seen := []string{"zzz", "8", "spot", "zone-a"}
	for _, t := range c.Types() {
		seen = append(seen, t.Requirements.Get(key).Values()...)
	}
	slices.Sort(seen)
	seen = slices.Compact(seen)
	valueCache.Store(valueKey{c, key}, seen)
	return seen
}

type valueKey struct {
	c   *Catalog
	key string
}

// valueCache and catalogCache only memoise pure functions of their keys,
// to keep the properties fast.
var valueCache, catalogCache sync.Map

// cachedCatalog is mixedCatalog(seed % 32), built once.
func cachedCatalog(seed uint64) *Catalog {
	seed %= 32
	if c, ok := catalogCache.Load(seed); ok {
		return c.(*Catalog)
	}
	c := mixedCatalog(seed)
	catalogCache.Store(seed, c)
	return c
}

// randomRequirement draws a requirement on key with any operator.
func randomRequirement(rng *rand.Rand, key string, values []string) requirements.Requirement {
	pick := func() string { return values[rng.IntN(len(values))] }
	some := func() []string { return []string{pick(), pick(), pick()}[:1+rng.IntN(3)] }
	num := strconv.Itoa(rng.IntN(100))
	if n, err := strconv.Atoi(pick()); err == nil && rng.IntN(2) == 0 {
		num = strconv.Itoa(n + rng.IntN(3) - 1)
	}
	ops := []func() (requirements.Requirement, error){
		func() (requirements.Requirement, error) { return requirements.New(key, requirements.In, some()...) },
		func() (requirements.Requirement, error) { return requirements.New(key, requirements.NotIn, some()...) },
		func() (requirements.Requirement, error) { return requirements.New(key, requirements.Exists) },
		func() (requirements.Requirement, error) { return requirements.New(key, requirements.DoesNotExist) },
		func() (requirements.Requirement, error) { return requirements.New(key, requirements.Gt, num) },
		func() (requirements.Requirement, error) { return requirements.New(key, requirements.Lt, num) },
		func() (requirements.Requirement, error) { return requirements.New(key, requirements.Gte, num) },
		func() (requirements.Requirement, error) { return requirements.New(key, requirements.Lte, num) },
	}
	r, err := ops[rng.IntN(len(ops))]()
	if err != nil {
		panic(err)
	}
	return r
}

// randomSet draws 0–4 requirements (repeated keys intersect).
func randomSet(rng *rand.Rand, c *Catalog) requirements.Set {
	var reqs []requirements.Requirement
	for range rng.IntN(5) {
		key := propertyKeys[rng.IntN(len(propertyKeys))]
		reqs = append(reqs, randomRequirement(rng, key, valuesOf(c, key)))
	}
	return requirements.NewSet(reqs...)
}

// mixedCatalog is a synthetic catalog (with coarse, often equal prices for
// odd seeds) in which some types carry odd
// requirements (NotIn, Exists, bounds, DoesNotExist) that exercise every
// path of the label index, and some offerings are unavailable.
func mixedCatalog(seed uint64) *Catalog {
	rng := rand.New(rand.NewPCG(seed, 1))
	base := synthetic(40+rng.IntN(80), seed)
	types := make([]InstanceType, 0, base.Len())
	for _, t := range base.Types() {
		cp := *t
		if seed%2 == 1 { // coarse prices: many ties, to test the tie-break by name
			cp.Offerings = slices.Clone(cp.Offerings)
			for i := range cp.Offerings {
				cp.Offerings[i].Price -= cp.Offerings[i].Price % 200_000_000
			}
		}
		if rng.IntN(4) == 0 {
			key := propertyKeys[rng.IntN(len(propertyKeys))]
			if key != requirements.LabelInstanceType && key != requirements.LabelZone && key != requirements.LabelCapacityType {
				cp.Requirements = cp.Requirements.Without(key).Add(randomRequirement(rng, key, valuesOf(base, key)))
			}
		}
		types = append(types, cp)
	}
	c, err := New(types)
	if err != nil {
		panic(err)
	}
	var gone []OfferingKey
	for _, t := range c.Types() {
		if rng.IntN(6) == 0 {
			o := t.Offerings[rng.IntN(len(t.Offerings))]
			gone = append(gone, OfferingKey{t.Name, o.Zone, o.CapacityType})
		}
	}
	c, err = c.WithAvailability(gone...)
	if err != nil {
		panic(err)
	}
	return c
}

// bruteForce is the specification of Compatible: scan every type.
func bruteForce(c *Catalog, reqs requirements.Set) []string {
	type priced struct {
		name  string
		price Price
	}
	var out []priced
	for _, t := range c.Types() {
		if t.Requirements.Compatible(reqs) != nil {
			continue
		}
		if o, ok := t.Cheapest(reqs); ok {
			out = append(out, priced{t.Name, o.Price})
		}
	}
	slices.SortFunc(out, func(a, b priced) int { return cmp.Or(cmp.Compare(a.price, b.price), cmp.Compare(a.name, b.name)) })
	names := make([]string, len(out))
	for i, p := range out {
		names[i] = p.name
	}
	return names
}

func properties(t *testing.T) *gopter.Properties {
	params := gopter.DefaultTestParametersWithSeed(1)
	params.MinSuccessfulTests = 100
	return gopter.NewProperties(params)
}

func TestPropertyCompatible(t *testing.T) {
	p := properties(t)
	p.Property("Compatible = brute-force scan, cheapest first, ties by name", prop.ForAll(
		func(catSeed, reqSeed uint64) string {
			c := cachedCatalog(catSeed)
			rng := rand.New(rand.NewPCG(reqSeed, 2))
			for range 20 {
				reqs := randomSet(rng, c)
				want := bruteForce(c, reqs)
				if got := names(c.AppendCompatible(nil, reqs)); !slices.Equal(got, want) {
					return fmt.Sprintf("reqs %s: got %v, want %v", reqs, got, want)
				}
				it, _, ok := c.Cheapest(reqs)
				if ok != (len(want) > 0) || ok && it.Name != want[0] {
					return fmt.Sprintf("reqs %s: Cheapest %v %v, want %v", reqs, it, ok, want)
				}
			}
			return ""
		}, gen.UInt64(), gen.UInt64()))
	p.TestingRun(t)
}

func TestPropertyCompatibleEarlyStop(t *testing.T) {
	p := properties(t)
	p.Property("a consumer that stops early sees a prefix", prop.ForAll(
		func(seed uint64, k uint8) bool {
			c := cachedCatalog(seed)
			reqs := randomSet(rand.New(rand.NewPCG(seed, 3)), c)
			all := names(c.AppendCompatible(nil, reqs))
			var got []string
			for it := range c.Compatible(reqs) {
				if len(got) == int(k)%8 {
					break
				}
				got = append(got, it.Name)
			}
			return slices.Equal(got, all[:min(len(all), int(k)%8)])
		}, gen.UInt64(), gen.UInt8()))
	p.TestingRun(t)
}

func TestPropertyLocalCompatible(t *testing.T) {
	p := properties(t)
	p.Property("compatible agrees with Set.Compatible", prop.ForAll(
		func(seed uint64) bool {
			c := cachedCatalog(seed)
			rng := rand.New(rand.NewPCG(seed, 4))
			for _, it := range c.Types() {
				reqs := randomSet(rng, c)
				if compatible(it.Requirements, reqs) != (it.Requirements.Compatible(reqs) == nil) {
					return false
				}
			}
			return true
		}, gen.UInt64()))
	p.TestingRun(t)
}

func TestPropertyPriceOrderTotal(t *testing.T) {
	p := properties(t)
	p.Property("offerings are strictly increasing in their order; the order is deterministic", prop.ForAll(
		func(seed uint64) bool {
			a, b := synthetic(50, seed), synthetic(50, seed)
			for i, t := range a.Types() {
				for j := 1; j < len(t.Offerings); j++ {
					if compareOfferings(t.Offerings[j-1], t.Offerings[j]) >= 0 {
						return false
					}
				}
				if !slices.Equal(t.Offerings, b.Types()[i].Offerings) {
					return false
				}
			}
			return slices.Equal(names(a.AppendCompatible(nil, requirements.Set{})), names(b.AppendCompatible(nil, requirements.Set{})))
		}, gen.UInt64()))
	p.TestingRun(t)
}
