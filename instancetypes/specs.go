package instancetypes

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"

	"github.com/nodeplan/nodeplan/internal/parallel"
)

// specList is a catalog file's instanceTypes array. Its elements are
// decoded on up to GOMAXPROCS goroutines, each decoding a run of them as
// one stream; every element depends on its own JSON alone, so the list is
// the same for any GOMAXPROCS. err is the first element's error in the
// file, naming its index, or the array's own: kept here for decode rather
// than returned, as encoding/json would then drop the errors it saved for
// the document's other fields.
type specList struct {
	specs []spec
	err   error
}

// UnmarshalJSON decodes data, a JSON array or null, strictly (unknown
// fields are errors). encoding/json has checked that data is valid JSON.
// It returns no error: see specList.err.
func (l *specList) UnmarshalJSON(data []byte) error {
	l.specs, l.err = nil, nil
	switch {
	case string(data) == "null":
	case len(data) == 0 || data[0] != '[':
		l.err = fieldErr("", "instanceTypes", ErrInvalidSpec, "not an array")
	default:
		l.specs, l.err = decodeSpecs(data)
	}
	return nil
}

// decodeSpecs decodes the elements of data, a valid JSON array.
func decodeSpecs(data []byte) ([]spec, error) {
	elems, ok := arrayElements(data)
	if !ok { // encoding/json found data valid: a bug here
		return nil, fieldErr("", "instanceTypes", ErrInvalidSpec, "not framed as an array")
	}
	return decodeElements(data, elems)
}

// arrayElements returns the spans of the elements of data, a JSON array,
// and whether it framed data as one (see elements).
func arrayElements(data []byte) ([]span, bool) { return elements(data, span{0, len(data)}, false) }

// decodeElements decodes the values of data at elems, each one JSON value
// (framed by elements).
func decodeElements(data []byte, elems []span) ([]spec, error) {
	out := make([]spec, len(elems))
	errs := make([]error, len(elems))
	chunk := max(typeChunk, (len(elems)+runtime.GOMAXPROCS(0)-1)/runtime.GOMAXPROCS(0))
	parallel.Range(len(elems), chunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			dec := json.NewDecoder(&valueStream{data: data, values: elems[lo:hi]})
			dec.DisallowUnknownFields()
			for i := lo; i < hi; i++ {
				if errs[i] = dec.Decode(&out[i]); errs[i] != nil {
					return // the stream's later values are not needed: an earlier error wins
				}
			}
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, fieldErr("", fmt.Sprintf("instanceTypes[%d]", i), ErrInvalidSpec, "%v", err)
		}
	}
	return out, nil
}

// span is the byte range [start, end) of a JSON value.
type span struct{ start, end int }

// valueStream reads the values at spans of data in turn, each followed by
// a space: a stream of JSON values for one json.Decoder.
type valueStream struct {
	data   []byte
	values []span
	off    int // read of values[0]
}

func (r *valueStream) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && len(r.values) > 0 {
		v := r.data[r.values[0].start:r.values[0].end]
		if r.off < len(v) {
			c := copy(p[n:], v[r.off:])
			n, r.off = n+c, r.off+c
			continue
		}
		p[n] = ' '
		n, r.values, r.off = n+1, r.values[1:], 0
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}
