package kube

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// segment is one step of the path to the current value: a struct member
// or map key (its text as written, between the quotes) or an array index.
// It is turned into text only when an error is reported.
type segment struct {
	key   []byte
	plain bool // key has no escape and no byte beyond ASCII
	index int  // when key is nil
	field bool // a struct member, written .name; else a map key or index
}

// walker is one walk: the JSON, the read position and the path to the
// current value. seen holds, for each object being read as a struct, a
// bit per member read, and keys the keys of each being read as a map, to
// find duplicates. strict is set inside a member of [strictMembers];
// unknown, when not nil, records the unknown fields of Kubernetes' types.
type walker struct {
	data    []byte
	i       int
	path    []segment
	seen    []uint64
	keys    []keyRef
	strict  bool
	unknown *unknownLog
	strs    map[string]string // of the checker, when storing (stored)
}

func (w *walker) fail(format string, args ...any) error {
	return &fieldError{field: w.pathText(), err: fmt.Errorf(format, args...)}
}

// pathText writes the path as messages name fields:
// spec.containers[0].resources.requests.cpu, labels["a b"].
func (w *walker) pathText() string {
	var b strings.Builder
	for i, s := range w.path {
		switch {
		case s.key == nil:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case s.field && i > 0:
			b.WriteString("." + keyText(s.key, s.plain))
		case s.field:
			b.WriteString(keyText(s.key, s.plain))
		default:
			b.WriteString(key(keyText(s.key, s.plain)))
		}
	}
	return b.String()
}

func (w *walker) push(s segment) { w.path = append(w.path, s) }
func (w *walker) pop()           { w.path = w.path[:len(w.path)-1] }

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

// keyText is the text of a string's contents as encoding/json decodes it.
func keyText(b []byte, plain bool) string {
	if plain {
		return string(b)
	}
	s, err := decodeString(append(append([]byte{'"'}, b...), '"'))
	if err != nil {
		return string(b)
	}
	return s
}

// malformed reports JSON the walk cannot read, with encoding/json's
// account of it. Load walks only JSON that encoding/json has read whole,
// so this is a guard.
func (w *walker) malformed() error {
	err := json.Unmarshal(w.data, new(json.RawMessage))
	if err == nil {
		err = fmt.Errorf("unexpected input at offset %d", w.i)
	}
	return w.fail("%w: %v", ErrMalformed, err)
}

// space skips white space and returns the next byte, 0 at the end.
func (w *walker) space() byte {
	for w.i < len(w.data) {
		switch c := w.data[w.i]; c {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return c
		}
	}
	return 0
}

// value walks the next JSON value as one of plan p and, when dst is
// valid, stores it in dst (a value of p's type or a pointer to one,
// zero when the walk starts) as json.Unmarshal would (decode.go).
func (w *walker) value(p *plan, dst reflect.Value) error {
	if p.shape == quantityShape || p.shape == customShape {
		raw, err := w.raw()
		if err != nil {
			return err
		}
		return w.custom(p, raw, dst)
	}
	c := w.space()
	switch c {
	case 0:
		return w.malformed()
	case 'n': // null leaves every Go value as it is: here, zero
		return w.literal("null")
	}
	switch p.shape {
	case anyShape:
		return w.anyValue(dst)
	case structShape, mapShape:
		if c != '{' {
			return w.mismatch(p)
		}
		return w.object(p, dst)
	case arrayShape:
		if c != '[' {
			return w.mismatch(p)
		}
		return w.array(p, dst)
	case bytesShape:
		return w.bytes(dst)
	}
	return w.scalar(p, c, dst)
}

// scalar walks a string, bool or number, starting with c, as one of p
// and stores it in dst when that is valid.
func (w *walker) scalar(p *plan, c byte, dst reflect.Value) error {
	switch {
	case c == '"' && p.shape == stringShape:
		b, plain, err := w.str()
		if err == nil && dst.IsValid() {
			pointee(dst).SetString(w.stored(b, plain))
		}
		return err
	case c == 't' && p.shape == boolShape, c == 'f' && p.shape == boolShape:
		lit := c == 't'
		err := w.literal(strconv.FormatBool(lit))
		if err == nil && dst.IsValid() {
			pointee(dst).SetBool(lit)
		}
		return err
	case c == '-' || c >= '0' && c <= '9':
		start := w.i
		w.number()
		if n, ok := readNumber(p.shape, p.bits, w.data[start:w.i]); ok {
			if dst.IsValid() {
				n.store(pointee(dst))
			}
			return nil
		}
		w.i = start
	}
	return w.mismatch(p)
}

