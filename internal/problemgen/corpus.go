package problemgen

import "math/rand/v2"

// RandomInputs returns n byte strings for a fuzz seed corpus: the i-th
// holds base<<(i%sizes) bytes from a PCG seeded with (seed1, seed2), so
// that the lengths cycle through sizes doublings and the corpus is the
// same on every run. base and sizes below 1 count as 1.
func RandomInputs(seed1, seed2 uint64, n, base, sizes int) [][]byte {
	base, sizes = max(base, 1), max(sizes, 1)
	rng := rand.New(rand.NewPCG(seed1, seed2))
	out := make([][]byte, 0, max(n, 0))
	for i := range n {
		b := make([]byte, base<<(i%sizes))
		for j := range b {
			b[j] = byte(rng.UintN(256))
		}
		out = append(out, b)
	}
	return out
}
