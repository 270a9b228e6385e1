package kube

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
)

// strictJSON converts one YAML document to JSON as yaml.YAMLToJSONStrict
// does — go-yaml's strict decoding (a duplicate key is an error), each
// mapping key made a string as that function makes it, then encoding/json
// — with one difference: two keys of one mapping that go-yaml tells apart
// but that become the same string (1 and "1", true and "true", 1.0 and 1)
// are an error ([KeyCollisionError]), where yaml.YAMLToJSONStrict keeps
// whichever its map iteration visits last, a different document from run
// to run. Its errors name where the mapping is ([KeyTypeError] for a null
// key, which yaml.YAMLToJSONStrict refuses in other words), and of several
// the first in key order.
func strictJSON(doc []byte) ([]byte, error) {
	var obj any
	if err := yamlv2.UnmarshalStrict(doc, &obj); err != nil {
		return nil, err
	}
	conv, err := jsonable(obj)
	if err != nil {
		return nil, err
	}
	return json.Marshal(conv)
}

// KeyCollisionError is a YAML mapping with two keys that are one key in
// JSON: Path is where the mapping is (its keys from the document's root,
// dot-separated, a key that is empty or holds '.', '[' or ']' quoted in
// brackets, list items as [i]: a.b["x.y"][2]), Key the JSON key and
// First, Second two YAML keys as go-yaml read them (an int 1 and a string
// "1"), in the order of their descriptions, not the document's.
type KeyCollisionError struct {
	Path          string
	Key           string
	First, Second any
}

func (e *KeyCollisionError) Error() string {
	return fmt.Sprintf("yaml: the keys %s and %s%s are both %q in JSON, which cannot tell them apart",
		describeKey(e.First), describeKey(e.Second), in(e.Path), e.Key)
}

// KeyTypeError is a YAML mapping key that JSON has no key for: not a
// string, a number or a boolean (null; yaml.YAMLToJSONStrict's
// "unsupported map key"). Path is where the mapping is, as in
// [KeyCollisionError].
type KeyTypeError struct {
	Path string
	Key  any
}

func (e *KeyTypeError) Error() string {
	return fmt.Sprintf("yaml: the key %s%s is not a string, a number or a boolean, which a JSON key must be", describeKey(e.Key), in(e.Path))
}

// in is " in path", or nothing at the root.
func in(path string) string {
	if path == "" {
		return ""
	}
	return " in " + path
}

// jsonable is v with every mapping's keys made strings, as
// yaml.YAMLToJSONStrict makes them. A mapping's keys are taken in the
// order of their strings (then of their types), so that which error it
// reports, when several could be, does not depend on the order Go
// iterates the map in.
func jsonable(v any) (any, error) {
	switch t := v.(type) {
	case map[any]any:
		keys, err := jsonKeys(t)
		if err != nil {
			return nil, err
		}
		for i := 1; i < len(keys); i++ {
			if keys[i-1].s == keys[i].s {
				return nil, &KeyCollisionError{Key: keys[i].s, First: keys[i-1].k, Second: keys[i].k} // in describeKey order: sorted
			}
		}
		out := make(map[string]any, len(t))
		for _, k := range keys {
			conv, err := jsonable(k.v)
			if err != nil {
				return nil, within(err, keyStep(k.s))
			}
			out[k.s] = conv
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, val := range t {
			conv, err := jsonable(val)
			if err != nil {
				return nil, within(err, "["+strconv.Itoa(i)+"]")
			}
			out[i] = conv
		}
		return out, nil
	}
	return v, nil
}

// mapKey is a mapping key, its JSON string and its value (kept, as a
// NaN key cannot be looked up).
type mapKey struct {
	s    string
	k, v any
}

// jsonKeys are m's keys with their strings and values, by string and
// then by describeKey; a *KeyTypeError for the first key (by describeKey)
// that has no string.
func jsonKeys(m map[any]any) ([]mapKey, error) {
	keys := make([]mapKey, 0, len(m))
	var bad []any
	for k, v := range m {
		s, ok := keyString(k)
		if !ok {
			bad = append(bad, k)
			continue
		}
		keys = append(keys, mapKey{s, k, v})
	}
	if len(bad) > 0 {
		return nil, &KeyTypeError{Key: slices.MinFunc(bad, func(a, b any) int { return strings.Compare(describeKey(a), describeKey(b)) })}
	}
	slices.SortFunc(keys, func(a, b mapKey) int {
		if c := strings.Compare(a.s, b.s); c != 0 {
			return c
		}
		return strings.Compare(describeKey(a.k), describeKey(b.k)) // only where keys collide
	})
	return keys, nil
}

// describeKey is a YAML key and its type: 1 (int), "1" (string).
func describeKey(k any) string { return fmt.Sprintf("%#v (%T)", k, k) }

// keyStep is key as a step of a path: as it is, or quoted in brackets
// when empty or when it holds a character the path uses.
func keyStep(key string) string {
	if key == "" || strings.ContainsAny(key, ".[]") {
		return "[" + strconv.Quote(key) + "]"
	}
	return key
}

// within puts a key error inside the member or item step of its parent.
func within(err error, step string) error {
	var path *string
	switch e := err.(type) {
	case *KeyCollisionError:
		path = &e.Path
	case *KeyTypeError:
		path = &e.Path
	default:
		return err
	}
	switch {
	case *path == "":
		*path = step
	case strings.HasPrefix(*path, "["):
		*path = step + *path
	default:
		*path = step + "." + *path
	}
	return err
}

// keyString is a mapping key as yaml.YAMLToJSONStrict writes it in JSON;
// false for a key of another type (null), which it refuses too.
func keyString(k any) (string, bool) {
	switch t := k.(type) {
	case string:
		return t, true
	case int:
		return strconv.Itoa(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case float64:
		switch s := strconv.FormatFloat(t, 'g', -1, 32); s {
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		case "NaN":
			return ".nan", true
		default:
			return s, true
		}
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false
}
