package instancetypes

import (
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/nodeplan/nodeplan/internal/parallel"
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
	// the prices. Default Prices.Region, else "us-east-1" ([AWS], [Parse])
	// or "eastus" ([Azure]). Prices are never taken from another region: a
	// region no price source covers is a [*NoPricesError] (see the package
	// doc for the order of the sources).
	Region string
	// Zones are the zones every type is offered in; each must be a zone of
	// Region ([ZoneInRegion]). Default: the region's zones (see the package
	// doc).
	Zones []string
	// Prices, when PerHour is not empty, are the on-demand prices of Region
	// in their currency, ahead of every other source; a type without a
	// price in them is left out.
	Prices Prices
	// CapacityTypes are the capacity types offerings are built for. Default
	// on-demand and spot. Catalog files hold no capacity reservations, so
	// Reserved builds no offering: it may be listed with others, not alone.
	CapacityTypes []CapacityType
	// SpotDiscount is the fraction of the on-demand price a spot offering
	// saves, in [0, MaxSpotDiscount]. 0 means DefaultSpotDiscount.
	SpotDiscount float64
	// NoSpotDiscount prices modelled spot offerings at the on-demand price:
	// a discount of 0, which SpotDiscount cannot say since its zero value
	// is the default. SpotDiscount must then be 0.
	NoSpotDiscount bool
	// SpotPrice sets the spot price, per hour in the catalog's currency, of
	// the named types in every zone, instead of the discount model; each in
	// [MinListPrice]..[MaxValidPrice], as a catalog file's price and
	// spotPrice.
	SpotPrice map[string]float64
	// MaxPods, when positive, is every type's pod capacity, as the kubelet
	// maxPods setting of an EC2NodeClass; kube-reserved memory is still sized
	// for the type's ENI-limited pod count, as Karpenter does on AL2023. At
	// most 2^31−1, as the kubelet's.
	MaxPods int
}

// DefaultSpotDiscount is the spot model: a spot offering costs 40% of the
// on-demand price. This is a model, not a fact; spot prices move with
// demand (typical AWS savings are 50–90%).
const DefaultSpotDiscount = 0.6

// MaxSpotDiscount is the largest Options.SpotDiscount: 99.9% off. As every
// on-demand price is at least [MinListPrice] (the resource model's too),
// every modelled spot price is then positive: a spot offering is never
// free. (A discount is applied in parts per million, rounded: a larger
// one would price cheap types' spot offerings at 0.)
const MaxSpotDiscount = 0.999

// The resource price model for documents without prices (Azure, and user
// catalogs that list none): a linear fit of AWS us-east-1 c5/m5/r5.large
// on-demand Linux prices in USD, plus a flat price per GPU and per
// accelerator.
const (
	ModelVCPUHour        = Price(36_500_000)  // $0.0365 per vCPU-hour
	ModelGiBHour         = Price(3_000_000)   // $0.0030 per GiB-hour
	ModelGPUHour         = Price(900_000_000) // $0.90 per GPU-hour
	ModelAcceleratorHour = Price(500_000_000) // $0.50 per accelerator-hour
)

// AWS returns the embedded AWS EC2 catalog under opts: the 1,398 types of
// the data that have an on-demand price in the region (1,367 in us-east-1,
// 549 in us-gov-east-1, 768 in us-gov-west-1, 316 in cn-north-1), priced
// from the embedded price list, or from opts.Prices. Any other region
// without opts.Prices is a [*NoPricesError]. The complexity is O(n log n);
// it decodes the embedded JSON on every call.
func AWS(opts Options) (*Catalog, error) {
	return parse(awsCatalog, opts, defaults{"AWS", "us-east-1", awsZones, DefaultPods, fromEmbedded})
}

