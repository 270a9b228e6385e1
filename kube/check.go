package kube

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/nodeplan/nodeplan/resources"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Bounds on a quantity's text, checked before apimachinery's decoder sees
// it: apimachinery accepts any length and exponent, and spends time
// without bound on exponents such as 1e2147483648. No real resource needs
// more: nodeplan's own range is below 2^63 units with 10^-9 resolution.
const (
	maxQuantityLen = 64
	maxQuantityExp = 64
)

var (
	quantityType = reflect.TypeFor[resource.Quantity]()
	unmarshaler  = reflect.TypeFor[json.Unmarshaler]()
)

// quantityStrings names the string fields, by struct type and JSON name,
// that hold quantities apimachinery parses later.
var quantityStrings = map[reflect.Type]string{
	reflect.TypeFor[EBSVolume](): "volumeSize",
}

// checker walks a document's JSON alongside the Go type it will be decoded
// into and reports, with its field path, the first value encoding/json
// would reject, and every quantity that is not one nodeplan reads. Run
// before json.Unmarshal, it makes that decode's errors impossible (so
// every decode error names its field) and keeps unbounded quantities away
// from apimachinery. It keeps the JSON fields of each struct type it met.
type checker struct {
	fields map[reflect.Type]map[string]reflect.StructField
}

// check walks data as a value of type t. The error is a *fieldError.
func (c *checker) check(data []byte, t reflect.Type) error {
	w := walker{c: c, dec: json.NewDecoder(bytes.NewReader(data))}
	w.dec.UseNumber()
	return w.value(t)
}

// walker is one walk: the decoder and the path to the current value.
type walker struct {
	c    *checker
	dec  *json.Decoder
	path []string
}

func (w *walker) fail(format string, args ...any) error {
	return &fieldError{field: strings.Join(w.path, ""), err: fmt.Errorf(format, args...)}
}

func (w *walker) push(seg string) { w.path = append(w.path, seg) }
func (w *walker) pop()            { w.path = w.path[:len(w.path)-1] }

// field is the path segment of a struct field.
func (w *walker) field(name string) string {
	if len(w.path) == 0 {
		return name
	}
	return "." + name
}

// key is the path segment of a map key: .key for a plain name, else
// ["key"].
func key(k string) string {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Sprintf("[%q]", k)
		}
	}
	if k == "" {
		return `[""]`
	}
	return "." + k
}

// value walks the next JSON value as a t.
func (w *walker) value(t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == quantityType || reflect.PointerTo(t).Implements(unmarshaler) {
		var raw json.RawMessage
		if err := w.dec.Decode(&raw); err != nil {
			return w.fail("%w: %v", ErrMalformed, err)
		}
		return w.custom(t, raw)
	}
	tok, err := w.dec.Token()
	if err != nil {
		return w.fail("%w: %v", ErrMalformed, err)
	}
	if tok == nil { // null leaves every Go value as it is
		return nil
	}
	return w.token(t, tok)
}

// token walks a value of type t whose first token is tok.
func (w *walker) token(t reflect.Type, tok json.Token) error {
	switch t.Kind() {
	case reflect.Interface:
		return w.skip(tok)
	case reflect.Struct:
		return w.object(tok, t, w.structField)
	case reflect.Map:
		return w.object(tok, t, w.mapValue)
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return w.bytes(tok)
		}
		return w.array(tok, t)
	}
	return w.scalar(t, tok)
}

// scalar checks a string, bool or number token against t.
func (w *walker) scalar(t reflect.Type, tok json.Token) error {
	ok := false
	switch v := tok.(type) {
	case string:
		ok = t.Kind() == reflect.String
	case bool:
		ok = t.Kind() == reflect.Bool
	case json.Number:
		ok = numberFits(t, string(v))
	}
	if !ok {
		return w.fail("cannot read %s as %s", describe(tok), t)
	}
	return nil
}

func numberFits(t reflect.Type, s string) bool {
	var err error
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, err = strconv.ParseInt(s, 10, t.Bits())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		_, err = strconv.ParseUint(s, 10, t.Bits())
	case reflect.Float32, reflect.Float64:
		_, err = strconv.ParseFloat(s, t.Bits())
	default:
		return false
	}
	return err == nil
}

