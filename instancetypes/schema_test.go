package instancetypes

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

const userCatalog = `{
 "source": ["test"], "generated": "2026-12-02", "region_prices": ["us-east-1"],
 "instanceTypes": [
  {"name":"m5.large","family":"m5","size":"large","generation":5,"category":"m","vcpu":2,"memoryMiB":8192,"gpus":0,"gpuManufacturer":"","gpuName":"","arch":"amd64","bareMetal":false,"maxPods":29,"price":{"us-east-1":0.096}},
  {"name":"onprem.big","family":"onprem","size":"big","vcpu":64,"memoryMiB":262144,"gpus":2,"gpuManufacturer":"nvidia","gpuName":"l4","arch":"amd64","bareMetal":true,"price":{"us-east-1":1.5},
   "os":["linux","windows"],"labels":{"example.com/rack":"r1"},
   "capacity":{"memory":"250Gi","ephemeral-storage":"1Ti","pods":"250"},"overhead":{"cpu":"1"},"spotPrice":{"us-east-1":0.5}},
  {"name":"noprice.large","family":"noprice","size":"large","vcpu":2,"memoryMiB":4096,"gpus":0,"gpuManufacturer":"","gpuName":"","arch":"arm64","bareMetal":false}
 ]}`

func TestParseUserCatalog(t *testing.T) {
	c, err := Parse([]byte(userCatalog), Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"m5.large", "onprem.big"}, names(c.Types()), "a type without a price is left out")
	m5, _ := c.Get("m5.large")
	assert.Equal(t, int64(6903*mib), m5.Allocatable.Memory, "same model as the embedded catalog")
	assert.Len(t, m5.Offerings, 6)
	assert.Equal(t, off("us-east-1a", Spot, 38_400_000), m5.Offerings[0])
	big, _ := c.Get("onprem.big")
	assert.Equal(t, int64(250*gib), big.Capacity.Memory, "capacity override is final")
	assert.Equal(t, int64(250), big.Capacity.Pods)
	assert.Equal(t, int64(1<<40), big.Capacity.EphemeralStorage)
	assert.Equal(t, int64(1000), big.Overhead.CPU, "overhead override")
	assert.Equal(t, int64((11*250+255)*mib+100*mib), big.Overhead.Memory, "kube-reserved sized for the overridden pods")
	assert.Equal(t, int64(1<<30+(1<<40)/10+1), big.Overhead.EphemeralStorage, "10% of 1Ti, rounded up")
	assert.Equal(t, int64(2), big.Capacity.Get(resources.GPU))
	assert.Equal(t, MustPriceFromDollars(0.5), big.Offerings[0].Price)
	assert.True(t, big.Requirements.Get("example.com/rack").Has("r1"))
	assert.True(t, big.Requirements.Get(requirements.LabelOS).Has("windows"))
	assert.True(t, big.Requirements.Get(requirements.LabelInstanceGPUName).Has("l4"))
	assert.True(t, big.Requirements.Get(requirements.LabelInstanceBareMetal).Has("true"))
	assert.Equal(t, requirements.DoesNotExist, big.Requirements.Get(requirements.LabelInstanceCategory).Operator())
}

func TestParseOptions(t *testing.T) {
	c, err := Parse([]byte(userCatalog), Options{Zones: []string{"us-east-1d", "us-east-1f"}, CapacityTypes: []CapacityType{OnDemand},
		MaxPods: 110, SpotPrice: map[string]float64{"m5.large": 0.01}})
	require.NoError(t, err)
	m5, _ := c.Get("m5.large")
	assert.Equal(t, []Offering{off("us-east-1d", OnDemand, 96_000_000), off("us-east-1f", OnDemand, 96_000_000)}, m5.Offerings)
	assert.Equal(t, int64(110), m5.Capacity.Pods)
	assert.Equal(t, int64((11*29+255)*mib+100*mib), m5.Overhead.Memory, "kube-reserved still sized for ENI pods")

	c, err = Parse([]byte(userCatalog), Options{SpotDiscount: 0.5, SpotPrice: map[string]float64{"m5.large": 0.01}})
	require.NoError(t, err)
	m5, _ = c.Get("m5.large")
	assert.Equal(t, off("us-east-1a", Spot, 10_000_000), m5.Offerings[0])
}

