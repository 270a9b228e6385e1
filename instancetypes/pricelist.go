package instancetypes

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

//go:embed data/aws-ec2-prices.json
var awsPrices []byte

// Prices are the on-demand prices of instance types in one region, in one
// currency, as a price list gives them ([ParsePrices]). The zero Prices
// gives no prices.
type Prices struct {
	// Region is the region the prices are for. "" means Options.Region;
	// when Options.Region is empty, Region chooses the catalog's region.
	Region string
	// Currency is the ISO 4217 code of the prices, such as "USD" or "CNY".
	// "" means "USD".
	Currency string
	// Source says where the prices come from, for people (it becomes
	// [Origin].Source). "" means "Options.Prices".
	Source string
	// PerHour is the on-demand price per instance-hour of each type, in
	// Currency, each in [MinListPrice]..[MaxValidPrice] (checked, every one,
	// when the catalog is built). A type of the catalog missing from it has
	// no price and is left out of the catalog; names the catalog does not
	// have are ignored.
	PerHour map[string]float64
}

// ErrNoPrices is wrapped by the error ([*NoPricesError]) of a catalog asked
// for a region that no price source covers.
var ErrNoPrices = errors.New("no on-demand prices for the region")

// NoPricesError says that Region has no on-demand prices in the sources
// consulted, and which regions do. It wraps [ErrNoPrices].
type NoPricesError struct {
	Region  string
	Regions []string // regions that have prices, sorted
	In      string   // the sources consulted, such as "the embedded AWS price list"
}

func (e *NoPricesError) Error() string {
	has := "has prices for " + strings.Join(e.Regions, ", ")
	if len(e.Regions) == 0 {
		has = "has no regions"
	}
	if e.Region == "" {
		return fmt.Sprintf("instancetypes: %s %s: name one of them", e.In, has)
	}
	only := " only"
	if len(e.Regions) == 0 {
		only = ""
	}
	return fmt.Sprintf("instancetypes: %v: %q is not in %s, which %s%s; nodeplan never uses another region's prices",
		ErrNoPrices, e.Region, e.In, has, only)
}

// Unwrap returns ErrNoPrices.
func (e *NoPricesError) Unwrap() error { return ErrNoPrices }

// priceList is a file in the layout of aws-ec2-prices.json (see the
// package doc).
type priceList struct {
	Source     []string                  `json:"source"`
	Generated  string                    `json:"generated"`
	Price      string                    `json:"price"`
	Partitions map[string]pricePartition `json:"partitions"`
}

// pricePartition is one partition of a price list: a currency and the
// prices of its regions. A price is a pointer so that null is told from 0.
type pricePartition struct {
	Currency       string                         `json:"currency"`
	Source         *int                           `json:"source"`
	TableGenerated string                         `json:"tableGenerated"`
	Regions        map[string]map[string]*float64 `json:"regions"`
}

// ParsePrices reads the prices of region from a price list in the layout
// of aws-ec2-prices.json (see the package doc): partitions, each with a
// currency, the optional index of its entry in the list's "source", the
// optional date of its table ("tableGenerated": YYYY-MM-DD, or an RFC 3339
// time) and, per region, a price per instance-hour for each type. An
// empty region names the list's only region. The whole list is checked: a
// malformed list, a key repeated in an object, a region in two
// partitions, or a price that is null or outside
// [MinListPrice]..[MaxValidPrice] is a [*FieldError] wrapping
// [ErrInvalidPrice]. A region the list does not have is a
// [*NoPricesError]. The result's Source says which region and table the
// prices are ("on-demand prices for us-east-1, table of 2026-07-20"). It
// does not modify data. O(size of data).
func ParsePrices(data []byte, region string) (Prices, error) {
	p, date, err := parsePrices(data, region, true)
	p.Source = "on-demand prices for " + p.Region
	if date != "" {
		p.Source += ", table of " + date
	}
	return p, err
}

// parsePrices is ParsePrices, and the date of the region's table ("" when
// the list does not say). checkKeys looks for repeated keys, a second walk
// of data that the embedded list, checked by its tests, skips.
func parsePrices(data []byte, region string, checkKeys bool) (Prices, string, error) {
	list, err := decodePriceList(data, checkKeys)
	if err != nil {
		return Prices{}, "", err
	}
	in, err := list.check()
	if err != nil {
		return Prices{}, "", err
	}
	regions := slices.Sorted(maps.Keys(in))
	if region == "" && len(regions) == 1 {
		region = regions[0]
	}
	name, ok := in[region]
	if !ok {
		return Prices{}, "", &NoPricesError{Region: region, Regions: regions, In: "the price list"}
	}
	part := list.Partitions[name]
	perHour := make(map[string]float64, len(part.Regions[region]))
	for typ, d := range part.Regions[region] {
		perHour[typ] = *d
	}
	return Prices{Region: region, Currency: part.Currency, PerHour: perHour}, part.date(), nil
}

