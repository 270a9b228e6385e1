package instancetypes

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// repeatedKey returns the path of the first key that a JSON object of data
// repeats ("partitions.aws.regions.us-east-1.m5.large") and true, or false
// when none does: encoding/json keeps the last value of a repeated key,
// silently. Keys are compared as encoding/json matches them: those of an
// object decoded as a struct folded as it matches field names (foldKey of
// the unescaped key), those of an object decoded as a map (maps reports
// which, by path; nil: none) exactly. data should be valid
// JSON (decoded without error first); on anything else it stops without
// panicking and may miss a repeat. The recursion is bounded by the nesting
// encoding/json accepted. O(len(data)); it allocates once per distinct key
// and nothing per value.
func repeatedKey(data []byte, maps func(path []step) bool) (string, bool) {
	w := keyWalk{data: data, names: map[string]name{}, maps: maps}
	if w.value() {
		return w.at(), true
	}
	return "", false
}

// keyWalk scans JSON text by bytes, keeping the path down to the current
// value.
type keyWalk struct {
	data  []byte
	pos   int
	path  []step
	seen  []keySet        // by depth, reused by the objects at that depth
	names map[string]name // the plain keys seen, so that a key allocates once
	maps  func(path []step) bool
}

// name is a key and its folded form.
type name struct{ key, folded string }

// step is one level of a path: an object's key or an array's index.
type step struct {
	key, folded string
	index       int
	isKey       bool
}

// at renders the path: keys joined by '.', indexes as "[i]", an empty key
// as "".
func (w *keyWalk) at() string {
	var b strings.Builder
	for i, s := range w.path {
		switch {
		case !s.isKey:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case i > 0:
			b.WriteByte('.')
			fallthrough
		default:
			b.WriteString(cmpOrQuote(s.key))
		}
	}
	return b.String()
}

func cmpOrQuote(key string) string {
	if key == "" {
		return `""`
	}
	return key
}

func (w *keyWalk) space() {
	for w.pos < len(w.data) {
		switch w.data[w.pos] {
		case ' ', '\t', '\r', '\n':
			w.pos++
		default:
			return
		}
	}
}

// next reports whether the byte at the position is c, and skips it if so.
func (w *keyWalk) next(c byte) bool {
	w.space()
	if w.pos < len(w.data) && w.data[w.pos] == c {
		w.pos++
		return true
	}
	return false
}

// value skips one value and reports whether an object in it repeats a key
// (the path then leads to that key).
func (w *keyWalk) value() bool {
	w.space()
	if w.pos >= len(w.data) {
		return false
	}
	switch w.data[w.pos] {
	case '{':
		w.pos++
		return w.object()
	case '[':
		w.pos++
		return w.array()
	case '"':
		w.pos++
		w.skipStr()
		return false
	}
	for w.pos < len(w.data) && !strings.ContainsRune(",:]} \t\r\n\"[{", rune(w.data[w.pos])) {
		w.pos++ // a number, true, false or null
	}
	return false
}

func (w *keyWalk) object() bool {
	if w.next('}') {
		return false
	}
	depth, exact := len(w.path), w.maps != nil && w.maps(w.path)
	for len(w.seen) <= depth {
		w.seen = append(w.seen, keySet{})
	}
	w.seen[depth].reset()
	for w.next('"') {
		k := w.key()
		w.path = append(w.path, step{key: k.key, folded: k.folded, isKey: true})
		same := k.folded // a struct's member
		if exact {
			same = k.key // a map's key
		}
		if w.seen[depth].add(same) {
			return true
		}
		if !w.next(':') {
			return false
		}
		if w.value() {
			return true
		}
		w.path = w.path[:len(w.path)-1]
		if !w.next(',') {
			w.next('}')
			return false
		}
	}
	return false
}

func (w *keyWalk) array() bool {
	if w.next(']') {
		return false
	}
	for i := 0; ; i++ {
		w.path = append(w.path, step{index: i})
		if w.value() {
			return true
		}
		w.path = w.path[:len(w.path)-1]
		if !w.next(',') {
			w.next(']')
			return false
		}
	}
}

// key skips a string whose opening quote is behind the position and
// returns its value, unescaped as encoding/json does, and folded.
func (w *keyWalk) key() name {
	start := w.pos
	raw, escaped := w.skipStr()
	if escaped || !utf8.Valid(raw) { // encoding/json's unescaping, which reads invalid UTF-8 as U+FFFD
		var k string
		if err := json.Unmarshal(w.data[start-1:min(w.pos, len(w.data))], &k); err != nil {
			k = string(raw)
		}
		return name{k, foldKey(k)}
	}
	if n, ok := w.names[string(raw)]; ok {
		return n
	}
	k := string(raw)
	n := name{k, foldKey(k)}
	w.names[k] = n
	return n
}

// skipStr skips a string whose opening quote is behind the position and
// returns its text between the quotes, and whether it has an escape.
func (w *keyWalk) skipStr() (raw []byte, escaped bool) {
	start := w.pos
	for w.pos < len(w.data) && w.data[w.pos] != '"' {
		if w.data[w.pos] == '\\' {
			escaped = true
			w.pos++
		}
		w.pos++
	}
	raw = w.data[start:min(w.pos, len(w.data))]
	w.pos++ // the closing quote
	return raw, escaped
}

// keySet holds the folded keys of one object: a list while it is short,
// a map past that. Reset keeps both for the next object.
type keySet struct {
	few  []string
	many map[string]bool
	big  bool // the keys are in many
}

func (s *keySet) reset() {
	s.few = s.few[:0]
	if s.big {
		clear(s.many)
		s.big = false
	}
}

// add records key and reports whether it was there already.
func (s *keySet) add(key string) bool {
	if s.big {
		if s.many[key] {
			return true
		}
		s.many[key] = true
		return false
	}
	if slices.Contains(s.few, key) {
		return true
	}
	s.few = append(s.few, key)
	if len(s.few) > 32 {
		if s.many == nil {
			s.many = make(map[string]bool, 2*len(s.few))
		}
		for _, k := range s.few {
			s.many[k] = true
		}
		s.big = true
	}
	return false
}

// foldKey folds a key as encoding/json folds a member name to match it to
// a field (its foldName): each rune to the smallest rune of its simple
// case-folding orbit, so that "ſpotPrice" (long s) and "\u212a" (Kelvin
// sign) fold as "spotPrice" and "k" do.
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		for {
			next := unicode.SimpleFold(r)
			if next <= r {
				return next
			}
			r = next
		}
	}, s)
}

// The objects of a catalog file and of a price list that encoding/json
// decodes as maps, by path (keys folded as foldKey folds them: ASCII in
// upper case); their keys are compared exactly.

// catalogMaps: an instance type's price, spotPrice, labels, capacity and
// overhead.
func catalogMaps(path []step) bool {
	if len(path) != 3 || path[0].folded != "INSTANCETYPES" || path[1].isKey || !path[2].isKey {
		return false
	}
	switch path[2].folded {
	case "PRICE", "SPOTPRICE", "LABELS", "CAPACITY", "OVERHEAD":
		return true
	}
	return false
}

// priceListMaps: the partitions, a partition's regions and a region's
// prices.
func priceListMaps(path []step) bool {
	if len(path) == 0 || path[0].folded != "PARTITIONS" {
		return false
	}
	return len(path) == 1 || len(path) >= 3 && len(path) <= 4 && path[2].folded == "REGIONS"
}
