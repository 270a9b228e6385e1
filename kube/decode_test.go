package kube

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// decodeBoth decodes data as a value of type t with the walk and with
// json.Unmarshal. It fails t when the walk's error is not check's, or
// when the walk accepts data and stores anything but what json.Unmarshal
// stores; it returns the walk's error.
func decodeBoth(tb testing.TB, data []byte, typ reflect.Type) error {
	tb.Helper()
	c := newChecker()
	checkErr := c.check(data, typ)
	got := reflect.New(typ)
	err := c.decode(data, got.Interface())
	if fmt.Sprint(err) != fmt.Sprint(checkErr) {
		tb.Fatalf("%s: decode says %v, check %v", typ, err, checkErr)
	}
	if err != nil {
		return err
	}
	want := reflect.New(typ)
	if uerr := json.Unmarshal(data, want.Interface()); uerr != nil {
		tb.Fatalf("%s: the walk decodes what json.Unmarshal rejects: %v\n%s", typ, uerr, data)
	}
	if !reflect.DeepEqual(got.Elem().Interface(), want.Elem().Interface()) {
		tb.Fatalf("%s: the walk stores\n%#v\njson.Unmarshal\n%#v\nfrom %s", typ, got.Elem().Interface(), want.Elem().Interface(), data)
	}
	return nil
}

// TestDecodeAsUnmarshal: every object of the fixtures, decoded as each of
// the types Load decodes into, is stored as json.Unmarshal stores it, or
// rejected with check's error.
func TestDecodeAsUnmarshal(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	more, err := filepath.Glob("testdata/manifests/*")
	require.NoError(t, err)
	decodedAs := 0
	for _, name := range append(files, more...) {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		c := newChecker()
		objs, err := split(nil, Source{Name: name, Data: data}, &c)
		require.NoError(t, err, name)
		for _, o := range objs {
			for _, typ := range decoded {
				if decodeBoth(t, o.raw, typ) == nil {
					decodedAs++
				}
			}
		}
	}
	assert.Greater(t, decodedAs, 500, "objects decoded")
}

// TestDecodeEdges: the rules of decode.go, one row each.
func TestDecodeEdges(t *testing.T) {
	pod := reflect.TypeFor[corev1.Pod]()
	for _, doc := range []string{
		`{"spec":{"containers":[]},"metadata":{"labels":{}}}`,                                        // empty, not nil
		`{"spec":{"containers":null,"nodeSelector":null,"priority":null}}`,                           // null leaves zero
		`{"metadata":{"labels":{"a":null,"b\u0000":"\u00e9\ud83d\ude00"}}}`,                          // null map value, escapes
		`{"spec":{"priority":-7,"enableServiceLinks":false,"hostNetwork":true}}`,                     // pointers allocated
		`{"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e"}]}}`, // growth
		`{"metadata":{"creationTimestamp":"2025-06-01T10:00:00+02:00","deletionTimestamp":null}}`,    // times
		`{"metadata":{"creationTimestamp":"2025-06-01T10:00:00\u002b02:00"}}`,                        // a time UnmarshalJSON reads
		`{"spec":{"overhead":{"cpu":"250m","memory":null},"containers":[{"resources":{"limits":{"cpu":2}}}]}}`,
		`{"spec":{"containers":[{"ports":[{"containerPort":80}],"livenessProbe":{"httpGet":{"port":"http"}}}]}}`,
		`{"spec":{"containers":[{"livenessProbe":{"httpGet":{"port":8080}}}]}}`, // IntOrString
		`{"spec":{"volumes":[{"name":"v","emptyDir":{"sizeLimit":"1Gi"}}]}}`,    // *Quantity
		`{"spec":{"volumes":[{"name":"v","emptyDir":{"sizeLimit":null}}]}}`,     // nil *Quantity
		`{"status":{"conditions":[{"type":"PodScheduled","lastTransitionTime":null}]}}`,
		`{"kind":"Pod","unknown":{"deep":[1,{"x":"}"}]},"spec":{"unknownToo":true}}`, // skipped
		`null`,
	} {
		require.NoError(t, decodeBoth(t, []byte(doc), pod), doc)
	}
	for _, doc := range []string{
		`{"spec":{"containers":[{"name":1}]}}`,
		`{"spec":{"priority":2147483648}}`,
		`{"spec":{"nodeSelector":{"a":"b","a":"c"}}}`,
		`{"spec":{"Priority":1}}`,
		`{"spec":{"overhead":{"cpu":"-1"}}}`,
		`{"metadata":{"creationTimestamp":"yesterday"}}`,
		`{"spec":{"containers":[{"livenessProbe":{"httpGet":{"port":true}}}]}}`,
	} {
		require.Error(t, decodeBoth(t, []byte(doc), pod), doc)
	}
}

