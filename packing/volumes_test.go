package packing_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

const (
	csiDriver = "fake.csi.provider" // Karpenter's scheduling suite's csiProvider
	ebsDriver = "ebs.csi.aws.com"
)

// huge is the one instance type of Karpenter's volume-limit rows: 1024
// cpu and 1024 pods, so only the attach limit can split the pods.
var huge = []typeSpec{{name: "huge", cpu: 1024, memGi: 1024, pods: 1024}}

// volumes sets the pod's volumes: pairs of driver and claim name, in
// namespace default.
func volumes(kv ...string) podOpt {
	return func(s *podSpec) {
		vols := ownVolumes(s)
		for i := 0; i+1 < len(kv); i += 2 {
			vols.Claims = append(vols.Claims, packing.Volume{Driver: kv[i], Claim: "default/" + kv[i+1]})
		}
	}
}

// ownVolumes returns the pod's volumes, new ones when it has none; the
// spec's pod is the test's own, so they may be changed.
func ownVolumes(s *podSpec) *packing.Volumes {
	if s.p.Volumes == nil {
		s.p.Volumes = &packing.Volumes{}
	}
	return s.p.Volumes
}

// limitedNode is an in-flight node of the huge type in zone 1, with attach
// limits, holding pods.
func limitedNode(name string, limits map[string]int32, pods ...packing.Pod) packing.Node {
	t := fakeType(huge[0])
	return packing.Node{Name: name, NodePool: "default", InstanceType: "huge", Zone: zone1,
		Allocatable: t.Capacity.Sub(t.Overhead), Pods: pods, VolumeLimits: limits}
}

// claimPods are n pods each mounting claims a-i and b-i of driver.
func claimPods(n int, driver string) []packing.Pod {
	out := make([]packing.Pod, n)
	for i := range out {
		out[i] = mkPod(fmt.Sprintf("p-%d", i), term(in(requirements.LabelZone, zone1)),
			volumes(driver, fmt.Sprintf("a-%d", i), driver, fmt.Sprintf("b-%d", i)))
	}
	return out
}

// bindings counts the pods the plan binds to existing nodes.
func bindings(n int) func(*testing.T, outcome) {
	return func(t *testing.T, o outcome) { assert.Len(t, o.plan.Bindings, n) }
}

// reasonHas asserts an unschedulable pod's reason kind and that its
// message holds each of parts.
func reasonHas(pod string, kind packing.ReasonKind, parts ...string) func(*testing.T, outcome) {
	return func(t *testing.T, o outcome) {
		r, ok := o.reason(pod)
		require.True(t, ok, "pod %s is placed", pod)
		assert.Equal(t, kind, r.Kind, r.Message)
		for _, part := range parts {
			assert.Contains(t, r.Message, part)
		}
	}
}

