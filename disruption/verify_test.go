package disruption_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// rule is a checker's rule enum for the tests; rulePacking nests.
type rule uint8

const (
	ruleName rule = iota
	rulePacking
)

func (r rule) String() string { return [...]string{"Name", "Packing"}[r] }
func (r rule) Nests() bool    { return r == rulePacking }

// TestVerifierCheckNames: a replacement named like a node or like another
// replacement of the command, or with no name, is reported once.
func TestVerifierCheckNames(t *testing.T) {
	v := disruption.NewVerifier[rule]([]packing.Node{{Name: "a"}}, time.Time{})
	v.CheckNames(0, ruleName, []packing.NodeClaim{{Name: "a"}, {Name: "r"}, {Name: "r"}, {Name: ""}, {Name: "ok"}})
	var nodes []string
	for _, x := range v.Violations() {
		assert.Equal(t, ruleName, x.Rule)
		nodes = append(nodes, x.Node)
	}
	assert.Equal(t, []string{"", "a", "r"}, nodes)
}

// TestMovesPriceSaturates: the price of a command's replacements stops at
// MaxPrice, as packing's sums do.
func TestMovesPriceSaturates(t *testing.T) {
	half := instancetypes.MaxPrice/2 + 1
	m := disruption.NewMoves(packing.Problem{}, []packing.NodeClaim{
		{Name: "r-1", Offering: instancetypes.Offering{Price: half}}, {Name: "r-2", Offering: instancetypes.Offering{Price: half}}})
	assert.Equal(t, instancetypes.MaxPrice, m.Plan.Price)
	assert.True(t, m.HasClaim("r-2"))
	assert.False(t, m.HasClaim("r-3"))
}

// TestApplyMoves: a pod bound to a live node joins it, one bound to a
// deleting node does not, and a replacement becomes an in-flight node.
func TestApplyMoves(t *testing.T) {
	nodes := []packing.Node{{Name: "a"}, {Name: "b", MarkedForDeletion: true}}
	v := disruption.NewVerifier[rule](nodes, time.Time{})
	m := disruption.NewMoves(packing.Problem{}, []packing.NodeClaim{{Name: "r-1"}})
	m.Add(packing.Pod{Namespace: "default", Name: "p"}, disruption.Home{Node: "a"})
	m.Add(packing.Pod{Namespace: "default", Name: "q"}, disruption.Home{Node: "b"})
	m.Add(packing.Pod{Namespace: "default", Name: "s"}, disruption.Home{NodeClaim: "r-1"})
	var bound []string
	v.ApplyMoves(m, func(node string) { bound = append(bound, node) })
	assert.Equal(t, []string{"a"}, bound)
	assert.Len(t, v.Nodes, 3)
	assert.Len(t, v.Nodes[0].Pods, 1)
	assert.Empty(t, v.Nodes[1].Pods)
	assert.Empty(t, nodes[0].Pods, "the input is not modified")
	assert.Equal(t, "r-1", v.Nodes[2].Name)
}

// TestVerifierUnfit: a node of no NodePool, or already being deleted, may
// not be disrupted; the first NodePool of a name wins.
func TestVerifierUnfit(t *testing.T) {
	nodes := []packing.Node{{Name: "a", NodePool: "default"}, {Name: "b", NodePool: "other"},
		{Name: "c", NodePool: "default", MarkedForDeletion: true}}
	v := disruption.NewVerifier[rule](nodes, time.Time{})
	first, second := packing.NodePool{Name: "default"}, packing.NodePool{Name: "default", Weight: 1}
	v.AddPool(&first)
	v.AddPool(&second)
	assert.Same(t, &first, v.Pool("default"))
	assert.Empty(t, v.Unfit(0))
	assert.Equal(t, `belongs to no NodePool of the cluster ("other")`, v.Unfit(1))
	assert.Equal(t, "is already being deleted", v.Unfit(2))
	assert.Equal(t, 1, v.Charge("default"))
	assert.Equal(t, 2, v.Charge("default"))
	assert.Equal(t, 1, v.Charge("other"))
}

// TestVerifierViolationsTwice: Violations' result is the caller's; a
// second call, after more Adds, neither changes it nor loses a violation.
func TestVerifierViolationsTwice(t *testing.T) {
	v := disruption.NewVerifier[rule](nil, time.Time{})
	v.Add(0, ruleName, "", "", "same")
	v.Add(0, ruleName, "", "", "same")
	first := v.Violations()
	v.Add(1, ruleName, "", "", "x")
	second := v.Violations()
	assert.Len(t, first, 1)
	assert.Equal(t, "same", first[0].Message)
	if assert.Len(t, second, 2) {
		assert.Equal(t, "same", second[0].Message)
		assert.Equal(t, "x", second[1].Message)
	}
}

// TestMovesAddUnknownClaim: a home on a claim the command does not
// replace with adds nothing.
func TestMovesAddUnknownClaim(t *testing.T) {
	m := disruption.NewMoves(packing.Problem{}, []packing.NodeClaim{{Name: "r-1"}})
	assert.False(t, m.Add(packing.Pod{Namespace: "default", Name: "p"}, disruption.Home{NodeClaim: "r-9"}))
	assert.Empty(t, m.Problem.Pods)
	assert.Empty(t, m.Plan.Order)
	var zero disruption.Moves
	assert.False(t, zero.Add(packing.Pod{Name: "p"}, disruption.Home{NodeClaim: "r-1"}))
	assert.True(t, zero.Add(packing.Pod{Name: "p"}, disruption.Home{Node: "a"}))
}