// mismatch reports the value at the read position as not one of p.
func (w *walker) mismatch(p *plan) error {
	return w.fail("cannot read %s as %s", w.describe(), p.t)
}

// describe names the value at the read position in an error: a string or
// number as written (a string quoted), else its JSON type.
func (w *walker) describe() string {
	switch c := w.space(); {
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "bool"
	case c == '"':
		s, plain, err := w.str()
		if err != nil {
			return "string"
		}
		return "string " + strconv.Quote(abbreviate(keyText(s, plain)))
	case c == '-' || c >= '0' && c <= '9':
		start := w.i
		w.number()
		return "number " + string(w.data[start:w.i])
	}
	return "null"
}

// number is a JSON number read as one of a shape: the field of the shape
// holds it.
type number struct {
	shape shape
	i     int64
	u     uint64
	f     float64
}

// readNumber reads the number text b as a number of the shape and bits,
// and reports whether it is one, as encoding/json decides.
func readNumber(s shape, bits int, b []byte) (n number, ok bool) {
	n.shape = s
	if s == uintShape && len(b) > 0 && b[0] == '-' {
		return n, false // not even -0: encoding/json parses it with ParseUint
	}
	if s == intShape || s == uintShape {
		if v, ok := smallInt(b); ok {
			n.i, n.u = v, uint64(v)
			return n, intFits(s, bits, v)
		}
	}
	var err error
	switch s {
	case intShape:
		n.i, err = strconv.ParseInt(string(b), 10, bits)
	case uintShape:
		n.u, err = strconv.ParseUint(string(b), 10, bits)
	case floatShape:
		n.f, err = strconv.ParseFloat(string(b), bits)
	default:
		return n, false
	}
	return n, err == nil
}

// store sets v, a number of n's shape, to n.
func (n number) store(v reflect.Value) {
	switch n.shape {
	case intShape:
		v.SetInt(n.i)
	case uintShape:
		v.SetUint(n.u)
	default:
		v.SetFloat(n.f)
	}
}

// smallInt reads b when it is an optional minus and 1 to 18 digits, which
// always fit an int64.
func smallInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// intFits reports whether v is in the range of an int or uint of bits.
func intFits(s shape, bits int, v int64) bool {
	if s == uintShape {
		return v >= 0 && (bits == 64 || v < 1<<bits)
	}
	return bits == 64 || v >= -1<<(bits-1) && v < 1<<(bits-1)
}

func (w *walker) bytes(dst reflect.Value) error {
	if w.space() != '"' {
		return w.fail("cannot read %s as base64 bytes", w.describe())
	}
	b, plain, err := w.str()
	if err != nil {
		return err
	}
	s := keyText(b, plain)
	decoded, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return w.fail("%q is not base64", abbreviate(s))
	}
	if dst.IsValid() {
		pointee(dst).SetBytes(decoded)
	}
	return nil
}

// abbreviate shortens s for a message.
func abbreviate(s string) string {
	if len(s) <= maxQuantityLen {
		return s
	}
	return s[:maxQuantityLen] + "…"
}

// array walks a JSON array as a slice or array of p, stored in dst when
// that is valid.
func (w *walker) array(p *plan, dst reflect.Value) error {
	var list reflect.Value
	if dst.IsValid() {
		list = pointee(dst)
	}
	w.i++ // [
	if w.space() == ']' {
		w.i++
		emptySlice(list)
		return nil
	}
	for i := 0; ; i++ {
		w.push(segment{index: i})
		if err := w.value(p.elem, element(list, i)); err != nil {
			return err
		}
		w.pop()
		if done, err := w.next(']'); done || err != nil {
			return err
		}
	}
}

// next reads the comma after an element or member, or the closing
// delimiter end (done).
func (w *walker) next(end byte) (done bool, err error) {
	switch w.space() {
	case ',':
		w.i++
		return false, nil
	case end:
		w.i++
		return true, nil
	}
	return true, w.malformed()
}

// object walks a JSON object as a struct or a map of p, stored in dst
// when that is valid.
func (w *walker) object(p *plan, dst reflect.Value) error {
	if p.shape == mapShape {
		return w.mapOf(p, dst)
	}
	if !dst.IsValid() {
		return w.fields(p, w.member)
	}
	s := pointee(dst)
	return w.fields(p, func(m *member) error {
		f, err := fieldOf(s, m.index)
		if err != nil {
			return w.fail("%v", err)
		}
		return w.memberInto(m, f)
	})
}