// Azure returns the embedded Azure catalog (1,369 sizes) under opts. The
// data has no prices, so every size is priced by the resource model
// (ModelVCPUHour, ModelGiBHour, ModelGPUHour) in USD unless opts.Prices
// gives prices, and its labels use the same keys as AWS (instance-cpu,
// instance-memory, instance-family, ...), with values such as the SKU
// family made valid label values (lowercase, runs of other characters as
// '-'). Pods default to DefaultAzurePods, and the EKS overhead model
// applies (AKS's own reservations are not modelled).
func Azure(opts Options) (*Catalog, error) {
	return parse(azureCatalog, opts, defaults{"Azure", "eastus", azureZones, DefaultAzurePods, fromModel})
}

// Parse reads a user catalog in the schema of the embedded ones (see the
// package doc), with the same labels, overhead and spot model as [AWS]. Zone
// names default as for AWS. Prices come from opts.Prices, else the file's
// prices for the region, else, when the file has prices for other regions
// only, the embedded AWS price list; a file without any prices is priced
// by the resource model. A key repeated in an object of data is an error
// (ErrInvalidSpec), as an unknown field is; an error in an instance type's
// JSON names its index (instanceTypes[i]), the first in the file. The
// types are decoded and built on up to GOMAXPROCS goroutines; the catalog
// and the errors are the same for any GOMAXPROCS.
func Parse(data []byte, opts Options) (*Catalog, error) {
	return parse(data, opts, defaults{"", "us-east-1", awsZones, DefaultPods, fromDocument})
}

// DefaultAzurePods is the pod capacity of an Azure size: the Azure CNI
// default max pods per node (kubenet allows 110, but its kube-reserved
// memory would not fit the 1 GiB sizes).
const DefaultAzurePods = 30

// priceFrom is where a provider's on-demand prices come from when
// Options.Prices gives none.
type priceFrom uint8

const (
	fromEmbedded priceFrom = iota // the embedded AWS price list
	fromDocument                  // the document's prices, else the embedded list; the model for a document without prices
	fromModel                     // the resource model
)

// defaults are a provider's defaults for Options.
type defaults struct {
	provider string // "AWS", "Azure", "" for a user catalog
	region   string
	zones    func(region string) (zones []string, known bool)
	pods     int64
	prices   priceFrom
}

// settings are Options resolved against a document.
type settings struct {
	region      string
	zones       []string
	table       priceTable
	docCurrency string
	offer       [len(capacityTypeNames)]bool // capacity types to build offerings for
	spotOffPPM  int64
	spotPrice   map[string]Price
	spotGiven   int // types whose spot price was given, not modelled
	maxPods     int64
	defaultPods int64
	labels      labelBuilder // reused by every type's labels
}

// priceTable is the on-demand price source of a catalog.
type priceTable struct {
	currency, source string
	modelled         bool
	fromDoc          bool               // the document's price field
	perHour          map[string]float64 // Options.Prices or the embedded list
	field            string             // names the source in errors
}

func parse(data []byte, opts Options, def defaults) (*Catalog, error) {
	doc, err := decodeChecked(data, def.provider == "") // a user's file; the embedded data has no repeated key (tested)
	if err != nil {
		return nil, err
	}
	s, origin, err := resolve(opts, &doc, def)
	if err != nil {
		return nil, err
	}
	var types []InstanceType
	var errs []error
	for _, r := range s.instanceTypes(doc.InstanceTypes.specs) {
		switch {
		case r.err != nil:
			errs = append(errs, r.err)
		case r.priced:
			types = append(types, r.t)
		default:
			origin.Unpriced++
		}
		if r.spotGiven {
			origin.SpotGiven++
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	c, err := newOf(types, true) // every type's requirements built by spec.labels
	if err != nil {
		return nil, err
	}
	c.origin = origin
	return c, nil
}

// typeChunk is how many types a goroutine building a catalog takes at a
// time.
const typeChunk = 64

// specResult is what [settings.instanceType] made of one spec, and whether
// the spec's spot price was given rather than modelled.
type specResult struct {
	t         InstanceType
	priced    bool
	spotGiven bool
	err       error
}

// instanceTypes builds the type of each of specs, as instanceType does, on
// up to GOMAXPROCS goroutines, each with its own copy of s (so its own
// label buffer). Each result depends on its spec alone, so they are the
// same for any GOMAXPROCS.
func (s *settings) instanceTypes(specs []spec) []specResult {
	out := make([]specResult, len(specs))
	parallel.Range(len(specs), typeChunk, func() func(lo, hi int) {
		w := *s
		w.labels, w.spotGiven = labelBuilder{}, 0
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				given := w.spotGiven
				t, ok, err := w.instanceType(&specs[i])
				out[i] = specResult{t: t, priced: ok, spotGiven: w.spotGiven > given, err: err}
			}
		}
	})
	return out
}

