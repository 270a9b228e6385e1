package packing

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/instancetypes"
)

func TestBudgetLimit(t *testing.T) {
	tests := []struct {
		c    instancetypes.Price
		f    float64
		want instancetypes.Price
	}{
		{100, 0, 100},
		{100, 0.1, 110},
		{105, 0.1, 115}, // 10.5 rounds down
		{0, 1e300, 0},
		{10, math.MaxFloat64, instancetypes.MaxPrice},
		{instancetypes.MaxPrice - 5, 1, instancetypes.MaxPrice},
		{1 << 40, 1e9, instancetypes.MaxPrice},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, budgetLimit(tc.c, tc.f), "budgetLimit(%d, %v)", tc.c, tc.f)
	}
}

func TestDearest(t *testing.T) {
	known := func(pods int, price instancetypes.Price) saving { return saving{pods: pods, price: price, known: true} }
	tests := []struct {
		name    string
		live    []int
		savings []saving
		pods    []int
		want    int
	}{
		{"larger saving", []int{0, 1, 2}, []saving{known(0, 5), known(0, 9), known(0, 7)}, []int{1, 1, 1}, 1},
		{"more pods placed beats a larger saving", []int{0, 1}, []saving{known(0, 90), known(1, -5)}, []int{1, 1}, 1},
		{"ties go to the earlier term", []int{0, 1}, []saving{known(0, 5), known(0, 5)}, []int{1, 9}, 0},
		{"measured before unmeasured", []int{0, 1}, []saving{{}, known(0, -1)}, []int{50, 1}, 1},
		{"unmeasured: more pods first", []int{0, 1, 2}, []saving{{}, {}, {}}, []int{2, 7, 7}, 1},
		{"only live terms", []int{2}, []saving{known(0, 99), {}, known(0, 1)}, []int{1, 1, 1}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, dearest(tc.live, tc.savings, tc.pods))
		})
	}
}

// TestDecideRestore runs the search on made-up plan prices for three
// terms A, B, C (a key says which are honoured: "100" is A alone): the
// greedy relaxes A (saving 15), then B, then C to fit 80; restoring, C
// and B do not fit again, but A alone does (60), as it was dear only
// beside B.
func TestDecideRestore(t *testing.T) {
	prices := map[string]instancetypes.Price{"111": 100, "011": 85, "101": 90, "110": 99, "001": 83, "010": 84,
		"000": 50, "100": 60}
	b := &budgetSearch{plans: map[string]Plan{}, limit: maxPreferenceSolves, pods: []int{1, 1, 1}}
	for k, p := range prices {
		b.plans[k] = Plan{Price: p}
	}
	fits := func(pl Plan) bool { return pl.Price <= 80 }
	h, relaxed, err := b.decide(honoured{true, true, true}, fits)
	assert.NoError(t, err)
	assert.Equal(t, "000", h.key())
	assert.Equal(t, []int{0, 1, 2}, relaxed)
	h, err = b.restore(h, relaxed, fits)
	assert.NoError(t, err)
	assert.Equal(t, "100", h.key())
	assert.Zero(t, b.solves, "every plan was known")
}
