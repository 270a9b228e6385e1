package shadow

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/awslabs/operatorpkg/status"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func usd(v float64) instancetypes.Price { return instancetypes.MustPriceFromDollars(v) }

// fake is a Decider with fixed answers that records the snapshots it
// was given.
type fake struct {
	snaps []kube.Objects
	nows  []time.Time
}

func (f *fake) Provision(objs kube.Objects) (Decision, error) {
	f.snaps = append(f.snaps, objs)
	d := Decision{Nodes: 1, Price: usd(0.1)}
	for _, p := range objs.Pods {
		if p.Spec.NodeName == "" {
			d.PendingPods = append(d.PendingPods, p.Namespace+"/"+p.Name)
		}
	}
	d.Pending, d.Placed = len(d.PendingPods), len(d.PendingPods)
	return d, nil
}

func (f *fake) Disrupt(objs kube.Objects, now time.Time) (Decision, error) {
	f.snaps, f.nows = append(f.snaps, objs), append(f.nows, now)
	return Decision{Consolidation: Commands{Commands: 1, Deleted: 1, Change: -usd(0.05)}}, nil
}

func (f *fake) Price(o Offering) (instancetypes.Price, error) {
	switch o.InstanceType {
	case "m5.large":
		return usd(0.096), nil
	case "m5.xlarge":
		return usd(0.192), nil
	}
	return 0, errors.New("no such type")
}

func claim(name, typ string) *karpv1.NodeClaim {
	nc := &karpv1.NodeClaim{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: "1",
		Labels: map[string]string{karpv1.NodePoolLabelKey: "default"}}}
	if typ != "" {
		nc.Labels["node.kubernetes.io/instance-type"] = typ
		nc.Labels["topology.kubernetes.io/zone"] = "us-east-1a"
		nc.Labels[karpv1.CapacityTypeLabelKey] = "on-demand"
	}
	return nc
}

// onNode is nc launched as node.
func onNode(nc *karpv1.NodeClaim, node string) *karpv1.NodeClaim {
	nc.Status.NodeName, nc.Status.ProviderID = node, "aws:///us-east-1a/"+node
	return nc
}

// next is a new version of nc changed by f.
func next(nc *karpv1.NodeClaim, f func(*karpv1.NodeClaim)) *karpv1.NodeClaim {
	out := nc.DeepCopy()
	out.ResourceVersion += "1"
	f(out)
	return out
}

func deleting(nc *karpv1.NodeClaim) { nc.DeletionTimestamp = &metav1.Time{Time: t0} }

func marked(nc *karpv1.NodeClaim) {
	nc.Status.Conditions = append(nc.Status.Conditions, status.Condition{Type: karpv1.ConditionTypeDisruptionReason,
		Status: metav1.ConditionTrue, Reason: "Underutilized"})
}

func node(name string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: "1"},
		Spec: corev1.NodeSpec{ProviderID: "aws:///us-east-1a/" + name}}
}

func nextNode(n *corev1.Node, f func(*corev1.Node)) *corev1.Node {
	out := n.DeepCopy()
	out.ResourceVersion += "1"
	f(out)
	return out
}

func pending(name string) corev1.Pod {
	return corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
}

// step is one call: a change at at (Observe), or a Tick, or a Flush.
type step struct {
	at    time.Duration
	c     Change
	tick  bool
	flush bool
}

func add(at time.Duration, obj any) step         { return step{at: at, c: Change{New: obj}} }
func update(at time.Duration, old, obj any) step { return step{at: at, c: Change{Old: old, New: obj}} }
func gone(at time.Duration, obj any) step        { return step{at: at, c: Change{Old: obj}} }
func tick(at time.Duration) step                 { return step{at: at, tick: true} }
func flush(at time.Duration) step                { return step{at: at, flush: true} }
func names(cs []Claim) (out []string) {
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return
}
func claimNames(o kube.Objects) (out []string) {
	for _, c := range o.NodeClaims {
		out = append(out, c.Name)
	}
	return
}