// Inner and embedsPointer: a promoted field behind an embedded pointer,
// which decode allocates as encoding/json does.
type (
	Inner struct {
		A int    `json:"a"`
		S string `json:"s,omitempty"`
	}
	embedsPointer struct {
		*Inner
		B []*Inner `json:"b"`
	}
)

func TestDecodeEmbeddedPointer(t *testing.T) {
	typ := reflect.TypeFor[embedsPointer]()
	for _, doc := range []string{`{"a":1}`, `{"s":"x","b":[{"a":2},null]}`, `{"b":[]}`, `{}`, `{"a":null}`} {
		require.NoError(t, decodeBoth(t, []byte(doc), typ), doc)
	}
	var v embedsPointer
	c := newChecker()
	require.NoError(t, c.decode([]byte(`{"a":3}`), &v))
	require.NotNil(t, v.Inner)
	assert.Equal(t, 3, v.A)
}

// numbers holds the number kinds and map keys no decoded type has today,
// so that decode's rules for them are held to encoding/json too.
type numbers struct {
	U  uint8            `json:"u"`
	F  float32          `json:"f"`
	KI map[int8]string  `json:"ki"`
	KU map[uint]string  `json:"ku"`
	KF map[float64]bool `json:"kf"`
}

func TestDecodeNumbers(t *testing.T) {
	typ := reflect.TypeFor[numbers]()
	for _, doc := range []string{`{"u":255,"f":1.5e3}`, `{"ki":{"-128":"a","0":"b"},"ku":{"7":"c"}}`, `{"u":0,"ki":{"-0":"z"}}`, `{"kf":null}`} {
		require.NoError(t, decodeBoth(t, []byte(doc), typ), doc)
	}
	for _, doc := range []string{`{"u":-0}`, `{"u":256}`, `{"f":1e39}`, `{"ki":{"128":"a"}}`, `{"ku":{"-0":"a"}}`, `{"kf":{"1.5":true}}`, `{"kf":{}}`, `{"u":1.0}`} {
		require.Error(t, decodeBoth(t, []byte(doc), typ), doc)
		require.Error(t, json.Unmarshal([]byte(doc), new(numbers)), "json.Unmarshal rejects %s too", doc)
	}
}

// TestDecodedTypesAsDecodeAssumes: decode follows encoding/json for the
// types Load decodes because none of them holds what it does not handle:
// a ",string" field, a value or map key read by UnmarshalText, a field
// that cannot be set, or two fields of one JSON name at the same depth of
// embedding (encoding/json's rule for those, which collect does not
// follow, picks the tagged one or neither).
func TestDecodedTypesAsDecodeAssumes(t *testing.T) {
	text := reflect.TypeFor[encoding.TextUnmarshaler]()
	seen := map[reflect.Type]bool{}
	var visit func(reflect.Type)
	visit = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		if seen[typ] {
			return
		}
		seen[typ] = true
		pt := reflect.PointerTo(typ)
		if pt.Implements(unmarshaler) {
			return
		}
		assert.False(t, pt.Implements(text), "%s is read by UnmarshalText", typ)
		switch typ.Kind() {
		case reflect.Map:
			assert.False(t, reflect.PointerTo(typ.Key()).Implements(text), "%s has keys read by UnmarshalText", typ)
			visit(typ.Elem())
		case reflect.Slice, reflect.Array:
			visit(typ.Elem())
		case reflect.Struct:
			for name, n := range shallowest(typ) {
				assert.Equal(t, 1, n, "%s has %d fields named %s at the same depth", typ, n, name)
			}
			for i := range typ.NumField() {
				f := typ.Field(i)
				assert.NotContains(t, f.Tag.Get("json"), ",string", "%s.%s", typ, f.Name)
				if f.Anonymous && f.Type.Kind() == reflect.Pointer && !f.IsExported() {
					t.Errorf("%s embeds an unexported struct pointer", typ)
				}
				visit(f.Type)
			}
		}
	}
	for _, typ := range decoded {
		visit(typ)
	}
	assert.Greater(t, len(seen), 100)
	type (
		left  struct{ A, B int }
		right struct{ A int }
		tie   struct {
			left
			right
			B int `json:"b"`
		}
	)
	assert.Equal(t, map[string]int{"A": 2, "b": 1, "B": 1}, shallowest(reflect.TypeFor[tie]()), "the helper sees a tie")
}

