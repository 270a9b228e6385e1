package requirements

import "slices"

// The value lists of requirements are sorted and unique; these merges keep
// them so, each allocating its result once.

func sortedUnique(values []string) []string {
	out := slices.Clone(values)
	slices.Sort(out)
	return slices.Compact(out)
}

func union(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

func intersection(a, b []string) []string {
	out := make([]string, 0, min(len(a), len(b)))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// difference returns the values of a that are not in b.
func difference(a, b []string) []string {
	out := make([]string, 0, len(a))
	j := 0
	for _, v := range a {
		for j < len(b) && b[j] < v {
			j++
		}
		if j >= len(b) || b[j] != v {
			out = append(out, v)
		}
	}
	return out
}

// parseInt parses a base-10 int64 without allocating, rejecting anything
// strconv.ParseInt would reject.
func parseInt(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	if s == "" {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || n > (1<<63)/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return signed(n, neg)
}

func signed(n uint64, neg bool) (int64, bool) {
	switch {
	case neg && n <= 1<<63:
		return -int64(n-1) - 1, true
	case !neg && n < 1<<63:
		return int64(n), true
	}
	return 0, false
}