// fakeServer is the test's API server: the objects after every step.
type fakeServer struct {
	pods   []corev1.Pod
	nodes  []*corev1.Node
	claims []*karpv1.NodeClaim
}

func (s *fakeServer) apply(c Change) {
	switch o := c.New.(type) {
	case *karpv1.NodeClaim:
		s.claims = upsert(s.claims, o, func(x *karpv1.NodeClaim) bool { return x.Name == o.Name })
	case *corev1.Node:
		s.nodes = upsert(s.nodes, o, func(x *corev1.Node) bool { return x.Name == o.Name })
	case nil:
		switch o := c.Old.(type) {
		case *karpv1.NodeClaim:
			s.claims = slices.DeleteFunc(s.claims, func(x *karpv1.NodeClaim) bool { return x.Name == o.Name })
		case *corev1.Node:
			s.nodes = slices.DeleteFunc(s.nodes, func(x *corev1.Node) bool { return x.Name == o.Name })
		}
	}
}

func upsert[T any](s []T, v T, same func(T) bool) []T {
	if i := slices.IndexFunc(s, same); i >= 0 {
		s[i] = v
		return s
	}
	return append(s, v)
}

func (s *fakeServer) objects() kube.Objects {
	o := kube.Objects{Pods: slices.Clone(s.pods)}
	for _, n := range s.nodes {
		o.Nodes = append(o.Nodes, *n)
	}
	for _, c := range s.claims {
		o.NodeClaims = append(o.NodeClaims, *c)
	}
	return o
}

// want is what a test checks of an event.
type want struct {
	typ        Type
	start, end time.Duration
	launched   []string
	removed    []string
	kept       []string
	unpriced   int
	reason     string
	pending    int
	snapClaims []string // the NodeClaims of the snapshot nodeplan decided on
	diff       instancetypes.Price
	unknown    bool
}

// maxWindow adds a NodeClaim every 0.9 s for 9.9 s, then r1 at 10.8 s,
// and ticks a second later.
func maxWindow() []step {
	var out []step
	for i := range 12 {
		out = append(out, add(time.Duration(i)*900*time.Millisecond, claim(fmt.Sprint("m", i), "m5.large")))
	}
	return append(out, add(10800*time.Millisecond, claim("r1", "m5.large")), tick(11800*time.Millisecond))
}

