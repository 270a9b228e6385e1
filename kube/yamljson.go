package kube

import (
	"encoding/json"
	"fmt"
	"reflect"
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
// to run.
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
// dot-separated; list items as [i]), Key the JSON key and First, Second
// the two YAML keys as go-yaml read them (an int 1 and a string "1").
type KeyCollisionError struct {
	Path          string
	Key           string
	First, Second any
}

func (e *KeyCollisionError) Error() string {
	at := ""
	if e.Path != "" {
		at = " in " + e.Path
	}
	return fmt.Sprintf("yaml: the keys %s and %s%s are both %q in JSON, which cannot tell them apart", describeKey(e.First), describeKey(e.Second), at, e.Key)
}

// jsonable is v with every mapping's keys made strings, as
// yaml.YAMLToJSONStrict makes them; a collision is a *KeyCollisionError.
func jsonable(v any) (any, error) {
	switch t := v.(type) {
	case map[any]any:
		out := make(map[string]any, len(t))
		from := make(map[string]any, len(t))
		for k, val := range t {
			key, err := keyString(k, val)
			if err != nil {
				return nil, err
			}
			if first, ok := from[key]; ok {
				return nil, collision(key, first, k)
			}
			from[key] = k
			conv, err := jsonable(val)
			if err != nil {
				return nil, within(err, key)
			}
			out[key] = conv
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

// describeKey is a YAML key and its type: 1 (int), "1" (string).
func describeKey(k any) string { return fmt.Sprintf("%#v (%T)", k, k) }

// collision orders the two keys so that the error does not depend on the
// map's iteration order.
func collision(key string, a, b any) *KeyCollisionError {
	if describeKey(b) < describeKey(a) {
		a, b = b, a
	}
	return &KeyCollisionError{Key: key, First: a, Second: b}
}

// within puts a collision inside the member or item step of its parent.
func within(err error, step string) error {
	e, ok := err.(*KeyCollisionError)
	if !ok {
		return err
	}
	switch {
	case e.Path == "":
		e.Path = step
	case strings.HasPrefix(e.Path, "["):
		e.Path = step + e.Path
	default:
		e.Path = step + "." + e.Path
	}
	return e
}

// keyString is a mapping key as yaml.YAMLToJSONStrict writes it in JSON.
func keyString(k, v any) (string, error) {
	switch t := k.(type) {
	case string:
		return t, nil
	case int:
		return strconv.Itoa(t), nil
	case int64:
		return strconv.FormatInt(t, 10), nil
	case float64:
		switch s := strconv.FormatFloat(t, 'g', -1, 32); s {
		case "+Inf":
			return ".inf", nil
		case "-Inf":
			return "-.inf", nil
		case "NaN":
			return ".nan", nil
		default:
			return s, nil
		}
	case bool:
		return strconv.FormatBool(t), nil
	}
	return "", fmt.Errorf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, v)
}
