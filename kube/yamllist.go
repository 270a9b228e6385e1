package kube

import (
	"bytes"
	"slices"

	"github.com/nodeplan/nodeplan/internal/parallel"
)

// A YAML document of at least yamlSplitItems list items, in runs of
// yamlRunItems, is converted on several goroutines ([yamlDoc]).
const (
	yamlSplitItems = 256
	yamlRunItems   = 64
)

// jsonDoc is one document of a source as JSON: raw, or, when it is a
// long list that yamlList converted in parts, those parts (raw is nil).
type jsonDoc struct {
	raw  []byte
	list *listParts
}

// yamlDoc converts one YAML document to JSON as [strictJSON] does (a
// duplicate key is an error, and so are two keys that are one in JSON),
// with the same result and error. A list as kubectl prints it, with many
// items (yamlSplitItems), is converted on several goroutines and kept in
// its parts: see [yamlList]; a document, or a run of its items, in
// kubectl's plain block style is converted without go-yaml: see
// [plainJSON].
func yamlDoc(doc []byte) (jsonDoc, error) {
	if parts, ok := yamlList(doc, yamlSplitItems, yamlRunItems); ok {
		return jsonDoc{list: &parts}, nil
	}
	out, err := fastJSON(new(plainParser), doc)
	return jsonDoc{raw: out}, err
}

// listParts is a list yamlList converted in parts: rest, the JSON of the
// document with a marker list in the place of its items, [at, end) where
// that list is, runs, the items of each run as JSON with commas between
// them (an array without its brackets), and items, the JSON of each item
// (slices of the runs).
type listParts struct {
	rest    []byte
	at, end int
	runs    [][]byte
	items   [][]byte
}

// whole is the document's JSON: rest with the runs spliced in.
func (p *listParts) whole() []byte { return splice(p.rest, p.at, p.end, p.runs) }

// fastJSON is strictJSON's result, by [plainJSON] with p when it takes
// doc.
func fastJSON(p *plainParser, doc []byte) ([]byte, error) {
	if out, ok := p.convert(doc); ok {
		return out, nil
	}
	return strictJSON(doc)
}

