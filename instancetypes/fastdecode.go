package instancetypes

import (
	"bytes"
	"encoding/json"
)

// decodeFast is decode by a shorter road, taken when it can be: the
// document's instanceTypes array, nearly all of a catalog file, is framed
// by a scan of its bytes, so that encoding/json reads it once, by elements
// in parallel, instead of three more times in series (the document's
// validity, then skipping the array, then framing its elements). The rest
// of the document is decoded as before, with the array replaced by [].
// decodeFast reports false whenever it is not sure, and decode then takes
// the long road, which also words the error; when it reports true, the
// document is the one the long road returns (FuzzDecodeFast).
func decodeFast(data []byte) (document, bool) {
	at, ok := instanceTypesAt(data)
	if !ok {
		return document{}, false
	}
	elems, ok := objectElements(data, at)
	if !ok {
		return document{}, false
	}
	rest := make([]byte, 0, len(data)-(at.end-at.start)+2)
	rest = append(append(append(rest, data[:at.start]...), "[]"...), data[at.end:]...)
	var doc document
	if decodeStrict(bytes.NewReader(rest), &doc) != nil || doc.InstanceTypes.err != nil {
		return document{}, false
	}
	specs, err := decodeElements(data, elems)
	if err != nil {
		return document{}, false
	}
	doc.InstanceTypes = specList{specs: specs}
	return doc, true
}

// instanceTypesAt returns the span of the array that encoding/json would
// decode as the document's instanceTypes: the value of the last member of
// the top-level object whose key matches the field's name as encoding/json
// matches names (folded). It reports false for anything it does not frame
// as an object, and when that value is not an array.
func instanceTypesAt(data []byte) (span, bool) {
	f := framer{data: data}
	var found span
	want := foldKey("instanceTypes")
	framed := f.list('{', '}', func() bool {
		key, ok := f.str()
		if !ok || !f.skip(':') {
			return false
		}
		v, ok := f.value()
		var k string
		if !ok || json.Unmarshal(data[key.start:key.end], &k) != nil {
			return false
		}
		if foldKey(k) == want {
			found = v
		}
		return true
	})
	return found, framed && found.end > found.start && data[found.start] == '['
}

// objectElements frames the array at data[at]: '[', then objects separated
// by commas, then ']', with JSON white space between. Each object is framed
// by its brackets only; encoding/json checks its contents.
func objectElements(data []byte, at span) ([]span, bool) { return elements(data, at, true) }

// elements frames the array at data[at] as objectElements does, its
// elements objects when objects is set, else any values.
func elements(data []byte, at span, objects bool) ([]span, bool) {
	f := framer{data: data[:at.end], pos: at.start}
	var out []span
	framed := f.list('[', ']', func() bool {
		if f.space(); objects && (f.pos >= len(f.data) || f.data[f.pos] != '{') {
			return false
		}
		v, ok := f.value()
		out = append(out, v)
		return ok
	})
	return out, framed && f.space() == len(f.data)
}

// framer scans JSON text by bytes for its structure alone.
type framer struct {
	data []byte
	pos  int
}

// space skips white space and returns the position after it.
func (f *framer) space() int {
	for f.pos < len(f.data) {
		switch f.data[f.pos] {
		case ' ', '\t', '\n', '\r':
			f.pos++
		default:
			return f.pos
		}
	}
	return f.pos
}

// list skips open, then items separated by commas, then close, with
// white space between; item reads one item and reports whether it could.
// It reports whether it framed the whole list.
func (f *framer) list(open, close byte, item func() bool) bool {
	if !f.skip(open) {
		return false
	}
	if f.skip(close) {
		return true
	}
	for {
		if !item() {
			return false
		}
		if f.skip(close) {
			return true
		}
		if !f.skip(',') {
			return false
		}
	}
}

// skip skips white space and then c, if c is next.
func (f *framer) skip(c byte) bool {
	if f.space() < len(f.data) && f.data[f.pos] == c {
		f.pos++
		return true
	}
	return false
}

// str skips white space and then a string, returning its span with the
// quotes.
func (f *framer) str() (span, bool) {
	if f.space() >= len(f.data) || f.data[f.pos] != '"' {
		return span{}, false
	}
	start := f.pos
	for f.pos++; f.pos < len(f.data); f.pos++ {
		switch f.data[f.pos] {
		case '\\':
			f.pos++
		case '"':
			f.pos++
			return span{start, f.pos}, true
		}
	}
	return span{}, false
}

// value skips white space and then a value: a string, an object or array
// up to its matching bracket (brackets of either kind counted alike, and
// none inside strings), or anything else up to white space, a comma or a
// closing bracket.
func (f *framer) value() (span, bool) {
	if f.space() >= len(f.data) {
		return span{}, false
	}
	start := f.pos
	switch f.data[f.pos] {
	case '"':
		return f.str()
	case '{', '[':
		for depth := 0; f.pos < len(f.data); f.pos++ {
			switch f.data[f.pos] {
			case '"':
				if _, ok := f.str(); !ok {
					return span{}, false
				}
				f.pos--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					f.pos++
					return span{start, f.pos}, true
				}
			}
		}
		return span{}, false
	}
	for f.pos < len(f.data) {
		switch f.data[f.pos] {
		case ' ', '\t', '\n', '\r', ',', '}', ']':
			return span{start, f.pos}, f.pos > start
		}
		f.pos++
	}
	return span{start, f.pos}, f.pos > start
}