// describe names a token in an error: a string or number as written
// (quoted), else its JSON type.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case string:
		return "string " + strconv.Quote(abbreviate(v))
	case json.Number:
		return "number " + string(v)
	case bool:
		return "bool"
	case json.Delim:
		if v == '{' {
			return "object"
		}
		return "array"
	}
	return "null"
}

// abbreviate shortens s for a message.
func abbreviate(s string) string {
	if len(s) <= maxQuantityLen {
		return s
	}
	return s[:maxQuantityLen] + "…"
}

func (w *walker) bytes(tok json.Token) error {
	s, ok := tok.(string)
	if !ok {
		return w.fail("cannot read %s as base64 bytes", describe(tok))
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return w.fail("%q is not base64", abbreviate(s))
	}
	return nil
}

func (w *walker) array(tok json.Token, t reflect.Type) error {
	if tok != json.Delim('[') {
		return w.fail("cannot read %s as %s", describe(tok), t)
	}
	elem := t.Elem()
	for i := 0; w.dec.More(); i++ {
		w.push("[" + strconv.Itoa(i) + "]")
		if err := w.value(elem); err != nil {
			return err
		}
		w.pop()
	}
	return w.end()
}

// object walks a JSON object, handing each member to member.
func (w *walker) object(tok json.Token, t reflect.Type, member func(t reflect.Type, name string) error) error {
	if tok != json.Delim('{') {
		return w.fail("cannot read %s as %s", describe(tok), t)
	}
	for w.dec.More() {
		k, err := w.dec.Token()
		if err != nil {
			return w.fail("%w: %v", ErrMalformed, err)
		}
		if err := member(t, k.(string)); err != nil {
			return err
		}
	}
	return w.end()
}

// end reads the closing delimiter of an object or array.
func (w *walker) end() error {
	if _, err := w.dec.Token(); err != nil {
		return w.fail("%w: %v", ErrMalformed, err)
	}
	return nil
}

func (w *walker) structField(t reflect.Type, name string) error {
	f, ok := w.c.lookup(t, name)
	if !ok {
		return w.skipValue()
	}
	w.push(w.field(name))
	var err error
	if q, ok := quantityStrings[t]; ok && strings.EqualFold(q, name) {
		err = w.quantityString()
	} else {
		err = w.value(f.Type)
	}
	if err == nil {
		w.pop()
	}
	return err
}

func (w *walker) mapValue(t reflect.Type, k string) error {
	w.push(key(k))
	if err := w.mapKey(t.Key(), k); err != nil {
		return err
	}
	var err error
	if t.Key().Kind() == reflect.String && t.Elem() == quantityType {
		err = w.listQuantity(k)
	} else {
		err = w.value(t.Elem())
	}
	if err == nil {
		w.pop()
	}
	return err
}

// mapKey checks that k decodes as a key of type t, as encoding/json does.
func (w *walker) mapKey(t reflect.Type, k string) error {
	if t.Kind() == reflect.String || numberFits(t, k) {
		return nil
	}
	return w.fail("cannot read key %q as %s", k, t)
}

// skipValue consumes the next value.
func (w *walker) skipValue() error {
	var raw json.RawMessage
	if err := w.dec.Decode(&raw); err != nil {
		return w.fail("%w: %v", ErrMalformed, err)
	}
	return nil
}

// skip consumes the rest of the value that starts with tok.
func (w *walker) skip(tok json.Token) error {
	for depth := 0; ; {
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
		var err error
		if tok, err = w.dec.Token(); err != nil {
			return w.fail("%w: %v", ErrMalformed, err)
		}
	}
}

// custom checks a value whose type decodes itself: a quantity by
// nodeplan's rules, anything else by its own UnmarshalJSON.
func (w *walker) custom(t reflect.Type, raw json.RawMessage) error {
	if t == quantityType {
		if _, err := w.quantity(raw); err != nil {
			return err
		}
		return nil
	}
	if err := reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
		return w.fail("cannot read %s as %s: %v", abbreviate(string(raw)), t, err)
	}
	return nil
}

