package kube

import (
	"bufio"
	"bytes"
	"io"
	"sync/atomic"

	"github.com/nodeplan/nodeplan/internal/parallel"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// yamlDocuments returns the YAML documents of data as
// k8s.io/apimachinery's YAMLReader reads them, one Read each, and the
// error of the Read that fails. Most sources are cut in place
// ([yamlCut]); the others are read with the reader.
func yamlDocuments(data []byte) ([][]byte, error) {
	if docs, ok := yamlCut(data); ok {
		return docs, nil
	}
	return readYAML(data)
}

// readYAML reads data with YAMLReader, as yamlDocuments reads what
// yamlCut does not take.
func readYAML(data []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		doc, err := r.Read()
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return docs, err
		}
		docs = append(docs, doc)
	}
}

// yamlCut cuts data into the documents YAMLReader reads, as slices of
// data rather than copies (the reader copies each line into a growing
// buffer: most of a second for a 50 MB list). The reader's rule: a line
// that starts with "---" ends the document before it, and is dropped,
// when that document has a line; else it is the new document's first
// line. Each line it reads ends in '\n', the last one too, so the last
// document, when data does not end its last line, is a copy with '\n'
// added. ok is false, and nothing is returned, when data has a '\r' (the
// reader drops the one before each '\n'), a "---" line followed by
// anything but spaces and a comment (the reader fails on it), or a line
// that starts a container log section (stripLogs removes those first).
func yamlCut(data []byte) (docs [][]byte, ok bool) {
	if hasByte(data, '\r') || lineStarting(data, 0, []byte(logStart)) >= 0 {
		return nil, false
	}
	start := -1 // the first line of the document being read; -1: none yet
	for pos := 0; ; {
		at := lineStarting(data, pos, []byte("---"))
		if start < 0 && (at < 0 && pos < len(data) || at > pos) {
			start = pos // a line before the marker, or the data's last
		}
		if at < 0 {
			break
		}
		line, _ := cutLine(data[at:])
		if t := bytes.TrimSpace(line[3:]); len(t) > 0 && t[0] != '#' {
			return nil, false
		}
		if start >= 0 {
			docs, start = append(docs, data[start:at]), -1
		} else {
			start = at // the document's first line
		}
		pos = at + len(line)
	}
	if start >= 0 {
		doc := data[start:]
		if doc[len(doc)-1] != '\n' {
			doc = append(bytes.Clone(doc), '\n')
		}
		docs = append(docs, doc)
	}
	return docs, true
}

// lineStarting returns the offset of the first line of data at or after
// from (a line's start) that starts with prefix, or -1.
func lineStarting(data []byte, from int, prefix []byte) int {
	for i := from; i < len(data); {
		j := bytes.Index(data[i:], prefix)
		if j < 0 {
			return -1
		}
		if i += j; i == 0 || data[i-1] == '\n' {
			return i
		}
		i++
	}
	return -1
}

// hasByte reports whether data holds c, reading a large data in chunks
// on every core: the first pass over a source just read from a file is
// the slowest (a 54 MB YAML list: 70 ms on one core, 44 ms on two,
// then 1.3 ms a pass, measured on this project's 2-core machine).
func hasByte(data []byte, c byte) bool {
	var found atomic.Bool
	parallel.Range(len(data), hasByteChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			if !found.Load() && bytes.IndexByte(data[lo:hi], c) >= 0 {
				found.Store(true)
			}
		}
	})
	return found.Load()
}

// hasByteChunk is the bytes hasByte reads at a time.
const hasByteChunk = 1 << 20