func TestAccountant(t *testing.T) {
	old1 := onNode(claim("old-1", "m5.xlarge"), "n1")
	old2 := onNode(claim("old-2", "m5.large"), "n2")
	n1 := node("n1")
	a, b, c := claim("a", "m5.large"), claim("b", "m5.large"), claim("c", "m5.xlarge")
	bare := claim("bare", "")
	r1 := claim("r1", "m5.large")
	expiring := next(onNode(claim("old-3", "m5.large"), "n3"), func(nc *karpv1.NodeClaim) {
		day := 24 * time.Hour
		nc.CreationTimestamp, nc.Spec.ExpireAfter.Duration = metav1.Time{Time: t0.Add(-day)}, &day
	})
	static := nextNode(node("mng-1"), func(n *corev1.Node) { // a managed node group's: no NodeClaim, no karpenter.sh/nodepool
		n.Labels = map[string]string{"eks.amazonaws.com/nodegroup": "system", "node.kubernetes.io/instance-type": "m5.large"}
	})
	tests := []struct {
		name   string
		start  []*karpv1.NodeClaim
		nodes  []*corev1.Node
		steps  []step
		want   []want
		totals Totals
		check  func(t *testing.T, f *fake)
	}{{
		name:  "one batch",
		steps: []step{add(0, a), add(500*time.Millisecond, b), tick(1400 * time.Millisecond), tick(1500 * time.Millisecond)},
		want: []want{{typ: Provisioning, end: 1500 * time.Millisecond, launched: []string{"a", "b"}, pending: 2,
			snapClaims: []string{}, diff: usd(0.192) - usd(0.1)}},
		totals: Totals{Events: [2]int{1, 0}, Pods: 2, Placed: 2, Karpenter: Side{Launched: 2, Change: usd(0.192)},
			Nodeplan: Side{Launched: 1, Change: usd(0.1)}, Difference: usd(0.092)},
	}, {
		name:  "two batches",
		steps: []step{add(0, a), tick(time.Second), add(3*time.Second, b), add(3500*time.Millisecond, c), tick(4500 * time.Millisecond)},
		want: []want{
			{typ: Provisioning, end: time.Second, launched: []string{"a"}, pending: 2, snapClaims: []string{}, diff: usd(0.096) - usd(0.1)},
			{typ: Provisioning, start: 3 * time.Second, end: 4500 * time.Millisecond, launched: []string{"b", "c"}, pending: 2,
				snapClaims: []string{"a"}, diff: usd(0.288) - usd(0.1)}},
		totals: Totals{Events: [2]int{2, 0}, Pods: 2, Placed: 2, Karpenter: Side{Launched: 3, Change: usd(0.384)},
			Nodeplan: Side{Launched: 2, Change: usd(0.2)}, Difference: usd(0.096) + usd(0.288) - usd(0.2)},
	}, {
		name:  "batch max window",
		steps: maxWindow(),
		want: []want{
			{typ: Provisioning, end: 10800 * time.Millisecond, launched: []string{"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11"},
				pending: 2, snapClaims: []string{}, diff: 12*usd(0.096) - usd(0.1)},
			{typ: Provisioning, start: 10800 * time.Millisecond, end: 11800 * time.Millisecond, launched: []string{"r1"}, pending: 2,
				snapClaims: []string{"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11"}, diff: usd(0.096) - usd(0.1)}},
		totals: Totals{Events: [2]int{2, 0}, Pods: 2, Placed: 2, Karpenter: Side{Launched: 13, Change: 13 * usd(0.096)},
			Nodeplan: Side{Launched: 2, Change: usd(0.2)}, Difference: 13*usd(0.096) - usd(0.2)},
	}, {
		name: "unresolved offering",
		steps: []step{add(0, a), add(100*time.Millisecond, bare), tick(5 * time.Second), tick(1100*time.Millisecond + 2*time.Minute - 1),
			tick(1100*time.Millisecond + 2*time.Minute)},
		want: []want{{typ: Provisioning, end: 1100*time.Millisecond + 2*time.Minute, launched: []string{"a", "bare"}, unpriced: 1,
			pending: 2, snapClaims: []string{}, unknown: true}},
		totals: Totals{Events: [2]int{1, 0}, Pods: 2, Placed: 2, Karpenter: Side{Launched: 2, Unpriced: 1, Change: usd(0.096)},
			Nodeplan: Side{Launched: 1, Change: usd(0.1)}, Unknown: 1},
	}, {
		name: "offering resolved late",
		steps: []step{add(0, bare), tick(5 * time.Second),
			update(30*time.Second, bare, next(bare, func(nc *karpv1.NodeClaim) { nc.Labels = claim("bare", "m5.xlarge").Labels })),
			tick(30 * time.Second)},
		want: []want{{typ: Provisioning, end: 30 * time.Second, launched: []string{"bare"}, pending: 2, snapClaims: []string{},
			diff: usd(0.192) - usd(0.1)}},
		totals: Totals{Events: [2]int{1, 0}, Pods: 2, Placed: 2, Karpenter: Side{Launched: 1, Change: usd(0.192)},
			Nodeplan: Side{Launched: 1, Change: usd(0.1)}, Difference: usd(0.092)},
	}, {
		name:  "replacement",
		start: []*karpv1.NodeClaim{old1, old2},
		nodes: []*corev1.Node{n1},
		steps: []step{update(0, n1, nextNode(n1, func(n *corev1.Node) { n.Spec.Taints = []corev1.Taint{karpv1.DisruptedNoScheduleTaint} })),
			update(10*time.Millisecond, old1, next(old1, marked)),
			add(time.Second, r1), tick(30 * time.Second),
			update(90*time.Second, nil, next(next(old1, marked), deleting)), tick(91 * time.Second)},
		want: []want{{typ: Disruption, end: 91 * time.Second, launched: []string{"r1"}, removed: []string{"old-1"},
			reason: "Underutilized", snapClaims: []string{"old-1", "old-2"}, diff: usd(0.096) - usd(0.192) + usd(0.05)}},
		totals: Totals{Events: [2]int{0, 1}, Karpenter: Side{Launched: 1, Removed: 1, Change: usd(0.096) - usd(0.192)},
			Nodeplan: Side{Removed: 1, Change: -usd(0.05)}, Difference: usd(0.096) - usd(0.192) + usd(0.05)},
		check: func(t *testing.T, f *fake) { // the snapshot before the first mark, decided at its instant
			assert.Equal(t, []time.Time{t0}, f.nows)
			assert.Empty(t, f.snaps[0].Nodes[0].Spec.Taints)
			assert.Empty(t, f.snaps[0].NodeClaims[0].Status.Conditions)
		},
	}, {
		name:  "provisioning while a disruption waits",
		start: []*karpv1.NodeClaim{old1, old2},
		steps: []step{update(0, old1, next(old1, marked)), add(500*time.Millisecond, r1), add(30*time.Second, c), tick(31 * time.Second),
			update(60*time.Second, nil, next(next(old1, marked), deleting)), tick(61 * time.Second)},
		want: []want{
			{typ: Provisioning, start: 30 * time.Second, end: 31 * time.Second, launched: []string{"c"}, pending: 2,
				snapClaims: []string{"old-1", "old-2", "r1"}, diff: usd(0.192) - usd(0.1)},
			{typ: Disruption, end: 61 * time.Second, launched: []string{"r1"}, removed: []string{"old-1"},
				reason: "Underutilized", snapClaims: []string{"old-1", "old-2"}, diff: usd(0.096) - usd(0.192) + usd(0.05)}},
		totals: Totals{Events: [2]int{1, 1}, Pods: 2, Placed: 2, Karpenter: Side{Launched: 2, Removed: 1, Change: usd(0.096)},
			Nodeplan: Side{Launched: 1, Removed: 1, Change: usd(0.05)}, Difference: usd(0.192) - usd(0.1) + usd(0.096) - usd(0.192) + usd(0.05)},
	}, {
		name:  "provisioning shortly after a mark",
		start: []*karpv1.NodeClaim{old1, old2},
		steps: []step{update(0, old1, next(old1, marked)), add(200*time.Millisecond, r1), add(5*time.Second, c), tick(7 * time.Second),
			update(60*time.Second, nil, next(next(old1, marked), deleting)), add(60500*time.Millisecond, a), tick(62 * time.Second)},
		want: []want{
			{typ: Provisioning, start: 5 * time.Second, end: 7 * time.Second, launched: []string{"c"}, pending: 2,
				snapClaims: []string{"old-1", "old-2", "r1"}, diff: usd(0.192) - usd(0.1)},
			{typ: Provisioning, start: 60500 * time.Millisecond, end: 62 * time.Second, launched: []string{"a"}, pending: 2,
				snapClaims: []string{"old-1", "old-2", "r1", "c"}, diff: usd(0.096) - usd(0.1)},
			{typ: Disruption, end: 62 * time.Second, launched: []string{"r1"}, removed: []string{"old-1"},
				reason: "Underutilized", snapClaims: []string{"old-1", "old-2"}, diff: usd(0.096) - usd(0.192) + usd(0.05)}},
		totals: Totals{Events: [2]int{2, 1}, Pods: 2, Placed: 2, Karpenter: Side{Launched: 3, Removed: 1, Change: usd(0.192)},
			Nodeplan: Side{Launched: 2, Removed: 1, Change: usd(0.15)}, Difference: usd(0.192) - usd(0.1) + usd(0.096) - usd(0.1) + usd(0.096) - usd(0.192) + usd(0.05)},
	}, {
		name:  "marked and never deleted",
		start: []*karpv1.NodeClaim{old1, old2},
		steps: []step{update(0, old1, next(old1, marked)), add(500*time.Millisecond, r1), tick(15*time.Minute - 1), tick(15 * time.Minute)},
		want: []want{{typ: Disruption, end: 15 * time.Minute, launched: []string{"r1"}, kept: []string{"old-1"},
			reason: "Underutilized", snapClaims: []string{"old-1", "old-2"}, diff: usd(0.096) + usd(0.05)}},
		totals: Totals{Events: [2]int{0, 1}, Karpenter: Side{Launched: 1, Change: usd(0.096)},
			Nodeplan: Side{Removed: 1, Change: -usd(0.05)}, Difference: usd(0.096) + usd(0.05)},
	}, {
		name:  "deletion only",
		start: []*karpv1.NodeClaim{old1, old2},
		nodes: []*corev1.Node{n1},
		steps: []step{gone(0, old1), update(500*time.Millisecond, n1, nextNode(n1, func(n *corev1.Node) { n.DeletionTimestamp = &metav1.Time{Time: t0} })),
			tick(900 * time.Millisecond), tick(time.Second), gone(100*time.Second, n1), tick(200 * time.Second)},
		want: []want{{typ: Disruption, end: time.Second, removed: []string{"old-1"}, snapClaims: []string{"old-1", "old-2"},
			diff: usd(0.05) - usd(0.192)}},
		totals: Totals{Events: [2]int{0, 1}, Karpenter: Side{Removed: 1, Change: -usd(0.192)},
			Nodeplan: Side{Removed: 1, Change: -usd(0.05)}, Difference: usd(0.05) - usd(0.192)},
	}, {
		name:  "claims present at start are no event",
		start: []*karpv1.NodeClaim{old1, old2},
		steps: []step{add(0, old1), update(time.Second, old2, next(old2, func(nc *karpv1.NodeClaim) { nc.Labels["x"] = "y" })),
			update(2*time.Second, old1, old1), tick(time.Minute), flush(time.Hour)},
	}, {
		name:  "a launch that failed is no disruption",
		steps: []step{add(0, bare), gone(500*time.Millisecond, bare), tick(2 * time.Second)},
		want: []want{{typ: Provisioning, end: 2 * time.Second, launched: []string{"bare"}, pending: 2,
			snapClaims: []string{}, diff: -usd(0.1)}},
		totals: Totals{Events: [2]int{1, 0}, Pods: 2, Placed: 2,
			Nodeplan: Side{Launched: 1, Change: usd(0.1)}, Difference: -usd(0.1)},
	}, {
		name:  "a mark taken back is no event",
		start: []*karpv1.NodeClaim{old1},
		steps: []step{update(0, old1, next(old1, marked)), update(time.Second, next(old1, marked), next(next(old1, marked), func(nc *karpv1.NodeClaim) { nc.Status.Conditions = nil })),
			tick(time.Minute)},
	}, {
		name:  "a claim deleted past its expireAfter expired",
		start: []*karpv1.NodeClaim{old1, old2, expiring},
		steps: []step{gone(0, expiring), tick(time.Second)},
		want: []want{{typ: Disruption, end: time.Second, removed: []string{"old-3"}, reason: "Expired",
			snapClaims: []string{"old-1", "old-2", "old-3"}, diff: -usd(0.096)}},
		totals: Totals{Events: [2]int{0, 1}, Karpenter: Side{Removed: 1, Change: -usd(0.096)}, Difference: -usd(0.096)},
	}, {
		name:  "a node Karpenter does not manage is no event",
		nodes: []*corev1.Node{static},
		steps: []step{update(0, static, nextNode(static, func(n *corev1.Node) { n.Spec.Taints = []corev1.Taint{karpv1.DisruptedNoScheduleTaint} })),
			update(time.Second, static, nextNode(static, func(n *corev1.Node) { n.DeletionTimestamp = &metav1.Time{Time: t0} })),
			gone(2*time.Second, static), tick(time.Minute), flush(time.Hour)},
	}, {
		name:  "flush reports the open batch",
		steps: []step{add(0, bare), tick(time.Second), flush(2 * time.Second)},
		want: []want{{typ: Provisioning, end: 2 * time.Second, launched: []string{"bare"}, unpriced: 1, pending: 2,
			snapClaims: []string{}, unknown: true}},
		totals: Totals{Events: [2]int{1, 0}, Pods: 2, Placed: 2, Karpenter: Side{Launched: 1, Unpriced: 1},
			Nodeplan: Side{Launched: 1, Change: usd(0.1)}, Unknown: 1},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &fakeServer{pods: []corev1.Pod{pending("p1"), pending("p2")}, claims: slices.Clone(tc.start), nodes: slices.Clone(tc.nodes)}
			f := &fake{}
			acc := New(f, Options{})
			acc.Start(s.objects())
			var got []Event
			for _, st := range tc.steps {
				now := t0.Add(st.at)
				switch {
				case st.tick:
					got = append(got, acc.Tick(now)...)
				case st.flush:
					got = append(got, acc.Flush(now)...)
				default:
					s.apply(st.c)
					calls := 0
					evs, err := acc.Observe(now, st.c, func() kube.Objects { calls++; return s.objects() })
					require.NoError(t, err)
					require.LessOrEqual(t, calls, 1)
					got = append(got, evs...)
				}
			}
			require.Len(t, got, len(tc.want))
			require.Len(t, f.snaps, len(tc.want))
			for i, w := range tc.want {
				e := got[i]
				assert.Equal(t, i+1, e.Seq)
				assert.Equal(t, w.typ, e.Type)
				assert.Equal(t, t0.Add(w.start), e.Start, "start")
				assert.Equal(t, t0.Add(w.end), e.End, "end")
				assert.Equal(t, w.launched, names(e.Karpenter.Launched), "launched")
				assert.Equal(t, w.removed, names(e.Karpenter.Removed), "removed")
				assert.Equal(t, w.kept, e.Karpenter.Kept, "kept")
				assert.Equal(t, w.reason, e.Karpenter.Reason, "reason")
				assert.Equal(t, w.pending, e.Nodeplan.Pending, "pending")
				assert.Equal(t, w.snapClaims, append([]string{}, claimNames(f.snaps[i])...), "snapshot claims")
				_, unpriced := e.Karpenter.Change()
				assert.Equal(t, w.unpriced, unpriced, "unpriced")
				d, ok := e.Difference()
				assert.Equal(t, !w.unknown, ok, "difference known")
				if ok {
					assert.Equal(t, w.diff, d, "difference")
				}
			}
			assert.Equal(t, tc.totals, counts(acc.Totals()))
			if tc.check != nil {
				tc.check(t, f)
			}
		})
	}
}

