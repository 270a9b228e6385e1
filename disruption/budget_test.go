package disruption_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// noon is a Wednesday.
var noon = time.Date(2025, 6, 11, 12, 0, 0, 0, time.UTC)

func poolNodes(pool string, n int) []packing.Node {
	nodes := make([]packing.Node, n)
	for i := range nodes {
		nodes[i] = packing.Node{Name: fmt.Sprintf("%s-%d", pool, i), NodePool: pool, Initialized: true}
	}
	return nodes
}

func withBudgets(b ...packing.Budget) packing.NodePool {
	return packing.NodePool{Name: "default", Disruption: packing.Disruption{Budgets: b}}
}

func TestAllowedDisruptions(t *testing.T) {
	tests := []struct {
		name   string
		pool   packing.NodePool
		nodes  []packing.Node
		reason disruption.Reason
		now    time.Time
		want   int
	}{
		{"default is 10% rounded up", packing.NodePool{Name: "default"}, poolNodes("default", 11), disruption.Empty, noon, 2},
		{"default of 10 nodes is 1", packing.NodePool{Name: "default"}, poolNodes("default", 10), disruption.Empty, noon, 1},
		{"default of 1 node is 1", packing.NodePool{Name: "default"}, poolNodes("default", 1), disruption.Empty, noon, 1},
		{"default of no nodes is 0", packing.NodePool{Name: "default"}, nil, disruption.Empty, noon, 0},
		{"percentage rounds up", withBudgets(packing.Budget{Nodes: "5%"}), poolNodes("default", 10), disruption.Drifted, noon, 1},
		{"50% of 3 is 2", withBudgets(packing.Budget{Nodes: "50%"}), poolNodes("default", 3), disruption.Drifted, noon, 2},
		{"100%", withBudgets(packing.Budget{Nodes: "100%"}), poolNodes("default", 7), disruption.Drifted, noon, 7},
		{"0% blocks", withBudgets(packing.Budget{Nodes: "0%"}), poolNodes("default", 7), disruption.Drifted, noon, 0},
		{"count", withBudgets(packing.Budget{Nodes: "3"}), poolNodes("default", 10), disruption.Underutilized, noon, 3},
		{"count above the pool size", withBudgets(packing.Budget{Nodes: "30"}), poolNodes("default", 10), disruption.Underutilized, noon, 30},
		{"most restrictive wins", withBudgets(packing.Budget{Nodes: "50%"}, packing.Budget{Nodes: "2"}, packing.Budget{Nodes: "3"}), poolNodes("default", 10), disruption.Empty, noon, 2},
		{"budget for another reason does not apply", withBudgets(packing.Budget{Nodes: "0", Reasons: []string{"Drifted"}}, packing.Budget{Nodes: "4"}), poolNodes("default", 10), disruption.Empty, noon, 4},
		{"budget naming the reason applies", withBudgets(packing.Budget{Nodes: "0", Reasons: []string{"Drifted", "Empty"}}, packing.Budget{Nodes: "4"}), poolNodes("default", 10), disruption.Empty, noon, 0},
		{"only budgets for other reasons: unlimited", withBudgets(packing.Budget{Nodes: "0", Reasons: []string{"Drifted"}}), poolNodes("default", 10), disruption.Underutilized, noon, 1<<31 - 1},
		{"schedule window active", withBudgets(packing.Budget{Nodes: "0", Schedule: "0 9 * * *", Duration: 8 * time.Hour}, packing.Budget{Nodes: "5"}), poolNodes("default", 10), disruption.Empty, noon, 0},
		{"schedule window inactive", withBudgets(packing.Budget{Nodes: "0", Schedule: "0 9 * * *", Duration: 2 * time.Hour}, packing.Budget{Nodes: "5"}), poolNodes("default", 10), disruption.Empty, noon, 5},
		{"schedule fires now", withBudgets(packing.Budget{Nodes: "0", Schedule: "0 12 * * *", Duration: time.Minute}, packing.Budget{Nodes: "5"}), poolNodes("default", 10), disruption.Empty, noon, 0},
		{"window closes at Duration", withBudgets(packing.Budget{Nodes: "0", Schedule: "0 10 * * *", Duration: 2 * time.Hour}, packing.Budget{Nodes: "5"}), poolNodes("default", 10), disruption.Empty, noon, 5},
		{"descriptor @daily", withBudgets(packing.Budget{Nodes: "1", Schedule: "@daily", Duration: 13 * time.Hour}), poolNodes("default", 10), disruption.Empty, noon, 1},
		{"weekday range, Wednesday", withBudgets(packing.Budget{Nodes: "0", Schedule: "0 0 * * 1-5", Duration: 24 * time.Hour}), poolNodes("default", 10), disruption.Empty, noon, 0},
		{"weekend only, Wednesday", withBudgets(packing.Budget{Nodes: "0", Schedule: "0 0 * * 6", Duration: 48 * time.Hour}), poolNodes("default", 10), disruption.Empty, noon, 1<<31 - 1},
		{"schedule read in UTC", withBudgets(packing.Budget{Nodes: "0", Schedule: "0 11 * * *", Duration: 2 * time.Hour}), poolNodes("default", 10), disruption.Empty, noon.In(time.FixedZone("X", 5*3600)), 0},
		{"not ready consumes", withBudgets(packing.Budget{Nodes: "3"}), append(poolNodes("default", 8), packing.Node{Name: "sick", NodePool: "default", Initialized: true, NotReady: true}), disruption.Empty, noon, 2},
		{"not ready of budget 1 leaves 0", withBudgets(packing.Budget{Nodes: "1"}), append(poolNodes("default", 2), packing.Node{Name: "sick", NodePool: "default", Initialized: true, NotReady: true}), disruption.Empty, noon, 0},
		{"not initialized neither counted nor charged", withBudgets(packing.Budget{Nodes: "3"}), append(poolNodes("default", 8), packing.Node{Name: "new", NodePool: "default", NotReady: true, MarkedForDeletion: true}), disruption.Empty, noon, 3},
		{"not initialized left out of the percentage", withBudgets(packing.Budget{Nodes: "10%"}), append(poolNodes("default", 19), packing.Node{Name: "new", NodePool: "default"}), disruption.Empty, noon, 2},
		{"deleting consumes", withBudgets(packing.Budget{Nodes: "3"}), append(poolNodes("default", 8), packing.Node{Name: "gone", NodePool: "default", Initialized: true, MarkedForDeletion: true}, packing.Node{Name: "gone2", NodePool: "default", Initialized: true, MarkedForDeletion: true}), disruption.Empty, noon, 1},
		{"never negative", withBudgets(packing.Budget{Nodes: "1"}), append(poolNodes("default", 2), packing.Node{Name: "a", NodePool: "default", Initialized: true, NotReady: true}, packing.Node{Name: "b", NodePool: "default", Initialized: true, MarkedForDeletion: true}), disruption.Empty, noon, 0},
		{"other pools ignored", withBudgets(packing.Budget{Nodes: "50%"}), append(poolNodes("default", 2), poolNodes("other", 20)...), disruption.Empty, noon, 1},
		{"other pools' deleting nodes ignored", withBudgets(packing.Budget{Nodes: "1"}), append(poolNodes("default", 2), packing.Node{Name: "x", NodePool: "other"}), disruption.Empty, noon, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := disruption.AllowedDisruptions(tc.pool, tc.nodes, tc.reason, tc.now)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestAllowedDisruptionsErrors(t *testing.T) {
	tests := []struct {
		name   string
		budget packing.Budget
		field  string
	}{
		{"empty nodes", packing.Budget{}, "Nodes"},
		{"negative", packing.Budget{Nodes: "-1"}, "Nodes"},
		{"above 100%", packing.Budget{Nodes: "101%"}, "Nodes"},
		{"fraction", packing.Budget{Nodes: "1.5%"}, "Nodes"},
		{"words", packing.Budget{Nodes: "ten"}, "Nodes"},
		{"bad cron", packing.Budget{Nodes: "1", Schedule: "every day", Duration: time.Hour}, "Schedule"},
		{"six fields", packing.Budget{Nodes: "1", Schedule: "0 0 0 * * *", Duration: time.Hour}, "Schedule"},
		{"schedule without duration", packing.Budget{Nodes: "1", Schedule: "@daily"}, "Duration"},
		{"duration without schedule", packing.Budget{Nodes: "1", Duration: time.Hour}, "Duration"},
		{"unknown reason", packing.Budget{Nodes: "1", Reasons: []string{"Bored"}}, "Reasons"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pool := withBudgets(packing.Budget{Nodes: "5"}, tc.budget)
			got, err := disruption.AllowedDisruptions(pool, poolNodes("default", 10), disruption.Empty, noon)
			require.Error(t, err)
			assert.Zero(t, got, "fails closed")
			var be *disruption.BudgetError
			require.ErrorAs(t, err, &be)
			assert.Equal(t, "default", be.NodePool)
			assert.Equal(t, 1, be.Index)
			assert.Equal(t, tc.field, be.Field)
			assert.Contains(t, err.Error(), `nodepool "default": disruption budget 1`)
			assert.Equal(t, err, disruption.ValidateBudgets(pool), "ValidateBudgets reports what AllowedDisruptions does")
		})
	}
}

// TestValidateBudgets: valid budgets, active or not, applying or not, are
// no error; every invalid one is reported.
func TestValidateBudgets(t *testing.T) {
	assert.NoError(t, disruption.ValidateBudgets(packing.NodePool{Name: "default"}), "the default budget")
	assert.NoError(t, disruption.ValidateBudgets(withBudgets(packing.Budget{Nodes: "0", Schedule: "0 9 * * 6", Duration: time.Hour},
		packing.Budget{Nodes: "10%", Reasons: []string{"Drifted"}})))
	err := disruption.ValidateBudgets(withBudgets(packing.Budget{Nodes: "x"}, packing.Budget{Nodes: "1"}, packing.Budget{Nodes: "1", Reasons: []string{"Bored"}}))
	var be *disruption.BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, 0, be.Index)
	assert.Contains(t, err.Error(), `nodepool "default": disruption budget 2: Reasons "Bored"`)
}

func TestUnknownReasonIsBranchable(t *testing.T) {
	_, err := disruption.AllowedDisruptions(withBudgets(packing.Budget{Nodes: "1", Reasons: []string{"empty"}}), nil, disruption.Empty, noon)
	assert.True(t, errors.Is(err, disruption.ErrUnknownReason))
}

func TestActive(t *testing.T) {
	b := packing.Budget{Nodes: "0", Schedule: "30 11 * * *", Duration: 30 * time.Minute}
	for _, tc := range []struct {
		at   time.Time
		want bool
	}{
		{noon.Add(-31 * time.Minute), false},
		{noon.Add(-30 * time.Minute), true},
		{noon.Add(-time.Second), true},
		{noon, false},
	} {
		got, err := disruption.Active(b, tc.at)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, tc.at)
	}
}

func TestReason(t *testing.T) {
	for _, r := range []disruption.Reason{disruption.Empty, disruption.Underutilized, disruption.Drifted, disruption.Expired} {
		got, err := disruption.ParseReason(r.String())
		require.NoError(t, err)
		assert.Equal(t, r, got)
	}
	assert.Equal(t, "Reason(9)", disruption.Reason(9).String())
	_, err := disruption.ParseReason("drifted")
	assert.ErrorIs(t, err, disruption.ErrUnknownReason)
}
