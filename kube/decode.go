package kube

import (
	"encoding/json"
	"errors"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Decoding. A walk with a destination (checker.decode) stores each value
// it checks, so that a document is read once: no json.Unmarshal after the
// check, and no validation pass of its own inside json.Unmarshal. What it
// stores is what json.Unmarshal stores into a zero value of the same type
// once the check has passed; the check's rules are what make that simple:
// every member name matches its field exactly (no case folding), no member
// or map key is there twice (nothing is overwritten), and every value fits
// its field. So the store only follows encoding/json's rules for values:
//   - null leaves the zero value as it is, but a type that decodes itself
//     and is not behind a pointer has its UnmarshalJSON called with it;
//   - a pointer is allocated for any other value, and so is an embedded
//     struct pointer on the way to a promoted field;
//   - an empty JSON array is an empty, non-nil slice, an empty object an
//     empty, non-nil map; a map value null is the zero value;
//   - an interface is decoded by json.Unmarshal itself.
// TestDecodeAsUnmarshal and FuzzDecode hold the walk to json.Unmarshal.

// decode walks data, one JSON value, as check does and stores it in v, a
// pointer to a zero value, as json.Unmarshal would. The error is a
// *fieldError; on an error, v holds part of the value.
func (c *checker) decode(data []byte, v any) error {
	dst := reflect.ValueOf(v).Elem()
	return c.walk(data, dst.Type(), dst)
}

// walk walks data as a value of type t, stored in dst when that is valid.
func (c *checker) walk(data []byte, t reflect.Type, dst reflect.Value) error {
	c.unknown.reset()
	w := c.walker(data)
	w.unknown = &c.unknown
	if dst.IsValid() {
		if c.strs == nil {
			c.strs = map[string]string{}
		}
		w.strs = c.strs
	}
	err := w.value(c.plan(t), dst)
	c.keep(&w)
	return err
}

// pointee returns the value a JSON value other than null is stored in: v,
// or what its pointers point to, allocated as needed.
func pointee(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	return v
}

// element returns element i of list, a slice (grown to hold it) or an
// array; it is not valid when list is not, or is an array of no more
// than i elements, whose extra elements encoding/json skips.
func element(list reflect.Value, i int) reflect.Value {
	switch {
	case !list.IsValid():
		return list
	case list.Kind() == reflect.Slice:
		if i >= list.Cap() {
			list.Grow(1)
		}
		list.SetLen(i + 1)
	case i >= list.Len():
		return reflect.Value{}
	}
	return list.Index(i)
}

// emptySlice stores an empty JSON array in list: an empty slice, not nil.
func emptySlice(list reflect.Value) {
	if list.IsValid() && list.Kind() == reflect.Slice {
		list.Set(reflect.MakeSlice(list.Type(), 0, 0))
	}
}

// errEmbeddedPointer is encoding/json's refusal to allocate an embedded
// pointer to an unexported struct on the way to a promoted field.
var errEmbeddedPointer = errors.New("cannot set an embedded pointer to an unexported struct")

// fieldOf returns the field of struct s at index (a field of s, then of
// the embedded structs on the way to a promoted field), allocating the
// embedded pointers on the way.
func fieldOf(s reflect.Value, index []int) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && s.Kind() == reflect.Pointer {
			if s.IsNil() {
				if !s.CanSet() {
					return reflect.Value{}, errEmbeddedPointer
				}
				s.Set(reflect.New(s.Type().Elem()))
			}
			s = s.Elem()
		}
		s = s.Field(x)
	}
	return s, nil
}

// mapEntries stores the members of a JSON object in a map: the zero value
// stores nothing. val is where each value is decoded, set to zero before
// each, and key holds each key; strings and resources hold the common
// map types directly, and quantity points to val for resources.
type mapEntries struct {
	m, val, key reflect.Value
	strings     map[string]string
	resources   corev1.ResourceList
	quantity    *resource.Quantity
}

var (
	stringsType   = reflect.TypeFor[map[string]string]()
	resourcesType = reflect.TypeFor[corev1.ResourceList]()
)

// newMapEntries starts storing into m, a map, allocating it when nil.
func newMapEntries(m reflect.Value) mapEntries {
	if m.IsNil() {
		m.Set(reflect.MakeMap(m.Type()))
	}
	e := mapEntries{m: m, val: reflect.New(m.Type().Elem()).Elem()}
	switch m.Type() {
	case stringsType:
		e.strings = m.Interface().(map[string]string)
	case resourcesType:
		e.resources, e.quantity = m.Interface().(corev1.ResourceList), e.val.Addr().Interface().(*resource.Quantity)
	default:
		e.key = reflect.New(m.Type().Key()).Elem()
	}
	return e
}

// elem returns the value the next member is decoded into, zero; it is
// not valid when nothing is stored.
func (e *mapEntries) elem() reflect.Value {
	if e.val.IsValid() {
		e.val.SetZero()
	}
	return e.val
}

// add stores the member decoded into val under the key text k, read as
// the number n when the key type is a number.
func (e *mapEntries) add(k string, n number) {
	switch {
	case e.strings != nil:
		e.strings[k] = e.val.String()
	case e.resources != nil:
		e.resources[corev1.ResourceName(k)] = *e.quantity
	default:
		if e.key.Kind() == reflect.String {
			e.key.SetString(k)
		} else {
			n.store(e.key)
		}
		e.m.SetMapIndex(e.key, e.val)
	}
}

// Strings a walk stores are shared when they repeat (label keys and
// values, namespaces, images): a checker keeps the first maxInterned of
// at most maxInternedLen bytes it stores.
const (
	maxInterned    = 4096
	maxInternedLen = 64
)

// stored returns the text of a string value or map key being stored, b
// as written (plain or not): the checker's copy when it keeps one.
func (w *walker) stored(b []byte, plain bool) string {
	if !plain || len(b) > maxInternedLen || w.strs == nil {
		return keyText(b, plain)
	}
	if s, ok := w.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(w.strs) < maxInterned {
		w.strs[s] = s
	}
	return s
}

// anyValue walks a value of an interface type, stored in dst by
// json.Unmarshal when dst is valid.
func (w *walker) anyValue(dst reflect.Value) error {
	if !dst.IsValid() {
		return w.skip()
	}
	raw, err := w.raw()
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, pointee(dst).Addr().Interface()); err != nil {
		return w.fail("cannot read %s: %v", abbreviate(string(raw)), err)
	}
	return nil
}