// TestConformanceAttachLimits restates the CSI volume-limit rows of
// Karpenter v1.14.1's scheduling suite
// (controllers/provisioning/scheduling/suite_test.go) and the rule of
// scheduling/volumeusage.go: a pending pod joins an existing or in-flight
// node only while, per limited driver, the distinct claims of the node's
// pods and its own stay within the CSINode's allocatable count; new
// NodeClaims have no limit.
func TestConformanceAttachLimits(t *testing.T) {
	limit := func(d string, n int32) map[string]int32 { return map[string]int32{d: n} }
	runRows(t, []row{
		// suite_test.go:2903: count 10, 6 pods × 2 claims: the in-flight node takes 5, a second node the sixth.
		{name: "count 10 takes five pods of two claims", types: huge, nodes: []packing.Node{limitedNode("n1", limit(csiDriver, 10))},
			pods: claimPods(6, csiDriver), claims: 1, check: bindings(5)},
		// suite_test.go:2955: 100 pods of one claim count once.
		{name: "a shared claim counts once", types: huge, nodes: []packing.Node{limitedNode("n1", limit(csiDriver, 10))},
			pods: mkPods("p", 100, volumes(csiDriver, "my-claim")), claims: 0, check: bindings(100)},
		// suite_test.go:3009: an NFS volume has no CSI driver: not counted (here even against a limit of 0).
		{name: "an NFS volume is not counted", types: huge, nodes: []packing.Node{limitedNode("n1", limit(csiDriver, 0))},
			pods: mkPods("p", 5, volumes("", "my-claim", "", "my-claim")), claims: 0, check: bindings(5)},
		// suite_test.go:3899: CSI migration, limit 1 of ebs.csi.aws.com held by the first pod's claim: the next pod needs a new node.
		{name: "a node at its limit takes no new claim", types: huge,
			nodes: []packing.Node{limitedNode("n1", limit(ebsDriver, 1), mkPod("first", volumes(ebsDriver, "pvc-1")))},
			pods:  []packing.Pod{mkPod("second", volumes(ebsDriver, "pvc-2"))}, claims: 1, check: bindings(0)},
		// The same node takes a pod of the claim it holds (the union stays at 1).
		{name: "a node at its limit takes a pod of a claim it holds", types: huge,
			nodes: []packing.Node{limitedNode("n1", limit(ebsDriver, 1), mkPod("first", volumes(ebsDriver, "pvc-1")))},
			pods:  []packing.Pod{mkPod("second", volumes(ebsDriver, "pvc-1"))}, claims: 0, check: bindings(1)},
		// volumeusage.go:201-208 checks the union of every driver: a node already over a limit (count nil reads as 0,
		// cluster.go:845-857) takes no pending pod, even one without volumes.
		{name: "a node already over a limit takes no pod", types: huge,
			nodes: []packing.Node{limitedNode("n1", limit(ebsDriver, 0), mkPod("first", volumes(ebsDriver, "pvc-1")))},
			pods:  []packing.Pod{mkPod("plain")}, claims: 1, check: bindings(0)},
		// A driver the CSINode does not limit (allocatable nil) has no limit.
		{name: "an unlimited driver", types: huge, nodes: []packing.Node{limitedNode("n1", limit(ebsDriver, 0))},
			pods: claimPods(3, csiDriver), claims: 0, check: bindings(3)},
		// No CSINode (VolumeLimits nil): no limit.
		{name: "no CSINode", types: huge, nodes: []packing.Node{limitedNode("n1", nil)},
			pods: claimPods(6, csiDriver), claims: 0, check: bindings(6)},
		// One pod mounting one claim twice counts it once.
		{name: "a claim mounted twice by one pod", types: huge, nodes: []packing.Node{limitedNode("n1", limit(csiDriver, 1))},
			pods: []packing.Pod{mkPod("p", volumes(csiDriver, "c", csiDriver, "c"))}, claims: 0, check: bindings(1)},
		// When no NodePool can launch, the attach limit is the reason, naming node, driver, count and limit.
		{name: "the attach limit as the reason", types: huge, noPools: true,
			nodes: []packing.Node{limitedNode("n1", limit(csiDriver, 2), mkPod("first", volumes(csiDriver, "c0")))},
			pods:  []packing.Pod{mkPod("p", volumes(csiDriver, "c1", csiDriver, "c2"))}, unsched: []string{"p"}, claims: 0,
			check: reasonHas("p", packing.AttachLimit, "node n1 would attach 3 volumes of CSI driver "+csiDriver+", over its limit of 2", "no NodePool")},
	})
}

// TestInvalidVolumes: a pod that mounts a claim Karpenter's
// ValidatePersistentVolumeClaims rejects is unschedulable with its reason,
// while the other pods are planned (provisioning/suite_test.go:1995 and
// :2066-2090).
func TestInvalidVolumes(t *testing.T) {
	bad := func(s *podSpec) {
		vols := ownVolumes(s)
		vols.Claims = append(vols.Claims, packing.Volume{Claim: "default/gone", Invalid: "PersistentVolumeClaim default/gone is not in the input"})
	}
	runRows(t, []row{
		{name: "invalid claim", pods: []packing.Pod{mkPod("bad", bad), mkPod("good")}, unsched: []string{"bad"}, claims: 1,
			check: reasonHas("bad", packing.InvalidVolume, "pod default/bad: Karpenter provisions no node for it: PersistentVolumeClaim default/gone is not in the input")},
		{name: "not on an existing node either", nodes: []packing.Node{mkNode("n1", "default", "default-instance-type", zone1)},
			pods: []packing.Pod{mkPod("bad", bad)}, unsched: []string{"bad"}, claims: 0},
		// K/controllers/disruption/helpers.go:72-98: only pending pods (GetPendingPods) have their claims
		// validated; the pods of consolidation candidates are appended unvalidated, so a displaced pod moves.
		{name: "a displaced pod's claims are not checked", nodes: []packing.Node{mkNode("n1", "default", "default-instance-type", zone1)},
			pods: []packing.Pod{mkPod("moved", bad, displaced)}, claims: 0, check: bindings(1)},
	})
}

