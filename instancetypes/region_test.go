package instancetypes

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/requirements"
)

var embeddedRegions = []string{"cn-north-1", "us-east-1", "us-gov-east-1", "us-gov-west-1"}

// TestAWSRegions: the embedded catalog is priced with the region's own
// prices, in its currency, in the region's zones; a region without
// embedded prices is an error unless Options.Prices gives them.
func TestAWSRegions(t *testing.T) {
	tests := []struct {
		name         string
		opts         Options
		types        int
		m5           float64 // on-demand m5.large price, 0 when absent
		currency     string
		zones        []string
		zonesAssumed bool
		source       string
	}{
		{"default us-east-1", Options{}, 1367, 0.096, "USD", []string{"us-east-1a", "us-east-1b", "us-east-1c"}, false, "embedded AWS on-demand prices for us-east-1"},
		{"us-gov-east-1", Options{Region: "us-gov-east-1"}, 549, 0.121, "USD", []string{"us-gov-east-1a", "us-gov-east-1b", "us-gov-east-1c"}, false, "us-gov-east-1, Karpenter's initial price table of 2026-07-20"},
		{"us-gov-west-1", Options{Region: "us-gov-west-1"}, 768, 0.121, "USD", []string{"us-gov-west-1a", "us-gov-west-1b", "us-gov-west-1c"}, false, "us-gov-west-1"},
		{"cn-north-1 in CNY, zones a b d", Options{Region: "cn-north-1"}, 316, 1.013, "CNY", []string{"cn-north-1a", "cn-north-1b", "cn-north-1d"}, false, "cn-north-1, Karpenter's initial price table of 2024-11-06"},
		{"region without embedded prices, prices given", Options{Region: "ap-southeast-2",
			Prices: Prices{Currency: "AUD", Source: "my.json", PerHour: map[string]float64{"m5.large": 0.12, "nosuch.type": 1}}},
			1, 0.12, "AUD", []string{"ap-southeast-2a", "ap-southeast-2b", "ap-southeast-2c"}, true, "my.json"},
		{"the prices' region is the default region", Options{Prices: Prices{Region: "eu-west-1", PerHour: map[string]float64{"m5.large": 0.107}}},
			1, 0.107, "USD", []string{"eu-west-1a", "eu-west-1b", "eu-west-1c"}, true, "Options.Prices"},
		{"given prices beat embedded ones", Options{Prices: Prices{PerHour: map[string]float64{"m5.large": 0.05}}},
			1, 0.05, "USD", []string{"us-east-1a", "us-east-1b", "us-east-1c"}, false, "Options.Prices"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := AWS(tc.opts)
			require.NoError(t, err)
			assert.Equal(t, tc.types, c.Len())
			o := c.Origin()
			assert.Equal(t, tc.currency, o.Currency)
			assert.Equal(t, tc.currency, c.Currency())
			assert.Equal(t, tc.zones, o.Zones)
			assert.Equal(t, tc.zonesAssumed, o.ZonesAssumed)
			assert.Contains(t, o.Source, tc.source)
			assert.Equal(t, 1398-tc.types, o.Unpriced)
			assert.False(t, o.Modelled)
			m5, ok := c.Get("m5.large")
			require.True(t, ok)
			assert.Equal(t, MustPriceFromDollars(tc.m5), m5.Offerings[len(m5.Offerings)-1].Price, "on-demand, the dearest offering")
			assert.Equal(t, tc.zones, m5.Requirements.Get(requirements.LabelZone).Values())
			assert.True(t, m5.Requirements.Get(requirements.LabelRegion).Has(o.Region))
		})
	}
}

