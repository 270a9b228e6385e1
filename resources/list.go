package resources

import (
	"cmp"
	"errors"
	"iter"
	"math"
	"slices"
	"strconv"

	"github.com/nodeplan/nodeplan/internal/sat"
)

// Amount is one dimension of a [List]: a resource name and its value in the
// List's unit for that name.
type Amount struct {
	Name  Name
	Value int64
}

// MaxAmount is the largest value of one dimension that nodeplan's
// validators accept in one object's list (a pod's requests, a node's
// allocatable, an instance type's capacity or overhead): 2^50, that is
// 1 PiB of memory or storage, 1.1 billion cores in millicores, or
// 1.1·10^15 pods or devices, far beyond any machine. 8,192 such values sum
// without overflow, and the difference of two never overflows; longer sums
// saturate (see [List]).
const MaxAmount = 1 << 50

// List is a fixed-point resource vector: CPU in millicores, Memory and
// EphemeralStorage in bytes, Pods a count, and extended resources (such as
// nvidia.com/gpu) in whole units. A dimension that is absent is 0.
//
// The zero List is "nothing": every dimension 0. List is a value type; its
// extended resources live in a sorted slice that is never modified after
// construction, so copies share it safely and a List may be used from many
// goroutines. Lists are not comparable with ==; use [List.Equal].
//
// Arithmetic saturates at ±math.MaxInt64 (math.MinInt64 for Sub) instead of
// wrapping around. Values may be negative (Sub can produce them); [Parse]
// never does.
type List struct {
	CPU, Memory, EphemeralStorage, Pods int64

	ext []Amount // sorted by Name, unique, no zero Value; immutable
}

// New returns the List holding amounts. Core names go to their fields, other
// names become extended resources; duplicate names are summed (saturating)
// and zero values dropped. New does not modify amounts. O(n log n).
func New(amounts ...Amount) List {
	var l List
	var ext []Amount
	for _, a := range amounts {
		if p := l.field(a.Name); p != nil {
			*p = sat.Add(*p, a.Value)
			continue
		}
		ext = append(ext, a)
	}
	l.ext = canonical(ext)
	return l
}

// canonical sorts ext (owned by the caller) by name, sums duplicates and
// drops zeros.
func canonical(ext []Amount) []Amount {
	slices.SortStableFunc(ext, func(a, b Amount) int { return cmp.Compare(a.Name, b.Name) })
	out := ext[:0]
	for _, a := range ext {
		if n := len(out); n > 0 && out[n-1].Name == a.Name {
			out[n-1].Value = sat.Add(out[n-1].Value, a.Value)
			continue
		}
		out = append(out, a)
	}
	out = slices.DeleteFunc(out, func(a Amount) bool { return a.Value == 0 })
	if len(out) == 0 {
		return nil
	}
	return slices.Clip(out)
}

// Parse parses a map of Kubernetes quantity strings, such as a container's
// requests. cpu is read in millicores ([Quantity.MilliValue]), every other
// resource in whole units ([Quantity.Value], rounded up). pods and extended
// resources must be whole numbers.
//
// Every failing entry contributes a *[QuantityError] naming the resource and
// the input (reasons: [ErrInvalidQuantity], [ErrQuantityRange],
// [ErrNegative], [ErrNotInteger], [ErrEmptyName]); they are joined with
// errors.Join in name order. Parse does not modify m. O(n log n).
func Parse(m map[Name]string) (List, error) {
	var errs []error
	var keyBuf [8]Name // most lists are short: no allocation
	var amountBuf [8]Amount
	keys, amounts := keyBuf[:0], amountBuf[:0]
	for n := range m {
		keys = append(keys, n)
	}
	slices.Sort(keys)
	for _, n := range keys {
		v, err := parseAmount(n, m[n])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		amounts = append(amounts, Amount{Name: n, Value: v})
	}
	if len(errs) > 0 {
		return List{}, errors.Join(errs...)
	}
	return New(amounts...), nil
}

// MustParse is like [Parse] but panics on error. It is meant for tests and
// hard-coded values.
func MustParse(m map[Name]string) List {
	l, err := Parse(m)
	if err != nil {
		panic(err)
	}
	return l
}

// parseAmount reads one entry of a resource map in the List unit of n.
func parseAmount(n Name, s string) (int64, error) {
	fail := func(err error) (int64, error) {
		return 0, &QuantityError{Name: n, Input: s, Err: err}
	}
	q, err := parseQuantity(s)
	switch {
	case n == "":
		return fail(ErrEmptyName)
	case err != nil:
		return fail(err)
	case q.Sign() < 0:
		return fail(ErrNegative)
	case n == CPU:
		v, ok := q.scaled(-3)
		if !ok {
			return fail(ErrQuantityRange)
		}
		return v, nil
	case wholeOnly(n) && !q.isInteger():
		return fail(ErrNotInteger)
	}
	return q.Value(), nil
}

