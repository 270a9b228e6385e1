package instancetypes

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRepeatedKey(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, `,"k%d":%d`, i, i)
	}
	many := "{" + b.String()[1:] // 40 keys, the object open
	for _, tc := range []struct {
		data, path string
		repeated   bool
	}{
		{`{}`, "", false},
		{`[]`, "", false},
		{`{"a":1,"b":{"a":2}}`, "", false},
		{`{"a":1,"a":2}`, "a", true},
		{`{"a":1,"A":2}`, "A", true},
		{`{"a":1,"\u0061":2}`, "a", true},
		{`{"a\"b":1,"A\"B":2}`, `A"B`, true},
		{`{"":1,"":2}`, `""`, true},
		{`{"x":{"":1,"":2}}`, `x.""`, true},
		{` [ 1 , {"k":[true,null,{"z":"}","z":"]"}]} ] `, "[1].k[2].z", true},
		{`{"s":"{\"a\":1,\"a\":2}"}`, "", false},
		{many + `,"K3":3}`, "K3", true}, // past the short list
		{many + `,"k39":3}`, "k39", true},
		{"[" + many + "}," + many + "}]", "", false},
		{`{"a":1,"a"`, "a", true},
		{`{"a":`, "", false},
		{`{"a"1,"a":2}`, "", false},
		{`"\`, "", false},
		{"{\"\xff\":1,\"\xfe\":2}", "\ufffd", true},
		{`{"spotPrice":1,"\u017fpotPrice":2}`, "\u017fpotPrice", true}, // a long s folds as s does
		{`{"k":1,"\u212a":2}`, "\u212a", true},                         // the Kelvin sign as k
		{`{"\u00e9":1,"\u00c9":2}`, "\u00c9", true},
		{"{\"\xc3\xa9\":1,\"\xc3\x89\":2}", "\u00c9", true},
	} {
		path, repeated := repeatedKey([]byte(tc.data), nil)
		assert.Equal(t, tc.repeated, repeated, tc.data)
		assert.Equal(t, tc.path, path, tc.data)
	}
}

// TestRepeatedKeyMaps: the keys of an object decoded as a map are
// compared exactly (label keys differ by case), a struct's as
// encoding/json matches fields.
func TestRepeatedKeyMaps(t *testing.T) {
	for _, tc := range []struct {
		data     string
		maps     func([]step) bool
		path     string
		repeated bool
	}{
		{`{"instanceTypes":[{"labels":{"x.io/A":"1","x.io/a":"2"}}]}`, catalogMaps, "", false},
		{`{"instanceTypes":[{"Labels":{"x.io/A":"1","x.io/a":"2"}}]}`, catalogMaps, "", false},
		{`{"instanceTypes":[{"labels":{"x.io/a":"1","x.io/a":"2"}}]}`, catalogMaps, "instanceTypes[0].labels.x.io/a", true},
		{`{"instanceTypes":[{"labels":{},"Labels":{}}]}`, catalogMaps, "instanceTypes[0].Labels", true},
		{`{"instanceTypes":[{"price":{"r":1,"R":2},"spotPrice":{"r":1,"R":2},"capacity":{"a":"1","A":"2"},"overhead":{"a":"1","A":"2"}}]}`, catalogMaps, "", false},
		{`{"instanceTypes":[{"name":"a","Name":"b"}]}`, catalogMaps, "instanceTypes[0].Name", true},
		{`{"instanceTypes":[{"labels":{"x.io/A":"1","x.io/a":"2"}}]}`, nil, "instanceTypes[0].labels.x.io/a", true},
		{`{"partitions":{"aws":{"regions":{"r":{"m5.large":1,"M5.large":2}}},"AWS":{}}}`, priceListMaps, "", false},
		{`{"partitions":{"aws":{"regions":{"r":{},"R":{}},"Regions":{}}}}`, priceListMaps, "partitions.aws.Regions", true},
		{`{"partitions":{"aws":{"regions":{"r":{"m5.large":1,"m5.large":2}}}}}`, priceListMaps, "partitions.aws.regions.r.m5.large", true},
	} {
		path, repeated := repeatedKey([]byte(tc.data), tc.maps)
		assert.Equal(t, tc.repeated, repeated, tc.data)
		assert.Equal(t, tc.path, path, tc.data)
	}
}

// FuzzRepeatedKey checks the byte scanner against encoding/json's token
// stream on valid JSON, and that it never panics on anything else.
func FuzzRepeatedKey(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"b":[1,{"c":1,"C":2}]}}`, `[{"":0},{"x":"\u0078","\u0078":1}]`,
		`{"a":"\"","b":"\\","a":3}`, `{"a" : [ ] , "b" : { } }`, `{"a":1,"a"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path, repeated := repeatedKey(data, nil)
		if !json.Valid(data) {
			return
		}
		if strings.Contains(path, `""`) {
			return // an empty key, which the token walk renders as nothing (TestRepeatedKey has them)
		}
		want := tokenRepeatedKey(data)
		if !repeated && want != "" || repeated && path != want {
			t.Fatalf("repeatedKey(%q) = %q, %v; the token walk says %q", data, path, repeated, want)
		}
	})
}

// A catalog file's labels that differ only by case are two labels, as
// Kubernetes reads label keys: not a repeated key.
func TestParseLabelsByCase(t *testing.T) {
	c, err := Parse([]byte(`{"instanceTypes":[{"name":"a","vcpu":2,"memoryMiB":8192,"arch":"amd64","labels":{"x.io/A":"1","x.io/a":"2"}}]}`), Options{})
	require.NoError(t, err)
	a, _ := c.Get("a")
	assert.True(t, a.Requirements.Get("x.io/A").Has("1"))
	assert.True(t, a.Requirements.Get("x.io/a").Has("2"))
}