func TestAWSRegionErrors(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		kind    error
		want    string
		regions []string // of the *NoPricesError, when kind is ErrNoPrices
	}{
		{"region without embedded prices", Options{Region: "ap-southeast-2"}, ErrNoPrices,
			`"ap-southeast-2" is not in nodeplan's embedded AWS price list, which has prices for cn-north-1, us-east-1, us-gov-east-1, us-gov-west-1 only`, embeddedRegions},
		{"mars-1", Options{Region: "mars-1"}, ErrNoPrices, `"mars-1"`, embeddedRegions},
		{"prices of another region", Options{Region: "us-east-1", Prices: Prices{Region: "eu-west-1", PerHour: map[string]float64{"m5.large": 1}}},
			ErrInvalidOptions, "Options.Prices.Region", nil},
		{"bad currency", Options{Prices: Prices{Currency: "dollars", PerHour: map[string]float64{"m5.large": 1}}}, ErrInvalidOptions, "Options.Prices.Currency", nil},
		{"negative given price", Options{Prices: Prices{PerHour: map[string]float64{"m5.large": -1}}}, ErrInvalidPrice, `"m5.large": Options.Prices`, nil},
		{"zero given price", Options{Prices: Prices{PerHour: map[string]float64{"m5.large": 0.1, "m5.xlarge": 0}}}, ErrInvalidPrice,
			`"m5.xlarge": Options.Prices: invalid price: invalid price: 0 per hour is below the minimum 0.000001/h`, nil},
		{"zero given price of a type not in the catalog", Options{Prices: Prices{PerHour: map[string]float64{"m5.large": 0.1, "x.y": 0}}}, ErrInvalidPrice,
			`"x.y": Options.Prices`, nil},
		{"zero spot price", Options{SpotPrice: map[string]float64{"m5.large": 1e-300}}, ErrInvalidPrice, `"m5.large": Options.SpotPrice: invalid price: invalid price: 1e-300 per hour is below the minimum`, nil},
		{"spot discount that prices spot at 0", Options{SpotDiscount: 0.9999999999}, ErrInvalidOptions,
			"Options.SpotDiscount: invalid options: 0.9999999999 not in [0, 0.999]: spot prices must stay positive", nil},
		{"spot discount just above the maximum", Options{SpotDiscount: 0.9991}, ErrInvalidOptions, "Options.SpotDiscount", nil},
		{"zone of another region", Options{Zones: []string{"us-east-1a", "eu-west-1a"}}, ErrInvalidOptions, `Options.Zones[1]: invalid options: "eu-west-1a" is not a zone of region "us-east-1"`, nil},
		{"zones of another region", Options{Region: "us-gov-west-1", Zones: []string{"us-east-1a"}}, ErrInvalidOptions, `"us-east-1a" is not a zone of region "us-gov-west-1"`, nil},
		{"bad region", Options{Region: "Mars 1"}, ErrInvalidOptions, "Options.Region", nil},
		{"reserved alone", Options{CapacityTypes: []CapacityType{Reserved}}, ErrInvalidOptions, "reserved alone offers nothing", nil},
		{"unknown capacity type", Options{CapacityTypes: []CapacityType{OnDemand, CapacityType(7)}}, ErrInvalidCapacityType, "Options.CapacityTypes[1]", nil},
		{"max pods beyond the kubelet's int32", Options{MaxPods: 1 << 62}, ErrInvalidOptions, "Options.MaxPods: invalid options: 4611686018427387904 not in 0..2147483647", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := AWS(tc.opts)
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.kind)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "\n", "one error about the option, not one per type")
			var np *NoPricesError
			if assert.Equal(t, tc.regions != nil, errors.As(err, &np)) && np != nil {
				assert.Equal(t, tc.regions, np.Regions)
			}
		})
	}
}

