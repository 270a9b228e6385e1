package instancetypes

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
		path, repeated := repeatedKey([]byte(tc.data))
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
		path, repeated := repeatedKey(data)
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
