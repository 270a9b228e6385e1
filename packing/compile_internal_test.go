package packing

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/requirements"
)

// TestPoolLabelsStableWins: a NodePool labelled with both the beta and
// the stable zone label, with different values, is read as a node is (see
// labels.go): the stable label wins, in its conflict check and in its
// requirements alike, and on every call.
func TestPoolLabelsStableWins(t *testing.T) {
	labels := map[string]string{"failure-domain.beta.kubernetes.io/zone": "z1", requirements.LabelZone: "z2"}
	tests := []struct {
		name     string
		zones    []string // the pool's zone requirement
		conflict string
		zone     []string // the zones its compiled requirements admit
	}{
		{"requirement admits the stable value", []string{"z2"}, "", []string{"z2"}},
		{"requirement admits only the beta value", []string{"z1"},
			"its requirement topology.kubernetes.io/zone In [z1] excludes its own label topology.kubernetes.io/zone=z2", []string{}},
		{"no zone requirement", nil, "", []string{"z2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			np := &NodePool{Name: "a", Labels: labels}
			if tc.zones != nil {
				np.Requirements = requirements.MustParse(requirements.Expression{Key: requirements.LabelZone, Operator: requirements.In, Values: tc.zones})
			}
			for i := range 200 {
				require.Equal(t, tc.conflict, ownLabelConflict(np), "call %d", i)
			}
			assert.Equal(t, tc.zone, compilePoolReqs(np).Get(requirements.LabelZone).Values())
		})
	}
}