// TestParseRegionPrices: a catalog file is priced with its own prices for
// the region, else the embedded ones, never another region's.
func TestParseRegionPrices(t *testing.T) {
	const file = `{"region_prices":["eu-west-1","us-east-1"],%s"instanceTypes":[
  {"name":"m5.large","family":"m5","size":"large","vcpu":2,"memoryMiB":8192,"gpus":0,"gpuManufacturer":"","gpuName":"","arch":"amd64","bareMetal":false,"price":{"eu-west-1":0.107},"spotPrice":{"eu-west-1":0.04}},
  {"name":"m6i.large","family":"m6i","size":"large","vcpu":2,"memoryMiB":8192,"gpus":0,"gpuManufacturer":"","gpuName":"","arch":"amd64","bareMetal":false,"price":{"eu-west-1":0.107}}]}`
	usd, cny := []byte(fmt.Sprintf(file, "")), []byte(fmt.Sprintf(file, `"currency":"CNY",`))
	tests := []struct {
		name     string
		data     []byte
		opts     Options
		m5, spot float64
		currency string
		source   string
	}{
		{"the file's prices for the region", usd, Options{Region: "eu-west-1", Zones: []string{"eu-west-1a"}}, 0.107, 0.04, "USD", "the catalog file's prices for eu-west-1"},
		{"the file's currency", cny, Options{Region: "eu-west-1", Zones: []string{"eu-west-1a"}}, 0.107, 0.04, "CNY", "the catalog file's prices for eu-west-1"},
		{"embedded prices for a region the file lacks", usd, Options{Region: "us-gov-west-1"}, 0.121, 0.121 * 0.4, "USD", "embedded AWS on-demand prices for us-gov-west-1"},
		{"embedded CNY prices", usd, Options{Region: "cn-north-1"}, 1.013, 0.4052, "CNY", "cn-north-1"},
		{"given prices beat the file's", usd, Options{Region: "eu-west-1", Zones: []string{"eu-west-1a"},
			Prices: Prices{PerHour: map[string]float64{"m5.large": 0.2}}}, 0.2, 0.04, "USD", "Options.Prices"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse(tc.data, tc.opts)
			require.NoError(t, err)
			m5, ok := c.Get("m5.large")
			require.True(t, ok)
			assert.Equal(t, MustPriceFromDollars(tc.spot), m5.Offerings[0].Price, "spot")
			assert.Equal(t, MustPriceFromDollars(tc.m5), m5.Offerings[len(m5.Offerings)-1].Price, "on-demand")
			assert.Equal(t, tc.currency, c.Origin().Currency)
			assert.Contains(t, c.Origin().Source, tc.source)
		})
	}

	_, err := Parse(usd, Options{Region: "ap-southeast-2"})
	var np *NoPricesError
	require.True(t, errors.As(err, &np), "%v", err)
	assert.Equal(t, []string{"cn-north-1", "eu-west-1", "us-east-1", "us-gov-east-1", "us-gov-west-1"}, np.Regions)
	assert.Contains(t, err.Error(), "the catalog file or nodeplan's embedded AWS price list")

	_, err = Parse(cny, Options{Region: "eu-west-1", Zones: []string{"eu-west-1a"}, Prices: Prices{Currency: "USD", PerHour: map[string]float64{"m5.large": 1}}})
	assert.ErrorIs(t, err, ErrInvalidPrice, "a CNY spotPrice next to USD on-demand prices")
	assert.ErrorContains(t, err, `"m5.large": spotPrice.eu-west-1`)

	_, err = Parse([]byte(`{"currency":"usd","instanceTypes":[]}`), Options{})
	assert.ErrorIs(t, err, ErrInvalidSpec)
}

func TestModelledOrigin(t *testing.T) {
	azure, err := Azure(Options{Region: "westeurope"})
	require.NoError(t, err)
	o := azure.Origin()
	assert.True(t, o.Modelled)
	assert.Equal(t, "modelled from vCPU/memory/GPU, not Azure list prices", o.Source)
	assert.Equal(t, "USD", o.Currency)
	assert.Equal(t, []string{"westeurope-1", "westeurope-2", "westeurope-3"}, o.Zones)

	c, err := Parse([]byte(`{"instanceTypes":[{"name":"a","vcpu":2,"memoryMiB":8192,"arch":"amd64"}]}`), Options{Region: "mars-1", Zones: []string{"mars-1a"}})
	require.NoError(t, err, "a file without prices is modelled in any region")
	assert.True(t, c.Origin().Modelled)
	assert.Contains(t, c.Origin().Source, "the catalog file has no prices")
}

