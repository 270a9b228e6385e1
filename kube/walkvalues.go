package kube

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/resources"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// custom walks a value whose type decodes itself, raw, and stores it in
// dst when that is valid: a quantity is checked by nodeplan's rules, then
// decoded by its UnmarshalJSON; anything else is checked and decoded by
// its own UnmarshalJSON.
func (w *walker) custom(p *plan, raw []byte, dst reflect.Value) error {
	if p.shape == quantityShape {
		if _, _, err := w.quantity(raw, false); err != nil || !dst.IsValid() {
			return err
		}
	}
	if p.t == timeType {
		if t, ok := plainTime(raw); ok {
			if dst.IsValid() && string(raw) != "null" {
				pointee(dst).Set(reflect.ValueOf(t))
			}
			return nil
		}
	}
	return w.unmarshalJSON(p.t, raw, dst)
}

// unmarshalJSON reads raw with the UnmarshalJSON of t, into dst when that
// is valid (as json.Unmarshal does, null leaves a pointer nil), else into
// a new value, to check it.
func (w *walker) unmarshalJSON(t reflect.Type, raw []byte, dst reflect.Value) error {
	var target reflect.Value
	switch {
	case !dst.IsValid():
		target = reflect.New(t)
	case string(raw) == "null" && dst.Kind() == reflect.Pointer:
		return nil
	default:
		target = pointee(dst).Addr()
	}
	if err := target.Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
		return w.fail("cannot read %s as %s: %v", abbreviate(string(raw)), t, err)
	}
	return nil
}

// plainTime reads raw as metav1.Time's UnmarshalJSON does, and reports
// whether it accepts it, for the common case of null (the zero time) or
// an RFC 3339 string without escapes, which it reads the same way: with
// time.Parse, in the local time zone.
func plainTime(raw []byte) (metav1.Time, bool) {
	if string(raw) == "null" {
		return metav1.Time{}, true
	}
	if len(raw) < 2 || raw[0] != '"' || !plainText(raw[1:len(raw)-1]) {
		return metav1.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, string(raw[1:len(raw)-1]))
	return metav1.Time{Time: t.Local()}, err == nil
}

// quantityString walks a string field that holds a quantity, and stores
// the string in dst when that is valid.
func (w *walker) quantityString(dst reflect.Value) error {
	raw, err := w.raw()
	if err != nil {
		return err
	}
	if raw[0] != '"' && !bytes.Equal(raw, []byte("null")) {
		return w.fail("cannot read %s as string", abbreviate(string(raw)))
	}
	if _, _, err = w.quantity(raw, true); err != nil || !dst.IsValid() || raw[0] != '"' {
		return err
	}
	b := raw[1 : len(raw)-1]
	pointee(dst).SetString(keyText(b, plainText(b)))
	return nil
}

// listQuantity checks the quantity of a resource in a resource list by
// resources.Parse's rules (non-negative; pods and extended resources
// whole), echoing it as written. Parse is called only for the quantities
// its rules might reject: negative ones, cpu beyond the millicore range,
// and those of pods, extended or unnamed resources.
func (w *walker) listQuantity(k []byte, plain bool, dst reflect.Value) error {
	raw, err := w.raw()
	if err != nil {
		return err
	}
	s, q, err := w.quantity(raw, false)
	if err != nil {
		return err
	}
	if s != "" && !(plain && surelyParses(k, q)) {
		name := resources.Name(keyText(k, plain))
		if _, err := resources.Parse(map[resources.Name]string{name: s}); err != nil {
			return w.fail("%q %s", s, reason(err))
		}
	}
	if dst.IsValid() {
		return w.unmarshalJSON(quantityType, raw, dst)
	}
	return nil
}

// surelyParses reports whether resources.Parse accepts q, a valid
// quantity, for the resource named name (plain text) without asking it: q
// is not negative, name is neither empty, pods nor extended (whole numbers
// only), and cpu's millicores do not saturate. It does not allocate.
func surelyParses(name []byte, q resources.Quantity) bool {
	switch {
	case q.Sign() < 0 || len(name) == 0 || string(name) == string(resources.Pods) || bytes.IndexByte(name, '/') >= 0:
		return false
	case string(name) == string(resources.CPU):
		return q.MilliValue() < math.MaxInt64
	}
	return true
}

// quantity reads a JSON quantity as apimachinery does (a string, trimmed,
// or a number's text; null is zero and returns "") and checks it with
// [resources.ParseQuantity] within the bounds above. A string is read as
// written between its quotes, as resource.Quantity's UnmarshalJSON reads
// it, or with decoded, as encoding/json decodes a string field.
func (w *walker) quantity(raw []byte, decoded bool) (string, resources.Quantity, error) {
	if bytes.Equal(raw, []byte("null")) {
		return "", resources.Quantity{}, nil
	}
	var s string
	if raw[0] == '"' {
		var err error
		if b := raw[1 : len(raw)-1]; !decoded || plainText(b) {
			s = string(b)
		} else if s, err = decodeString(raw); err != nil {
			return "", resources.Quantity{}, w.fail("%w: %v", ErrMalformed, err)
		}
		s = strings.TrimSpace(s)
	} else if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return "", resources.Quantity{}, w.fail("%s is not a quantity", abbreviate(string(raw)))
	} else {
		s = string(raw)
	}
	if err := bounded(s); err != nil {
		return "", resources.Quantity{}, w.fail("%q %v", abbreviate(s), err)
	}
	q, err := resources.ParseQuantity(s)
	if err != nil {
		return "", q, w.fail("%q %s", s, reason(err))
	}
	return s, q, nil
}

// decodeString decodes a JSON string as encoding/json does.
func decodeString(raw []byte) (string, error) {
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
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
