package disruption_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/requirements"
)

func TestReplacementName(t *testing.T) {
	long := strings.Repeat("a", 56) + "-replacement"
	tests := []struct {
		name   string
		prefix string
		from   int
		taken  []string
		want   string
		wantK  int
	}{
		{"the first free number", "consolidation", 1, nil, "consolidation-1", 1},
		{"numbers of taken names are skipped", "consolidation", 1, []string{"consolidation-1", "consolidation-2"}, "consolidation-3", 3},
		{"counting starts at from", "consolidation", 7, []string{"consolidation-1"}, "consolidation-7", 7},
		{"a short node's replacement keeps its name", "node-a-replacement", 1, nil, "node-a-replacement-1", 1},
		{"a long prefix is cut and hashed to 63 characters", long, 1, nil,
			strings.Repeat("a", 52) + "-9c73071c-1", 1},
		{"the cut leaves room for more digits", long, 10, nil, strings.Repeat("a", 51) + "-9c73071c-10", 10},
		{"a prefix with characters no label value has keeps its valid start", "ns/web_1.x:y", 1, nil, "ns-e2914498-1", 1},
		{"a prefix that cannot start a label value is only hashed", "-x", 2, nil, "4bcd60c0-2", 2},
		{"an empty prefix is hashed", "", 1, nil, "811c9dc5-1", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, k := disruption.ReplacementName(tc.prefix, tc.from, func(n string) bool { return slices.Contains(tc.taken, n) })
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantK, k)
			assert.NoError(t, requirements.ValidateValue(got))
		})
	}
}

// TestReplacementNameProperties: whatever the prefix, the name is a label
// value that taken does not report, numbered from from on, the same on
// every call, and different for different numbers.
func TestReplacementNameProperties(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261210) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 500
	props := gopter.NewProperties(params)
	props.Property("a free label value, deterministic, distinct per number", prop.ForAll(
		func(prefix string, from, skip int) bool {
			seen := 0
			taken := func(string) bool { seen++; return seen <= skip }
			name, k := disruption.ReplacementName(prefix, from, taken)
			again, _ := disruption.ReplacementName(prefix, from, func(string) bool { return false })
			next, _ := disruption.ReplacementName(prefix, k+1, func(string) bool { return false })
			first := again
			if skip > 0 {
				first, _ = disruption.ReplacementName(prefix, from+skip, func(string) bool { return false })
			}
			return requirements.ValidateValue(name) == nil && k == from+skip && name == first && name != next
		},
		gen.OneGenOf(gen.AnyString(), gen.AlphaString(), gen.RegexMatch(`[a-z0-9.-]{40,90}`)),
		gen.IntRange(0, 1_000_000), gen.IntRange(0, 3),
	))
	props.TestingRun(t)
}

// TestReplacementNameSkipsEveryTakenName: numbers keep counting past a run
// of taken names.
func TestReplacementNameSkipsEveryTakenName(t *testing.T) {
	taken := map[string]bool{}
	for k := 1; k <= 100; k++ {
		n, got := disruption.ReplacementName(strings.Repeat("n", 60), k, func(string) bool { return false })
		require.Equal(t, k, got)
		taken[n] = true
	}
	n, k := disruption.ReplacementName(strings.Repeat("n", 60), 1, func(n string) bool { return taken[n] })
	assert.Equal(t, 101, k)
	assert.False(t, taken[n])
}

func TestReplacementNameProblem(t *testing.T) {
	tests := []struct {
		name, replacement string
		taken             bool
		want              string // a part of the problem, "" for none
	}{
		{"a free label value", "consolidation-1", false, ""},
		{"empty", "", false, "no name"},
		{"taken", "consolidation-1", true, "the name of another node"},
		{"too long for a hostname", strings.Repeat("r", 64), false, "cannot be a node's name"},
		{"a character no label value has", "a/b", false, "cannot be a node's name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := disruption.ReplacementNameProblem(tc.replacement, tc.taken)
			if tc.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Contains(t, got, tc.want)
		})
	}
}