// quantityString checks a string field that holds a quantity.
func (w *walker) quantityString() error {
	var raw json.RawMessage
	if err := w.dec.Decode(&raw); err != nil {
		return w.fail("%w: %v", ErrMalformed, err)
	}
	if raw[0] != '"' && !bytes.Equal(raw, []byte("null")) {
		return w.fail("cannot read %s as string", abbreviate(string(raw)))
	}
	_, err := w.quantity(raw)
	return err
}

// listQuantity checks the quantity of resource name in a resource list by
// resources.Parse's rules (non-negative; pods and extended resources
// whole), echoing it as written.
func (w *walker) listQuantity(name string) error {
	var raw json.RawMessage
	if err := w.dec.Decode(&raw); err != nil {
		return w.fail("%w: %v", ErrMalformed, err)
	}
	s, err := w.quantity(raw)
	if err != nil || s == "" {
		return err
	}
	if _, err := resources.Parse(map[resources.Name]string{resources.Name(name): s}); err != nil {
		return w.fail("%q %s", s, reason(err))
	}
	return nil
}

// quantity reads a JSON quantity as apimachinery does (a string, trimmed,
// or a number's text; null is zero and returns "") and checks it with
// [resources.ParseQuantity] within the bounds above.
func (w *walker) quantity(raw json.RawMessage) (string, error) {
	if bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	s := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", w.fail("%w: %v", ErrMalformed, err)
		}
		s = strings.TrimSpace(s)
	} else if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return "", w.fail("%s is not a quantity", abbreviate(s))
	}
	if err := bounded(s); err != nil {
		return "", w.fail("%q %v", abbreviate(s), err)
	}
	if _, err := resources.ParseQuantity(s); err != nil {
		return "", w.fail("%q %s", s, reason(err))
	}
	return s, nil
}

// bounded checks the length and exponent bounds of a quantity.
func bounded(s string) error {
	if len(s) > maxQuantityLen {
		return fmt.Errorf("is longer than %d characters", maxQuantityLen)
	}
	i := strings.IndexAny(s, "eE")
	if i < 0 || i+1 == len(s) {
		return nil // no exponent (E alone is the exa suffix)
	}
	e, err := strconv.ParseInt(s[i+1:], 10, 64)
	if err == nil && (e < -maxQuantityExp || e > maxQuantityExp) {
		return fmt.Errorf("has an exponent outside ±%d", maxQuantityExp)
	}
	return nil // a malformed exponent is ParseQuantity's to report
}

// reason words a resources error about a quantity after the quantity.
func reason(err error) string {
	switch {
	case errors.Is(err, resources.ErrNegative):
		return "is negative"
	case errors.Is(err, resources.ErrNotInteger):
		return "is not a whole number"
	case errors.Is(err, resources.ErrEmptyName):
		return "has an empty resource name"
	case errors.Is(err, resources.ErrQuantityRange):
		return "is out of range (at most 2^63-1 units, 19 significant digits)"
	}
	return "is not a quantity"
}

// lookup finds the field of struct t that encoding/json decodes the
// member name into: an exact name first, else one equal under case
// folding.
func (c *checker) lookup(t reflect.Type, name string) (reflect.StructField, bool) {
	fields := c.structFields(t)
	if f, ok := fields[name]; ok {
		return f, true
	}
	for n, f := range fields {
		if strings.EqualFold(n, name) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// structFields returns the JSON fields of t by name, with embedded
// structs' fields promoted (the shallowest wins), as encoding/json does.
func (c *checker) structFields(t reflect.Type) map[string]reflect.StructField {
	if f, ok := c.fields[t]; ok {
		return f
	}
	out := map[string]reflect.StructField{}
	collect(t, 0, out, map[string]int{}, map[reflect.Type]bool{})
	if c.fields == nil {
		c.fields = map[reflect.Type]map[string]reflect.StructField{}
	}
	c.fields[t] = out
	return out
}

// collect adds the JSON fields of struct t at embedding depth d to out.
func collect(t reflect.Type, d int, out map[string]reflect.StructField, depth map[string]int, seen map[reflect.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			collect(ft, d+1, out, depth, seen)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if dd, ok := depth[name]; ok && dd <= d {
			continue
		}
		out[name], depth[name] = f, d
	}
}