// yamlList converts doc as strictJSON would, in parts, when doc is a
// block mapping (its first line a plain key at the first column) with an
// "items:" line at the first column followed by a block sequence of at
// least minItems entries, as kubectl get -o yaml prints a list: the
// sequence's entries are converted in runs of runItems on up to
// GOMAXPROCS goroutines, the rest of the document with a marker list in
// their place; the runs' JSON spliced into the rest's (listParts.whole)
// is strictJSON's. Each run's JSON is also cut into its items there, so
// that a loader need not cut the whole again. ok is false, and nothing is
// returned, when doc is not of that shape or any part does not convert
// alone (or to as many items as the run has entries); the caller then
// converts doc whole.
//
// Why the parts convert as the whole would. The rest is the document up
// to the "items:" line, so the YAML parser is in the same state there in
// both. When the rest's top-level items member is the marker list and the
// marker is nowhere else in the rest's JSON, that line is a key of the
// root block mapping: inside a string or a flow collection its marker
// would show there too (a document may spell the marker with escapes, but
// then it is in the JSON twice), and nothing that could drop it from the
// JSON is allowed (a tag, an alias, a document marker). So its value in
// doc is a block sequence. A run is a block sequence of its own, cut only
// where an entry starts ("-" at the sequence's column, which no plain or
// block scalar of an entry can reach): a cut inside anything else (a
// quoted scalar or a flow collection that runs over lines) leaves the run
// before it unterminated, an error. The line after the sequence is at the
// first column, the root mapping's next key in both. The sequence is at
// the first column too (an indented one would nest one level deeper in
// doc than in a run, against go-yaml's depth limit). Not read at all: a
// directive line ('%'); a document marker line ("---", "..."); line
// breaks other than '\n' ('\r', NEL, LS, PS: YAML breaks lines at them
// too); a byte order mark (go-yaml skips it at a line's start); tags;
// anchors and aliases (an alias outside the items may name an anchor
// redefined inside them, and go-yaml bounds aliasing per document).
// FuzzYAMLList holds the result to strictJSON's, byte for byte.
func yamlList(doc []byte, minItems, runItems int) (listParts, bool) {
	if otherBreaks(doc) || bytes.Contains(doc, []byte("\uFEFF")) || indicated(doc) {
		return listParts{}, false
	}
	block, ok := itemsBlock(doc)
	if !ok || len(block.entries) < minItems {
		return listParts{}, false
	}
	if bytes.Contains(doc, []byte(itemsMarker)) {
		return listParts{}, false
	}
	rest := append(append(append([]byte{}, doc[:block.line]...), "items: ["+itemsMarker+"]\n"...), doc[block.end:]...)
	restJSON, err := fastJSON(new(plainParser), rest)
	if err != nil {
		return listParts{}, false
	}
	at, end, ok := markedItems(restJSON)
	if !ok || bytes.Count(restJSON, []byte(itemsMarker)) != 1 {
		return listParts{}, false
	}
	items := make([][]byte, len(block.entries))
	runs := make([][]byte, (len(block.entries)+runItems-1)/runItems)
	failed := make([]bool, len(runs))
	parallel.Range(len(runs), 1, func() func(lo, hi int) {
		var p plainParser
		return func(lo, hi int) {
			for r := lo; r < hi; r++ {
				start := block.entries[r*runItems]
				if r == 0 {
					start = block.body // every byte of doc is in one part, but the items line
				}
				next := min((r+1)*runItems, len(block.entries))
				end := block.end
				if next < len(block.entries) {
					end = block.entries[next]
				}
				out, err := fastJSON(&p, doc[start:end])
				if err != nil || len(out) < 2 || out[0] != '[' || out[len(out)-1] != ']' ||
					!elementsInto(items[r*runItems:next], out) {
					failed[r] = true
					continue
				}
				runs[r] = out[1 : len(out)-1]
			}
		}
	})
	if slices.Contains(failed, true) {
		return listParts{}, false
	}
	return listParts{rest: restJSON, at: at, end: end, runs: runs, items: items}, true
}

// elementsInto cuts arr, a JSON array, into its elements, stored in dst;
// it reports whether arr has exactly len(dst).
func elementsInto(dst [][]byte, arr []byte) bool {
	w := walker{data: arr}
	w.i++ // '['
	n := 0
	err := w.elements(func(raw []byte) {
		if n < len(dst) {
			dst[n] = raw
		}
		n++
	})
	return err == nil && n == len(dst) && w.space() == 0
}

// splice returns rest with its bytes from at to end replaced by the JSON
// array of the runs' items, the runs copied on up to GOMAXPROCS
// goroutines (a 100,000-pod list is 49 MB of them).
func splice(rest []byte, at, end int, runs [][]byte) []byte {
	starts := make([]int, len(runs))
	pos := at + 1 // after '['
	for r, run := range runs {
		if r > 0 && len(run) > 0 {
			pos++ // ','
		}
		starts[r] = pos
		pos += len(run)
	}
	out := make([]byte, pos+1+len(rest)-end)
	copy(out, rest[:at])
	out[at] = '['
	parallel.Range(len(runs), 16, func() func(lo, hi int) {
		return func(lo, hi int) {
			for r := lo; r < hi; r++ {
				if r > 0 && len(runs[r]) > 0 {
					out[starts[r]-1] = ','
				}
				copy(out[starts[r]:], runs[r])
			}
		}
	})
	out[pos] = ']'
	copy(out[pos+1:], rest[end:])
	return out
}

// itemsMarker is the one item of the list put in the place of the items,
// so that the rest's items member is known to be that line's.
const itemsMarker = "nodeplan-items-of-the-list-8f1c2a"

// listBlock is where a document's items sequence is: the offset of its
// "items:" line, of the line after it, of each entry's first line, and of
// the end of the block.
type listBlock struct {
	line, body int
	entries    []int
	end        int
}