// displaced marks a pod as one a consolidation simulation moves.
func displaced(s *podSpec) { s.p.Displaced = true }

// TestVerifyAttachLimits: verify.Plan reports a binding that breaks a
// node's attach limit, and a placed pod with an invalid volume.
func TestVerifyAttachLimits(t *testing.T) {
	node := limitedNode("n1", map[string]int32{csiDriver: 1}, mkPod("first", volumes(csiDriver, "c0")))
	p := packing.Problem{Catalog: buildCatalog(t, huge), NodePools: []packing.NodePool{pool("default")}, Nodes: []packing.Node{node},
		Pods: []packing.Pod{mkPod("p", volumes(csiDriver, "c1")), mkPod("q", func(s *podSpec) {
			s.p.Volumes = &packing.Volumes{Claims: []packing.Volume{{Claim: "default/x", Invalid: "PersistentVolumeClaim default/x is being deleted"}}}
		})}}
	plan := packing.Plan{Bindings: []packing.Binding{{Pod: 0, Node: "n1"}, {Pod: 1, Node: "n1"}}, Order: []int{0, 1}}
	var rules []verify.Rule
	for _, v := range verify.Plan(p, plan) {
		rules = append(rules, v.Rule)
	}
	assert.Equal(t, []verify.Rule{verify.RuleAttachLimit, verify.RuleAttachLimit, verify.RuleInvalidVolume}, rules)
	assert.Empty(t, verify.Moves(p, packing.Plan{Bindings: []packing.Binding{{Pod: 0, Node: "n1"}}, Order: []int{0},
		Unschedulable: []packing.Unschedulable{{Pod: 1, Reason: packing.Reason{Message: "x"}}}})[1:], "only the attach limit")
	// A displaced pod's claims are not validated (K/controllers/disruption/helpers.go:72-98): placing it is no violation.
	p.Pods[1].Displaced = true
	rules = nil
	for _, v := range verify.Plan(p, plan) {
		rules = append(rules, v.Rule)
	}
	assert.Equal(t, []verify.Rule{verify.RuleAttachLimit, verify.RuleAttachLimit}, rules)
}

// TestValidateVolumes: a counted volume without a claim and a negative or
// unnamed limit are invalid problems naming the field.
func TestValidateVolumes(t *testing.T) {
	p := packing.Problem{Catalog: buildCatalog(t, huge),
		Pods:  []packing.Pod{mkPod("p", func(s *podSpec) { s.p.Volumes = &packing.Volumes{Claims: []packing.Volume{{Driver: csiDriver}}} })},
		Nodes: []packing.Node{limitedNode("n1", map[string]int32{csiDriver: -1, "": 3})}}
	err := p.Validate()
	require.ErrorIs(t, err, packing.ErrInvalidProblem)
	for _, part := range []string{"volumes.claims[0].claim", `volumeLimits["fake.csi.provider"]`, "volumeLimits: names an empty driver"} {
		assert.Contains(t, err.Error(), part)
	}
}

// withVolumes decorates a generated problem with attach limits on its
// nodes, claims on its pods, bound and pending, and zone requirements of
// their volumes on a third of the pending pods, from seed: few drivers and
// claims, so that limits bind and claims are shared.
func withVolumes(p packing.Problem, seed uint64) packing.Problem {
	p = problemgen.Clone(p)
	g := rand.New(rand.NewPCG(seed, 18))
	drivers := []string{csiDriver, ebsDriver, ""}
	vols := func() []packing.Volume {
		out := make([]packing.Volume, g.IntN(4))
		for k := range out {
			out[k] = packing.Volume{Driver: drivers[g.IntN(len(drivers))], Claim: fmt.Sprintf("ns/c%d", g.IntN(12))}
		}
		return out
	}
	for i := range p.Nodes {
		if g.IntN(4) > 0 {
			p.Nodes[i].VolumeLimits = map[string]int32{csiDriver: int32(g.IntN(5)), ebsDriver: int32(g.IntN(3))}
		}
		for j := range p.Nodes[i].Pods {
			p.Nodes[i].Pods[j].Volumes = &packing.Volumes{Claims: vols()}
		}
	}
	zones := catalogZones(p)
	for i := range p.Pods {
		p.Pods[i].Volumes = &packing.Volumes{Claims: vols()}
		if len(zones) > 0 && g.IntN(3) == 0 {
			for range 1 + g.IntN(2) {
				z := requirements.MustNew(requirements.LabelZone, requirements.In, zones[g.IntN(len(zones))])
				p.Pods[i].Volumes.Requirements = append(p.Pods[i].Volumes.Requirements, requirements.NewSet(z))
			}
		}
	}
	return p
}

