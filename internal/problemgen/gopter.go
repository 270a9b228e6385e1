package problemgen

import (
	"testing"

	"github.com/leanovate/gopter"
	goptergen "github.com/leanovate/gopter/gen"

	"github.com/nodeplan/nodeplan/packing"
)

// Seeded is a generated problem with the seed that reproduces it:
// Generate(Seed, size) == Problem.
type Seeded struct {
	Seed    uint64
	Problem packing.Problem
}

// Gen returns a gopter generator of valid problems of the given size, each
// drawn by [Generate] from a seed gopter chooses. It does not shrink; use
// [Minimize] on a failing problem.
func Gen(size Size) gopter.Gen {
	return goptergen.UInt64().Map(func(seed uint64) packing.Problem { return Generate(seed, size) })
}

// GenSeeded is [Gen] with the seed kept alongside, for failure reports.
func GenSeeded(size Size) gopter.Gen {
	return goptergen.UInt64().Map(func(seed uint64) Seeded { return Seeded{Seed: seed, Problem: Generate(seed, size)} })
}

// GenDecoded returns a gopter generator of problems decoded by [Decode]
// from random bytes: possibly invalid ones.
func GenDecoded() gopter.Gen {
	return goptergen.SliceOf(goptergen.UInt8()).Map(func(data []uint8) packing.Problem { return Decode(data) })
}

// Properties returns gopter properties seeded with seed that need n
// successful tests (a fifth, at least 10, under go test -short): the same
// cases on every run.
func Properties(seed int64, n int) *gopter.Properties {
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = n
	if testing.Short() {
		params.MinSuccessfulTests = max(n/5, 10)
	}
	return gopter.NewProperties(params)
}