// mapOf walks a JSON object as a map of p, stored in dst when that is
// valid; a key twice is an error.
func (w *walker) mapOf(p *plan, dst reflect.Value) error {
	if k := p.key.Kind(); k != reflect.String && !(isNumber(k) && numberShape(k) != floatShape) {
		return w.fail("cannot read object as %s: encoding/json reads no map with %s keys", p.t, p.key)
	}
	base := len(w.keys)
	var many map[string]bool
	var entries mapEntries
	if dst.IsValid() {
		entries = newMapEntries(pointee(dst))
	}
	err := w.entries(func(k []byte, plain bool) error {
		if err := w.distinct(base, &many, k, plain); err != nil {
			return err
		}
		return w.mapMember(p, k, plain, &entries)
	})
	w.keys = w.keys[:base]
	return err
}

// manyKeys is the number of keys of a map beyond which distinct looks
// them up in a Go map rather than comparing each with all before it.
const manyKeys = 32

// distinct records the key k of the map whose keys start at w.keys[base]
// (and, beyond manyKeys of them, are also in *many), and reports it when
// the map has it already. A plain key is compared as written, any other as
// decoded. It allocates only for a key that is not plain and for a map of
// more than manyKeys keys.
func (w *walker) distinct(base int, many *map[string]bool, k []byte, plain bool) error {
	dup := false
	switch {
	case *many != nil:
		text := keyText(k, plain)
		dup = (*many)[text]
		(*many)[text] = true
	case len(w.keys)-base >= manyKeys:
		*many = map[string]bool{keyText(k, plain): true}
		for _, r := range w.keys[base:] {
			(*many)[keyText(r.key, r.plain)] = true
		}
		dup = len(*many) <= len(w.keys)-base
	default:
		for _, r := range w.keys[base:] {
			if plain && r.plain && string(r.key) == string(k) || !(plain && r.plain) && keyText(r.key, r.plain) == keyText(k, plain) {
				dup = true
				break
			}
		}
		w.keys = append(w.keys, keyRef{key: k, plain: plain})
	}
	if dup {
		w.push(segment{key: k, plain: plain})
		return w.fail("%w key", ErrDuplicateField)
	}
	return nil
}

// entries reads the members of the object at the read position, handing
// each key (as written, and whether it is plain) to read, which reads the
// value.
func (w *walker) entries(read func(k []byte, plain bool) error) error {
	w.i++ // {
	if w.space() == '}' {
		w.i++
		return nil
	}
	for {
		if w.space() != '"' {
			return w.malformed()
		}
		k, plain, err := w.str()
		if err != nil {
			return err
		}
		if w.space() != ':' {
			return w.malformed()
		}
		w.i++
		if err := read(k, plain); err != nil {
			return err
		}
		if done, err := w.next('}'); done || err != nil {
			return err
		}
	}
}

// fields reads the object at the read position as a struct of plan p:
// read reads the value of each member of p, which is on the path while
// it does, strict inside a strict member. The values of other members are
// skipped ([walker.unknownField]); a member twice is an error.
func (w *walker) fields(p *plan, read func(m *member) error) error {
	base := len(w.seen)
	for range (len(p.order) + 63) / 64 {
		w.seen = append(w.seen, 0)
	}
	err := w.entries(func(k []byte, plain bool) error {
		m, ok := p.lookup(k, plain)
		if !ok {
			return w.unknownField(p, k, plain)
		}
		w.push(segment{key: k, plain: plain, field: true})
		word, bit := base+m.idx/64, uint64(1)<<(m.idx%64)
		if w.seen[word]&bit != 0 {
			return w.fail("%w field", ErrDuplicateField)
		}
		w.seen[word] |= bit
		strict := w.strict
		w.strict = strict || m.strict
		err := read(m)
		w.strict = strict
		if err == nil {
			w.pop()
		}
		return err
	})
	w.seen = w.seen[:base]
	return err
}

