package problemgen

import (
	"math/rand/v2"
	"time"

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
// The same (seed, size) always gives an equal problem. The complexity is
// O(size) and it allocates only the problem.
func Generate(seed uint64, size Size) packing.Problem {
	g := &gen{src: rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d)), size: size.withDefaults()}
	return g.problem()
}

// Decode turns arbitrary bytes into a problem with the generator's
// structure, each choice read from the next bytes, and then, as the bytes
// say, makes up to three fields invalid (see [Corrupt]). It never panics;
// the same bytes give an equal problem. Bytes past the end read as zero.
func Decode(data []byte) packing.Problem {
	g := &gen{src: &byteSource{data: data}, size: Size{}.withDefaults()}
	p := g.problem()
	if g.chance(1, 4) {
		for range 1 + g.intn(3) {
			g.corrupt(&p)
		}
	}
	return p
}

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