func TestCapacityTypes(t *testing.T) {
	tests := []struct {
		name  string
		cts   []CapacityType
		want  []CapacityType // of the offerings and Origin.CapacityTypes
		label []string
	}{
		{"default", nil, []CapacityType{OnDemand, Spot}, []string{"on-demand", "spot"}},
		{"on-demand only", []CapacityType{OnDemand}, []CapacityType{OnDemand}, []string{"on-demand"}},
		{"spot only", []CapacityType{Spot}, []CapacityType{Spot}, []string{"spot"}},
		{"reserved builds nothing", []CapacityType{Reserved, OnDemand}, []CapacityType{OnDemand, Reserved}, []string{"on-demand"}},
		{"duplicates", []CapacityType{Spot, OnDemand, Spot}, []CapacityType{OnDemand, Spot}, []string{"on-demand", "spot"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := AWS(Options{CapacityTypes: tc.cts})
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.Origin().CapacityTypes)
			for _, typ := range c.Types() {
				for _, o := range typ.Offerings {
					require.Contains(t, tc.label, o.CapacityType.String(), typ.Name)
				}
				require.Len(t, typ.Offerings, 3*len(tc.label), typ.Name)
			}
			m5, _ := c.Get("m5.large")
			assert.Equal(t, tc.label, m5.Requirements.Get(requirements.LabelCapacityType).Values())
		})
	}
}

