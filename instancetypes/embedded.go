package instancetypes

import (
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/nodeplan/nodeplan/resources"
)

//go:embed data/aws-ec2.json
var awsCatalog []byte

//go:embed data/azure.json
var azureCatalog []byte

// Options configure how a catalog file becomes a [Catalog]. The zero value
// gives the documented defaults.
type Options struct {
	// Region labels every type (topology.kubernetes.io/region) and selects
	// the prices. Default "us-east-1" ([AWS], [Parse]) or "eastus" ([Azure]).
	// A region the document has no prices for uses the document's first
	// priced region: regional price differences are not modelled.
	Region string
	// Zones are the zones every type is offered in. Default: the region's
	// first three zones, "<region>a", "<region>b", "<region>c" for AWS and
	// "<region>-1", "<region>-2", "<region>-3" for Azure.
	Zones []string
	// SpotDiscount is the fraction of the on-demand price a spot offering
	// saves, in [0, 1). 0 means DefaultSpotDiscount.
	SpotDiscount float64
	// NoSpot leaves out the spot offerings.
	NoSpot bool
	// SpotPrice sets the spot price, in dollars per hour, of the named types
	// in every zone, instead of the discount model.
	SpotPrice map[string]float64
	// MaxPods, when positive, is every type's pod capacity, as the kubelet
	// maxPods setting of an EC2NodeClass; kube-reserved memory is still sized
	// for the type's ENI-limited pod count, as Karpenter does on AL2023.
	MaxPods int
}

// DefaultSpotDiscount is the spot model: a spot offering costs 40% of the
// on-demand price. This is a model, not a fact; spot prices move with
// demand (typical AWS savings are 50–90%).
const DefaultSpotDiscount = 0.6

// The resource price model for documents without prices (Azure, and user
// catalogs that list none): a linear fit of AWS us-east-1 c5/m5/r5.large
// on-demand Linux prices, plus a flat price per GPU and per accelerator.
const (
	ModelVCPUHour        = Price(36_500_000)  // $0.0365 per vCPU-hour
	ModelGiBHour         = Price(3_000_000)   // $0.0030 per GiB-hour
	ModelGPUHour         = Price(900_000_000) // $0.90 per GPU-hour
	ModelAcceleratorHour = Price(500_000_000) // $0.50 per accelerator-hour
)

// AWS returns the embedded AWS EC2 catalog (1,398 types in the data, less
// the 31 without a us-east-1 price) under opts. The complexity is
// O(n log n); it decodes the embedded JSON on every call.
func AWS(opts Options) (*Catalog, error) {
	return parse(awsCatalog, opts, defaults{"us-east-1", awsZones, DefaultPods})
}

// Azure returns the embedded Azure catalog (1,369 sizes) under opts. The
// data has no prices, so every size is priced by the resource model
// (ModelVCPUHour, ModelGiBHour, ModelGPUHour) and its labels use the same
// keys as AWS (instance-cpu, instance-memory, instance-family, ...), with
// values such as the SKU family made valid label values (lowercase, runs of
// other characters as '-'). Pods default to DefaultAzurePods, and the EKS
// overhead model applies (AKS's own reservations are not modelled).
func Azure(opts Options) (*Catalog, error) {
	return parse(azureCatalog, opts, defaults{"eastus", azureZones, DefaultAzurePods})
}

// Parse reads a user catalog in the schema of the embedded ones (see the
// package doc), with the same labels, overhead and spot model as [AWS]. Zone
// names default as for AWS.
func Parse(data []byte, opts Options) (*Catalog, error) {
	return parse(data, opts, defaults{"us-east-1", awsZones, DefaultPods})
}

func awsZones(region string) []string {
	return []string{region + "a", region + "b", region + "c"}
}

func azureZones(region string) []string {
	return []string{region + "-1", region + "-2", region + "-3"}
}

// DefaultAzurePods is the pod capacity of an Azure size: the Azure CNI
// default max pods per node (kubenet allows 110, but its kube-reserved
// memory would not fit the 1 GiB sizes).
const DefaultAzurePods = 30

// defaults are a provider's defaults for Options.
type defaults struct {
	region string
	zones  func(region string) []string
	pods   int64
}