// shallowest counts, for each JSON name of struct typ's fields (its own
// and those its embedded structs promote), the fields of that name at
// the shallowest depth it has.
func shallowest(typ reflect.Type) map[string]int {
	depth, count := map[string]int{}, map[string]int{}
	level := []reflect.Type{typ}
	for d := 0; len(level) > 0; d++ {
		var below []reflect.Type
		for _, st := range level {
			for i := range st.NumField() {
				f := st.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				switch {
				case name == "-":
				case f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
					below = append(below, ft)
				case f.IsExported():
					if name == "" {
						name = f.Name
					}
					if at, seen := depth[name]; !seen || at == d {
						depth[name] = d
						count[name]++
					}
				}
			}
		}
		level = below
	}
	return count
}

// TestPropertyDecodeAsUnmarshal: random values of every type Load
// decodes, written by json.Marshal, are decoded by the walk as
// json.Unmarshal decodes them: 100 values of each type, from fixed seeds,
// so every run checks the same cases. (A plain loop: gopter in this
// module's go.mod makes its dependency graph untidy.)
func TestPropertyDecodeAsUnmarshal(t *testing.T) {
	for seed := range uint64(100) {
		for _, typ := range decoded {
			v := reflect.New(typ)
			fill(rand.New(rand.NewPCG(seed, uint64(len(typ.String())))), v.Elem(), 0)
			data, err := json.Marshal(v.Interface())
			require.NoError(t, err, "%s, seed %d", typ, seed)
			require.NoError(t, decodeBoth(t, data, typ), "%s, seed %d:\n%s", typ, seed, data)
		}
	}
}

