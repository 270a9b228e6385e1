package kube

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// plainJSON converts doc, one YAML document, to the JSON [strictJSON]
// gives, byte for byte, when doc is in the plain block style kubectl and
// sigs.k8s.io/yaml print: block mappings and sequences, one entry a line,
// whose keys are names and whose values are one-line plain scalars,
// double-quoted strings without escapes, {} or []. It is many times
// faster than go-yaml. ok is false, and nothing is returned, for anything
// else, which the caller converts with strictJSON: a byte other than
// printable ASCII and '\n' (tabs, '\r', Unicode), a comment or '#', a
// blank line or a line ending in a space, a tag, anchor, alias or other
// indicator, a quoted or numeric key or one go-yaml reads as a boolean,
// null or merge key, a duplicate key, a value over several lines, a
// single-quoted or escaped string, a flow collection with members, a
// float, a timestamp, and nesting deeper than plainDepth. Plain scalars
// are resolved as go-yaml v2 resolves them (resolve.go): booleans and
// nulls by name, integers by strconv, everything else is a string.
// FuzzPlainJSON holds it to strictJSON.
func plainJSON(doc []byte) ([]byte, bool) {
	var p plainParser
	return p.convert(doc)
}

// convert is plainJSON with p's buffers, which it reuses from one
// document to the next (a goroutine converting many keeps one parser).
func (p *plainParser) convert(doc []byte) ([]byte, bool) {
	if len(doc) == 0 || !plainBytes(doc) {
		return nil, false
	}
	var ok bool
	if p.lines, ok = plainLines(p.lines[:0], doc); !ok {
		return nil, false
	}
	p.i, p.pairs = 0, p.pairs[:0]
	out := make([]byte, 0, len(doc))
	out, ok = p.block(out, p.lines[0].indent, 0)
	if !ok || p.i != len(p.lines) {
		return nil, false
	}
	return out, true
}

// plainDepth bounds the nesting plainJSON takes (go-yaml bounds it too,
// far deeper).
const plainDepth = 64

// plainBytes reports whether doc holds only printable ASCII and '\n', and
// no '#'.
func plainBytes(doc []byte) bool {
	for _, c := range doc {
		if (c < 0x20 && c != '\n') || c > 0x7e || c == '#' {
			return false
		}
	}
	return true
}

// plainLine is a line of a document: its indentation and the text after
// it, without the line break.
type plainLine struct {
	indent int
	text   []byte
}

// plainLines appends the lines of doc to lines; false when one is blank
// or ends in a space.
func plainLines(lines []plainLine, doc []byte) ([]plainLine, bool) {
	for len(doc) > 0 {
		line, rest := cutLine(doc)
		doc = rest
		line = bytes.TrimSuffix(line, []byte("\n"))
		text := bytes.TrimLeft(line, " ")
		if len(text) == 0 || text[len(text)-1] == ' ' {
			return lines, false
		}
		lines = append(lines, plainLine{indent: len(line) - len(text), text: text})
	}
	return lines, true
}

// plainParser reads lines from i on. pairs holds the members of the
// mappings being read, innermost last.
type plainParser struct {
	lines []plainLine
	i     int
	pairs []pair
}

// entry reports whether line l starts a sequence entry: "- " or a lone
// "-".
func (l plainLine) entry() bool {
	return l.text[0] == '-' && (len(l.text) == 1 || l.text[1] == ' ')
}

// block appends the JSON of the block collection whose first line is the
// next, at indent: a sequence when it starts with "- ", else a mapping.
func (p *plainParser) block(out []byte, indent, depth int) ([]byte, bool) {
	if depth > plainDepth || p.i >= len(p.lines) || p.lines[p.i].indent != indent {
		return out, false
	}
	if p.lines[p.i].entry() {
		return p.sequence(out, indent, depth)
	}
	return p.mapping(out, indent, depth)
}

// sequence appends the JSON of the block sequence at indent.
func (p *plainParser) sequence(out []byte, indent, depth int) ([]byte, bool) {
	out = append(out, '[')
	for n := 0; p.i < len(p.lines) && p.lines[p.i].indent == indent && p.lines[p.i].entry(); n++ {
		if n > 0 {
			out = append(out, ',')
		}
		l := &p.lines[p.i]
		if len(l.text) < 3 || l.text[2] == ' ' || l.text[2] == '-' && (len(l.text) == 3 || l.text[3] == ' ') {
			return out, false // "-" alone, "-  x", "- - x"
		}
		rest := l.text[2:]
		if _, _, isKey := plainKey(rest); isKey {
			// "- key: value": a mapping whose keys are at indent+2.
			*l = plainLine{indent: indent + 2, text: rest}
			var ok bool
			if out, ok = p.mapping(out, indent+2, depth+1); !ok {
				return out, false
			}
			continue
		}
		p.i++
		var ok bool
		if out, ok = plainScalar(out, rest); !ok || p.deeper(indent) {
			return out, false
		}
	}
	if p.i < len(p.lines) && p.lines[p.i].indent > indent {
		return out, false
	}
	return append(out, ']'), true
}