// counts is t without the pods it counted, to compare with a literal.
func counts(t Totals) Totals {
	t.pods = nil
	return t
}

func TestTypeString(t *testing.T) {
	assert.Equal(t, []string{"Provisioning", "Disruption", "Type(7)"}, []string{Provisioning.String(), Disruption.String(), Type(7).String()})
}

// TestAccountantForgetsFailedLaunches: a NodeClaim the API deleted while
// its batch was open is forgotten once the batch is reported; one still
// deleting (a finalizer) is kept, so that its last update is no new
// NodeClaim.
func TestAccountantForgetsFailedLaunches(t *testing.T) {
	a, b := claim("a", ""), claim("b", "")
	acc := New(&fake{}, Options{})
	var got []Event
	for _, st := range []step{add(0, a), add(100*time.Millisecond, b), gone(200*time.Millisecond, a),
		update(300*time.Millisecond, b, next(b, deleting)), tick(2 * time.Second),
		update(3*time.Second, next(b, deleting), next(next(b, deleting), func(nc *karpv1.NodeClaim) { nc.Finalizers = nil })),
		tick(10 * time.Second)} {
		if st.tick {
			got = append(got, acc.Tick(t0.Add(st.at))...)
			continue
		}
		evs, err := acc.Observe(t0.Add(st.at), st.c, func() kube.Objects { return kube.Objects{} })
		require.NoError(t, err)
		got = append(got, evs...)
	}
	require.Len(t, got, 1)
	assert.Equal(t, []string{"a", "b"}, names(got[0].Karpenter.Launched))
	assert.Equal(t, []string{"b"}, slices.Sorted(maps.Keys(acc.claims)))
}
