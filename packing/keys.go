package packing

import (
	"encoding/binary"

	"github.com/nodeplan/nodeplan/requirements"
)

// The memo's maps and the pod classes are keyed by exact encodings of
// what they stand for (requirements' AppendBinary, strings after their
// lengths), never by the text people read, which shortens long value
// lists: two requirement sets that read alike but differ would share a
// key, and a pod would get another's types.

// setKey is the exact key of a requirement set.
func setKey(s requirements.Set) string {
	b, _ := s.AppendBinary(nil)
	return string(b)
}

// appendKeyString appends s after its length.
func appendKeyString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