// field returns the core field for n, or nil for an extended name.
func (l *List) field(n Name) *int64 {
	switch n {
	case CPU:
		return &l.CPU
	case Memory:
		return &l.Memory
	case EphemeralStorage:
		return &l.EphemeralStorage
	case Pods:
		return &l.Pods
	}
	return nil
}

// Get returns the value of dimension n, 0 when absent. O(log e) for e
// extended resources; no allocation.
func (l List) Get(n Name) int64 {
	if p := l.field(n); p != nil {
		return *p
	}
	if i, ok := l.find(n); ok {
		return l.ext[i].Value
	}
	return 0
}

// find returns the index of n in l.ext, or where it would be inserted.
func (l List) find(n Name) (int, bool) {
	return slices.BinarySearchFunc(l.ext, n, func(a Amount, n Name) int { return cmp.Compare(a.Name, n) })
}

// With returns a copy of l with dimension n set to v (v = 0 removes an
// extended resource). l is not modified. O(e); allocates only for an extended
// name.
func (l List) With(n Name, v int64) List {
	if p := l.field(n); p != nil {
		*p = v
		return l
	}
	i, found := l.find(n)
	ext := make([]Amount, 0, len(l.ext)+1)
	ext = append(ext, l.ext[:i]...)
	if v != 0 {
		ext = append(ext, Amount{Name: n, Value: v})
	}
	if found {
		i++
	}
	l.ext = canonical(append(ext, l.ext[i:]...))
	return l
}

// Add returns l + o per dimension, saturating. O(e); no allocation when
// either side has no extended resources.
func (l List) Add(o List) List {
	r := List{
		CPU:              sat.Add(l.CPU, o.CPU),
		Memory:           sat.Add(l.Memory, o.Memory),
		EphemeralStorage: sat.Add(l.EphemeralStorage, o.EphemeralStorage),
		Pods:             sat.Add(l.Pods, o.Pods),
	}
	switch {
	case len(o.ext) == 0:
		r.ext = l.ext
	case len(l.ext) == 0:
		r.ext = o.ext
	default:
		r.ext = merge(l.ext, o.ext, sat.Add[int64])
	}
	return r
}

// Sub returns l - o per dimension, saturating; the result may be negative.
// O(e); no allocation when o has no extended resources.
func (l List) Sub(o List) List {
	r := List{
		CPU:              sat.Sub(l.CPU, o.CPU),
		Memory:           sat.Sub(l.Memory, o.Memory),
		EphemeralStorage: sat.Sub(l.EphemeralStorage, o.EphemeralStorage),
		Pods:             sat.Sub(l.Pods, o.Pods),
	}
	r.ext = l.ext
	if len(o.ext) > 0 {
		r.ext = merge(l.ext, o.ext, sat.Sub[int64])
	}
	return r
}

// Max returns the per-dimension maximum of l and o (absent = 0, so negative
// extended values vanish). O(e); no allocation when neither side has
// extended resources.
func (l List) Max(o List) List {
	r := List{
		CPU:              max(l.CPU, o.CPU),
		Memory:           max(l.Memory, o.Memory),
		EphemeralStorage: max(l.EphemeralStorage, o.EphemeralStorage),
		Pods:             max(l.Pods, o.Pods),
	}
	if len(l.ext)+len(o.ext) > 0 {
		r.ext = merge(l.ext, o.ext, func(a, b int64) int64 { return max(a, b) })
	}
	return r
}

