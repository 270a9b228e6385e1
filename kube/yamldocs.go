package kube

import (
	"bufio"
	"bytes"
	"io"

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
	if bytes.IndexByte(data, '\r') >= 0 {
		return nil, false
	}
	start := -1 // the first line of the document being read; -1: none yet
	for pos := 0; pos < len(data); {
		line, _ := cutLine(data[pos:])
		if bytes.HasPrefix(line, []byte(logStart)) {
			return nil, false
		}
		if bytes.HasPrefix(line, []byte("---")) {
			if t := bytes.TrimSpace(line[3:]); len(t) > 0 && t[0] != '#' {
				return nil, false
			}
			if start >= 0 {
				docs, start = append(docs, data[start:pos]), -1
				pos += len(line)
				continue
			}
		}
		if start < 0 {
			start = pos
		}
		pos += len(line)
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
