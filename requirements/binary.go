package requirements

import "encoding/binary"

// AppendBinary appends to b an encoding of r that tells requirements
// apart exactly: two requirements encode alike if and only if they have
// the same key, operator, values, bounds and minValues. Unlike
// [Requirement.String], which shortens long value lists for people, it is
// fit to key a map by. It never fails (encoding.BinaryAppender).
func (r Requirement) AppendBinary(b []byte) ([]byte, error) {
	b = appendString(b, r.key)
	var flags byte
	for i, f := range [...]bool{r.complement, r.hasGte, r.hasLte} {
		if f {
			flags |= 1 << i
		}
	}
	b = append(b, flags)
	if r.hasGte {
		b = binary.AppendVarint(b, r.gte)
	}
	if r.hasLte {
		b = binary.AppendVarint(b, r.lte)
	}
	b = binary.AppendUvarint(b, uint64(r.minValues))
	b = binary.AppendUvarint(b, uint64(len(r.values)))
	for _, v := range r.values {
		b = appendString(b, v)
	}
	return b, nil
}

// AppendBinary appends to b an encoding of s that tells sets apart
// exactly, as [Requirement.AppendBinary] does requirements: its
// requirements', in key order, after their count. It never fails.
func (s Set) AppendBinary(b []byte) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(s.reqs)))
	for _, r := range s.reqs {
		b, _ = r.AppendBinary(b)
	}
	return b, nil
}

// appendString appends s with its length first.
func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