// deeper reports whether the next line is indented beyond indent: the
// continuation of a value over several lines, which plainJSON does not
// take.
func (p *plainParser) deeper(indent int) bool {
	return p.i < len(p.lines) && p.lines[p.i].indent > indent
}

// pair is where a member of a mapping being read is in the output:
// its "key":value from start to end, its key's text first.
type pair struct {
	key        []byte
	start, end int
}

// mapping appends the JSON of the block mapping at indent, its members
// sorted by key as encoding/json writes a map.
func (p *plainParser) mapping(out []byte, indent, depth int) ([]byte, bool) {
	out = append(out, '{')
	base := len(p.pairs)
	defer func() { p.pairs = p.pairs[:base] }()
	for p.i < len(p.lines) && p.lines[p.i].indent == indent && !p.lines[p.i].entry() {
		key, value, ok := plainKey(p.lines[p.i].text)
		if !ok {
			return out, false
		}
		p.i++
		if len(p.pairs) > base {
			out = append(out, ',')
		}
		m := pair{key: key, start: len(out)}
		out = append(appendJSONString(out, key), ':')
		switch {
		case value != nil:
			if out, ok = plainScalar(out, value); !ok || p.deeper(indent) {
				return out, false
			}
		case p.deeper(indent):
			if out, ok = p.block(out, p.lines[p.i].indent, depth+1); !ok {
				return out, false
			}
		case p.i < len(p.lines) && p.lines[p.i].indent == indent && p.lines[p.i].entry():
			if out, ok = p.sequence(out, indent, depth+1); !ok { // a sequence at its key's indent
				return out, false
			}
		default:
			out = append(out, "null"...)
		}
		m.end = len(out)
		p.pairs = append(p.pairs, m)
	}
	if p.deeper(indent) {
		return out, false
	}
	out, ok := sortMembers(out, p.pairs[base:])
	return append(out, '}'), ok
}

// sortMembers puts the members of a mapping, the last of out, in the
// order of their keys; false when two keys are one.
func sortMembers(out []byte, members []pair) ([]byte, bool) {
	sorted := true
	for i := 1; i < len(members); i++ {
		switch c := bytes.Compare(members[i-1].key, members[i].key); {
		case c == 0:
			return out, false
		case c > 0:
			sorted = false
		}
	}
	if sorted {
		return out, true
	}
	base := members[0].start
	pairs := slices.Clone(out[base:])
	slices.SortFunc(members, func(a, b pair) int { return bytes.Compare(a.key, b.key) })
	for i := 1; i < len(members); i++ {
		if bytes.Equal(members[i-1].key, members[i].key) {
			return out, false
		}
	}
	out = out[:base]
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, pairs[m.start-base:m.end-base]...)
	}
	return out, true
}

// plainKey splits a mapping line "key: value" or "key:" into its key
// and its value (nil for none); ok is false when the line is not one, or
// its key is not a name that go-yaml reads as a string: a letter, then
// letters, digits and "-_./", not a boolean or null.
func plainKey(text []byte) (key, value []byte, ok bool) {
	colon := bytes.IndexByte(text, ':')
	if colon < 1 || colon > plainKeyMax || !isLetter(text[0]) {
		return nil, nil, false
	}
	key = text[:colon]
	for _, c := range key {
		if !isLetter(c) && !(c >= '0' && c <= '9') && !strings.ContainsRune("-_./", rune(c)) {
			return nil, nil, false
		}
	}
	if _, word := yamlWords[string(key)]; word {
		return nil, nil, false
	}
	switch rest := text[colon+1:]; {
	case len(rest) == 0:
		return key, nil, true
	case len(rest) > 1 && rest[0] == ' ' && rest[1] != ' ':
		return key, rest[1:], true
	}
	return nil, nil, false
}