// merge applies f to every name of a ∪ b (absent = 0), dropping zeros.
func merge(a, b []Amount, f func(x, y int64) int64) []Amount {
	out := make([]Amount, 0, len(a)+len(b))
	for i, j := 0, 0; i < len(a) || j < len(b); {
		var n Name
		var x, y int64
		n, x, y, i, j = step(a, b, i, j)
		if v := f(x, y); v != 0 {
			out = append(out, Amount{Name: n, Value: v})
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// step returns the smallest name among a[i] and b[j], its value on each side
// (absent = 0) and the advanced indexes. At least one side must remain.
func step(a, b []Amount, i, j int) (n Name, x, y int64, ni, nj int) {
	switch {
	case j >= len(b) || (i < len(a) && a[i].Name < b[j].Name):
		return a[i].Name, a[i].Value, 0, i + 1, j
	case i >= len(a) || b[j].Name < a[i].Name:
		return b[j].Name, 0, b[j].Value, i, j + 1
	}
	return a[i].Name, a[i].Value, b[j].Value, i + 1, j + 1
}

// Fits reports whether l <= capacity in every dimension (absent = 0).
// O(e); no allocation.
func (l List) Fits(capacity List) bool {
	_, short := l.Shortfall(capacity)
	return !short
}

// Shortfall returns the first dimension in which l exceeds capacity — cpu,
// memory, ephemeral-storage, pods, then extended resources by name — and
// true, or "" and false when l fits. O(e); no allocation.
func (l List) Shortfall(capacity List) (Name, bool) {
	switch {
	case l.CPU > capacity.CPU:
		return CPU, true
	case l.Memory > capacity.Memory:
		return Memory, true
	case l.EphemeralStorage > capacity.EphemeralStorage:
		return EphemeralStorage, true
	case l.Pods > capacity.Pods:
		return Pods, true
	}
	for i, j := 0, 0; i < len(l.ext) || j < len(capacity.ext); {
		var n Name
		var x, y int64
		n, x, y, i, j = step(l.ext, capacity.ext, i, j)
		if x > y {
			return n, true
		}
	}
	return "", false
}

// Compare returns -1, 0 or +1, ordering Lists lexicographically by cpu,
// memory, ephemeral-storage, pods, then by extended resources in name order
// (absent = 0). It is a total order and Compare(o) == 0 exactly when
// Equal(o). O(e); no allocation.
func (l List) Compare(o List) int {
	if c := cmp.Or(
		cmp.Compare(l.CPU, o.CPU),
		cmp.Compare(l.Memory, o.Memory),
		cmp.Compare(l.EphemeralStorage, o.EphemeralStorage),
		cmp.Compare(l.Pods, o.Pods),
	); c != 0 {
		return c
	}
	for i, j := 0, 0; i < len(l.ext) || j < len(o.ext); {
		var x, y int64
		_, x, y, i, j = step(l.ext, o.ext, i, j)
		if x != y {
			return cmp.Compare(x, y)
		}
	}
	return 0
}

// Equal reports whether l and o agree in every dimension. O(e); no
// allocation.
func (l List) Equal(o List) bool {
	return l.CPU == o.CPU && l.Memory == o.Memory &&
		l.EphemeralStorage == o.EphemeralStorage && l.Pods == o.Pods &&
		slices.Equal(l.ext, o.ext)
}

// OnePod returns l, the requests of one pod, with the one pod slot the
// pod takes when l counts none: what the pod takes of a node. O(1); no
// allocation (the extended resources are shared with l).
func (l List) OnePod() List {
	if l.Pods == 0 {
		l.Pods = 1
	}
	return l
}

// IsZero reports whether every dimension of l is 0. O(1).
func (l List) IsZero() bool {
	return l.CPU == 0 && l.Memory == 0 && l.EphemeralStorage == 0 && l.Pods == 0 && len(l.ext) == 0
}

// All yields every dimension of l: cpu, memory, ephemeral-storage and
// pods (zero or not), then the non-zero extended resources sorted by name.
func (l List) All() iter.Seq2[Name, int64] {
	return func(yield func(Name, int64) bool) {
		for _, a := range [...]Amount{{CPU, l.CPU}, {Memory, l.Memory}, {EphemeralStorage, l.EphemeralStorage}, {Pods, l.Pods}} {
			if !yield(a.Name, a.Value) {
				return
			}
		}
		l.Extended()(yield)
	}
}

// Extended yields the non-zero extended resources of l sorted by name.
func (l List) Extended() iter.Seq2[Name, int64] {
	return func(yield func(Name, int64) bool) {
		for _, a := range l.ext {
			if !yield(a.Name, a.Value) {
				return
			}
		}
	}
}

// String formats l as space-separated name=quantity pairs in Shortfall
// order, omitting zero dimensions: "cpu=500m memory=1Gi pods=1
// nvidia.com/gpu=1". cpu is shown as a Kubernetes quantity of millicores,
// memory and ephemeral-storage in binary notation when a multiple of 1024
// and decimal otherwise, other dimensions as integers. The zero List formats
// as "". Allocates the result.
func (l List) String() string {
	var b []byte
	b = appendQuantity(b, CPU, l.CPU, -3, decimalSI)
	b = appendQuantity(b, Memory, l.Memory, 0, byteNotation(l.Memory))
	b = appendQuantity(b, EphemeralStorage, l.EphemeralStorage, 0, byteNotation(l.EphemeralStorage))
	b = appendInt(b, Pods, l.Pods)
	for _, a := range l.ext {
		b = appendInt(b, a.Name, a.Value)
	}
	return string(b)
}

func byteNotation(v int64) notation {
	if v%1024 == 0 {
		return binarySI
	}
	return decimalSI
}

// appendName appends the separator and "name=" for a non-zero dimension.
func appendName(b []byte, n Name) []byte {
	if len(b) > 0 {
		b = append(b, ' ')
	}
	return append(append(b, n...), '=')
}

// appendInt appends " name=v" unless v is 0.
func appendInt(b []byte, n Name, v int64) []byte {
	if v == 0 {
		return b
	}
	return strconv.AppendInt(appendName(b, n), v, 10)
}

// appendQuantity appends " name=q" for q = v×10^exp (exp is 0 or -3) in
// notation not, unless v is 0.
func appendQuantity(b []byte, n Name, v int64, exp int, not notation) []byte {
	if v == 0 {
		return b
	}
	b = appendName(b, n)
	if v == math.MinInt64 { // outside the range of a Quantity mantissa
		b = strconv.AppendInt(b, v, 10)
		if exp == -3 {
			b = append(b, 'm')
		}
		return b
	}
	for v%10 == 0 {
		v /= 10
		exp++
	}
	return Quantity{mant: v, exp: int8(exp), not: not}.appendTo(b)
}
