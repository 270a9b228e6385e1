package disruption

import (
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/nodeplan/nodeplan/requirements"
)

// maxName is the length limit of a label value, and so of a node's name
// where it stands for its kubernetes.io/hostname label.
const maxName = 63

// ReplacementName returns the name of a replacement NodeClaim and its
// number: the first k-th name of prefix, for k = from, from+1, …, that
// taken does not report. Consolidation and drift name their replacements
// with it, so that a replacement never shares the name (the hostname) of a
// node and is always a Kubernetes label value, which a later simulation
// requires of the in-flight node it becomes.
//
// The k-th name of prefix is "<prefix>-<k>" when that is a label value (at
// most 63 alphanumerics, '-', '_' or '.', starting and ending
// alphanumeric). Otherwise, as when a long node name is the prefix, it is
// "<head>-<hash>-<k>": hash is the 8 hex digits of the 32-bit FNV-1a hash
// of the whole prefix, and head the longest start of prefix made of label
// characters, starting alphanumeric, that keeps the name within 63
// characters (when head is empty, so is its dash). So every name is a
// label value, names of one prefix and different k differ, and the same
// arguments give the same name.
//
// taken must report only finitely many names (it is a lookup in the
// cluster's nodes); it is called once per k tried. ReplacementName is pure
// and, taken aside, allocates only the names it tries.
func ReplacementName(prefix string, from int, taken func(name string) bool) (string, int) {
	for k := from; ; k++ {
		if n := nthName(prefix, k); !taken(n) {
			return n, k
		}
	}
}

// nthName is the k-th name of prefix (see ReplacementName).
func nthName(prefix string, k int) string {
	suffix := "-" + strconv.Itoa(k)
	if n := prefix + suffix; requirements.ValidateValue(n) == nil {
		return n
	}
	h := fnv.New32a()
	h.Write([]byte(prefix))
	hash := strconv.FormatUint(uint64(h.Sum32())|1<<32, 16)[1:] // 8 digits, leading zeros kept
	head := labelHead(prefix, maxName-len(hash)-len(suffix)-1)
	if head == "" {
		return hash + suffix
	}
	return head + "-" + hash + suffix
}

// labelHead is the longest start of s, at most n bytes, made of label
// characters and starting alphanumeric.
func labelHead(s string, n int) string {
	i := 0
	for i < len(s) && i < n && isLabelChar(s[i], i == 0) {
		i++
	}
	return s[:i]
}

func isLabelChar(c byte, first bool) bool {
	alnum := '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	return alnum || !first && (c == '-' || c == '_' || c == '.')
}

// ReplacementNameProblem says, for a command checker, why name may not
// name a replacement NodeClaim: it is empty, taken (as the caller judges:
// by a node of the cluster, an earlier command's replacement or another
// replacement of the command), or not a label value, which a node's name
// must be to stand for its kubernetes.io/hostname. It returns "" when the
// name may be used, without allocating.
func ReplacementNameProblem(name string, taken bool) string {
	switch {
	case name == "":
		return "a replacement has no name"
	case taken:
		return fmt.Sprintf("replacement %s has the name of another node or replacement", name)
	}
	if err := requirements.ValidateValue(name); err != nil {
		return fmt.Sprintf("replacement %s cannot be a node's name (its hostname label): %v", name, err)
	}
	return ""
}