// catalogZones are the zones of p's catalog's offerings, sorted.
func catalogZones(p packing.Problem) []string {
	seen := map[string]bool{}
	var out []string
	if p.Catalog == nil {
		return nil
	}
	for _, t := range p.Catalog.Types() {
		for _, o := range t.Offerings {
			if !seen[o.Zone] {
				seen[o.Zone] = true
				out = append(out, o.Zone)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestPropertyAttachLimits: on generated problems with volumes, Solve's
// plans break no attach limit and keep the volumes' requirements
// (verify.Plan is empty, its topology replay counting spread domains by
// the pods' own affinity), and verify.Plan
// flags a plan that binds a pod with one claim more than a limited node
// has room for.
func TestPropertyAttachLimits(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(1818)
	params.MinSuccessfulTests = max(20, propertyCount(t)/10)
	props := gopter.NewProperties(params)
	size := problemgen.Size{Pods: 20, Types: 10, Nodes: 5, BoundPods: 4}
	props.Property("Solve never breaks an attach limit", prop.ForAll(func(seed uint64) string {
		p := withVolumes(problemgen.Generate(seed, size), seed)
		if _, err := verified(p, searched); isFailure(err) {
			return fmt.Sprintf("seed %d: %v", seed, err)
		}
		return ""
	}, gen.UInt64()))
	props.Property("verify flags a broken attach limit", prop.ForAll(func(seed uint64) string {
		p := withVolumes(problemgen.Generate(seed, size), seed)
		for i, n := range p.Nodes {
			if n.VolumeLimits == nil || n.MarkedForDeletion {
				continue
			}
			pod := packing.Pod{Namespace: "vol", Name: "breaker", Volumes: &packing.Volumes{}}
			for k := range int(n.VolumeLimits[csiDriver]) + len(n.Pods)*4 + 1 {
				pod.Volumes.Claims = append(pod.Volumes.Claims, packing.Volume{Driver: csiDriver, Claim: fmt.Sprintf("vol/new-%d", k)})
			}
			q := packing.Problem{Catalog: p.Catalog, NodePools: p.NodePools, Nodes: p.Nodes, Pods: []packing.Pod{pod}}
			plan := packing.Plan{Bindings: []packing.Binding{{Pod: 0, Node: p.Nodes[i].Name}}, Order: []int{0}}
			for _, v := range verify.Plan(q, plan) {
				if v.Rule == verify.RuleAttachLimit {
					return ""
				}
			}
			return fmt.Sprintf("seed %d: no AttachLimit violation for node %s", seed, n.Name)
		}
		return ""
	}, gen.UInt64()))
	props.TestingRun(t)
}

// BenchmarkAttachLimits solves 60 pods against two existing nodes:
// nodes=limited/volumes=true, pods with claims against nodes with CSI
// attach limits; nodes=limited/volumes=false, the same pods without
// volumes against the same limited nodes (each node still checks its
// limits); nodes=unlimited/volumes=false, those pods against nodes without
// VolumeLimits, the path a cluster without CSI limits takes, whose cost
// must not grow.
func BenchmarkAttachLimits(b *testing.B) {
	variants := []struct {
		limited, withVols bool
	}{{true, true}, {true, false}, {false, false}}
	for _, vr := range variants {
		name := fmt.Sprintf("nodes=%s/volumes=%t", map[bool]string{true: "limited", false: "unlimited"}[vr.limited], vr.withVols)
		b.Run(name, func(b *testing.B) {
			pods := claimPods(60, csiDriver)
			if !vr.withVols {
				for i := range pods {
					pods[i].Volumes = nil
				}
			}
			limits := func(n int32) map[string]int32 {
				if !vr.limited {
					return nil
				}
				return map[string]int32{csiDriver: n}
			}
			nodes := []packing.Node{limitedNode("n1", limits(10)), limitedNode("n2", limits(24))}
			p := packing.Problem{Pods: pods, Nodes: nodes, NodePools: []packing.NodePool{pool("default")}, Catalog: buildCatalog(b, huge)}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := packing.Solve(p, packing.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// volReqs sets the pod's volume requirements: one alternative per
// expression list.
func volReqs(alts ...[]requirements.Expression) podOpt {
	return func(s *podSpec) {
		vols := ownVolumes(s)
		for _, exprs := range alts {
			vols.Requirements = append(vols.Requirements, requirements.MustParse(exprs...))
		}
	}
}

func exprs(e ...requirements.Expression) []requirements.Expression { return e }

// TestConformanceVolumeTopology restates the volume topology rows of
// Karpenter v1.14.1's scheduling suites with the volumes' requirements as
// Pod.Volumes.Requirements (package kube computes them from claims,
// volumes and classes): they bound where the pod goes, alternatives tried
// in order, but not the domains its topology spread counts.
func TestConformanceVolumeTopology(t *testing.T) {
	app := []string{"app", "x"}
	minThree := func(s *podSpec) {
		ts := spreadBy(requirements.LabelZone, 1, app...)
		ts.MinDomains = 3
		s.p.TopologySpread = append(s.p.TopologySpread, ts)
	}
	zoneNode := func(name, zone string) packing.Node {
		return mkNode(name, "default", "default-instance-type", zone, mkPod(name+"-p", podLabels(app...), minThree))
	}
	runRows(t, []row{
		// topology_test.go:3060: a pod with a zone-1 volume and minDomains 3 over pods 1/1/1 goes to zone-1; its
		// volume does not narrow the domains the spread counts.
		{name: "a volume does not narrow spread domains", nodes: []packing.Node{zoneNode("n1", zone1), zoneNode("n2", zone2), zoneNode("n3", zone3)},
			pods:   []packing.Pod{mkPod("vol", podLabels(app...), minThree, volReqs(exprs(in(requirements.LabelZone, zone1))))},
			claims: anyClaims, check: wantLabel("vol", requirements.LabelZone, zone1)},
		// scheduling/suite_test.go:3047: a volume of two zones, anti-affinity between the pods: one in each.
		{name: "a volume of two zones", pods: mkPods("p", 2, podLabels(app...), antiAffinity(podTerm(requirements.LabelZone, 0, app...)),
			volReqs(exprs(in(requirements.LabelZone, zone1)), exprs(in(requirements.LabelZone, zone2)))), claims: 2,
			check: func(t *testing.T, o outcome) {
				z0, _ := o.labelOf("p-00", requirements.LabelZone)
				z1, _ := o.labelOf("p-01", requirements.LabelZone)
				assert.ElementsMatch(t, []string{zone1, zone2}, []string{z0, z1})
			}},
		// scheduling/suite_test.go:3165: of the pruned alternatives {required, zone-2} and {optional, zone-1}, only the
		// second has an instance type.
		{name: "the first alternative that fits", types: fakeIts(5),
			pods: []packing.Pod{mkPod("p", volReqs(exprs(in(labelSpecial, "required"), in(requirements.LabelZone, zone2)),
				exprs(in(labelSpecial, "optional"), in(requirements.LabelZone, zone1))))}, claims: 1,
			check: func(t *testing.T, o outcome) {
				wantLabel("p", requirements.LabelZone, zone1)(t, o)
				wantLabel("p", labelSpecial, "optional")(t, o)
			}},
		// provisioning/suite_test.go:2138: class zones {2, 3} against the pod's zone 1.
		{name: "volume zones contradict the pod's", pods: []packing.Pod{mkPod("p", term(in(requirements.LabelZone, zone1)),
			volReqs(exprs(in(requirements.LabelZone, zone2, zone3))))}, unsched: []string{"p"}, claims: 0,
			check: reasonHas("p", packing.Incompatible, "the zones (or other node labels) its volumes allow contradict")},
		// provisioning/suite_test.go:2103: class zones {2, 3} ∩ pod zones {1, 3} → zone 3.
		{name: "volume zones meet the pod's", pods: []packing.Pod{mkPod("p", term(in(requirements.LabelZone, zone1, zone3)),
			volReqs(exprs(in(requirements.LabelZone, zone2, zone3))))}, claims: 1, check: wantLabel("p", requirements.LabelZone, zone3)},
		// An existing node outside the volume's zone is not used.
		{name: "an existing node outside the volume's zone", nodes: []packing.Node{mkNode("n1", "default", "default-instance-type", zone1)},
			pods: []packing.Pod{mkPod("p", volReqs(exprs(in(requirements.LabelZone, zone2))))}, claims: 1, check: bindings(0)},
	})
}