// decodeChecked decodes data and, when check is set, then looks for a
// repeated key in it: only after the decode succeeded, as repeatedKey
// expects valid JSON (its recursion is bounded by the nesting
// encoding/json accepts).
func decodeChecked(data []byte, check bool) (document, error) {
	doc, err := decode(data)
	if err != nil || !check {
		return doc, err
	}
	if path, ok := repeatedKey(data, catalogMaps); ok {
		return document{}, fieldErr("", "document", ErrInvalidSpec, "%s: the key is repeated in its object", path)
	}
	return doc, nil
}

// resolve applies the defaults and validates opts.
func resolve(opts Options, doc *document, def defaults) (settings, Origin, error) {
	region := cmp.Or(opts.Region, opts.Prices.Region, def.region)
	zones, known := slices.Clone(opts.Zones), true
	if len(zones) == 0 {
		zones, known = def.zones(region)
	}
	s := settings{region: region, zones: zones, maxPods: int64(opts.MaxPods), defaultPods: def.pods,
		docCurrency: cmp.Or(doc.Currency, DefaultCurrency)}
	errs := s.where(opts.Prices, doc, def)
	d, err := spotDiscount(opts)
	errs = append(errs, err)
	s.spotOffPPM = int64(math.Round(d * 1e6))
	if opts.MaxPods < 0 || opts.MaxPods > maxKubeletCount {
		errs = append(errs, fieldErr("", "Options.MaxPods", ErrInvalidOptions, "%d not in 0..%d (kubelet maxPods is an int32)", opts.MaxPods, maxKubeletCount))
	}
	cts, err := s.capacityTypes(opts.CapacityTypes)
	errs = append(errs, err)
	var spotErrs []error
	s.spotPrice, spotErrs = spotPrices(opts.SpotPrice, doc)
	origin := Origin{Region: region, Zones: zones, ZonesAssumed: !known, Currency: s.table.currency,
		Source: s.table.source, Modelled: s.table.modelled, CapacityTypes: cts, SpotDiscount: d}
	return s, origin, errors.Join(append(errs, spotErrs...)...)
}

// spotDiscount is the discount of opts: SpotDiscount, DefaultSpotDiscount
// when it is 0, or 0 with NoSpotDiscount.
func spotDiscount(opts Options) (float64, error) {
	d := opts.SpotDiscount
	switch {
	case !(d >= 0 && d <= MaxSpotDiscount):
		return DefaultSpotDiscount, fieldErr("", "Options.SpotDiscount", ErrInvalidOptions,
			"%v not in [0, %v]: spot prices must stay positive", d, MaxSpotDiscount)
	case opts.NoSpotDiscount && d != 0:
		return 0, fieldErr("", "Options.NoSpotDiscount", ErrInvalidOptions, "set with SpotDiscount %v", d)
	case opts.NoSpotDiscount:
		return 0, nil
	}
	return cmp.Or(d, DefaultSpotDiscount), nil
}

// where validates the region, zones and currency of s and chooses its
// prices.
func (s *settings) where(p Prices, doc *document, def defaults) []error {
	if errs := validateRegion(s.region, "Options.Region"); len(errs) > 0 {
		return errs
	}
	errs := validateZones(s.region, "Options.Zones", s.zones)
	if !ValidCurrency(s.docCurrency) {
		errs = append(errs, fieldErr("", "currency", ErrInvalidSpec, "%q is not an ISO 4217 code such as USD", doc.Currency))
	}
	var err error
	s.table, err = priceSource(p, doc, def, s.region)
	return append(errs, err)
}