// Samples fill draws from: strings with escapes, non-ASCII and invalid
// UTF-8 (json.Marshal writes U+FFFD for it), quantities nodeplan reads
// in resource lists (whole, not negative) and elsewhere.
var (
	sampleStrings    = []string{"", "a", "web-0", "a b", `quo"te\`, "tab\t\n", "é", "😀", "\u2028", "\xff", "<&>", "kubernetes.io/os"}
	sampleResources  = []string{"cpu", "memory", "pods", "ephemeral-storage", "example.com/gpu", "nvidia.com/gpu"}
	sampleQuantities = []string{"0", "1", "2Gi", "3k", "100", "16Mi"}
	sampleTimes      = []time.Time{{}, time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC), time.Date(2024, 2, 29, 23, 59, 59, 0, time.FixedZone("x", 5400))}
)

// fill sets v, a zero value, to a random value of its type, at depth d of
// nesting (deeper values are left zero more often).
func fill(r *rand.Rand, v reflect.Value, d int) {
	if d > 8 || r.IntN(4+d) >= 3 {
		return // zero
	}
	switch v.Type() {
	case quantityType:
		v.Set(reflect.ValueOf(resource.MustParse(pick(r, sampleQuantities))))
		return
	case timeType:
		v.Set(reflect.ValueOf(metav1.Time{Time: pick(r, sampleTimes)}))
		return
	case reflect.TypeFor[metav1.MicroTime]():
		v.Set(reflect.ValueOf(metav1.MicroTime{Time: pick(r, sampleTimes)}))
		return
	case reflect.TypeFor[intstr.IntOrString]():
		v.Set(reflect.ValueOf(pick(r, []intstr.IntOrString{intstr.FromInt32(8080), intstr.FromString("http"), intstr.FromString("25%")})))
		return
	case reflect.TypeFor[metav1.Duration]():
		v.Set(reflect.ValueOf(metav1.Duration{Duration: time.Duration(r.IntN(1000)) * time.Second}))
		return
	}
	if reflect.PointerTo(v.Type()).Implements(unmarshaler) {
		return // a type that decodes itself, not sampled: zero
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(r, v.Elem(), d+1)
	case reflect.Struct:
		q := quantityStrings[v.Type()] // a string field that holds a quantity
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case !f.IsExported():
			case q != "" && name == q && f.Type.Kind() == reflect.String:
				v.Field(i).SetString(pick(r, sampleQuantities))
			default:
				fill(r, v.Field(i), d+1)
			}
		}
	case reflect.Slice:
		fillSlice(r, v, d)
	case reflect.Map:
		fillMap(r, v, d)
	case reflect.String:
		v.SetString(pick(r, sampleStrings))
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(r.Int64N(1<<min(v.Type().Bits()-1, 40)) - 3)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(r.Uint64N(1 << min(v.Type().Bits()-1, 40)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(r.IntN(1000)) / 8)
	case reflect.Interface:
		if v.NumMethod() == 0 {
			v.Set(reflect.ValueOf(map[string]any{"a": []any{1.5, "b", nil, true}}))
		}
	}
}

func fillSlice(r *rand.Rand, v reflect.Value, d int) {
	if v.Type().Elem().Kind() == reflect.Uint8 {
		b := make([]byte, r.IntN(5))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		v.SetBytes(b)
		return
	}
	n := r.IntN(4)
	v.Set(reflect.MakeSlice(v.Type(), n, n))
	for i := range n {
		fill(r, v.Index(i), d+1)
	}
}

func fillMap(r *rand.Rand, v reflect.Value, d int) {
	typ := v.Type()
	v.Set(reflect.MakeMap(typ))
	for range r.IntN(4) {
		key := reflect.New(typ.Key()).Elem()
		val := reflect.New(typ.Elem()).Elem()
		switch {
		case typ.Elem() == quantityType: // a resource list
			key.SetString(pick(r, sampleResources))
			val.Set(reflect.ValueOf(resource.MustParse(pick(r, sampleQuantities))))
		case key.Kind() == reflect.String:
			key.SetString(pick(r, sampleStrings) + strings.Repeat("k", r.IntN(3)))
			fill(r, val, d+1)
		default:
			continue
		}
		v.SetMapIndex(key, val)
	}
}

func pick[T any](r *rand.Rand, from []T) T { return from[r.IntN(len(from))] }

// FuzzDecode holds the walk to check and json.Unmarshal on any input,
// as a Pod and as a NodePool: it never panics, fails exactly where check
// fails, with its error, and otherwise stores what json.Unmarshal stores.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","labels":{"a b":"c"},"creationTimestamp":"2025-01-01T00:00:00Z"},` +
		`"spec":{"priority":7,"containers":[{"name":"c","ports":[{"containerPort":80}],"resources":{"requests":{"cpu":"1","memory":null}}}]}}`))
	f.Add([]byte(`{"spec":{"template":{"spec":{"requirements":[{"key":"k","operator":"In","values":["a"],"minValues":2}]}},"limits":{"cpu":"10"}}}`))
	f.Add([]byte(`{"spec":{"containers":[{},{"ports":[{"containerPort":"http"}]}],"volumes":[{"emptyDir":{"sizeLimit":"1Gi"}}]}}`))
	f.Add([]byte(`{"metadata":{"creationTimestamp":"2025-13-01T00:00:00Z"}}`))
	f.Add([]byte(`[1,2]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return // Load decodes only what encoding/json has read whole
		}
		decodeBoth(t, data, reflect.TypeFor[corev1.Pod]())
		decodeBoth(t, data, reflect.TypeFor[NodePool]())
	})
}
