package instancetypes

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// tokenRepeatedKey is the first repeatedKey, on encoding/json's token
// stream (slow: a string per token and per path): the oracle of the
// byte scanner. It returns "" for a repeated key whose path is empty.
func tokenRepeatedKey(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	path, _ := tokenWalkKeys(dec, "")
	return path
}

// tokenWalkKeys reads one value of dec and returns the path of its first
// repeated key, "" when it has none.
func tokenWalkKeys(dec *json.Decoder, path string) (string, error) {
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
			folded := foldKey(key)
			if seen[folded] {
				return at, nil
			}
			seen[folded] = true
			if p, err := tokenWalkKeys(dec, at); p != "" || err != nil {
				return p, err
			}
		}
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if p, err := tokenWalkKeys(dec, path+"["+strconv.Itoa(i)+"]"); p != "" || err != nil {
				return p, err
			}
		}
	default:
		return "", nil
	}
	_, err = dec.Token() // the closing delimiter
	return "", err
}
