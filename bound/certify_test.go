package bound_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/benchmarks"
	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/bound"
)

// TestOfCertifiesTheLPOptimum: on Karpenter's diverse workload (100 pods,
// its 400 fake types) the column generation reaches the configuration
// LP's optimum and certifies it. Its small types hold a few pods whose
// requests in memory, powers of two, do not fit the allocatable (10 Mi
// short of one): only the knapsacks kept in integers prove that no
// pattern is worth more than its node, the Lagrangian bound leaves the
// certificate 14 % short.
func TestOfCertifiesTheLPOptimum(t *testing.T) {
	w := workload.KarpenterDiverse(100, 42)
	cat, err := benchmarks.Catalog(w.InstanceTypes)
	require.NoError(t, err)
	p, err := benchmarks.Problem(w, cat)
	require.NoError(t, err)
	b, err := bound.Of(p, bound.Options{})
	require.NoError(t, err)
	assert.True(t, b.Optimal, "the LP's optimum certified")
	assert.InDelta(t, 22.583, b.Dollars, 0.001)
}
