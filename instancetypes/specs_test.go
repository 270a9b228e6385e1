package instancetypes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzArrayElements checks arrayElements against encoding/json on every
// valid JSON array: the same elements, byte for byte, and a valueStream
// over them reads them back as a stream of the same values.
func FuzzArrayElements(f *testing.F) {
	for _, s := range []string{`[]`, `[ ]`, `[1]`, `[1,2]`, ` [ {"a":[1,2]} , "x,]}" ,null,[[]],{} ] `,
		`["\"",  "\\", "\\\"]"]`, `[{"k":"v\u005d"}]`, `[[1,[2,[3]]],{"a":{"b":{}}}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = bytes.TrimSpace(data)
		var want []json.RawMessage
		if json.Unmarshal(data, &want) != nil || len(data) == 0 || data[0] != '[' {
			return
		}
		got, ok := arrayElements(data)
		require.True(t, ok)
		require.Len(t, got, len(want))
		for i, s := range got {
			require.Equal(t, string(want[i]), string(data[s.start:s.end]), "element %d", i)
		}
		dec := json.NewDecoder(&valueStream{data: data, values: got})
		for i := range want {
			var v json.RawMessage
			require.NoError(t, dec.Decode(&v), "element %d", i)
			require.Equal(t, string(want[i]), string(v), "element %d", i)
		}
		var v json.RawMessage
		require.ErrorIs(t, dec.Decode(&v), io.EOF)
	})
}

// TestParseSameForGOMAXPROCS checks that a catalog, and the error of a
// file with several bad types, are the same whether its types are decoded
// and built on one goroutine or several.
func TestParseSameForGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var bad bytes.Buffer
	bad.WriteString(`{"instanceTypes":[`)
	for i := range 300 {
		if i > 0 {
			bad.WriteByte(',')
		}
		switch i {
		case 150: // the first error in the file, in the second half
			fmt.Fprintf(&bad, `{"name":"t%d","vcpu":"x"}`, i)
		case 290:
			fmt.Fprintf(&bad, `{"name":"t%d","vcpus":1}`, i)
		default:
			fmt.Fprintf(&bad, `{"name":"t%d","vcpu":1,"memoryMiB":4096,"arch":"amd64"}`, i)
		}
	}
	bad.WriteString(`]}`)
	var first *Catalog
	var firstErr string
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		c, err := Parse(awsCatalog, Options{})
		require.NoError(t, err)
		_, err = Parse(bad.Bytes(), Options{})
		require.Error(t, err)
		if first == nil {
			first, firstErr = c, err.Error()
			assert.Contains(t, firstErr, "instanceTypes[150]")
			continue
		}
		assert.Equal(t, first.Types(), c.Types(), "GOMAXPROCS %d", procs)
		assert.Equal(t, first.Origin(), c.Origin(), "GOMAXPROCS %d", procs)
		assert.Equal(t, firstErr, err.Error(), "GOMAXPROCS %d", procs)
	}
}