// capacityTypes records which capacity types to offer and returns them in
// label order.
func (s *settings) capacityTypes(cts []CapacityType) ([]CapacityType, error) {
	if len(cts) == 0 {
		cts = []CapacityType{OnDemand, Spot}
	}
	for i, ct := range cts {
		if !ct.valid() {
			return nil, fieldErr("", fmt.Sprintf("Options.CapacityTypes[%d]", i), ErrInvalidCapacityType, "%s is not on-demand, spot or reserved", ct)
		}
		s.offer[ct] = true
	}
	if !s.offer[OnDemand] && !s.offer[Spot] {
		return nil, fieldErr("", "Options.CapacityTypes", ErrInvalidOptions,
			"reserved alone offers nothing: reserved capacity comes from capacity reservations, which a catalog file does not hold; add on-demand or spot")
	}
	var out []CapacityType
	for ct, ok := range s.offer {
		if ok {
			out = append(out, CapacityType(ct))
		}
	}
	return out, nil
}

// priceSource chooses the on-demand prices: opts.Prices, else the
// provider's source for the region.
func priceSource(p Prices, doc *document, def defaults, region string) (priceTable, error) {
	if len(p.PerHour) > 0 {
		return givenPrices(p, region)
	}
	switch {
	case def.prices == fromModel, def.prices == fromDocument && len(doc.RegionPrices) == 0:
		return modelTable(def.provider), nil
	case def.prices == fromDocument && slices.Contains(doc.RegionPrices, region):
		return priceTable{currency: cmp.Or(doc.Currency, DefaultCurrency), source: "the catalog file's prices for " + region,
			fromDoc: true, field: "price." + region}, nil
	}
	e, err := embeddedPrices(region)
	var np *NoPricesError
	if errors.As(err, &np) && def.prices == fromDocument {
		np.Regions = slices.Compact(slices.Sorted(slices.Values(append(np.Regions, doc.RegionPrices...))))
		np.In = "the catalog file or " + np.In
	}
	return priceTable{currency: e.Currency, source: e.Source, perHour: e.PerHour, field: "embedded prices"}, err
}

// givenPrices checks Options.Prices for region.
func givenPrices(p Prices, region string) (priceTable, error) {
	if p.Region != "" && p.Region != region {
		return priceTable{}, fieldErr("", "Options.Prices.Region", ErrInvalidOptions, "prices for %q, catalog for %q: nodeplan never uses another region's prices", p.Region, region)
	}
	cur := cmp.Or(p.Currency, DefaultCurrency)
	if !ValidCurrency(cur) {
		return priceTable{}, fieldErr("", "Options.Prices.Currency", ErrInvalidOptions, "%q is not an ISO 4217 code such as USD", cur)
	}
	var errs []error
	for _, typ := range slices.Sorted(maps.Keys(p.PerHour)) {
		if _, err := listPrice(p.PerHour[typ]); err != nil {
			errs = append(errs, fieldErr(typ, "Options.Prices", ErrInvalidPrice, "%v", err))
		}
	}
	if len(errs) > 0 {
		return priceTable{}, errors.Join(errs...)
	}
	return priceTable{currency: cur, source: cmp.Or(p.Source, "Options.Prices"), perHour: p.PerHour, field: "Options.Prices"}, nil
}

// modelTable is the resource model, named for the provider whose list
// prices it is not.
func modelTable(provider string) priceTable {
	src := "modelled from vCPU/memory/GPU (the catalog file has no prices)"
	if provider != "" {
		src = "modelled from vCPU/memory/GPU, not " + provider + " list prices"
	}
	return priceTable{currency: DefaultCurrency, source: src, modelled: true}
}