// TestNoSpotDiscount: a zero discount, which SpotDiscount's zero value
// (the default) cannot say, prices modelled spot at on-demand.
func TestNoSpotDiscount(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		spot Price
		off  float64
	}{
		{"default", Options{}, 38_400_000, DefaultSpotDiscount},
		{"a discount", Options{SpotDiscount: 0.5}, 48_000_000, 0.5},
		{"no discount", Options{NoSpotDiscount: true}, 96_000_000, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(userCatalog), tc.opts)
			require.NoError(t, err)
			m5, _ := c.Get("m5.large")
			assert.Contains(t, m5.Offerings, off("us-east-1a", Spot, tc.spot))
			assert.Equal(t, tc.off, c.Origin().SpotDiscount)
		})
	}
	_, err := Parse([]byte(userCatalog), Options{NoSpotDiscount: true, SpotDiscount: 0.5})
	require.ErrorIs(t, err, ErrInvalidOptions)
	assert.Contains(t, err.Error(), "Options.NoSpotDiscount")
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
		opts Options
		kind error
		want string
	}{
		{"not json", `{`, Options{}, ErrInvalidSpec, "document"},
		{"unknown field", `{"instanceTypes":[{"name":"a","vcpus":2}]}`, Options{}, ErrInvalidSpec, "vcpus"},
		{"the first bad type is named by its index", `{"instanceTypes":[{"name":"a"},{"name":"b","vcpus":2},{"name":"c","vcpu":"2"}]}`, Options{}, ErrInvalidSpec, `instanceTypes[1]: invalid instance type spec: json: unknown field "vcpus"`},
		{"a type that is not an object", `{"instanceTypes":[{"name":"a"},1]}`, Options{}, ErrInvalidSpec, "instanceTypes[1]"},
		{"the document's own error before a type's", `{"instanceTypes":[{"name":"a","vcpus":1}],"currency":5}`, Options{}, ErrInvalidSpec, "document: invalid instance type spec: json: cannot unmarshal number into Go struct field document.currency"},
		{"instanceTypes not an array", `{"instanceTypes":{}}`, Options{}, ErrInvalidSpec, "instanceTypes: invalid instance type spec: not an array"},
		{"nesting beyond encoding/json's limit", strings.Repeat("[", 1<<20), Options{}, ErrInvalidSpec, "exceeded max depth"},
		{"missing vcpu", `{"instanceTypes":[{"name":"a","memoryMiB":1024,"arch":"amd64"}]}`, Options{}, ErrInvalidSpec, `"a": vcpu`},
		{"missing memory", `{"instanceTypes":[{"name":"a","vcpu":1,"arch":"amd64"}]}`, Options{}, ErrInvalidSpec, `"a": memoryMiB`},
		{"missing arch", `{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024}]}`, Options{}, ErrInvalidSpec, `"a": arch`},
		{"negative gpus", `{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","gpus":-1}]}`, Options{}, ErrInvalidSpec, `"a": gpus`},
		{"bad maxPods", `{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","maxPods":0}]}`, Options{}, ErrInvalidSpec, `"a": maxPods`},
		{"negative price", `{"region_prices":["r"],"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","price":{"r":-1}}]}`,
			Options{Region: "r"}, ErrInvalidPrice, `"a": price.r`},
		{"zero price", `{"region_prices":["r"],"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","price":{"r":0}}]}`,
			Options{Region: "r"}, ErrInvalidPrice, `"a": price.r: invalid price: invalid price: 0 per hour is below the minimum`},
		{"zero spot price", `{"region_prices":["r"],"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","price":{"r":1},"spotPrice":{"r":0}}]}`,
			Options{Region: "r"}, ErrInvalidPrice, `"a": spotPrice.r: invalid price: invalid price: 0 per hour is below the minimum`},
		{"repeated price", `{"region_prices":["r"],"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","price":{"r":1,"r":0.5}}]}`,
			Options{Region: "r"}, ErrInvalidSpec, `document: invalid instance type spec: instanceTypes[0].price.r: the key is repeated in its object`},
		{"a repeated key wins over the build's errors", `{"region_prices":["r"],"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","price":{"r":1,"r":0.5}},` +
			`{"name":"b","vcpu":1,"memoryMiB":1024,"arch":"amd64","price":{"r":-1}}]}`,
			Options{Region: "r"}, ErrInvalidSpec, `document: invalid instance type spec: instanceTypes[0].price.r: the key is repeated in its object`},
		{"a repeated key wins over invalid options", `{"instanceTypes":[],"instanceTypes":[]}`, Options{MaxPods: -1}, ErrInvalidSpec, `instanceTypes: the key is repeated`},
		{"a field twice, once with a long s", `{"region_prices":["r"],"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","price":{"r":1},` +
			`"spotPrice":{"r":0.2},"\u017fpotPrice":{"r":0.9}}]}`,
			Options{Region: "r"}, ErrInvalidSpec, `document: invalid instance type spec: instanceTypes[0].ſpotPrice: the key is repeated in its object`},
		{"bad label", `{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","labels":{"k":"a b"}}]}`, Options{}, ErrInvalidSpec, `"a": labels`},
		{"bad capacity", `{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","capacity":{"cpu":"x"}}]}`, Options{}, ErrInvalidSpec, `"a": capacity`},
		{"overhead too big", `{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":1024,"arch":"amd64","overhead":{"memory":"2Gi"}}]}`, Options{}, ErrInvalidOverhead, `"a": overhead.memory`},
		{"duplicate", `{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":4096,"arch":"amd64"},{"name":"a","vcpu":2,"memoryMiB":4096,"arch":"amd64"}]}`, Options{}, ErrDuplicateName, `"a": name`},
		{"spot discount", `{"instanceTypes":[]}`, Options{SpotDiscount: 1}, ErrInvalidOptions, "Options.SpotDiscount"},
		{"max pods", `{"instanceTypes":[]}`, Options{MaxPods: -1}, ErrInvalidOptions, "Options.MaxPods"},
		{"zones", `{"instanceTypes":[]}`, Options{Zones: []string{"us-east-1a", "us-east-1a"}}, ErrInvalidOptions, "Options.Zones[1]"},
		{"spot price type", `{"instanceTypes":[]}`, Options{SpotPrice: map[string]float64{"x": 1}}, ErrInvalidOptions, `"x": Options.SpotPrice`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.data), tc.opts)
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.kind)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestParseResourceModel(t *testing.T) {
	c, err := Parse([]byte(`{"instanceTypes":[{"name":"a","vcpu":2,"memoryMiB":8192,"gpus":1,"arch":"amd64"}]}`), Options{})
	require.NoError(t, err)
	a, _ := c.Get("a")
	want := 2*ModelVCPUHour + 8*ModelGiBHour + ModelGPUHour
	assert.Equal(t, off("us-east-1a", OnDemand, want), a.Offerings[3])
	assert.Equal(t, int64(110), a.Capacity.Pods, "DefaultPods")
}

