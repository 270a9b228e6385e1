package problemgen

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// Size bounds a generated problem. A zero field takes its default; the
// zero Size is the default size, small enough that ten thousand problems
// solve in seconds.
type Size struct {
	Pods       int // pending pods, at most; default 16
	Types      int // instance types of a generated catalog, at most; default 10
	Nodes      int // existing nodes, at most; default 4
	BoundPods  int // pods bound to each existing node, at most; default 4
	Pools      int // NodePools, at most; default 3
	DaemonSets int // daemonsets, at most; default 2
}

// withDefaults fills the zero fields of s.
func (s Size) withDefaults() Size {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&s.Pods, 16)
	def(&s.Types, 10)
	def(&s.Nodes, 4)
	def(&s.BoundPods, 4)
	def(&s.Pools, 3)
	def(&s.DaemonSets, 2)
	return s
}

// source is where the generator's choices come from: a PCG for Generate,
// the fuzzer's bytes for Decode.
type source interface {
	// IntN returns a value in [0, n) for n > 0.
	IntN(n int) int
}

// byteSource reads choices from data, one or more bytes each, and returns
// zero once the bytes run out, so every loop of the generator ends.
type byteSource struct {
	data []byte
	pos  int
}

// IntN returns the next bytes, big-endian, modulo n.
func (b *byteSource) IntN(n int) int {
	if n <= 1 {
		return 0
	}
	var v uint64
	for width := n; width > 0; width >>= 8 {
		v <<= 8
		if b.pos < len(b.data) {
			v |= uint64(b.data[b.pos])
			b.pos++
		}
	}
	return int(v % uint64(n))
}

// epoch is the creation time every generated timestamp counts from.
var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// gen is one generation in progress: the source, the size and the
// vocabulary drawn so far (zones of the catalog, apps of the pods).
type gen struct {
	src   source
	size  Size
	zones []string
	types []string // instance type names of the main catalog
	apps  []string
	pools []packing.NodePool
}

// Generate returns the valid problem the seed stands for, bounded by size.
// The same (seed, size) always gives an equal problem. About a third of the
// problems also get one or two unusual shapes (see [unusualShapes]): the
// valid inputs of real clusters that broke the solver once, such as
// daemonsets that tolerate everything and request GPUs, pools that exclude
// themselves, hostname and beta-label constraints, spreads over keys with
// many values, the longest label strings, and amounts and prices at their
// bounds. The complexity is O(size) and it allocates only the problem.
func Generate(seed uint64, size Size) packing.Problem {
	g := &gen{src: rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d)), size: size.withDefaults()}
	p := g.problem()
	if g.chance(1, 3) { // drawn after the base problem, which each seed keeps
		for range 1 + g.intn(2) {
			g.unusual(&p)
		}
	}
	return p
}

// Decode turns arbitrary bytes into a problem with the generator's
// structure, each choice read from the next bytes; then, as the bytes say,
// it makes up to three fields invalid (see [Corrupt]), puts hostile
// strings or extreme numbers in up to four fields (see [HostileStrings]
// and [ExtremeInts]) and adds up to two of [Generate]'s unusual shapes. It
// never panics; the same bytes give an equal problem. Bytes past the end
// read as zero.
func Decode(data []byte) packing.Problem {
	p, _ := DecodeRest(data)
	return p
}

// DecodeRest is Decode, and returns the [Stream] of the bytes it did not
// use, from which a fuzz target reads further choices (its options).
func DecodeRest(data []byte) (packing.Problem, *Stream) {
	g := &gen{src: &byteSource{data: data}, size: Size{}.withDefaults()}
	p := g.problem()
	if g.chance(1, 4) {
		for range 1 + g.intn(3) {
			g.corrupt(&p)
		}
	}
	if g.intn(4) == 3 { // never once the bytes have run out: older inputs decode as they did
		for range 1 + g.intn(4) {
			g.hostile(&p)
		}
	}
	if g.intn(4) == 3 { // likewise
		for range 1 + g.intn(2) {
			g.unusual(&p)
		}
	}
	return p, &Stream{g: g}
}

// Stream reads choices from the bytes Decode left, as Decode reads its
// own: zero once they run out.
type Stream struct{ g *gen }

// IntN returns a choice in [0, n); 0 when n <= 0.
func (s *Stream) IntN(n int) int { return s.g.intn(n) }

// Pick returns one of choices (the first once the bytes run out); 0 when
// there are none.
func (s *Stream) Pick(choices []int64) int64 { return pick(s.g, choices) }

// DecodeOptions reads solver options from s: the zero Options once the
// bytes run out, else any strategy and preference policy (valid or not),
// restarts, instance-type caps, node overheads and preference budgets
// among small, negative and extreme values.
func DecodeOptions(s *Stream) packing.Options {
	if s.IntN(4) != 3 {
		return packing.Options{}
	}
	return packing.Options{
		Strategy:         packing.Strategy(s.IntN(5)),
		Restarts:         int(s.Pick([]int64{0, -1, 1, 3, math.MinInt64, 4097, math.MaxInt64})),
		Seed:             uint64(s.IntN(1 << 16)),
		Preferences:      packing.PreferencePolicy(s.IntN(4)),
		PriorityOrder:    s.IntN(2) == 1,
		MaxInstanceTypes: int(s.Pick([]int64{0, 1, 2, 600, -1, math.MinInt64, math.MaxInt64})),
		NodeOverhead:     instancetypes.Price(s.Pick(extremeInts)),
		LimitPolicy:      packing.LimitPolicy(s.IntN(3)), // 2 is invalid
		PreferenceBudget: pick(s.g, decodedBudgets),
	}
}

// decodedBudgets are the PreferenceBudget values DecodeOptions draws,
// valid and not.
var decodedBudgets = []float64{0, 0.1, 1e9, -1, math.NaN(), math.Inf(1)}

// intn returns a choice in [0, n); 0 when n <= 0.
func (g *gen) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return g.src.IntN(n)
}

// chance is true with probability k/n.
func (g *gen) chance(k, n int) bool { return g.intn(n) < k }

// pick returns a random element of s, or the zero value when s is empty.
func pick[E any](g *gen, s []E) E {
	var zero E
	if len(s) == 0 {
		return zero
	}
	return s[g.intn(len(s))]
}

// subset returns a random non-empty subset of s, in its order.
func subset[E any](g *gen, s []E) []E {
	var out []E
	for _, e := range s {
		if g.chance(1, 2) {
			out = append(out, e)
		}
	}
	if len(out) == 0 && len(s) > 0 {
		out = append(out, pick(g, s))
	}
	return out
}

func (g *gen) problem() packing.Problem {
	var p packing.Problem
	p.Catalog = g.catalog()
	g.zones, g.types = catalogVocabulary(p.Catalog)
	p.NodePools = g.nodePools(p.Catalog)
	g.pools = p.NodePools
	p.DaemonSets = g.daemonSets()
	p.Nodes = g.nodes(p.Catalog)
	p.Pods = g.pendingPods()
	return p
}
