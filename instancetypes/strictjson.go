package instancetypes

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// repeatedKey returns the path of the first key that a JSON object of data
// repeats ("partitions.aws.regions.us-east-1.m5.large"), "" when none
// does: encoding/json keeps the last value of a repeated key, silently.
// Keys are compared case-insensitively, as encoding/json matches field
// names. data must be valid JSON (decoded without error first); the
// recursion is bounded by encoding/json's nesting limit. O(len(data)).
func repeatedKey(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	path, _ := walkKeys(dec, "")
	return path
}

// walkKeys reads one value of dec and returns the path of its first
// repeated key, "" when it has none.
func walkKeys(dec *json.Decoder, path string) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return "", err
			}
			key, _ := tok.(string)
			at := strings.TrimPrefix(path+"."+key, ".")
			folded := strings.ToLower(key)
			if seen[folded] {
				return at, nil
			}
			seen[folded] = true
			if p, err := walkKeys(dec, at); p != "" || err != nil {
				return p, err
			}
		}
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if p, err := walkKeys(dec, path+"["+strconv.Itoa(i)+"]"); p != "" || err != nil {
				return p, err
			}
		}
	default:
		return "", nil
	}
	_, err = dec.Token() // the closing delimiter
	return "", err
}
