package disruption_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// TestWhatIf: retiring a node empties it of all but the pods it keeps,
// binding and launching count reschedulable pods, each change counts in
// the generation, names are looked up in O(1), and the input nodes are
// not modified.
func TestWhatIf(t *testing.T) {
	daemon := packing.Pod{Namespace: "kube-system", Name: "d", Owner: "DaemonSet/agent"}
	web := packing.Pod{Namespace: "default", Name: "web"}
	nodes := []packing.Node{{Name: "a", Pods: []packing.Pod{daemon, web}}, {Name: "b"}}
	w := disruption.NewWhatIf(nodes, packing.Problem{}, vouch.Nodes{}, packing.Options{})
	assert.Equal(t, 1, w.Movable(0))
	gen := w.Generation()
	w.Retire(0, disruption.Staying(w.Nodes()[0].Pods))
	assert.Equal(t, gen+1, w.Generation(), "a retirement is a change")
	w.Bind(1, web)
	assert.Equal(t, gen+2, w.Generation(), "a binding is a change")
	w.Launch(packing.Node{Name: "r-1", Pods: []packing.Pod{web, daemon}})
	assert.Equal(t, gen+3, w.Generation(), "a launch is a change")
	assert.True(t, w.Nodes()[0].MarkedForDeletion)
	assert.Equal(t, []packing.Pod{daemon}, w.Nodes()[0].Pods)
	assert.Equal(t, []int{0, 1, 1}, []int{w.Movable(0), w.Movable(1), w.Movable(2)})
	assert.Equal(t, 2, w.Index("r-1"))
	assert.Equal(t, -1, w.Index("zz"))
	assert.True(t, w.Taken("b"))
	assert.False(t, w.Taken("zz"))
	w.Launch(packing.Node{Name: "ip-10-0-0-1", Labels: map[string]string{requirements.LabelHostname: "consolidation-1"}})
	assert.True(t, w.Taken("consolidation-1"), "a node's hostname is taken as its name is")
	name, _ := disruption.ReplacementName("consolidation", 1, w.Taken)
	assert.Equal(t, "consolidation-2", name)
	assert.Equal(t, []packing.Pod{daemon, web}, nodes[0].Pods, "the input is not modified")
	assert.Empty(t, nodes[1].Pods, "the input is not modified")
}

// TestWhatIfSolve: a solve with the zero vouch checks every node, and
// places pending pods on the nodes given.
func TestWhatIfSolve(t *testing.T) {
	node := packing.Node{Name: "a", NodePool: "default", Initialized: true,
		Allocatable: resources.List{CPU: 4000, Memory: 8 << 30, Pods: 110}}
	base := packing.Problem{Catalog: instancetypes.KarpenterDiverse(), NodePools: []packing.NodePool{{Name: "default"}}}
	w := disruption.NewWhatIf([]packing.Node{node}, base, vouch.Nodes{}, packing.Options{})
	plan, err := w.Solve([]packing.Pod{{Namespace: "default", Name: "p", Requests: resources.List{CPU: 100}}}, w.Nodes())
	require.NoError(t, err)
	assert.Equal(t, []packing.Binding{{Pod: 0, Node: "a"}}, plan.Bindings)
	bad := node
	bad.Allocatable.CPU = -1
	_, err = w.Solve(nil, []packing.Node{bad})
	assert.ErrorIs(t, err, packing.ErrInvalidProblem)
}

// TestWhatIfLabels: a node the caller vouched for is held with its
// effective labels, the same to every solve; any other keeps its own
// labels, which each solve checks as given (repair solves unvouched nodes
// and hands them back).
func TestWhatIfLabels(t *testing.T) {
	beta := map[string]string{"failure-domain.beta.kubernetes.io/zone": "zone-a"}
	nodes := []packing.Node{{Name: "v", Zone: "zone-a", Labels: beta}, {Name: "u", Zone: "zone-a", Labels: beta}}
	v := vouch.Of(nodes[:1], func(n *packing.Node) string { return n.Name })
	w := disruption.NewWhatIf(nodes, packing.Problem{}, v, packing.Options{})
	assert.Equal(t, nodes[0].EffectiveLabels(), w.Nodes()[0].Labels)
	assert.NotContains(t, w.Nodes()[0].Labels, "failure-domain.beta.kubernetes.io/zone")
	assert.Equal(t, beta, w.Nodes()[1].Labels, "not vouched for: as given")
	assert.Equal(t, map[string]string{"failure-domain.beta.kubernetes.io/zone": "zone-a"}, nodes[0].Labels, "the input is not modified")
}