func TestParsePrices(t *testing.T) {
	list := `{"source":["s"],"generated":"g","price":"p","partitions":{
 "aws":{"currency":"USD","source":0,"tableGenerated":"2026-07-20T13:44:30Z","regions":{"ap-southeast-2":{"m5.large":0.12}}},
 "aws-cn":{"currency":"CNY","source":0,"regions":{"cn-northwest-1":{"m5.large":0.9}}}}}`
	one := `{"partitions":{"x":{"currency":"EUR","regions":{"eu-west-1":{"m5.large":0.1}}}}}`
	tests := []struct {
		name, data, region string
		want               Prices
		kind               error
		errText            string
	}{
		{"region", list, "ap-southeast-2", Prices{Region: "ap-southeast-2", Currency: "USD",
			Source: "on-demand prices for ap-southeast-2, table of 2026-07-20", PerHour: map[string]float64{"m5.large": 0.12}}, nil, ""},
		{"other partition", list, "cn-northwest-1", Prices{Region: "cn-northwest-1", Currency: "CNY",
			Source: "on-demand prices for cn-northwest-1", PerHour: map[string]float64{"m5.large": 0.9}}, nil, ""},
		{"the only region", one, "", Prices{Region: "eu-west-1", Currency: "EUR", Source: "on-demand prices for eu-west-1",
			PerHour: map[string]float64{"m5.large": 0.1}}, nil, ""},
		{"a date", `{"partitions":{"x":{"currency":"EUR","tableGenerated":"2026-01-02","regions":{"r":{"a":0.000001}}}}}`, "r",
			Prices{Region: "r", Currency: "EUR", Source: "on-demand prices for r, table of 2026-01-02", PerHour: map[string]float64{"a": 0.000001}}, nil, ""},
		{"no region among several", list, "", Prices{}, ErrNoPrices, "has prices for ap-southeast-2, cn-northwest-1: name one"},
		{"missing region", list, "us-east-1", Prices{}, ErrNoPrices, `"us-east-1" is not in the price list`},
		{"not json", `{`, "x", Prices{}, ErrInvalidPrice, "prices"},
		{"unknown field", `{"partitions":{},"extra":1}`, "x", Prices{}, ErrInvalidPrice, "extra"},
		{"negative", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"a.b":-1}}}}}`, "r", Prices{}, ErrInvalidPrice, `"a.b": partitions.x.regions.r`},
		{"empty", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{}}}}}`, "r", Prices{}, ErrInvalidPrice, "no prices"},
		{"currency", `{"partitions":{"x":{"currency":"euro","regions":{"r":{"a":1}}}}}`, "r", Prices{}, ErrInvalidPrice, "partitions.x.currency"},
		{"null price", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"m5.large":null}}}}}`, "r", Prices{}, ErrInvalidPrice,
			`"m5.large": partitions.x.regions.r: invalid price: invalid price: null is not a price`},
		{"zero price", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"m5.large":0}}}}}`, "r", Prices{}, ErrInvalidPrice,
			`"m5.large": partitions.x.regions.r: invalid price: invalid price: 0 per hour is below the minimum 0.000001/h`},
		{"price that rounds to 0", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"m5.large":1e-300}}}}}`, "r", Prices{}, ErrInvalidPrice, "below the minimum"},
		{"price below a micro-unit", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"m5.large":0.0000009}}}}}`, "r", Prices{}, ErrInvalidPrice, "below the minimum"},
		{"price above the maximum", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"m5.large":2e6}}}}}`, "r", Prices{}, ErrInvalidPrice, "above the maximum"},
		{"bad price in another region", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"a":1},"s":{"a":0}}}}}`, "r", Prices{}, ErrInvalidPrice, "partitions.x.regions.s"},
		{"region in two partitions", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"a":1}}},"y":{"currency":"USD","regions":{"r":{"a":2}}}}}`, "r",
			Prices{}, ErrInvalidPrice, "partitions.y.regions.r: invalid price: the region is also in partition x"},
		{"repeated type", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"a":1,"a":2}}}}}`, "r", Prices{}, ErrInvalidPrice,
			"prices: invalid price: partitions.x.regions.r.a: the key is repeated in its object"},
		{"repeated region", `{"partitions":{"x":{"currency":"EUR","regions":{"r":{"a":1},"r":{"a":2}}}}}`, "r", Prices{}, ErrInvalidPrice, "partitions.x.regions.r: the key is repeated"},
		{"repeated field, other case", `{"partitions":{"x":{"currency":"EUR","Currency":"USD","regions":{"r":{"a":1}}}}}`, "r", Prices{}, ErrInvalidPrice, "partitions.x.Currency: the key is repeated"},
		{"tableGenerated not a date", `{"partitions":{"x":{"currency":"EUR","tableGenerated":"yesterday","regions":{"r":{"a":1}}}}}`, "r", Prices{}, ErrInvalidPrice,
			`partitions.x.tableGenerated: invalid price: "yesterday" is not a date`},
		{"source out of range", `{"source":["s"],"partitions":{"x":{"currency":"EUR","source":1,"regions":{"r":{"a":1}}}}}`, "r", Prices{}, ErrInvalidPrice,
			"partitions.x.source: invalid price: 1 is not an index of the list's 1 sources"},
		{"negative source", `{"partitions":{"x":{"currency":"EUR","source":-1,"regions":{"r":{"a":1}}}}}`, "r", Prices{}, ErrInvalidPrice, "partitions.x.source"},
		{"no regions", `{"partitions":{}}`, "r", Prices{}, ErrNoPrices, `"r" is not in the price list, which has no regions;`},
		{"no regions, none named", `{"partitions":{}}`, "", Prices{}, ErrNoPrices, "the price list has no regions: name one"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePrices([]byte(tc.data), tc.region)
			if tc.kind != nil {
				assert.ErrorIs(t, err, tc.kind)
				assert.ErrorContains(t, err, tc.errText)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestOnePriceSource: the embedded catalog's us-east-1 prices, which AWS
// no longer reads, equal the price list's, so dropping them loses nothing.
func TestOnePriceSource(t *testing.T) {
	doc, err := decode(awsCatalog)
	require.NoError(t, err)
	list, err := embeddedPrices("us-east-1")
	require.NoError(t, err)
	n := 0
	for _, sp := range doc.InstanceTypes.specs {
		if p, ok := sp.Price["us-east-1"]; ok {
			n++
			assert.Equal(t, p, list.PerHour[sp.Name], sp.Name)
		}
	}
	assert.Equal(t, n, len(list.PerHour))
}

func TestZoneInRegion(t *testing.T) {
	tests := []struct {
		zone, region string
		want         bool
	}{
		{"us-east-1a", "us-east-1", true},
		{"us-west-2-lax-1a", "us-west-2", true},
		{"eastus-1", "eastus", true},
		{"us-east-1", "us-east-1", false},
		{"us-east-10a", "us-east-1", false},
		{"us-east-1A", "us-east-1", false},
		{"us-east-1-", "us-east-1", false},
		{"eu-west-1a", "us-east-1", false},
		{"a", "", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, ZoneInRegion(tc.zone, tc.region), "%s in %s", tc.zone, tc.region)
	}
}

func TestWithZones(t *testing.T) {
	aws, err := AWS(Options{Region: "us-gov-west-1"})
	require.NoError(t, err)
	c, err := aws.WithZones("us-gov-west-1c", "us-gov-west-1-phx-1a")
	require.NoError(t, err)
	assert.Equal(t, aws.Len(), c.Len())
	m5, _ := c.Get("m5.large")
	spot, od := MustPriceFromDollars(0.121).scale(600_000), MustPriceFromDollars(0.121)
	assert.Equal(t, []Offering{off("us-gov-west-1-phx-1a", Spot, spot), off("us-gov-west-1c", Spot, spot),
		off("us-gov-west-1-phx-1a", OnDemand, od), off("us-gov-west-1c", OnDemand, od)}, m5.Offerings)
	assert.Equal(t, []string{"us-gov-west-1-phx-1a", "us-gov-west-1c"}, m5.Requirements.Get(requirements.LabelZone).Values())
	o := c.Origin()
	assert.Equal(t, []string{"us-gov-west-1c", "us-gov-west-1-phx-1a"}, o.Zones)
	assert.Equal(t, aws.Origin().Source, o.Source, "the rest of the origin is kept")
	assert.Equal(t, []string{"us-gov-west-1a", "us-gov-west-1b", "us-gov-west-1c"}, aws.Origin().Zones, "the receiver is unchanged")

	_, err = aws.WithZones("us-east-1a")
	assert.ErrorIs(t, err, ErrInvalidOptions)
	assert.ErrorContains(t, err, `zones[0]: invalid options: "us-east-1a" is not a zone of region "us-gov-west-1"`)
	_, err = aws.WithZones("us-gov-west-1a", "us-gov-west-1a")
	assert.ErrorIs(t, err, ErrInvalidOptions)

	lost, err := aws.WithAvailability(OfferingKey{"m5.large", "us-gov-west-1b", Spot})
	require.NoError(t, err)
	_, err = lost.WithZones("us-gov-west-1a")
	assert.ErrorIs(t, err, ErrInvalidOffering, "offerings that differ by zone cannot move")
	assert.ErrorContains(t, err, `"m5.large": offerings`)
	assert.Equal(t, aws.Origin(), lost.Origin(), "WithAvailability keeps the origin")

	perZone, err := New([]InstanceType{testType("a", off("z1", OnDemand, 1), off("z2", OnDemand, 2))})
	require.NoError(t, err)
	_, err = perZone.WithZones("z3")
	assert.ErrorIs(t, err, ErrInvalidOffering)
	assert.Equal(t, Origin{}, perZone.Origin(), "New knows nothing of the origin")
}

// TestMaxSpotDiscount: at the largest discount, every modelled spot price
// of every embedded region is still positive.
func TestMaxSpotDiscount(t *testing.T) {
	for _, region := range embeddedRegions {
		c, err := AWS(Options{Region: region, SpotDiscount: MaxSpotDiscount})
		require.NoError(t, err)
		for _, it := range c.Types() {
			for _, o := range it.Offerings {
				require.Positive(t, o.Price, "%s %s %s", region, it.Name, o.CapacityType)
			}
		}
	}
	require.Positive(t, MinListPrice.scale(int64(math.Round(MaxSpotDiscount*1e6))), "the cheapest given price, at the largest discount")
}