func decodePriceList(data []byte, checkKeys bool) (priceList, error) {
	var list priceList
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&list); err != nil {
		return list, fieldErr("", "prices", ErrInvalidPrice, "%v", err)
	}
	if dec.More() {
		return list, fieldErr("", "prices", ErrInvalidPrice, "trailing data after the JSON object")
	}
	if !checkKeys {
		return list, nil
	}
	if path, ok := repeatedKey(data, priceListMaps); ok {
		return list, fieldErr("", "prices", ErrInvalidPrice, "%s: the key is repeated in its object", path)
	}
	return list, nil
}

// check validates every partition of l and returns the partition of each
// region.
func (l *priceList) check() (map[string]string, error) {
	in := map[string]string{}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(l.Partitions)) {
		part := l.Partitions[name]
		errs = append(errs, part.check("partitions."+name, len(l.Source))...)
		for _, region := range slices.Sorted(maps.Keys(part.Regions)) {
			if other, ok := in[region]; ok {
				errs = append(errs, fieldErr("", "partitions."+name+".regions."+region, ErrInvalidPrice,
					"the region is also in partition %s: a region has one table", other))
			}
			in[region] = name
		}
	}
	return in, errors.Join(errs...)
}

// check validates the partition at field of a list with sources entries
// in its "source".
func (p *pricePartition) check(field string, sources int) []error {
	var errs []error
	if !ValidCurrency(p.Currency) {
		errs = append(errs, fieldErr("", field+".currency", ErrInvalidPrice, "%q is not an ISO 4217 code such as USD", p.Currency))
	}
	if p.Source != nil && (*p.Source < 0 || *p.Source >= sources) {
		errs = append(errs, fieldErr("", field+".source", ErrInvalidPrice, "%d is not an index of the list's %d sources", *p.Source, sources))
	}
	if !validDate(p.TableGenerated) {
		errs = append(errs, fieldErr("", field+".tableGenerated", ErrInvalidPrice, "%q is not a date YYYY-MM-DD or an RFC 3339 time", p.TableGenerated))
	}
	for _, region := range slices.Sorted(maps.Keys(p.Regions)) {
		table, rf := p.Regions[region], field+".regions."+region
		if len(table) == 0 {
			errs = append(errs, fieldErr("", rf, ErrInvalidPrice, "no prices"))
		}
		for _, typ := range slices.Sorted(maps.Keys(table)) {
			var err error
			if d := table[typ]; d == nil {
				err = fmt.Errorf("%w: null is not a price", ErrInvalidPrice)
			} else {
				_, err = listPrice(*d)
			}
			if err != nil {
				errs = append(errs, fieldErr(typ, rf, ErrInvalidPrice, "%v", err))
			}
		}
	}
	return errs
}

// date is the date of the partition's table, "" when it has none.
func (p *pricePartition) date() string {
	return p.TableGenerated[:min(len(p.TableGenerated), len(time.DateOnly))]
}

// validDate reports whether s is empty, a date YYYY-MM-DD or an RFC 3339
// time.
func validDate(s string) bool {
	_, errDate := time.Parse(time.DateOnly, s)
	_, errTime := time.Parse(time.RFC3339, s)
	return s == "" || errDate == nil || errTime == nil
}

// ValidCurrency reports whether c has the form of an ISO 4217 currency
// code, three upper-case ASCII letters ("USD", "CNY"), as every Origin's
// Currency has. It does not know which codes are assigned. It does not
// allocate.
func ValidCurrency(c string) bool {
	if len(c) != 3 {
		return false
	}
	for _, r := range []byte(c) {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// embeddedPrices returns the embedded AWS on-demand prices of region
// (Karpenter's initial price tables: us-east-1, us-gov-east-1,
// us-gov-west-1 in USD, cn-north-1 in CNY), or a *NoPricesError.
func embeddedPrices(region string) (Prices, error) {
	p, date, err := parsePrices(awsPrices, region, false)
	var np *NoPricesError
	if errors.As(err, &np) {
		np.In = "nodeplan's embedded AWS price list"
	}
	p.Source = fmt.Sprintf("embedded AWS on-demand prices for %s, Karpenter's initial price table of %s", region, date)
	return p, err
}