// plainKeyMax bounds a key's length: go-yaml's scanner takes no simple
// key of more than 1,024 bytes.
const plainKeyMax = 1000

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// plainScalar appends the JSON of a one-line value: a double-quoted
// string without escapes, {}, [], or a plain scalar.
func plainScalar(out, v []byte) ([]byte, bool) {
	switch v[0] {
	case '"':
		if len(v) < 2 || v[len(v)-1] != '"' || bytes.ContainsAny(v[1:len(v)-1], `"\`) {
			return out, false
		}
		return appendJSONString(out, v[1:len(v)-1]), true
	case '{', '[':
		if s := string(v); s == "{}" || s == "[]" {
			return append(out, v...), true
		}
		return out, false
	case '?', ':', ',', ']', '}', '&', '*', '!', '|', '>', '\'', '%', '@', '`':
		return out, false
	case '-':
		if len(v) == 1 || v[1] == ' ' {
			return out, false
		}
	}
	if bytes.Contains(v, []byte(": ")) || v[len(v)-1] == ':' {
		return out, false
	}
	return resolvePlain(out, v)
}

// yamlWords are the plain scalars go-yaml v2 resolves by name (its
// resolveMap): booleans and nulls, with their JSON, and floats and the
// merge key, with "" (not taken).
var yamlWords = map[string]string{
	"y": "true", "Y": "true", "yes": "true", "Yes": "true", "YES": "true",
	"true": "true", "True": "true", "TRUE": "true", "on": "true", "On": "true", "ON": "true",
	"n": "false", "N": "false", "no": "false", "No": "false", "NO": "false",
	"false": "false", "False": "false", "FALSE": "false", "off": "false", "Off": "false", "OFF": "false",
	"": "null", "~": "null", "null": "null", "Null": "null", "NULL": "null",
	".nan": "", ".NaN": "", ".NAN": "", ".inf": "", ".Inf": "", ".INF": "",
	"+.inf": "", "+.Inf": "", "+.INF": "", "-.inf": "", "-.Inf": "", "-.INF": "", "<<": "",
}

// yamlFloat is go-yaml v2's yamlStyleFloat.
var yamlFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// resolvePlain appends the JSON of the plain scalar v as go-yaml v2
// resolves it (resolve.go) and encoding/json writes it: a boolean or null
// by name, an integer, else a string. Floats and timestamps are not
// taken.
func resolvePlain(out, v []byte) ([]byte, bool) {
	if j, ok := yamlWords[string(v)]; ok {
		return append(out, j...), j != ""
	}
	switch c := v[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(string(v), 64); err == nil {
			return out, false
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if timestampLike(v) {
			return out, false
		}
		if !numberLike(v) {
			break
		}
		s := string(v)
		plain := strings.ReplaceAll(s, "_", "")
		if n, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return strconv.AppendInt(out, n, 10), true
		}
		if n, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return strconv.AppendUint(out, n, 10), true
		}
		if yamlFloat.MatchString(plain) || strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
			return out, false
		}
	}
	return appendJSONString(out, v), true
}

// numberLike reports whether v may be what go-yaml resolves as a number:
// once its '_' are dropped and its leading signs skipped, decimal digits
// with '.', 'e', 'E' and signs (the integers strconv.ParseInt and
// ParseUint read with base 0 without a prefix, and the floats yamlFloat
// matches), or '0' and a radix letter followed by hex digits and signs
// (0x, 0o and 0b integers, and go-yaml's own 0b form, whose digits may
// carry a sign). Only then does resolvePlain try what go-yaml tries:
// "500m", "512Mi" and uids are strings at once.
func numberLike(v []byte) bool {
	i := 0
	for i < len(v) && (v[i] == '+' || v[i] == '-' || v[i] == '_') {
		i++
	}
	rest := v[i:]
	if len(bytes.Trim(rest, "0123456789.eE+-_")) == 0 {
		return true
	}
	rest = bytes.TrimLeft(rest, "_")
	if len(rest) < 2 || rest[0] != '0' {
		return false
	}
	rest = bytes.TrimLeft(rest[1:], "_")
	return len(rest) > 1 && bytes.IndexByte([]byte("xXoObB"), rest[0]) >= 0 &&
		len(bytes.Trim(rest[1:], "0123456789abcdefABCDEF+-_")) == 0
}

// timestampLike reports whether v starts as every timestamp go-yaml
// resolves: four digits and '-'.
func timestampLike(v []byte) bool {
	return len(v) > 4 && v[4] == '-' && len(bytes.Trim(v[:4], "0123456789")) == 0
}

// appendJSONString appends s, printable ASCII, as encoding/json writes a
// string: '"' and '\' escaped, and '<', '>' and '&' as \u escapes.
func appendJSONString(out, s []byte) []byte {
	out = append(out, '"')
	for _, c := range s {
		switch c {
		case '"', '\\':
			out = append(out, '\\', c)
		case '<':
			out = append(out, `\u003c`...)
		case '>':
			out = append(out, `\u003e`...)
		case '&':
			out = append(out, `\u0026`...)
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}
