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
	// Currency. A type of the catalog missing from it has no price and is
	// left out of the catalog; names the catalog does not have are ignored.
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
	if e.Region == "" {
		return fmt.Sprintf("instancetypes: %s has prices for %s: name one of them", e.In, strings.Join(e.Regions, ", "))
	}
	return fmt.Sprintf("instancetypes: %v: %q is not in %s, which has prices for %s only; nodeplan never uses another region's prices",
		ErrNoPrices, e.Region, e.In, strings.Join(e.Regions, ", "))
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
// prices of its regions.
type pricePartition struct {
	Currency       string                        `json:"currency"`
	Source         *int                          `json:"source"`
	TableGenerated string                        `json:"tableGenerated"`
	Regions        map[string]map[string]float64 `json:"regions"`
}

// ParsePrices reads the prices of region from a price list in the layout
// of aws-ec2-prices.json (see the package doc): partitions, each with a
// currency and, per region, a price per instance-hour for each type. An
// empty region names the list's only region. A region the list does not
// have is a [*NoPricesError]; a malformed list or price is a [*FieldError]
// wrapping [ErrInvalidPrice]. The result's Source says which region and
// table the prices are ("on-demand prices for us-east-1, table of
// 2026-07-20"). It does not modify data. O(size of data).
func ParsePrices(data []byte, region string) (Prices, error) {
	p, date, err := parsePrices(data, region)
	p.Source = "on-demand prices for " + p.Region
	if date != "" {
		p.Source += ", table of " + date
	}
	return p, err
}

// parsePrices is ParsePrices, and the date of the region's table ("" when
// the list does not say).
func parsePrices(data []byte, region string) (Prices, string, error) {
	list, err := decodePriceList(data)
	if err != nil {
		return Prices{}, "", err
	}
	regions := list.regions()
	if region == "" && len(regions) == 1 {
		region = regions[0]
	}
	for _, name := range slices.Sorted(maps.Keys(list.Partitions)) {
		part := list.Partitions[name]
		if table, ok := part.Regions[region]; ok {
			d := part.TableGenerated
			p, err := part.prices(name, region, table)
			return p, d[:min(len(d), len("2006-01-02"))], err
		}
	}
	return Prices{}, "", &NoPricesError{Region: region, Regions: regions, In: "the price list"}
}

func decodePriceList(data []byte) (priceList, error) {
	var list priceList
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&list); err != nil {
		return list, fieldErr("", "prices", ErrInvalidPrice, "%v", err)
	}
	if dec.More() {
		return list, fieldErr("", "prices", ErrInvalidPrice, "trailing data after the JSON object")
	}
	return list, nil
}

// regions returns the regions of every partition, sorted.
func (l *priceList) regions() []string {
	var out []string
	for _, p := range l.Partitions {
		out = append(out, slices.Collect(maps.Keys(p.Regions))...)
	}
	slices.Sort(out)
	return out
}

// prices checks and returns the table of region in partition name.
func (p *pricePartition) prices(name, region string, table map[string]float64) (Prices, error) {
	field := "partitions." + name
	if !validCurrency(p.Currency) {
		return Prices{}, fieldErr("", field+".currency", ErrInvalidPrice, "%q is not an ISO 4217 code such as USD", p.Currency)
	}
	var errs []error
	for _, typ := range slices.Sorted(maps.Keys(table)) {
		if _, err := PriceFromDollars(table[typ]); err != nil {
			errs = append(errs, fieldErr(typ, field+".regions."+region, ErrInvalidPrice, "%v", err))
		}
	}
	if len(table) == 0 {
		errs = append(errs, fieldErr("", field+".regions."+region, ErrInvalidPrice, "no prices"))
	}
	return Prices{Region: region, Currency: p.Currency, PerHour: table}, errors.Join(errs...)
}

// validCurrency reports whether c looks like an ISO 4217 code: three
// upper-case letters.
func validCurrency(c string) bool {
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
	p, date, err := parsePrices(awsPrices, region)
	var np *NoPricesError
	if errors.As(err, &np) {
		np.In = "nodeplan's embedded AWS price list"
	}
	p.Source = fmt.Sprintf("embedded AWS on-demand prices for %s, Karpenter's initial price table of %s", region, date)
	return p, err
}