// settings are Options resolved against a document.
type settings struct {
	region, priceRegion string // priceRegion "" means the resource model
	zones               []string
	spotOffPPM          int64
	noSpot              bool
	spotPrice           map[string]Price
	maxPods             int64
	defaultPods         int64
}

func parse(data []byte, opts Options, def defaults) (*Catalog, error) {
	doc, err := decode(data)
	if err != nil {
		return nil, err
	}
	s, err := resolve(opts, doc, def)
	if err != nil {
		return nil, err
	}
	var types []InstanceType
	var errs []error
	for i := range doc.InstanceTypes {
		t, ok, err := s.instanceType(&doc.InstanceTypes[i])
		if err != nil {
			errs = append(errs, err)
		} else if ok {
			types = append(types, t)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return New(types)
}

// resolve applies the defaults and validates opts.
func resolve(opts Options, doc document, def defaults) (settings, error) {
	s := settings{region: cmp.Or(opts.Region, def.region), noSpot: opts.NoSpot, maxPods: int64(opts.MaxPods),
		defaultPods: def.pods}
	s.zones = cmpOr(opts.Zones, def.zones(s.region))
	if len(doc.RegionPrices) > 0 {
		s.priceRegion = doc.RegionPrices[0]
		if slices.Contains(doc.RegionPrices, s.region) {
			s.priceRegion = s.region
		}
	}
	var errs []error
	d := opts.SpotDiscount
	if math.IsNaN(d) || d < 0 || d >= 1 {
		errs = append(errs, fieldErr("", "Options.SpotDiscount", ErrInvalidOptions, "%v not in [0, 1)", d))
	}
	s.spotOffPPM = int64(math.Round(cmp.Or(d, DefaultSpotDiscount) * 1e6))
	if opts.MaxPods < 0 {
		errs = append(errs, fieldErr("", "Options.MaxPods", ErrInvalidOptions, "%d is negative", opts.MaxPods))
	}
	errs = append(errs, validateZones(s.zones)...)
	var spotErrs []error
	s.spotPrice, spotErrs = spotPrices(opts.SpotPrice, doc)
	return s, errors.Join(append(errs, spotErrs...)...)
}

func validateZones(zones []string) []error {
	var errs []error
	for i, z := range zones {
		if err := validateOffering("", "", Offering{Zone: z}); err != nil || slices.Contains(zones[:i], z) {
			errs = append(errs, fieldErr("", fmt.Sprintf("Options.Zones[%d]", i), ErrInvalidOptions, "%q is empty, duplicated or not a label value", z))
		}
	}
	return errs
}

// spotPrices converts the per-type spot overrides, checking the names exist.
func spotPrices(in map[string]float64, doc document) (map[string]Price, []error) {
	names := make(map[string]bool, len(doc.InstanceTypes))
	for _, t := range doc.InstanceTypes {
		names[t.Name] = true
	}
	out := make(map[string]Price, len(in))
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(in)) {
		p, err := PriceFromDollars(in[name])
		switch {
		case !names[name]:
			errs = append(errs, fieldErr(name, "Options.SpotPrice", ErrInvalidOptions, "no such instance type in the catalog"))
		case err != nil:
			errs = append(errs, fieldErr(name, "Options.SpotPrice", ErrInvalidPrice, "%v", err))
		default:
			out[name] = p
		}
	}
	return out, errs
}

// instanceType builds the type of sp; ok is false when it has no price in
// the price region and is left out.
func (s *settings) instanceType(sp *spec) (InstanceType, bool, error) {
	if errs := sp.validate(); len(errs) > 0 {
		return InstanceType{}, false, errors.Join(errs...)
	}
	od, ok, err := s.onDemandPrice(sp)
	if err != nil || !ok {
		return InstanceType{}, false, err
	}
	reqs, err := sp.labels(s.region)
	if err != nil {
		return InstanceType{}, false, err
	}
	capacity, overhead, err := s.resources(sp)
	if err != nil {
		return InstanceType{}, false, err
	}
	offs, err := s.offerings(sp, od)
	t := InstanceType{Name: sp.Name, Requirements: reqs, Capacity: capacity, Overhead: overhead, Offerings: offs}
	return t, true, err
}

// onDemandPrice is the type's price in the price region, or the resource
// model when the document has no prices.
func (s *settings) onDemandPrice(sp *spec) (Price, bool, error) {
	if s.priceRegion == "" {
		return modelPrice(sp), true, nil
	}
	d, ok := sp.Price[s.priceRegion]
	if !ok {
		return 0, false, nil
	}
	p, err := PriceFromDollars(d)
	if err != nil {
		return 0, false, fieldErr(sp.Name, "price."+s.priceRegion, ErrInvalidPrice, "%v", err)
	}
	return p, true, nil
}

func modelPrice(sp *spec) Price {
	mem := (Price(*sp.MemoryMiB)*ModelGiBHour + 512) / 1024
	return Price(*sp.VCPU)*ModelVCPUHour + mem + Price(sp.GPUs)*ModelGPUHour + Price(sp.Accelerators)*ModelAcceleratorHour
}

// offerings returns on-demand and (unless NoSpot) spot offerings in every
// zone.
func (s *settings) offerings(sp *spec, od Price) ([]Offering, error) {
	spot, err := s.spot(sp, od)
	offs := make([]Offering, 0, 2*len(s.zones))
	for _, z := range s.zones {
		offs = append(offs, Offering{Zone: z, CapacityType: OnDemand, Price: od, Available: true})
		if !s.noSpot {
			offs = append(offs, Offering{Zone: z, CapacityType: Spot, Price: spot, Available: true})
		}
	}
	return offs, err
}

// spot is the spot price: Options.SpotPrice, else the file's spotPrice for
// the price region, else the discount model.
func (s *settings) spot(sp *spec, od Price) (Price, error) {
	if p, ok := s.spotPrice[sp.Name]; ok {
		return p, nil
	}
	if d, ok := sp.SpotPrice[s.priceRegion]; ok {
		p, err := PriceFromDollars(d)
		if err != nil {
			return 0, fieldErr(sp.Name, "spotPrice."+s.priceRegion, ErrInvalidPrice, "%v", err)
		}
		return p, nil
	}
	return od.scale(s.spotOffPPM), nil
}

// resources returns the capacity and the EKS overhead of sp, with the
// file's overrides applied: capacity overrides first (the overhead is then
// computed from the overridden capacity), overhead overrides last.
func (s *settings) resources(sp *spec) (resources.List, resources.List, error) {
	eniPods := cmp.Or(s.defaultPods, DefaultPods)
	if sp.MaxPods != nil {
		eniPods = *sp.MaxPods
	}
	capacity := resources.New(sp.devices()...)
	capacity.CPU = *sp.VCPU * 1000
	capacity.Memory = vmMemory(*sp.MemoryMiB, sp.Arch == "arm64")
	capacity.EphemeralStorage = DefaultEphemeralStorage
	capacity.Pods = cmp.Or(s.maxPods, eniPods)
	capacity, err := override(sp.Name, "capacity", capacity, sp.Capacity)
	if err != nil {
		return capacity, capacity, err
	}
	if sp.Capacity["pods"] != "" {
		eniPods = capacity.Pods
	}
	if eniPods > 1<<20 || capacity.CPU > 1<<30 {
		return capacity, capacity, fieldErr(sp.Name, "capacity", ErrInvalidSpec, "pods above 2^20 or cpu above 2^20 cores")
	}
	overhead := eksOverhead(capacity.CPU, capacity.EphemeralStorage, eniPods)
	overhead, err = override(sp.Name, "overhead", overhead, sp.Overhead)
	return capacity, overhead, err
}

// override sets each resource named in m to its parsed quantity.
func override(typ, field string, l resources.List, m map[string]string) (resources.List, error) {
	if len(m) == 0 {
		return l, nil
	}
	parsed := make(map[resources.Name]string, len(m))
	for k, v := range m {
		parsed[resources.Name(k)] = v
	}
	values, err := resources.Parse(parsed)
	if err != nil {
		return l, fieldErr(typ, field, ErrInvalidSpec, "%v", err)
	}
	for _, k := range slices.Sorted(maps.Keys(parsed)) {
		l = l.With(k, values.Get(k))
	}
	return l, nil
}