// spotPrices converts the per-type spot overrides, checking the names exist.
func spotPrices(in map[string]float64, doc *document) (map[string]Price, []error) {
	names := make(map[string]bool, len(doc.InstanceTypes.specs))
	for _, t := range doc.InstanceTypes.specs {
		names[t.Name] = true
	}
	out := make(map[string]Price, len(in))
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(in)) {
		p, err := listPrice(in[name])
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
// the region and is left out.
func (s *settings) instanceType(sp *spec) (InstanceType, bool, error) {
	if errs := sp.validate(); len(errs) > 0 {
		return InstanceType{}, false, errors.Join(errs...)
	}
	od, ok, err := s.onDemandPrice(sp)
	if err != nil || !ok {
		return InstanceType{}, false, err
	}
	offs, offErr := s.offerings(sp, od)
	reqs, err := sp.labels(s.region, offs, &s.labels)
	if err != nil {
		return InstanceType{}, false, err
	}
	src := s.source(sp)
	capacity, overhead, err := src.resources(Kubelet{})
	if err != nil {
		return InstanceType{}, false, err
	}
	t := InstanceType{Name: sp.Name, Requirements: reqs, Capacity: capacity, Overhead: overhead, Offerings: offs, src: src}
	return t, true, offErr
}

// onDemandPrice is the type's price in the region's price table, or the
// resource model.
func (s *settings) onDemandPrice(sp *spec) (Price, bool, error) {
	if s.table.modelled {
		return modelPrice(sp), true, nil
	}
	d, ok := s.table.perHour[sp.Name]
	if s.table.fromDoc {
		d, ok = sp.Price[s.region]
	}
	if !ok {
		return 0, false, nil
	}
	p, err := listPrice(d)
	if err != nil {
		return 0, false, fieldErr(sp.Name, s.table.field, ErrInvalidPrice, "%v", err)
	}
	return p, true, nil
}

func modelPrice(sp *spec) Price {
	mem := (Price(*sp.MemoryMiB)*ModelGiBHour + 512) / 1024
	return Price(*sp.VCPU)*ModelVCPUHour + mem + Price(sp.GPUs)*ModelGPUHour + Price(sp.Accelerators)*ModelAcceleratorHour
}

// offerings returns an on-demand and a spot offering in every zone, each
// when its capacity type is offered.
func (s *settings) offerings(sp *spec, od Price) ([]Offering, error) {
	var spot Price
	var err error
	if s.offer[Spot] {
		spot, err = s.spot(sp, od)
	}
	offs := make([]Offering, 0, 2*len(s.zones))
	for _, z := range s.zones {
		if s.offer[OnDemand] {
			offs = append(offs, Offering{Zone: z, CapacityType: OnDemand, Price: od, Available: true})
		}
		if s.offer[Spot] {
			offs = append(offs, Offering{Zone: z, CapacityType: Spot, Price: spot, Available: true})
		}
	}
	return offs, err
}

// spot is the spot price: Options.SpotPrice, else the file's spotPrice for
// the region, else the discount model.
func (s *settings) spot(sp *spec, od Price) (Price, error) {
	if p, ok := s.spotPrice[sp.Name]; ok {
		s.spotGiven++
		return p, nil
	}
	d, ok := sp.SpotPrice[s.region]
	if !ok {
		return od.scale(s.spotOffPPM), nil
	}
	s.spotGiven++
	field := "spotPrice." + s.region
	if s.docCurrency != s.table.currency {
		return 0, fieldErr(sp.Name, field, ErrInvalidPrice, "in %s, but the on-demand prices are in %s", s.docCurrency, s.table.currency)
	}
	p, err := listPrice(d)
	if err != nil {
		return 0, fieldErr(sp.Name, field, ErrInvalidPrice, "%v", err)
	}
	return p, nil
}

// source is how the type of sp gets its capacity and overhead under s:
// with the EKS model and the file's overrides ([source.resources]).
// The source keeps a copy of sp without its prices and labels.
func (s *settings) source(sp *spec) *source {
	cp := *sp
	cp.Price, cp.SpotPrice, cp.Labels = nil, nil, nil
	return &source{spec: &cp, defaultPods: s.defaultPods, maxPods: s.maxPods}
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