// itemsBlock finds the block sequence under the first "items:" line at
// the first column of doc, a block mapping (its first line a plain key):
// the lines after it that are blank, comments, entries ("-" at the first
// column, then a space or the end of the line) or indented, up to the
// first other line, which must be at the first column too.
func itemsBlock(doc []byte) (listBlock, bool) {
	var b listBlock
	first, found := true, false
	for pos := 0; pos < len(doc); {
		line, next := lineAt(doc, pos)
		if len(line) > 0 && line[0] == '%' || bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("...")) {
			return b, false
		}
		switch {
		case first && !isBlankOrComment(line):
			if !plainKeyStart(line) {
				return b, false // not a block mapping at the first column
			}
			first = false
			fallthrough
		case !found:
			if string(line) == "items:" {
				found, b.line, b.body = true, pos, next
			}
		case isBlankOrComment(line):
		case entryAt(line, 0):
			b.entries = append(b.entries, pos)
		case len(b.entries) > 0 && indent(line) > 0:
		default:
			b.end = pos
			return b, len(b.entries) > 0 && indent(line) == 0
		}
		pos = next
	}
	b.end = len(doc)
	return b, len(b.entries) > 0
}

// otherBreaks reports whether doc has a line break YAML reads besides
// '\n': '\r', NEL (U+0085), LS (U+2028) or PS (U+2029).
func otherBreaks(doc []byte) bool {
	return bytes.IndexByte(doc, '\r') >= 0 || bytes.Contains(doc, []byte("\u0085")) ||
		bytes.Contains(doc, []byte("\u2028")) || bytes.Contains(doc, []byte("\u2029"))
}

// indicated reports whether doc may hold an anchor, an alias or a tag:
// an '&', '*' or '!' where a YAML node can start (the start of a line, or
// after white space or a flow or block indicator). Text such as a URL's
// "a=1&b=2" does not count; a quoted " &x" does, which only costs speed.
func indicated(doc []byte) bool {
	for _, c := range []byte("&*!") {
		for i := 0; ; i++ {
			j := bytes.IndexByte(doc[i:], c)
			if j < 0 {
				break
			}
			if i += j; i == 0 {
				return true
			}
			switch doc[i-1] {
			case ' ', '\t', '\n', '-', '?', ':', ',', '[', '{':
				return true
			}
		}
	}
	return false
}

// lineAt returns the line starting at pos, without its newline, and the
// offset of the next.
func lineAt(doc []byte, pos int) (line []byte, next int) {
	if i := bytes.IndexByte(doc[pos:], '\n'); i >= 0 {
		return doc[pos : pos+i], pos + i + 1
	}
	return doc[pos:], len(doc)
}

// indent is the number of spaces line starts with.
func indent(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// plainKeyStart reports whether line starts with a letter, digit or
// underscore at the first column, as a plain mapping key does.
func plainKeyStart(line []byte) bool {
	if len(line) == 0 {
		return false
	}
	c := line[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isBlankOrComment(line []byte) bool {
	i := indent(line)
	return i == len(line) || line[i] == '#'
}

// entryAt reports whether line is a sequence entry at column col: col
// spaces, then "-" and a space or nothing.
func entryAt(line []byte, col int) bool {
	return indent(line) == col && len(line) > col && line[col] == '-' && (len(line) == col+1 || line[col+1] == ' ')
}

// markedItems returns where the value of the member items of the JSON
// object data is, [at, end), when it is the marker list.
func markedItems(data []byte) (at, end int, ok bool) {
	w := walker{data: data}
	if w.space() != '{' {
		return 0, 0, false
	}
	at = -1
	err := w.entries(func(k []byte, plain bool) error {
		w.space()
		start := w.i
		err := w.skip()
		if plain && string(k) == "items" {
			at, end = start, w.i
		}
		return err
	})
	if err != nil || at < 0 || string(data[at:end]) != `["`+itemsMarker+`"]` {
		return 0, 0, false
	}
	return at, end, true
}
