package packing_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// TestSolveVouched: a simulation of a validated problem, solved with the
// validated nodes vouched for, is not checked again on those nodes, and
// is still checked on everything it adds or changes beyond the vouched
// contract: pending (displaced) pods, in-flight nodes and their pods,
// duplicate names, NodePools. The zero vouch checks every node.
func TestSolveVouched(t *testing.T) {
	base := validationBase(t)
	require.NoError(t, base.Validate())
	vouched := vouch.Of(base.Nodes, func(n *packing.Node) string { return n.Name })
	long := strings.Repeat("a", 64)
	inFlight := func(p *packing.Problem) *packing.Node {
		n := mkNode("replacement-1", "default", "default-instance-type", zone1)
		p.Nodes = append(p.Nodes, n)
		return &p.Nodes[len(p.Nodes)-1]
	}
	tests := []struct {
		name    string
		vouched vouch.Nodes
		edit    func(p *packing.Problem)
		errs    []string // object: field of every error; none: the plan is Solve's
	}{
		{"unchanged", vouched, func(*packing.Problem) {}, nil},
		{"displaced pod and in-flight node", vouched, func(p *packing.Problem) {
			d := p.Nodes[0].Pods[0]
			d.Displaced = true
			p.Pods = append(p.Pods, d)
			p.Nodes[0].Pods, p.Nodes[0].Settling = nil, true
			inFlight(p).Initialized = false
		}, nil},
		{"vouched node not checked again", vouched, func(p *packing.Problem) {
			p.Nodes[0].Labels = map[string]string{"rack": long}
		}, nil},
		{"zero vouch checks every node", vouch.Nodes{}, func(p *packing.Problem) {
			p.Nodes[0].Labels = map[string]string{"rack": long}
		}, []string{"node n1: labels"}},
		{"in-flight node checked", vouched, func(p *packing.Problem) {
			inFlight(p).Labels = map[string]string{"rack": long}
		}, []string{"node replacement-1: labels"}},
		{"in-flight node's pods checked", vouched, func(p *packing.Problem) {
			n := inFlight(p)
			n.Pods = []packing.Pod{mkPod("moved", req("cpu", "100m"))}
			n.Pods[0].Requests = resources.List{CPU: -1}
		}, []string{"node replacement-1 pod default/moved: requests.cpu"}},
		{"in-flight node named like a vouched one", vouched, func(p *packing.Problem) {
			inFlight(p).Name = "n1"
		}, []string{"node n1: name"}},
		{"displaced pod checked", vouched, func(p *packing.Problem) {
			d := p.Nodes[0].Pods[0]
			d.Labels = map[string]string{"app": long}
			p.Pods = append(p.Pods, d)
		}, []string{"pod default/bound: labels"}},
		{"vouched pods not checked again", vouched.WithPods(), func(p *packing.Problem) {
			d := p.Nodes[0].Pods[0]
			d.Labels = map[string]string{"app": long}
			p.Pods = append(p.Pods, d)
		}, nil},
		{"vouched pods: nodes still checked", vouched.WithPods(), func(p *packing.Problem) {
			inFlight(p).Labels = map[string]string{"rack": long}
		}, []string{"node replacement-1: labels"}},
		{"displaced pod named like a pending one", vouched, func(p *packing.Problem) {
			d := p.Nodes[0].Pods[0]
			d.Name = p.Pods[0].Name
			p.Pods = append(p.Pods, d)
		}, []string{"pod default/web: name"}},
		{"nodepools checked", vouched, func(p *packing.Problem) {
			p.NodePools[0].Labels = map[string]string{"team": long}
		}, []string{"nodepool default: labels"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := validationBase(t)
			for i := range p.Nodes { // as the contract asks: a vouched node's labels are its effective labels
				p.Nodes[i].Labels = p.Nodes[i].EffectiveLabels()
			}
			tc.edit(&p)
			plan, err := packing.SolveVouched(context.Background(), tc.vouched, p, packing.Options{})
			if tc.errs == nil {
				require.NoError(t, err)
				if !strings.HasPrefix(tc.name, "vouched") { // Solve checks what the vouch spares
					want, err := packing.Solve(p, packing.Options{})
					require.NoError(t, err)
					assert.Equal(t, want, plan)
				}
				return
			}
			require.True(t, errors.Is(err, packing.ErrInvalidProblem), "%v", err)
			var got []string
			for _, fe := range fieldErrors(err) {
				got = append(got, fe.Object+": "+fe.Field)
			}
			assert.Equal(t, tc.errs, got)
		})
	}
}

// TestSolveVouchedMemo: the solves of one vouch share what they read from
// a vouched node's pods, and read them again when the node comes with
// other pods (a new slice): a node filled up after a first solve takes no
// more pods in the next, as Solve says.
func TestSolveVouchedMemo(t *testing.T) {
	p := validationBase(t)
	for i := range p.Nodes {
		p.Nodes[i].Labels = p.Nodes[i].EffectiveLabels()
	}
	v := vouch.Of(p.Nodes, func(n *packing.Node) string { return n.Name })
	first, err := packing.SolveVouched(context.Background(), v, p, packing.Options{})
	require.NoError(t, err)
	require.Len(t, first.Bindings, 1, "the pending pod fits the node at first")

	full := p
	full.Nodes = slices.Clone(p.Nodes)
	big := p.Nodes[0].Pods[0]
	big.Name, big.UID = "big", "big"
	big.Requests = p.Nodes[0].Allocatable
	full.Nodes[0].Pods = append(slices.Clip(p.Nodes[0].Pods), big)
	got, err := packing.SolveVouched(context.Background(), v, full, packing.Options{})
	require.NoError(t, err)
	want, err := packing.Solve(full, packing.Options{})
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Empty(t, got.Bindings, "the node is full now")

	again, err := packing.SolveVouched(context.Background(), v, p, packing.Options{})
	require.NoError(t, err)
	assert.Equal(t, first, again, "the first pods again: the first plan")
}

// TestSolveVouchedReusesArrays: the solves of one vouch reuse the arrays
// an earlier one compiled into (spare.go), larger or smaller than they
// need, and still return Solve's plans, byte for byte.
func TestSolveVouchedReusesArrays(t *testing.T) {
	for seed := range uint64(40) {
		p := problemgen.Generate(seed, problemgen.Size{})
		if p.Validate() != nil || len(p.Nodes) < 2 {
			continue
		}
		p.Nodes = slices.Clone(p.Nodes)
		for i := range p.Nodes {
			p.Nodes[i].Labels = p.Nodes[i].EffectiveLabels()
		}
		v := vouch.Of(p.Nodes, func(n *packing.Node) string { return n.Name })
		for _, part := range []int{4, 1, 4, 2, 3} { // quarters of the nodes and pending pods
			q := p
			q.Nodes = p.Nodes[:len(p.Nodes)*part/4]
			q.Pods = p.Pods[:len(p.Pods)*part/4]
			got, err := packing.SolveVouched(context.Background(), v, q, packing.Options{})
			require.NoError(t, err, "seed %d, %d quarters", seed, part)
			want, err := packing.Solve(q, packing.Options{})
			require.NoError(t, err, "seed %d, %d quarters", seed, part)
			require.Equal(t, want, got, "seed %d, %d quarters", seed, part)
			spare := v.Memo().Take()
			require.NotNil(t, spare, "seed %d: the solve gave its arrays back", seed)
			v.Memo().Give(spare) // for the next solve to reuse
		}
	}
}