// unknownField handles a member of an object read as a struct of plan p
// that p has no field of: an error when it names one under case folding
// (encoding/json would decode it into that field) or is inside a strict
// member; else it is recorded (Kubernetes' types) and its value skipped.
func (w *walker) unknownField(p *plan, k []byte, plain bool) error {
	if m, ok := p.folded(k, plain); ok {
		w.push(segment{key: k, plain: plain, field: true})
		return w.fail("%w: field names are case-sensitive; did you mean %s?", ErrUnknownField, m.name)
	}
	if w.strict {
		w.push(segment{key: k, plain: plain, field: true})
		return w.fail("%w in a part nodeplan reads, where a misspelling would change its answer", ErrUnknownField)
	}
	if w.unknown != nil && !p.own {
		w.unknown.add(func() string {
			w.push(segment{key: k, plain: plain, field: true})
			defer w.pop()
			return w.pathText()
		})
	}
	return w.skip()
}

// member walks the value of a struct member.
func (w *walker) member(m *member) error {
	return w.memberInto(m, reflect.Value{})
}

// memberInto walks the value of a struct member and stores it in dst, the
// field, when that is valid.
func (w *walker) memberInto(m *member, dst reflect.Value) error {
	if m.quantity {
		return w.quantityString(dst)
	}
	return w.value(m.plan, dst)
}

// mapMember walks the member k of a map of p and adds it to entries when
// they are being stored.
func (w *walker) mapMember(p *plan, k []byte, plain bool, entries *mapEntries) error {
	w.push(segment{key: k, plain: plain})
	key, err := w.mapKey(p.key, k, plain)
	if err != nil {
		return err
	}
	elem := entries.elem()
	if p.list {
		err = w.listQuantity(k, plain, elem)
	} else {
		err = w.value(p.elem, elem)
	}
	if err == nil {
		if entries.m.IsValid() {
			entries.add(w.stored(k, plain), key)
		}
		w.pop()
	}
	return err
}

// mapKey checks that a key decodes as one of type t, as encoding/json
// does, and returns it read as a number when t is one.
func (w *walker) mapKey(t reflect.Type, k []byte, plain bool) (number, error) {
	if t.Kind() == reflect.String {
		return number{}, nil
	}
	s := keyText(k, plain)
	if n, ok := readNumber(numberShape(t.Kind()), t.Bits(), []byte(s)); ok { // an int or uint (mapOf)
		return n, nil
	}
	return number{}, w.fail("cannot read key %q as %s", s, t)
}

// str reads a string and returns its contents as written, and whether
// they are plain: no escape and no byte beyond ASCII, so that they are
// their own decoded text.
func (w *walker) str() (b []byte, plain bool, err error) {
	start, plain := w.i+1, true
	for i := start; i < len(w.data); i++ {
		switch c := w.data[i]; {
		case c == '"':
			w.i = i + 1
			return w.data[start:i], plain, nil
		case c == '\\':
			plain = false
			i++ // the escaped byte; \uXXXX continues with plain hex digits
		case c >= 0x80:
			plain = false
		}
	}
	return nil, false, w.malformed()
}

// plainText reports whether b has no escape and no byte beyond ASCII, so
// that it is its own decoded text.
func plainText(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// number reads the text of a number.
func (w *walker) number() {
	for w.i < len(w.data) {
		switch c := w.data[w.i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			w.i++
		default:
			return
		}
	}
}

// literal reads true, false or null.
func (w *walker) literal(lit string) error {
	if len(w.data)-w.i < len(lit) || string(w.data[w.i:w.i+len(lit)]) != lit {
		return w.malformed()
	}
	w.i += len(lit)
	return nil
}

// skip reads the next value, whatever it is.
func (w *walker) skip() error {
	switch c := w.space(); {
	case c == '"':
		_, _, err := w.str()
		return err
	case c == '{' || c == '[':
		return w.skipNested()
	case c == 't':
		return w.literal("true")
	case c == 'f':
		return w.literal("false")
	case c == 'n':
		return w.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		w.number()
		return nil
	}
	return w.malformed()
}

// skipNested reads an object or array, counting brackets outside strings.
func (w *walker) skipNested() error {
	for depth := 0; w.i < len(w.data); {
		switch w.data[w.i] {
		case '"':
			if _, _, err := w.str(); err != nil {
				return err
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				w.i++
				return nil
			}
		}
		w.i++
	}
	return w.malformed()
}

// raw reads the next value and returns its text.
func (w *walker) raw() ([]byte, error) {
	w.space()
	start := w.i
	if err := w.skip(); err != nil {
		return nil, err
	}
	return w.data[start:w.i], nil
}
