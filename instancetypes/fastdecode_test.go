package instancetypes

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fastDecodeSeeds are documents on both sides of decodeFast's line: ones it
// must take, and near misses (invalid JSON inside or around the array,
// other shapes, repeated and folded keys) that it must leave to the long
// road or decode as it does.
var fastDecodeSeeds = []string{
	`{"instanceTypes":[]}`,
	` { "instanceTypes" : [ { } ] } `,
	`{"instanceTypes":[{"name":"a","vcpu":1,"memoryMiB":4096,"arch":"amd64"}]}`,
	`{"source":["a]}"],"instanceTypes":[{"name":"a\"]}","labels":{"x.io/y":"{["}}],"currency":"EUR"}`,
	`{"InstanceTypes":[{"name":"a"}]}`,
	`{"instance\u0054ypes":[{"name":"a"}]}`,
	`{"instanceTypes":[{"name":"a"}],"instanceTypes":[{"name":"b"}]}`,
	`{"instanceTypes":[{"name":"a"}],"instancetypes":null}`,
	`{"instanceTypes":null,"instanceTypes":[{"name":"b"}]}`,
	`{"instanceTypes":[{"name":"a"} {"name":"b"}]}`,
	`{"instanceTypes":[{"name":"a"},]}`,
	`{"instanceTypes":[,{"name":"a"}]}`,
	`{"instanceTypes":[{"name":"a"}{"name":"b"}]}`,
	`{"instanceTypes":[{"name":"a"]}]}`,
	`{"instanceTypes":[{"name":"a"}}]}`,
	`{"instanceTypes":[{"name":"a"]]}`,
	`{"instanceTypes":[{"name":"a}],"x":1}`,
	`{"instanceTypes":[{"name":"a"},1]}`,
	`{"instanceTypes":[{"name":"a","vcpu":"1"}]}`,
	`{"instanceTypes":[{"name":"a","vcpus":1}]}`,
	`{"instanceTypes":[{"name":"a","vcpu":01}]}`,
	`{"instanceTypes":[{"name":"a\x"}]}`,
	`{"instanceTypes":[{"name":"a"}]} x`,
	`{"instanceTypes":[{"name":"a"}]}{}`,
	`{"instanceTypes":[{"name":"a"}],"sourc":[]}`,
	`{"instanceTypes":[{"name":"a"}],"source":"x"}`,
	`{"instanceTypes":[{"name":"a"}] "source":[]}`,
	`{"instanceTypes":[{"name":"a"}],}`,
	`{"instanceTypes":{"name":"a"}}`,
	`{"instanceTypes":[{"name":"a"}]`,
	`[{"instanceTypes":[{"name":"a"}]}]`,
	"{\"instanceTypes\":[{\"name\":\"a\"}\v]}",
	"{\"instanceTypes\":[{\"name\":\"\xff\"}]}",
	`{"instanceTypes":[{"labels":{"x.io/a":"1","x.io/a":"2"}}]}`,
	`{"instanceTypes":[{"name":"a","labels":{"k":[{"]":"["}]}}]}`,
}

// FuzzDecodeFast checks decode's short road against its long one: a
// document decodeFast takes, decodeLong takes too and decodes the same.
func FuzzDecodeFast(f *testing.F) {
	for _, s := range fastDecodeSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(userCatalog))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := decodeFast(data)
		if !ok {
			return
		}
		long, err := decodeLong(data)
		require.NoError(t, err)
		require.Equal(t, long, fast)
	})
}

// TestDecodeFastTaken checks that decodeFast takes the catalogs, valid
// documents of every shape the seeds hold, and no invalid one.
func TestDecodeFastTaken(t *testing.T) {
	for name, data := range map[string][]byte{"aws": awsCatalog, "azure": azureCatalog, "user": []byte(userCatalog)} {
		_, ok := decodeFast(data)
		assert.True(t, ok, name)
	}
	taken := 0
	for _, s := range fastDecodeSeeds {
		_, ok := decodeFast([]byte(s))
		if _, err := decodeLong([]byte(s)); err != nil {
			assert.False(t, ok, s)
		} else if ok {
			taken++
		}
	}
	assert.Equal(t, 10, taken, "valid seeds taken")
	_, ok := decodeFast([]byte(`{"instanceTypes":[` + strings.Repeat(`{"a":[`, 5) + `]}`))
	assert.False(t, ok)
}