func TestEmbeddedCatalogs(t *testing.T) {
	for _, data := range [][]byte{awsCatalog, azureCatalog, awsPrices} {
		maps := catalogMaps
		if bytes.Equal(data, awsPrices) {
			maps = priceListMaps
		}
		path, repeated := repeatedKey(data, maps)
		assert.False(t, repeated, "%s: AWS and Azure do not check their catalogs for repeated keys", path)
	}
	aws, err := AWS(Options{})
	require.NoError(t, err)
	assert.Equal(t, 1367, aws.Len(), "1,398 types less the 31 without a us-east-1 price")
	azure, err := Azure(Options{})
	require.NoError(t, err)
	assert.Equal(t, 1369, azure.Len())
	d4, ok := azure.Get("Standard_D4s_v5")
	require.True(t, ok)
	assert.True(t, d4.Requirements.Get(requirements.LabelZone).Has("eastus-2"))
	assert.Equal(t, int64(DefaultAzurePods), d4.Capacity.Pods)
	assert.Equal(t, 4*ModelVCPUHour+16*ModelGiBHour, d4.Offerings[len(d4.Offerings)-1].Price)
	t4, _ := azure.Get("Standard_NC16as_T4_v3")
	assert.True(t, t4.Requirements.Get(requirements.LabelInstanceFamily).Has("standard-ncasv3_t4-family"))
}

// TestBuiltRequirementsComplete: a catalog file's types are built once,
// their name, zones and capacity types set by spec.labels, so build does
// not complete them again. Each must hold what build would complete it
// with, whatever the file's labels claim.
func TestBuiltRequirementsComplete(t *testing.T) {
	claims := strings.Replace(userCatalog, `"labels":{"example.com/rack":"r1"}`, `"labels":{"example.com/rack":"r1",`+
		`"topology.kubernetes.io/zone":"mars-1a","karpenter.sh/capacity-type":"free","node.kubernetes.io/instance-type":"x"}`, 1)
	require.NotEqual(t, userCatalog, claims)
	catalogs := map[string]func() (*Catalog, error){
		"aws": func() (*Catalog, error) { return AWS(Options{}) },
		"aws on-demand, two zones": func() (*Catalog, error) {
			return AWS(Options{Region: "us-gov-west-1", Zones: []string{"us-gov-west-1a", "us-gov-west-1c"}, CapacityTypes: []CapacityType{OnDemand}})
		},
		"azure":              func() (*Catalog, error) { return Azure(Options{}) },
		"file":               func() (*Catalog, error) { return Parse([]byte(userCatalog), Options{}) },
		"file, label claims": func() (*Catalog, error) { return Parse([]byte(claims), Options{}) },
		"synthetic":          func() (*Catalog, error) { return Synthetic(200, 7) },
	}
	for name, catalog := range catalogs {
		t.Run(name, func(t *testing.T) {
			c, err := catalog()
			require.NoError(t, err)
			require.NotZero(t, c.Len())
			for _, it := range c.Types() {
				zone, ct, err := offeringLabels(it.Offerings)
				require.NoError(t, err)
				own := requirements.MustNew(requirements.LabelInstanceType, requirements.In, it.Name)
				require.Equal(t, it.Requirements.Replace(ct, own, zone).String(), it.Requirements.String(), it.Name)
				require.Equal(t, it.Requirements.Replace(ct, own, zone), it.Requirements, it.Name)
			}
		})
	}
}
