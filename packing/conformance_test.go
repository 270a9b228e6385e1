package packing_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// The conformance tests restate behaviours of Karpenter v1.14.1's
// provisioning scheduler (its scheduling, topology, instance-selection and
// provisioning suites) as table rows over the same fake catalog. A row
// whose name says "invariant" asserts what Karpenter's test protects where
// nodeplan decides differently on purpose (see doc.go).

// row is one scenario and the outcome Karpenter expects.
type row struct {
	name    string
	types   []typeSpec         // nil: defaultTypes()
	pools   []packing.NodePool // nil: one pool "default" (unless noPools)
	noPools bool
	nodes   []packing.Node
	daemons []packing.DaemonSet
	pods    []packing.Pod
	opts    packing.Options
	unsched []string // names of the pods left out; nil: none
	claims  int      // number of new NodeClaims
	check   func(t *testing.T, o outcome)
}

func runRows(t *testing.T, rows []row) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			o := solveRow(t, r)
			assert.Equal(t, append([]string{}, r.unsched...), o.unscheduled(), "unschedulable pods")
			if r.claims != anyClaims {
				assert.Equal(t, r.claims, len(o.plan.NodeClaims), "new NodeClaims: %v", o.types())
			}
			assertAccounted(t, o)
			if r.check != nil {
				r.check(t, o)
			}
		})
	}
}

func solveRow(t *testing.T, r row) outcome {
	t.Helper()
	specs := r.types
	if specs == nil {
		specs = defaultTypes()
	}
	pools := r.pools
	if pools == nil && !r.noPools {
		pools = []packing.NodePool{pool("default")}
	}
	p := packing.Problem{Pods: r.pods, NodePools: pools, Catalog: buildCatalog(t, specs), Nodes: r.nodes, DaemonSets: r.daemons}
	plan, err := packing.Solve(p, r.opts)
	require.NoError(t, err)
	return newOutcome(p, plan)
}

// assertAccounted checks that every pod is placed exactly once or reported.
func assertAccounted(t *testing.T, o outcome) {
	t.Helper()
	seen := make([]int, len(o.prob.Pods))
	for _, b := range o.plan.Bindings {
		seen[b.Pod]++
	}
	for _, c := range o.plan.NodeClaims {
		for _, i := range c.Pods {
			seen[i]++
		}
	}
	for _, u := range o.plan.Unschedulable {
		seen[u.Pod]++
	}
	for i, n := range seen {
		assert.Equal(t, 1, n, "pod %s accounted %d times", o.byIx[i], n)
	}
}

// wantLabel asserts the label of wherever pod went.
func wantLabel(pod, key, value string) func(*testing.T, outcome) {
	return func(t *testing.T, o outcome) {
		got, ok := o.labelOf(pod, key)
		assert.True(t, ok, "pod %s has no %s", pod, key)
		assert.Equal(t, value, got, "pod %s %s", pod, key)
	}
}

// noLabel asserts that the node or claim of pod has no label key.
func noLabel(pod, key string) func(*testing.T, outcome) {
	return func(t *testing.T, o outcome) {
		got, ok := o.labelOf(pod, key)
		assert.False(t, ok, "pod %s is on a node with %s=%s", pod, key, got)
	}
}

// wantType asserts the instance type chosen for pod's claim.
func wantType(pod, typ string) func(*testing.T, outcome) {
	return wantLabel(pod, requirements.LabelInstanceType, typ)
}

// wantSkew asserts the sorted per-domain counts of pods with labels kv.
func wantSkew(key string, counts []int, kv ...string) func(*testing.T, outcome) {
	return func(t *testing.T, o outcome) {
		assert.Equal(t, counts, o.skew(key, kv...), "pods per %s", key)
	}
}

// all combines checks.
func all(checks ...func(*testing.T, outcome)) func(*testing.T, outcome) {
	return func(t *testing.T, o outcome) {
		for _, c := range checks {
			c(t, o)
		}
	}
}

var (
	plain = packing.Options{Strategy: packing.Plain}
	app   = []string{"app", "spread"}
)

func cpuPod(name, cpu string, opts ...podOpt) packing.Pod {
	return mkPod(name, append([]podOpt{req("cpu", cpu)}, opts...)...)
}

// --- requirements and labels -------------------------------------------------

func TestConformanceRequirements(t *testing.T) {
	team := pool("default", poolLabels("team", "a"))
	teamAB := pool("default", poolReq(in("team", "a", "b")))
	runRows(t, []row{
		{name: "unconstrained pod schedules and the node carries the NodePool label", pools: []packing.NodePool{team},
			pods: []packing.Pod{mkPod("p")}, claims: 1, check: wantLabel("p", "team", "a")},
		{name: "conflicting node selector on a NodePool label", pools: []packing.NodePool{team},
			pods: []packing.Pod{mkPod("p", nodeSelector("team", "b"))}, unsched: []string{"p"}},
		{name: "node selector on a key the NodePool does not define", pools: []packing.NodePool{team},
			pods: []packing.Pod{mkPod("p", nodeSelector("other", "x"))}, unsched: []string{"p"}},
		{name: "matching In requirement on a NodePool label", pools: []packing.NodePool{team},
			pods: []packing.Pod{mkPod("p", term(in("team", "a")))}, claims: 1},
		{name: "NotIn the NodePool label value conflicts", pools: []packing.NodePool{team},
			pods: []packing.Pod{mkPod("p", term(notIn("team", "a")))}, unsched: []string{"p"}},
		{name: "NodePool zone constraint is used", pools: []packing.NodePool{pool("default", poolReq(in(requirements.LabelZone, zone2)))},
			pods: []packing.Pod{mkPod("p")}, claims: 1, check: wantLabel("p", requirements.LabelZone, zone2)},
		{name: "node selector narrows NodePool zones", pools: []packing.NodePool{pool("default", poolReq(in(requirements.LabelZone, zone1, zone2)))},
			pods: []packing.Pod{mkPod("p", nodeSelector(requirements.LabelZone, zone2))}, claims: 1, check: wantLabel("p", requirements.LabelZone, zone2)},
		{name: "unknown zone in node selector", pods: []packing.Pod{mkPod("p", nodeSelector(requirements.LabelZone, "unknown"))},
			unsched: []string{"p"}},
		{name: "node selector outside NodePool zones", pools: []packing.NodePool{pool("default", poolReq(in(requirements.LabelZone, zone1)))},
			pods: []packing.Pod{mkPod("p", nodeSelector(requirements.LabelZone, zone2))}, unsched: []string{"p"}},
		{name: "Gt and Lt on a numeric instance label", pods: []packing.Pod{mkPod("p",
			term(bound(labelInteger, requirements.Gt, "3"), bound(labelInteger, requirements.Lt, "5")))}, claims: 1,
			check: all(wantType("p", "default-instance-type"), wantLabel("p", labelInteger, "4"))},
		{name: "Gte and Lte on a numeric instance label", pods: []packing.Pod{mkPod("p",
			term(bound(labelInteger, requirements.Gte, "16"), bound(labelInteger, requirements.Lte, "16")))}, claims: 1,
			check: wantType("p", "arm-instance-type")},
		{name: "incompatible preference with a required In on an unknown zone does not schedule", pods: []packing.Pod{mkPod("p",
			term(in(requirements.LabelZone, "unknown")), prefer(1, in(requirements.LabelZone, zone1)))}, unsched: []string{"p"}},
		{name: "preference conflicting with the required zones is relaxed", pods: []packing.Pod{mkPod("p",
			term(in(requirements.LabelZone, zone1, zone2)), prefer(1, in(requirements.LabelZone, zone3)))}, claims: 1,
			check: func(t *testing.T, o outcome) {
				z, _ := o.labelOf("p", requirements.LabelZone)
				assert.Contains(t, []string{zone1, zone2}, z)
			}},
		{name: "node selector, requirements and preference all intersect", pods: []packing.Pod{mkPod("p",
			nodeSelector(requirements.LabelArch, "amd64"),
			term(in(requirements.LabelZone, zone1, zone2), notIn(requirements.LabelCapacityType, "spot")),
			prefer(10, in(requirements.LabelZone, zone2)))}, claims: 1,
			check: all(wantLabel("p", requirements.LabelZone, zone2), wantLabel("p", requirements.LabelCapacityType, "on-demand"),
				wantLabel("p", requirements.LabelArch, "amd64"))},
		{name: "In on an undefined key", pods: []packing.Pod{mkPod("p", term(in("undefined", "x")))}, unsched: []string{"p"}},
		{name: "NotIn on an undefined key", pods: []packing.Pod{mkPod("p", term(notIn("undefined", "x")))}, claims: 1},
		{name: "Exists on an undefined key", pods: []packing.Pod{mkPod("p", term(exists("undefined")))}, unsched: []string{"p"}},
		{name: "DoesNotExist on an undefined key", pods: []packing.Pod{mkPod("p", term(dne("undefined")))}, claims: 1},
		{name: "DoesNotExist on a defined NodePool label", pools: []packing.NodePool{team},
			pods: []packing.Pod{mkPod("p", term(dne("team")))}, unsched: []string{"p"}},
		{name: "compatible pods share one node", pools: []packing.NodePool{teamAB}, opts: plain,
			pods:   []packing.Pod{mkPod("p1", nodeSelector("team", "a")), mkPod("p2", term(in("team", "a")))},
			claims: 1, check: all(wantLabel("p1", "team", "a"), wantLabel("p2", "team", "a"))},
		{name: "incompatible pods go to different nodes with different label values", pools: []packing.NodePool{teamAB},
			pods:   []packing.Pod{mkPod("p1", nodeSelector("team", "a")), mkPod("p2", nodeSelector("team", "b"))},
			claims: 2, check: all(wantLabel("p1", "team", "a"), wantLabel("p2", "team", "b"))},
		{name: "Exists does not overwrite an In on the same key", pods: []packing.Pod{mkPod("p",
			term(in(requirements.LabelZone, "non-existent"), exists(requirements.LabelZone)))}, unsched: []string{"p"}},
		{name: "restricted hostname and karpenter.sh selectors do not schedule", pods: []packing.Pod{
			mkPod("host", nodeSelector(requirements.LabelHostname, "some-node")),
			mkPod("domain", nodeSelector("karpenter.sh/custom", "x"))}, unsched: []string{"domain", "host"}},
		{name: "well-known label selectors schedule", pods: []packing.Pod{mkPod("p", nodeSelector(
			requirements.LabelArch, "amd64", requirements.LabelOS, "linux", requirements.LabelCapacityType, "on-demand",
			requirements.LabelZone, zone3, requirements.LabelInstanceType, "default-instance-type"))}, claims: 1,
			check: all(wantType("p", "default-instance-type"), wantLabel("p", requirements.LabelZone, zone3))},
	})
}

// --- preferences and relaxation ----------------------------------------------

func TestConformancePreferences(t *testing.T) {
	zone := requirements.LabelZone
	soft := taint("soft", requirements.PreferNoSchedule)
	runRows(t, []row{
		{name: "the final required term is not relaxed", pods: []packing.Pod{mkPod("p", term(in(zone, "invalid")))},
			unsched: []string{"p"}},
		{name: "required terms are tried in order", pods: []packing.Pod{mkPod("p",
			term(in(zone, "invalid-1")), term(in(zone, "invalid-2")), term(in(zone, zone1)), term(in(zone, zone2)))},
			claims: 1, check: wantLabel("p", zone, zone1)},
		{name: "all impossible preferences are relaxed", pods: []packing.Pod{mkPod("p",
			prefer(1, in(zone, "invalid")), prefer(2, in(labelInteger, "999")))}, claims: 1},
		{name: "relaxation falls to lighter weights", pods: []packing.Pod{mkPod("p",
			prefer(100, in(zone, "invalid")), prefer(50, in(zone, zone2)), prefer(1, in(zone, zone1)))},
			claims: 1, check: wantLabel("p", zone, zone2)},
		{name: "the requirement wins over a conflicting preference", pods: []packing.Pod{mkPod("p",
			term(in(zone, zone3)), prefer(1, in(zone, zone1)))}, claims: 1, check: wantLabel("p", zone, zone3)},
		{name: "a self-conflicting preference is relaxed", pods: []packing.Pod{mkPod("p",
			prefer(1, in(zone, "invalid"), notIn(zone, "invalid")))}, claims: 1},
		{name: "PreferNoSchedule taint is tolerated after relaxation when it is the only NodePool",
			pools: []packing.NodePool{pool("default", poolTaint(soft))},
			pods:  []packing.Pod{mkPod("p", prefer(1, in(zone, "invalid")))}, claims: 1,
			check: func(t *testing.T, o outcome) {
				c, _ := o.claimOf("p")
				assert.Contains(t, c.Taints, soft)
			}},
		{name: "an untainted NodePool is chosen over one with PreferNoSchedule",
			pools:  []packing.NodePool{pool("z-soft", poolTaint(soft)), pool("a-plain")},
			pods:   []packing.Pod{mkPod("p")},
			claims: 1, check: wantLabel("p", requirements.LabelNodePool, "a-plain")},
		{name: "preferred node affinity is followed by default",
			pods: []packing.Pod{mkPod("p", prefer(100, in(requirements.LabelArch, "arm64")))}, claims: 1,
			check: wantType("p", "arm-instance-type")},
		{name: "preferred node affinity is ignored with IgnorePreferences", opts: packing.Options{Preferences: packing.IgnorePreferences},
			pods: []packing.Pod{mkPod("p", prefer(100, in(requirements.LabelArch, "arm64")))}, claims: 1,
			check: wantType("p", "small-instance-type")},
	})
}

// --- instance types and binpacking -------------------------------------------

func TestConformanceInstanceTypes(t *testing.T) {
	arch := requirements.LabelArch
	runRows(t, []row{
		{name: "requests larger than every instance type", pods: []packing.Pod{cpuPod("p", "100")}, unsched: []string{"p"},
			check: func(t *testing.T, o outcome) {
				why, _ := o.reason("p")
				assert.Equal(t, packing.Insufficient, why.Kind)
				assert.Equal(t, resources.CPU, why.Resource)
			}},
		{name: "different archs on different instances",
			pods:   []packing.Pod{mkPod("amd", nodeSelector(arch, "amd64")), mkPod("arm", nodeSelector(arch, "arm64"))},
			claims: 2, check: all(wantType("amd", "small-instance-type"), wantType("arm", "arm-instance-type"))},
		{name: "different zone selectors on different instances", pods: []packing.Pod{
			mkPod("z1", nodeSelector(requirements.LabelZone, zone1)), mkPod("z2", nodeSelector(requirements.LabelZone, zone2))},
			claims: 2, check: all(wantLabel("z1", requirements.LabelZone, zone1), wantLabel("z2", requirements.LabelZone, zone2))},
		{name: "resources that no single type has together go to different instances", pods: []packing.Pod{
			mkPod("a", req(string(gpuA), "1")), mkPod("b", req(string(gpuB), "1"))}, claims: 2,
			check: all(wantType("a", "gpu-vendor-instance-type"), wantType("b", "gpu-vendor-b-instance-type"))},
		{name: "one pod requesting resources no single type has", pods: []packing.Pod{
			mkPod("ab", req(string(gpuA), "1", string(gpuB), "1"))}, unsched: []string{"ab"}},
		{name: "Exists on an optional label picks the large type", pods: []packing.Pod{mkPod("p", term(exists(labelSpecial)))},
			claims: 1, check: all(wantType("p", "arm-instance-type"), wantLabel("p", labelSpecial, "optional"))},
		{name: "DoesNotExist on an optional label avoids it", pods: []packing.Pod{mkPod("p", term(dne(labelSpecial)))},
			claims: 1, check: func(t *testing.T, o outcome) {
				wantType("p", "small-instance-type")(t, o)
				_, has := o.labelOf("p", labelSpecial)
				assert.False(t, has)
			}},
		{name: "small pod on the smallest instance", pods: []packing.Pod{mkPod("p", req("memory", "100M"))}, claims: 1,
			check: wantType("p", "small-instance-type")},
		{name: "several small pods on one smallest instance", pods: mkPods("p", 5, req("memory", "10M")), claims: 1,
			check: wantType("p-00", "small-instance-type")},
		{name: "new nodes when a node is at capacity", opts: plain,
			pods: mkPods("p", 40, req("memory", "1.8G"), nodeSelector(arch, "amd64")), claims: 20,
			check: func(t *testing.T, o outcome) {
				assert.Equal(t, slices.Repeat([]string{"default-instance-type"}, 20), o.types())
			}},
		{name: "new nodes when a node is at capacity (invariant: Best costs no more than Plain, every pod on amd64)",
			pods: mkPods("p", 40, req("memory", "1.8G"), nodeSelector(arch, "amd64")), claims: anyClaims,
			check: func(t *testing.T, o outcome) {
				ref, err := packing.Solve(o.prob, plain)
				require.NoError(t, err)
				assert.LessOrEqual(t, o.plan.Price, ref.Price)
				for _, c := range o.plan.NodeClaims {
					assert.NotEqual(t, "arm-instance-type", c.InstanceType, c.Name)
				}
			}},
		{name: "small and large pods pack together", opts: plain,
			pods: append(mkPods("big", 40, req("memory", "1.8G"), nodeSelector(arch, "amd64")),
				mkPods("small", 20, req("memory", "400M"), nodeSelector(arch, "amd64"))...), claims: 20},
		{name: "nodes are packed tightly", types: fakeIts(5), opts: plain,
			pods: []packing.Pod{cpuPod("big", "4.5"), cpuPod("small", "1")}, claims: 2,
			check: all(wantType("big", "fake-it-4"), wantType("small", "fake-it-1"))},
		{name: "zero-quantity request of an unknown resource", pods: []packing.Pod{mkPod("p", req("fake.com/unknown", "0"))}, claims: 1},
		{name: "max pods per node opens new nodes", opts: plain, pods: mkPods("p", 25), claims: 5,
			check: func(t *testing.T, o outcome) {
				assert.Equal(t, slices.Repeat([]string{"small-instance-type"}, 5), o.types())
			}},
		{name: "the cheapest compatible offering is chosen", pods: []packing.Pod{
			mkPod("p", nodeSelector(requirements.LabelZone, zone3))}, claims: 1,
			check: func(t *testing.T, o outcome) {
				c, _ := o.claimOf("p")
				assert.Equal(t, "small-instance-type", c.InstanceType)
				assert.Equal(t, "on-demand", c.Offering.CapacityType.String())
				assert.Equal(t, fakeType(defaultTypes()[1]).Offerings[0].Price, c.Offering.Price)
			}},
		{name: "identical pods share a node and every offered type has room for them", opts: plain,
			pods: mkPods("p", 3, req("cpu", "1")), claims: 1,
			check: func(t *testing.T, o outcome) {
				c, _ := o.claimOf("p-00")
				assert.NotEmpty(t, c.InstanceTypes)
				assert.NotContains(t, c.InstanceTypes, "small-instance-type")
				assert.NotContains(t, c.InstanceTypes, "single-pod-instance-type")
			}},
		{name: "no type matches arch and zone together", types: []typeSpec{
			{name: "arm-z1", cpu: 4, memGi: 4, pods: 5, arch: "arm64", offerings: []instancetypes.Offering{odOffering(zone1, 0.5)}},
			{name: "amd-z2", cpu: 4, memGi: 4, pods: 5, offerings: []instancetypes.Offering{odOffering(zone2, 0.5)}}},
			pods: []packing.Pod{mkPod("p", nodeSelector(arch, "arm64", requirements.LabelZone, zone2))}, unsched: []string{"p"}},
	})
}

// --- minValues ---------------------------------------------------------------

func TestConformanceMinValues(t *testing.T) {
	two := []typeSpec{
		{name: "instance-type-1", cpu: 1, memGi: 1, pods: 5, arch: "arm64", offerings: []instancetypes.Offering{spotOffering("test-zone-1-spot", 0.52)}},
		{name: "instance-type-2", cpu: 4, memGi: 4, pods: 5, arch: "arm64", offerings: []instancetypes.Offering{spotOffering("test-zone-1-spot", 1.0)}},
	}
	it := requirements.LabelInstanceType
	runRows(t, []row{
		{name: "minValues on instance types keeps two types per claim", types: two,
			pools: []packing.NodePool{pool("default", poolReq(withMin(in(it, "instance-type-1", "instance-type-2"), 2)))},
			pods:  []packing.Pod{cpuPod("p1", "0.9"), cpuPod("p2", "0.9")}, claims: 2,
			check: func(t *testing.T, o outcome) {
				for _, c := range o.plan.NodeClaims {
					assert.Len(t, c.InstanceTypes, 2, c.Name)
				}
			}},
		{name: "without minValues the two pods share the larger type", types: two,
			pods: []packing.Pod{cpuPod("p1", "0.9"), cpuPod("p2", "0.9")}, claims: 1, opts: plain,
			check: wantType("p1", "instance-type-2")},
		{name: "minValues above the number of types does not schedule", types: fakeIts(10),
			pools: []packing.NodePool{pool("default", poolReq(withMin(exists(it), 11)))},
			pods:  []packing.Pod{mkPod("p")}, unsched: []string{"p"}},
		{name: "the max of minValues applies when a key is repeated", types: fakeIts(10),
			pools: []packing.NodePool{pool("default", poolReq(withMin(exists(it), 2), withMin(notIn(it, "fake-it-0"), 10)))},
			pods:  []packing.Pod{mkPod("p")}, unsched: []string{"p"}},
		{name: "minValues within reach schedules", types: fakeIts(10),
			pools: []packing.NodePool{pool("default", poolReq(withMin(exists(it), 2), withMin(notIn(it, "fake-it-0"), 9)))},
			pods:  []packing.Pod{mkPod("p")}, claims: 1,
			check: func(t *testing.T, o outcome) {
				c, _ := o.claimOf("p")
				assert.GreaterOrEqual(t, len(c.InstanceTypes), 9)
				assert.NotContains(t, c.InstanceTypes, "fake-it-0")
			}},
	})
}

// --- existing and in-flight nodes --------------------------------------------

func TestConformanceExistingNodes(t *testing.T) {
	zone := requirements.LabelZone
	startup := taint("example.com/startup", requirements.NoSchedule)
	inflight := func(pods ...packing.Pod) packing.Node {
		n := mkNode("inflight-1", "default", "default-instance-type", zone1, pods...)
		n.Initialized = false
		return n
	}
	tainted := func(n packing.Node, ts ...requirements.Taint) packing.Node {
		n.Taints = ts
		return n
	}
	boundTo := func(pod, node string) func(*testing.T, outcome) {
		return func(t *testing.T, o outcome) {
			got, ok := o.nodeOf(pod)
			assert.True(t, ok, "pod %s is not bound", pod)
			assert.Equal(t, node, got)
		}
	}
	noZone := mkNode("no-zone", "", "default-instance-type", "")
	runRows(t, []row{
		{name: "an in-flight node that holds the pod is reused", nodes: []packing.Node{inflight()},
			pods: []packing.Pod{cpuPod("p", "1")}, check: boundTo("p", "inflight-1")},
		{name: "a pod that does not fit the in-flight node opens a second", nodes: []packing.Node{inflight(cpuPod("old", "3"))},
			pods: []packing.Pod{cpuPod("p", "2")}, claims: 1},
		{name: "a pod whose node selector the in-flight node fails opens a second", nodes: []packing.Node{inflight()},
			pods: []packing.Pod{mkPod("p", nodeSelector(zone, zone2))}, claims: 1, check: wantLabel("p", zone, zone2)},
		{name: "an untolerated taint on an initialized node is avoided",
			nodes: []packing.Node{tainted(mkNode("n", "default", "default-instance-type", zone1), taint("dedicated", requirements.NoSchedule))},
			pods:  []packing.Pod{mkPod("p")}, claims: 1},
		{name: "a startup taint on an uninitialized node is assumed to go away",
			pools: []packing.NodePool{pool("default", poolStartupTaint(startup))},
			nodes: []packing.Node{tainted(inflight(), startup)}, pods: []packing.Pod{mkPod("p")}, check: boundTo("p", "inflight-1")},
		{name: "the same startup taint on an initialized node is honoured",
			pools: []packing.NodePool{pool("default", poolStartupTaint(startup))},
			nodes: []packing.Node{tainted(mkNode("n", "default", "default-instance-type", zone1), startup)},
			pods:  []packing.Pod{mkPod("p")}, claims: 1},
		{name: "a node no NodePool owns is used", nodes: []packing.Node{mkNode("unowned", "", "default-instance-type", zone1)},
			pods: []packing.Pod{cpuPod("p", "1")}, check: boundTo("p", "unowned")},
		{name: "initialized nodes are tried before uninitialized ones", nodes: []packing.Node{
			func() packing.Node {
				n := mkNode("a-uninit", "default", "default-instance-type", zone1)
				n.Initialized = false
				return n
			}(),
			mkNode("b-init", "default", "default-instance-type", zone1)},
			pods: []packing.Pod{cpuPod("p", "1")}, check: boundTo("p", "b-init")},
		{name: "a zone requirement the node lacks the label for, with no NodePool", noPools: true, nodes: []packing.Node{noZone},
			pods: []packing.Pod{mkPod("p", term(in(zone, zone1)))}, unsched: []string{"p"},
			check: func(t *testing.T, o outcome) {
				why, _ := o.reason("p")
				assert.Equal(t, packing.NoNodePool, why.Kind)
			}},
		{name: "a zone requirement the node lacks the label for goes to a new NodeClaim", nodes: []packing.Node{noZone},
			pods: []packing.Pod{mkPod("p", term(in(zone, zone1)))}, claims: 1, check: wantLabel("p", zone, zone1)},
		{name: "pods with the same host port go to different nodes", opts: plain,
			pods: []packing.Pod{mkPod("a", hostPort(80, "")), mkPod("b", hostPort(80, ""))}, claims: 2},
		{name: "one port on two different host IPs shares a node", opts: plain,
			pods: []packing.Pod{mkPod("a", hostPort(80, "10.0.0.1")), mkPod("b", hostPort(80, "10.0.0.2"))}, claims: 1},
		{name: "a host port taken on an existing node", nodes: []packing.Node{mkNode("n", "default", "default-instance-type", zone1,
			mkPod("old", hostPort(80, "")))}, pods: []packing.Pod{mkPod("p", hostPort(80, "0.0.0.0"))}, claims: 1},
	})
}

// --- daemonsets --------------------------------------------------------------

func daemon(name string, opts ...podOpt) packing.DaemonSet {
	p := mkPod(name, opts...)
	return packing.DaemonSet{Name: name, Requests: p.Requests, Tolerations: p.Tolerations, NodeAffinity: p.NodeAffinity}
}

// gpuDaemon is a daemonset that tolerates every taint and requests one
// fake.com/vendor-a device.
func gpuDaemon(opts ...podOpt) packing.DaemonSet {
	all := append([]podOpt{req(string(gpuA), "1"), tolerate(requirements.Toleration{Operator: requirements.TolerateExists})}, opts...)
	return daemon("gpu", all...)
}

// verifies asserts that verify.Plan accepts the plan.
func verifies(t *testing.T, o outcome) {
	t.Helper()
	assert.Empty(t, verify.Plan(o.prob, o.plan))
}

// wantReason asserts the kind of the named pod's reason and that its
// message contains text.
func wantReason(pod string, kind packing.ReasonKind, text string) func(*testing.T, outcome) {
	return func(t *testing.T, o outcome) {
		why, ok := o.reason(pod)
		require.True(t, ok, "pod %s is placed", pod)
		assert.Equal(t, kind, why.Kind, why.Message)
		assert.Contains(t, why.Message, text)
	}
}

// TestExistingNodeDaemonPods: an existing node keeps room only for the
// daemonsets that own no pod on it ([packing.DaemonSet.Owns]), as
// Karpenter's NewExistingNode subtracts its daemonset pods' requests from
// the daemon overhead. Before Owns, a daemonset named "namespace/name"
// never matched its pods' "DaemonSet/name" owner, so a running daemonset
// pod was counted twice and a pod that fits went to a new node.
func TestExistingNodeDaemonPods(t *testing.T) {
	oneCPU := req("cpu", "1")
	logs := func(ns string) packing.DaemonSet {
		ds := daemon("logs", oneCPU)
		ds.Namespace = ns
		return ds
	}
	running := func(ns string) packing.Pod {
		p := mkPod("logs-x", oneCPU)
		p.Namespace, p.Owner = ns, "DaemonSet/logs"
		return p
	}
	// default-instance-type has 3900m allocatable: 1 CPU for the daemonset
	// and 2 for p fit, 1 more (a second daemonset, or p asking 3) does not.
	node := func(pods ...packing.Pod) []packing.Node {
		return []packing.Node{mkNode("n", "default", "default-instance-type", zone1, pods...)}
	}
	p := func() []packing.Pod { return []packing.Pod{mkPod("p", req("cpu", "2"))} }
	onNode := func(t *testing.T, o outcome) {
		n, ok := o.nodeOf("p")
		assert.True(t, ok && n == "n", "p on %q", n)
	}
	runRows(t, []row{
		{name: "a running daemonset pod is counted once", nodes: node(running("kube-system")),
			daemons: []packing.DaemonSet{logs("kube-system")}, pods: p(), claims: 0, check: onNode},
		{name: "a daemonset without a pod on the node keeps its room", nodes: node(),
			daemons: []packing.DaemonSet{logs("kube-system")}, pods: []packing.Pod{mkPod("p", req("cpu", "3"))}, claims: 1},
		{name: "a daemonset of the same name in another namespace keeps its room", nodes: node(running("kube-system")),
			daemons: []packing.DaemonSet{logs("kube-system"), logs("monitoring")}, pods: p(), claims: 1},
		{name: "a pod of the same name in another namespace is not the daemonset's", nodes: node(running("monitoring")),
			daemons: []packing.DaemonSet{logs("kube-system")}, pods: p(), claims: 1},
	})
}

// TestTerminatingPodsTopology: a terminating pod still bound to a node is
// not counted by pod anti-affinity, affinity or spread (Karpenter's
// IgnoredForTopology; kube-scheduler skips it too), but its own required
// anti-affinity still keeps matching pods off its domain.
func TestTerminatingPodsTopology(t *testing.T) {
	host := requirements.LabelHostname
	bound := func(terminating bool, opts ...podOpt) []packing.Node {
		p := mkPod("old", append([]podOpt{req("cpu", "100m")}, opts...)...)
		p.Terminating = terminating
		return []packing.Node{mkNode("n", "default", "default-instance-type", zone1, p)}
	}
	web := podLabels("app", "web")
	avoidWeb := antiAffinity(podTerm(host, 0, "app", "web"))
	onNode := func(t *testing.T, o outcome) {
		n, ok := o.nodeOf("p")
		assert.True(t, ok && n == "n", "p on %q", n)
	}
	runRows(t, []row{
		{name: "anti-affinity counts a running matching pod", nodes: bound(false, web),
			pods: []packing.Pod{mkPod("p", req("cpu", "1"), avoidWeb)}, claims: 1, check: verifies},
		{name: "anti-affinity does not count a terminating matching pod", nodes: bound(true, web),
			pods: []packing.Pod{mkPod("p", req("cpu", "1"), avoidWeb)}, claims: 0, check: all(onNode, verifies)},
		{name: "a terminating pod's own required anti-affinity still repels", nodes: bound(true, avoidWeb),
			pods: []packing.Pod{mkPod("p", req("cpu", "1"), web)}, claims: 1, check: verifies},
		{name: "affinity is not met by a terminating matching pod", nodes: bound(true, web),
			pods: []packing.Pod{mkPod("p", req("cpu", "1"), affinity(podTerm(host, 0, "app", "web")))}, unsched: []string{"p"}, check: verifies},
		{name: "affinity is met by a running matching pod", nodes: bound(false, web),
			pods: []packing.Pod{mkPod("p", req("cpu", "1"), affinity(podTerm(host, 0, "app", "web")))}, claims: 0, check: all(onNode, verifies)},
	})
}

func TestConformanceDaemonSets(t *testing.T) {
	oneCPU := req("cpu", "1", "memory", "1Gi")
	p := func() []packing.Pod { return []packing.Pod{mkPod("p", oneCPU)} }
	dedicated := taint("dedicated", requirements.NoSchedule)
	soft := taint("soft", requirements.PreferNoSchedule)
	runRows(t, []row{
		{name: "without a daemonset the pod fits the small type", pods: p(), claims: 1, check: wantType("p", "small-instance-type")},
		{name: "daemonset overhead is counted", daemons: []packing.DaemonSet{daemon("ds", oneCPU)}, pods: p(), claims: 1,
			check: func(t *testing.T, o outcome) {
				wantType("p", "default-instance-type")(t, o)
				c, _ := o.claimOf("p")
				assert.Equal(t, int64(2000), c.Requests.CPU)
				assert.Equal(t, 2*gib, c.Requests.Memory)
			}},
		{name: "daemonset overhead counts despite a startup taint it does not tolerate",
			pools:   []packing.NodePool{pool("default", poolStartupTaint(dedicated))},
			daemons: []packing.DaemonSet{daemon("ds", oneCPU)}, pods: p(), claims: 1, check: wantType("p", "default-instance-type")},
		{name: "daemonset overhead too large for every type", daemons: []packing.DaemonSet{daemon("ds", req("cpu", "100"))},
			pods: p(), unsched: []string{"p"}},
		{name: "a daemonset that does not tolerate the NodePool taint is ignored",
			pools:   []packing.NodePool{pool("default", poolTaint(dedicated))},
			daemons: []packing.DaemonSet{daemon("ds", oneCPU)}, pods: []packing.Pod{mkPod("p", oneCPU, tolerate(toleration("dedicated")))},
			claims: 1, check: wantType("p", "small-instance-type")},
		{name: "a daemonset selecting the NodePool's custom label counts", pools: []packing.NodePool{pool("default", poolLabels("team", "a"))},
			daemons: []packing.DaemonSet{daemon("ds", oneCPU, nodeSelector("team", "a"))}, pods: p(), claims: 1,
			check: wantType("p", "default-instance-type")},
		{name: "a daemonset selecting another value of that label does not count", pools: []packing.NodePool{pool("default", poolLabels("team", "a"))},
			daemons: []packing.DaemonSet{daemon("ds", oneCPU, nodeSelector("team", "b"))}, pods: p(), claims: 1,
			check: wantType("p", "small-instance-type")},
		{name: "a daemonset for other instance types only is left out",
			daemons: []packing.DaemonSet{daemon("ds", oneCPU, term(in(requirements.LabelArch, "arm64")))},
			pods:    []packing.Pod{cpuPod("p", "1.5")}, claims: 1, check: wantType("p", "small-instance-type")},
		{name: "a daemonset with NotIn on an unknown key counts",
			daemons: []packing.DaemonSet{daemon("ds", oneCPU, term(notIn("unknown", "x")))}, pods: p(), claims: 1,
			check: wantType("p", "default-instance-type")},
		{name: "a daemonset whose second affinity term matches counts",
			daemons: []packing.DaemonSet{daemon("ds", oneCPU, term(in(requirements.LabelZone, "invalid")), term(in(requirements.LabelArch, "amd64")))},
			pods:    p(), claims: 1, check: wantType("p", "default-instance-type")},
		{name: "a daemonset counts on a NodePool with a PreferNoSchedule taint", pools: []packing.NodePool{pool("default", poolTaint(soft))},
			daemons: []packing.DaemonSet{daemon("ds", oneCPU)}, pods: []packing.Pod{mkPod("p", oneCPU, tolerate(toleration("soft")))},
			claims: 1, check: wantType("p", "default-instance-type")},
		// A daemonset's requests count on every type it is compatible with
		// (taints, pool and type requirements), whatever its resources; a
		// type its daemonsets overfill holds no pod (buildDaemonOverheadGroups,
		// filterInstanceTypesByRequirements).
		{name: "a GPU daemonset tolerating everything leaves only the GPU type of a mixed catalog",
			daemons: []packing.DaemonSet{gpuDaemon()}, pods: p(), claims: 1,
			check: all(wantType("p", "gpu-vendor-instance-type"), verifies, func(t *testing.T, o outcome) {
				c, _ := o.claimOf("p")
				assert.Equal(t, []string{"gpu-vendor-instance-type"}, c.InstanceTypes)
				assert.Equal(t, int64(1), c.Requests.Get(gpuA))
			})},
		{name: "a GPU daemonset selecting arm64 types leaves out only the arm64 type",
			daemons: []packing.DaemonSet{gpuDaemon(nodeSelector(requirements.LabelArch, "arm64"))},
			pods:    []packing.Pod{mkPod("amd", oneCPU, nodeSelector(requirements.LabelArch, "amd64")), mkPod("arm", nodeSelector(requirements.LabelArch, "arm64"))},
			claims:  1, unsched: []string{"arm"},
			check: all(wantType("amd", "small-instance-type"), verifies, wantReason("arm", packing.NoInstanceType,
				"the daemonsets that would run on arm-instance-type request 1 fake.com/vendor-a, and it has 0"))},
		{name: "a GPU daemonset that does not tolerate the NodePool's taint does not count",
			pools:   []packing.NodePool{pool("default", poolTaint(dedicated))},
			daemons: []packing.DaemonSet{daemon("gpu", req(string(gpuA), "1"))},
			pods:    []packing.Pod{mkPod("p", oneCPU, tolerate(toleration("dedicated")))},
			claims:  1, check: all(wantType("p", "small-instance-type"), verifies)},
		// The zones of a type its daemonsets overfill are no topology
		// domains of the pool: no node of it can launch there.
		{name: "a GPU daemonset leaves out the zones only GPU-less types offer from a spread's domains",
			types: append(defaultTypes()[:1], typeSpec{name: "gpu-zone-1", cpu: 4, memGi: 4, pods: 5,
				ext:       []resources.Amount{{Name: gpuA, Value: 2}},
				offerings: []instancetypes.Offering{{Zone: zone1, CapacityType: instancetypes.OnDemand, Price: 1e9, Available: true}}}),
			daemons: []packing.DaemonSet{gpuDaemon()},
			pods:    mkPods("p", 2, podLabels("app", "x"), spread(spreadBy(requirements.LabelZone, 1, "app", "x"))), claims: anyClaims,
			check: all(wantType("p-00", "gpu-zone-1"), wantType("p-01", "gpu-zone-1"), verifies)},
		{name: "daemonset overhead is counted once per NodeClaim", opts: plain,
			daemons: []packing.DaemonSet{daemon("ds", req("cpu", "1"))}, pods: mkPods("p", 2, req("cpu", "0.5")), claims: 1,
			check: func(t *testing.T, o outcome) {
				c, _ := o.claimOf("p-00")
				assert.Equal(t, int64(2000), c.Requests.CPU)
				assert.Equal(t, int64(3), c.Requests.Pods)
			}},
	})
}

// --- limits and weights ------------------------------------------------------

func TestConformanceLimits(t *testing.T) {
	full := func(name, typ string) packing.Node {
		n := mkNode(name, "default", typ, zone1)
		n.Taints = []requirements.Taint{taint("full", requirements.NoSchedule)}
		return n
	}
	limited := func(kv ...string) []packing.NodePool { return []packing.NodePool{pool("default", poolLimits(kv...))} }
	prev := mkNode("prev", "default", "small-instance-type", zone1, cpuPod("old", "1.75"))
	prev.Initialized = false
	anti := []podOpt{podLabels("app", "x"), antiAffinity(podTerm(requirements.LabelHostname, 0, "app", "x"))}
	runRows(t, []row{
		{name: "existing usage above the limit", pools: limited("cpu", "20"),
			nodes: []packing.Node{full("arm-1", "arm-instance-type"), full("arm-2", "arm-instance-type")},
			pods:  []packing.Pod{mkPod("p")}, unsched: []string{"p"},
			check: func(t *testing.T, o outcome) {
				why, _ := o.reason("p")
				assert.Equal(t, packing.LimitExceeded, why.Kind)
			}},
		{name: "a type within the limit schedules", pools: limited("cpu", "2"), pods: []packing.Pod{cpuPod("p", "1.75")},
			claims: 1, check: wantType("p", "small-instance-type")},
		{name: "partial scheduling when the limit would be exceeded (invariant: charged at the chosen type)", pools: limited("cpu", "3"),
			pods: []packing.Pod{cpuPod("a", "1.5", anti...), cpuPod("b", "1.5", anti...)}, claims: 1, unsched: []string{"b"}},
		{name: "no type within the limit", pools: limited("cpu", "2"), pods: []packing.Pod{cpuPod("p", "2.1")}, unsched: []string{"p"}},
		{name: "a pods limit below the GPU type's capacity", pools: limited("pods", "1"),
			pods: []packing.Pod{mkPod("p", req(string(gpuA), "1"))}, unsched: []string{"p"}},
		{name: "a node launched in an earlier round counts against the limit", pools: limited("cpu", "2"),
			nodes: []packing.Node{prev}, pods: []packing.Pod{cpuPod("p", "1.75")}, unsched: []string{"p"}},
		{name: "the nodes limit counts existing nodes", pools: limited("nodes", "2"),
			nodes: []packing.Node{full("n1", "small-instance-type"), full("n2", "small-instance-type")},
			pods:  []packing.Pod{mkPod("p")}, unsched: []string{"p"}},
		{name: "the nodes limit leaves room for one more", pools: limited("nodes", "3"),
			nodes: []packing.Node{full("n1", "small-instance-type"), full("n2", "small-instance-type")},
			pods:  []packing.Pod{mkPod("p")}, claims: 1},
		{name: "the NodePool with the highest weight is used", pools: []packing.NodePool{pool("low"), pool("high", poolWeight(100))},
			pods: []packing.Pod{mkPod("p")}, claims: 1, check: wantLabel("p", requirements.LabelNodePool, "high")},
		{name: "an explicitly selected NodePool wins over weight", pools: []packing.NodePool{pool("low"), pool("high", poolWeight(100))},
			pods: []packing.Pod{mkPod("p", nodeSelector(requirements.LabelNodePool, "low"))}, claims: 1,
			check: wantLabel("p", requirements.LabelNodePool, "low")},
	})
}

// --- topology spread ---------------------------------------------------------

// anyClaims marks a row whose NodeClaim count Karpenter's test leaves open.
const anyClaims = -1

func TestConformanceTopologySpread(t *testing.T) {
	zone, host, ct := requirements.LabelZone, requirements.LabelHostname, requirements.LabelCapacityType
	lab := podLabels(app...)
	zonal := spread(spreadBy(zone, 1, app...))
	// blocked is an existing node no pending pod can use, holding pods that
	// count for the spread.
	blocked := func(name, z string, pods ...packing.Pod) packing.Node {
		n := mkNode(name, "", "small-instance-type", z, pods...)
		n.Taints = []requirements.Taint{taint("blocked", requirements.NoSchedule)}
		return n
	}
	appPods := func(prefix string, n int) []packing.Pod { return mkPods(prefix, n, lab) }
	zones12 := []packing.NodePool{pool("default", poolReq(in(zone, zone1, zone2)))}
	withSpread := func(ts packing.TopologySpread) podOpt { return spread(ts) }
	minDomains := spreadBy(zone, 1, app...)
	minDomains.MinDomains = 3
	hashKeys := spreadBy(zone, 1, app...)
	hashKeys.MatchLabelKeys = []string{"hash"}
	fake, rack := "example.com/fake-label", "example.com/rack"
	labelled := func(n packing.Node, kv ...string) packing.Node {
		labels := kvMap(kv)
		maps.Copy(labels, n.Labels)
		n.Labels = labels
		return n
	}
	taintedFake := func(name, v string) packing.Node {
		n := mkNode(name, "", "", "")
		n.Labels = map[string]string{fake: v}
		n.Allocatable = resources.List{CPU: 100}
		n.Taints = []requirements.Taint{taint("taintname", requirements.NoSchedule)}
		return n
	}
	taintsPolicy := func(pol packing.InclusionPolicy) packing.TopologySpread {
		ts := spreadBy(fake, 1, app...)
		ts.NodeTaintsPolicy = pol
		return ts
	}
	affinityPolicy := func(pol packing.InclusionPolicy) packing.TopologySpread {
		ts := spreadBy(zone, 1, app...)
		ts.NodeAffinityPolicy = pol
		return ts
	}
	// rackMin2 spreads over a custom key whose domains only NodePool
	// labels (and an existing node) define, with minDomains 2.
	rackMin2 := spreadBy(rack, 1, app...)
	rackMin2.MinDomains = 2
	racked := func(name, value string) packing.NodePool { return pool(name, poolLabels(rack, value)) }
	rows := []row{
		{name: "an unknown topology key leaves only its pod out", pods: []packing.Pod{
			mkPod("unknown", lab, spread(spreadBy("example.com/unknown", 1, app...))), mkPod("plain")},
			claims: 1, unsched: []string{"unknown"}},
		// A claim carries a custom label only when its NodePool (or its
		// pods' requirements) define the key: Karpenter's claims never
		// take a domain that only existing nodes have.
		{name: "a custom key only an existing node has is no domain of a NodePool without it",
			nodes: []packing.Node{labelled(blocked("r1", zone1), rack, "r1")},
			pods:  mkPods("p", 2, lab, spread(spreadBy(rack, 1, app...))), unsched: []string{"p-00", "p-01"}},
		{name: "a pod only counted by a spread on a custom key goes to a NodePool without it, unlabelled",
			pools: []packing.NodePool{pool("plain"), pool("racked", poolLabels(rack, "ra"), poolTaint(taint("racked", requirements.NoSchedule)))},
			pods: []packing.Pod{mkPod("s", lab, spread(spreadBy(rack, 1, app...)), tolerate(toleration("racked"))),
				mkPod("c", lab, req("cpu", "1"))}, claims: 2,
			check: all(wantLabel("s", rack, "ra"), noLabel("c", rack), verifies)},
		// Issue 20 (seeds 44899 and 49547): a NodePool's labels are
		// domains of their keys (Karpenter's buildDomainGroups), in Solve
		// and in verify.Plan alike, so minDomains is met by two pools' labels.
		{name: "NodePool labels are domains for minDomains, with a pod only counted",
			pools: []packing.NodePool{racked("ra", "ra"), racked("rb", "rb")},
			pods:  append([]packing.Pod{cpuPod("c", "2", lab)}, mkPods("s", 2, lab, spread(rackMin2))...), claims: anyClaims,
			check: all(wantSkew(rack, []int{1, 2}, app...), verifies)},
		{name: "a NodePool label and an existing node's label are domains for minDomains",
			pools: []packing.NodePool{racked("default", "rp")},
			nodes: []packing.Node{labelled(mkNode("n1", "", "default-instance-type", zone1, cpuPod("old", "100m", lab)), rack, "r1")},
			pods:  mkPods("s", 2, lab, spread(rackMin2)), claims: 1,
			check: all(wantLabel("s-00", rack, "rp"), wantLabel("s-01", rack, "r1"), verifies)},
		{name: "required anti-affinity on a custom key no node has does not block",
			pods: mkPods("p", 2, lab, antiAffinity(podTerm(rack, 0, app...))), claims: 1, check: all(noLabel("p-00", rack), verifies)},
		{name: "balance across zones", pods: mkPods("p", 4, lab, zonal), claims: anyClaims,
			check: wantSkew(zone, []int{1, 1, 2}, app...)},
		{name: "NodePool zone requirements limit the domains", pools: zones12, pods: mkPods("p", 4, lab, zonal),
			claims: anyClaims, check: wantSkew(zone, []int{2, 2}, app...)},
		{name: "a NodePool zone label limits the domains", pools: []packing.NodePool{pool("default", poolLabels(zone, zone1))},
			pods: mkPods("p", 4, lab, zonal), claims: 1, check: wantSkew(zone, []int{4}, app...)},
		{name: "zone labels across NodePools", pools: []packing.NodePool{pool("za", poolLabels(zone, zone1)), pool("zb", poolLabels(zone, zone2))},
			pods: mkPods("p", 4, lab, zonal), claims: anyClaims, check: wantSkew(zone, []int{2, 2}, app...)},
		{name: "an existing pod outside the NodePool's zones caps the others",
			nodes: []packing.Node{blocked("z3", zone3, cpuPod("old", "1.1", lab))}, pools: zones12,
			pods: mkPods("p", 6, lab, zonal, req("cpu", "1.1")), claims: anyClaims, unsched: []string{"p-04", "p-05"},
			check: wantSkew(zone, []int{1, 2, 2}, app...)},
		{name: "the non-minimum domain is used when it is the only one",
			nodes: []packing.Node{blocked("z1", zone1, appPods("old1", 1)...), blocked("z2", zone2, appPods("old2", 1)...)},
			pools: []packing.NodePool{pool("default", poolReq(in(zone, zone3)))},
			pods:  mkPods("p", 10, lab, withSpread(spreadBy(zone, 5, app...))), claims: anyClaims,
			unsched: []string{"p-06", "p-07", "p-08", "p-09"}, check: wantSkew(zone, []int{1, 1, 6}, app...)},
		{name: "only minimum domains while max skew is violated", nodes: []packing.Node{blocked("z1", zone1, appPods("old", 3)...)},
			pods: mkPods("p", 3, lab, zonal), claims: anyClaims, check: wantSkew(zone, []int{1, 2, 3}, app...)},
		{name: "max skew is kept when the minimum domain is unreachable",
			nodes: []packing.Node{blocked("z1", zone1, appPods("old", 1)...)},
			pools: []packing.NodePool{pool("default", poolReq(in(zone, zone2, zone3)))},
			pods:  mkPods("p", 10, lab, zonal), claims: anyClaims,
			unsched: []string{"p-04", "p-05", "p-06", "p-07", "p-08", "p-09"}, check: wantSkew(zone, []int{1, 2, 2}, app...)},
		{name: "minDomains above the reachable zones", pools: zones12, pods: mkPods("p", 3, lab, withSpread(minDomains)),
			claims: anyClaims, unsched: []string{"p-02"}, check: wantSkew(zone, []int{1, 1}, app...)},
		{name: "minDomains met", pods: mkPods("p", 11, lab, withSpread(minDomains)), claims: anyClaims,
			check: wantSkew(zone, []int{3, 4, 4}, app...)},
		{name: "balance across hostnames", pods: mkPods("p", 4, lab, withSpread(spreadBy(host, 1, app...))), claims: 4,
			check: wantSkew(host, []int{1, 1, 1, 1}, app...)},
		{name: "one hostname up to max skew", pods: mkPods("p", 4, lab, withSpread(spreadBy(host, 4, app...))), claims: 1,
			check: wantSkew(host, []int{4}, app...)},
		{name: "balance across capacity types", pods: mkPods("p", 4, lab, withSpread(spreadBy(ct, 1, app...))), claims: anyClaims,
			check: wantSkew(ct, []int{2, 2}, app...)},
		{name: "hostname and zonal spread together", pods: mkPods("p", 6, lab, zonal, withSpread(spreadBy(host, 1, app...))),
			claims: 6, check: all(wantSkew(zone, []int{2, 2, 2}, app...), wantSkew(host, []int{1, 1, 1, 1, 1, 1}, app...))},
		{name: "matchLabelKeys spreads each revision on its own",
			nodes: []packing.Node{blocked("z1", zone1, mkPods("old", 2, podLabels("app", "spread", "hash", "a"))...)},
			pods:  mkPods("p", 3, podLabels("app", "spread", "hash", "b"), withSpread(hashKeys)), claims: anyClaims,
			check: wantSkew(zone, []int{1, 1, 1}, "app", "spread", "hash", "b")},
		{name: "without matchLabelKeys the older revision counts",
			nodes: []packing.Node{blocked("z1", zone1, mkPods("old", 2, podLabels("app", "spread", "hash", "a"))...)},
			pods:  mkPods("p", 3, podLabels("app", "spread", "hash", "b"), zonal), claims: anyClaims,
			check: wantSkew(zone, []int{1, 2}, "app", "spread", "hash", "b")},
		{name: "nodeTaintsPolicy Ignore counts domains of untolerated nodes",
			pools: []packing.NodePool{pool("default", poolLabels(fake, "baz"))},
			nodes: []packing.Node{taintedFake("foo", "foo"), taintedFake("bar", "bar")},
			pods:  mkPods("p", 5, lab, req("cpu", "1"), withSpread(taintsPolicy(packing.Ignore))), claims: 1,
			unsched: []string{"p-01", "p-02", "p-03", "p-04"}, check: wantSkew(fake, []int{1}, app...)},
		{name: "nodeAffinityPolicy Honor counts only the zones the pod may use",
			pods: mkPods("p", 5, lab, nodeSelector(zone, zone1), withSpread(affinityPolicy(packing.Honor))), claims: anyClaims,
			check: wantSkew(zone, []int{5}, app...)},
		{name: "nodeAffinityPolicy Ignore counts every zone",
			pods: mkPods("p", 5, lab, nodeSelector(zone, zone1), withSpread(affinityPolicy(packing.Ignore))), claims: 1,
			unsched: []string{"p-01", "p-02", "p-03", "p-04"}, check: wantSkew(zone, []int{1}, app...)},
		{name: "required node affinity limits the spread", pods: mkPods("p", 6, lab, zonal, term(in(zone, zone1, zone2))),
			claims: anyClaims, check: wantSkew(zone, []int{3, 3}, app...)},
		{name: "preferred node affinity does not limit the spread", pods: mkPods("p", 6, lab, zonal, prefer(1, in(zone, zone1))),
			claims: anyClaims, check: wantSkew(zone, []int{2, 2, 2}, app...)},
		{name: "ScheduleAnyway spread is followed when it can be met",
			pods: mkPods("p", 3, lab, withSpread(anyway(spreadBy(zone, 1, app...)))), claims: anyClaims,
			check: wantSkew(zone, []int{1, 1, 1}, app...)},
		{name: "ScheduleAnyway spread is relaxed when it cannot be met",
			pods:   mkPods("p", 5, lab, nodeSelector(ct, "spot"), withSpread(anyway(ignoreAffinity(spreadBy(ct, 1, app...))))),
			claims: anyClaims, check: wantSkew(ct, []int{5}, app...)},
		{name: "the same spread with DoNotSchedule leaves pods out",
			pods:   mkPods("p", 5, lab, nodeSelector(ct, "spot"), withSpread(ignoreAffinity(spreadBy(ct, 1, app...)))),
			claims: 1, unsched: []string{"p-01", "p-02", "p-03", "p-04"}, check: wantSkew(ct, []int{1}, app...)},
		{name: "ScheduleAnyway spread is dropped up front with IgnorePreferences",
			opts: packing.Options{Strategy: packing.Plain, Preferences: packing.IgnorePreferences},
			pods: mkPods("p", 4, lab, withSpread(anyway(spreadBy(zone, 1, app...)))), claims: 1,
			check: wantSkew(zone, []int{4}, app...)},
		{name: "a spread over instance types takes only types that hold the pod (nodeplan: the domain is chosen among those that fit)",
			types: fakeIts(5), opts: plain, pods: mkPods("p", 4, lab, req("cpu", "1.5"), withSpread(spreadBy(requirements.LabelInstanceType, 1, app...))),
			claims: 4, check: wantSkew(requirements.LabelInstanceType, []int{1, 1, 1, 1}, app...)},
		{name: "a zone whose types are all too small is not chosen (nodeplan: the domain is chosen among those that fit)",
			types: []typeSpec{
				{name: "small-z1", cpu: 1, memGi: 2, pods: 10, offerings: []instancetypes.Offering{odOffering(zone1, 0.1)}},
				{name: "large-z2", cpu: 4, memGi: 8, pods: 10, offerings: []instancetypes.Offering{odOffering(zone2, 0.4)}}},
			opts: plain, pods: []packing.Pod{cpuPod("p", "2", lab, zonal)}, claims: 1, check: wantLabel("p", zone, zone2)},
		{name: "a selector that does not match its own pods does not spread them",
			pods: mkPods("p", 5, podLabels("app", "other"), zonal), claims: 1, opts: plain},
	}
	runRows(t, rows)
}

func anyway(ts packing.TopologySpread) packing.TopologySpread {
	ts.WhenUnsatisfiable = packing.ScheduleAnyway
	return ts
}

func ignoreAffinity(ts packing.TopologySpread) packing.TopologySpread {
	ts.NodeAffinityPolicy = packing.Ignore
	return ts
}

// --- pod affinity and anti-affinity ------------------------------------------

func TestConformancePodAffinity(t *testing.T) {
	zone, host := requirements.LabelZone, requirements.LabelHostname
	blocked := func(name, z string, pods ...packing.Pod) packing.Node {
		n := mkNode(name, "", "small-instance-type", z, pods...)
		n.Taints = []requirements.Taint{taint("blocked", requirements.NoSchedule)}
		return n
	}
	x := podLabels("app", "x")
	selfHost := affinity(podTerm(host, 0, "app", "x"))
	selfZone := affinity(podTerm(zone, 0, "app", "x"))
	antiZone := antiAffinity(podTerm(zone, 0, "app", "x"))
	xInEveryZone := []packing.Node{blocked("n1", zone1, mkPod("x1", x)), blocked("n2", zone2, mkPod("x2", x)), blocked("n3", zone3, mkPod("x3", x))}
	antiEveryZone := func(weight int32) []packing.Node {
		a := antiAffinity(podTerm(zone, weight, "app", "x"))
		return []packing.Node{blocked("n1", zone1, mkPod("a1", a)), blocked("n2", zone2, mkPod("a2", a)), blocked("n3", zone3, mkPod("a3", a))}
	}
	sameClaim := func(a, b string) func(*testing.T, outcome) {
		return func(t *testing.T, o outcome) {
			ca, _ := o.claimOf(a)
			cb, _ := o.claimOf(b)
			assert.Equal(t, ca.Name, cb.Name)
		}
	}
	rows := []row{
		{name: "pod affinity to a target on hostname", pods: []packing.Pod{
			mkPod("target", podLabels("app", "t")), cpuPod("follower", "1", affinity(podTerm(host, 0, "app", "t")))},
			claims: 1, check: sameClaim("target", "follower")},
		{name: "self affinity on hostname", pods: mkPods("p", 3, x, selfHost), claims: 1},
		{name: "self affinity fills only the first hostname", pods: mkPods("p", 10, x, selfHost), claims: 1,
			unsched: []string{"p-05", "p-06", "p-07", "p-08", "p-09"}},
		{name: "self affinity on zone with a zone requirement", pods: mkPods("p", 3, x, selfZone, term(in(zone, zone3))),
			claims: 1, check: wantSkew(zone, []int{3}, "app", "x")},
		// Karpenter opens a node in zone-3 for b as well, but once a runs in
		// zone-2 kube-scheduler keeps b pending (a matching pod exists), so
		// nodeplan reports b instead of launching a node b would never use.
		{name: "matching affinities with incompatible selectors (deliberate difference: kube-scheduler's rule, one node)", pods: []packing.Pod{
			mkPod("a", x, selfZone, nodeSelector(zone, zone2)), mkPod("b", x, selfZone, nodeSelector(zone, zone3))},
			claims: 1, unsched: []string{"b"}, check: wantLabel("a", zone, zone2)},
		{name: "affinity to a pod that does not exist", pods: []packing.Pod{mkPod("p", affinity(podTerm(host, 0, "app", "none")))},
			unsched: []string{"p"}},
		{name: "a chain of dependent affinities resolves by retrying", pods: []packing.Pod{
			mkPod("a-dep3", podLabels("app", "c3"), affinity(podTerm(host, 0, "app", "c2"))),
			mkPod("b-dep2", podLabels("app", "c2"), affinity(podTerm(host, 0, "app", "c1"))),
			mkPod("c-dep1", podLabels("app", "c1"), affinity(podTerm(host, 0, "app", "c0"))),
			mkPod("z-root", podLabels("app", "c0"))}, claims: 1},
		{name: "mutual affinity without a first pod does not schedule", pods: []packing.Pod{
			mkPod("x", podLabels("app", "x"), affinity(podTerm(host, 0, "app", "y"))),
			mkPod("y", podLabels("app", "y"), affinity(podTerm(host, 0, "app", "x")))}, unsched: []string{"x", "y"}},
		{name: "anti-affinity on hostname separates nodes even when the anti pod comes first", pods: []packing.Pod{
			mkPod("target", x), cpuPod("anti", "1", antiAffinity(podTerm(host, 0, "app", "x")))}, claims: 2},
		{name: "anti-affinity on zone with targets in every zone", nodes: xInEveryZone,
			pods: []packing.Pod{mkPod("anti", antiZone)}, unsched: []string{"anti"}},
		{name: "anti-affinity on zone after an unconstrained target (invariant: the target's zone is pinned, the anti pod avoids it)",
			pods: []packing.Pod{cpuPod("target", "2", x), cpuPod("anti", "1", antiZone)}, claims: 2,
			check: func(t *testing.T, o outcome) {
				zt, _ := o.labelOf("target", zone)
				za, ok := o.labelOf("anti", zone)
				require.True(t, ok)
				assert.NotEqual(t, zt, za)
			}},
		{name: "preferred anti-affinity of running pods creates no inverse constraint", nodes: antiEveryZone(10),
			pods: []packing.Pod{mkPod("x", x)}, claims: 1},
		{name: "required anti-affinity of pods in the batch keeps a matching pod out", pods: []packing.Pod{
			cpuPod("a1", "2", antiZone, nodeSelector(zone, zone1)), cpuPod("a2", "2", antiZone, nodeSelector(zone, zone2)),
			cpuPod("a3", "2", antiZone, nodeSelector(zone, zone3)), cpuPod("x", "1", x)}, claims: 3, unsched: []string{"x"}},
		{name: "required anti-affinity of running pods keeps a matching pod out", nodes: antiEveryZone(0),
			pods: []packing.Pod{mkPod("x", x)}, unsched: []string{"x"}},
		{name: "preferred anti-affinity may be violated", nodes: xInEveryZone,
			pods: []packing.Pod{mkPod("p", antiAffinity(podTerm(zone, 10, "app", "x")))}, claims: 1},
		{name: "preferred pod affinity is followed when it can be met", nodes: []packing.Node{blocked("n2", zone2, mkPod("t", podLabels("app", "t")))},
			pods: []packing.Pod{mkPod("p", affinity(podTerm(zone, 10, "app", "t")))}, claims: 1, check: wantLabel("p", zone, zone2)},
		{name: "preferred anti-affinity is followed when it can be met",
			nodes: []packing.Node{blocked("n1", zone1, mkPod("x1", x)), blocked("n2", zone2, mkPod("x2", x))},
			pods:  []packing.Pod{mkPod("p", antiAffinity(podTerm(zone, 10, "app", "x")))}, claims: 1, check: wantLabel("p", zone, zone3)},
		{name: "required hostname anti-affinity of a running pod keeps a matching pod off its node",
			nodes: []packing.Node{mkNode("n", "default", "default-instance-type", zone1, mkPod("a", antiAffinity(podTerm(host, 0, "app", "x"))))},
			pods:  []packing.Pod{mkPod("x", x), mkPod("other")}, claims: 1,
			check: func(t *testing.T, o outcome) {
				_, bound := o.nodeOf("x")
				assert.False(t, bound, "x must not join the node of a pod that repels it")
				n, _ := o.nodeOf("other")
				assert.Equal(t, "n", n)
			}},
		{name: "preferred affinity may be violated", pods: []packing.Pod{mkPod("p", affinity(podTerm(zone, 10, "app", "none")))}, claims: 1},
	}
	runRows(t, rows)
}

// --- taints ------------------------------------------------------------------

func TestConformanceTaints(t *testing.T) {
	dedicated := taint("dedicated", requirements.NoSchedule)
	startup := taint("example.com/startup", requirements.NoSchedule)
	runRows(t, []row{
		{name: "only pods tolerating the NodePool taint schedule", pools: []packing.NodePool{pool("default", poolTaint(dedicated))},
			pods: []packing.Pod{
				mkPod("exists", tolerate(toleration("dedicated"))),
				mkPod("equal", tolerate(requirements.Toleration{Key: "dedicated", Value: "true", Effect: requirements.NoSchedule})),
				mkPod("wrong-value", tolerate(requirements.Toleration{Key: "dedicated", Value: "false"})),
				mkPod("none")},
			claims: 1, unsched: []string{"none", "wrong-value"}},
		{name: "a startup taint alone does not keep pods off", pools: []packing.NodePool{pool("default", poolStartupTaint(startup))},
			pods: []packing.Pod{mkPod("p")}, claims: 1, check: func(t *testing.T, o outcome) {
				c, _ := o.claimOf("p")
				assert.Contains(t, c.Taints, startup)
			}},
	})
}

// --- NodePools whose requirements exclude their own nodes ---------------------

// A NodePool whose requirements exclude a label every one of its nodes
// carries (its name as karpenter.sh/nodepool, or one of its labels) can
// launch no node that meets them: it launches nothing, its pods go to
// another pool or are unschedulable with a reason naming the conflict, and
// its domains do not count for topology spread (nodeplan's rule; verify.Plan
// rejects such a node).
func TestConformanceSelfExcludingNodePools(t *testing.T) {
	np := requirements.LabelNodePool
	conflict := func(pod, text string) func(*testing.T, outcome) {
		return all(verifies, wantReason(pod, packing.Incompatible, text))
	}
	runRows(t, []row{
		{name: "nodepool In other names", pools: []packing.NodePool{pool("a", poolReq(in(np, "b", "c")))},
			pods: []packing.Pod{mkPod("p")}, unsched: []string{"p"},
			check: conflict("p", "NodePool a can launch no node, so pod default/p cannot go there: its requirement karpenter.sh/nodepool In [b c] excludes its own label karpenter.sh/nodepool=a")},
		{name: "nodepool NotIn itself", pools: []packing.NodePool{pool("a", poolReq(notIn(np, "a")))},
			pods: []packing.Pod{mkPod("p")}, unsched: []string{"p"}, check: conflict("p", "karpenter.sh/nodepool NotIn [a]")},
		{name: "nodepool DoesNotExist", pools: []packing.NodePool{pool("a", poolReq(dne(np)))},
			pods: []packing.Pod{mkPod("p")}, unsched: []string{"p"}, check: conflict("p", "karpenter.sh/nodepool DoesNotExist")},
		{name: "a requirement excluding the pool's own label", pools: []packing.NodePool{pool("a", poolLabels("team", "x"), poolReq(notIn("team", "x")))},
			pods: []packing.Pod{mkPod("p")}, unsched: []string{"p"}, check: conflict("p", "excludes its own label team=x")},
		{name: "of a beta and a stable label, the stable one is the pool's own",
			pools: []packing.NodePool{pool("a", poolLabels("failure-domain.beta.kubernetes.io/zone", zone1, requirements.LabelZone, zone2),
				poolReq(in(requirements.LabelZone, zone2)))},
			pods: []packing.Pod{mkPod("p")}, claims: 1, check: all(verifies, wantLabel("p", requirements.LabelZone, zone2))},
		{name: "a requirement admitting only the beta label's value excludes the stable one",
			pools: []packing.NodePool{pool("a", poolLabels("failure-domain.beta.kubernetes.io/zone", zone1, requirements.LabelZone, zone2),
				poolReq(in(requirements.LabelZone, zone1)))},
			pods: []packing.Pod{mkPod("p")}, unsched: []string{"p"}, check: conflict("p", "excludes its own label topology.kubernetes.io/zone="+zone2)},
		{name: "the pods go to another pool that takes them",
			pools: []packing.NodePool{pool("a", poolWeight(100), poolReq(notIn(np, "a"))), pool("b")},
			pods:  mkPods("p", 2), claims: 1, check: all(verifies, wantLabel("p-00", np, "b"), wantLabel("p-01", np, "b"))},
		{name: "its zones are no spread domains", pools: []packing.NodePool{
			pool("a", poolReq(in(requirements.LabelZone, zone1))), pool("bad", poolReq(notIn(np, "bad"), in(requirements.LabelZone, zone3)))},
			pods: mkPods("p", 2, podLabels(app...), spread(spreadBy(requirements.LabelZone, 1, app...))), claims: anyClaims,
			check: all(verifies, wantSkew(requirements.LabelZone, []int{2}, app...))},
	})
}

// --- hostname in required node affinity --------------------------------------

// Karpenter gives a new NodeClaim the requirement kubernetes.io/hostname In
// [a placeholder]: a pod requiring a hostname value, its absence or a bound
// on it goes only to an existing node that matches (every node has a
// hostname); Exists and NotIn admit a new one.
func TestConformanceHostnameAffinity(t *testing.T) {
	host := requirements.LabelHostname
	n := mkNode("n", "default", "default-instance-type", zone1)
	runRows(t, []row{
		{name: "hostname DoesNotExist matches no node, new or existing", nodes: []packing.Node{n},
			pods: []packing.Pod{mkPod("p", term(dne(host)))}, unsched: []string{"p"},
			check: all(verifies, wantReason("p", packing.Incompatible, "requires kubernetes.io/hostname DoesNotExist, which no new node of NodePool default can meet"))},
		{name: "hostname In an existing node's name binds there", nodes: []packing.Node{n},
			pods: []packing.Pod{mkPod("p", nodeSelector(host, "n"))}, check: all(verifies, func(t *testing.T, o outcome) {
				node, _ := o.nodeOf("p")
				assert.Equal(t, "n", node)
			})},
		{name: "hostname In the name a new claim would get does not put it there",
			pods: []packing.Pod{mkPod("p", nodeSelector(host, "default-1"))}, unsched: []string{"p"},
			check: wantReason("p", packing.Incompatible, "requires kubernetes.io/hostname In [default-1]")},
		{name: "hostname NotIn and Exists take a new node", pods: []packing.Pod{
			mkPod("notin", term(notIn(host, "n"))), mkPod("exists", term(exists(host)))}, claims: anyClaims, check: verifies},
		{name: "a preferred hostname DoesNotExist is relaxed", pods: []packing.Pod{mkPod("p", prefer(1, dne(host)))}, claims: 1, check: verifies},
	})
}

// --- deprecated beta labels ---------------------------------------------------

// A node's beta labels count under their stable keys, a stable label wins
// over its beta alias and a label over the Node field that implies it;
// topology keys are normalised the same way (see doc.go). Solve and verify.Plan
// must agree on every domain.
func TestConformanceBetaLabels(t *testing.T) {
	zone, beta := requirements.LabelZone, "failure-domain.beta.kubernetes.io/zone"
	node := func(name, field string, blocked bool, labels map[string]string, pods ...packing.Pod) packing.Node {
		n := mkNode(name, "", "small-instance-type", field, pods...)
		n.Labels = labels
		if blocked {
			n.Taints = []requirements.Taint{taint("blocked", requirements.NoSchedule)}
		}
		return n
	}
	target := mkPod("t", podLabels("app", "t"))
	follower := func() []packing.Pod {
		return []packing.Pod{mkPod("p", affinity(podTerm(beta, 0, "app", "t")))}
	}
	runRows(t, []row{
		{name: "pod affinity on the beta zone key follows the node's beta label, not its Zone field",
			nodes: []packing.Node{node("n1", zone1, true, map[string]string{beta: zone2}, target)},
			pods:  follower(), claims: 1, check: all(verifies, wantLabel("p", zone, zone2))},
		{name: "a stable zone label wins over its beta alias",
			nodes: []packing.Node{node("n1", zone2, true, map[string]string{zone: zone1, beta: zone3}, target)},
			pods:  follower(), claims: 1, check: all(verifies, wantLabel("p", zone, zone1))},
		{name: "a spread on the beta zone key counts the node's beta label",
			pools: []packing.NodePool{pool("default", poolReq(in(zone, zone1, zone3)))},
			nodes: []packing.Node{node("n1", zone1, true, map[string]string{beta: zone3}, mkPod("old", podLabels(app...)))},
			pods:  []packing.Pod{mkPod("p", podLabels(app...), spread(spreadBy(beta, 1, app...)))}, claims: 1,
			check: all(verifies, wantLabel("p", zone, zone1))},
		{name: "node affinity on the stable zone key matches a node's beta label",
			nodes: []packing.Node{node("n", "", false, map[string]string{beta: zone2})},
			pods:  []packing.Pod{mkPod("p", nodeSelector(zone, zone2))}, check: all(verifies, func(t *testing.T, o outcome) {
				n, _ := o.nodeOf("p")
				assert.Equal(t, "n", n)
			})},
	})
}

// --- reasons that name the catalog's gaps -------------------------------------

// A pod or NodePool asking for what no instance type of the catalog has (an
// OS, an architecture, a value of a well-known label, an extended resource)
// is told so: no NodePool setting can help.
func TestConformanceCatalogGaps(t *testing.T) {
	linux := []typeSpec{
		{name: "linux-small", cpu: 2, memGi: 4, pods: 10, os: []string{"linux"}},
		{name: "linux-large", cpu: 8, memGi: 16, pods: 10, os: []string{"linux"}},
	}
	os, arch := requirements.LabelOS, requirements.LabelArch
	windowsPool := pool("windows", poolReq(in(os, "windows")))
	gap := func(pod string, kind packing.ReasonKind, text string) func(*testing.T, outcome) {
		return wantReason(pod, kind, text)
	}
	runRows(t, []row{
		{name: "a pod asking for an OS no type has", types: linux, pods: []packing.Pod{mkPod("p", nodeSelector(os, "windows"))},
			unsched: []string{"p"}, check: gap("p", packing.NoInstanceType,
				"pod default/p requires kubernetes.io/os In [windows], but the catalog has no windows instance types")},
		{name: "a NodePool asking for an OS no type has", types: linux, pools: []packing.NodePool{windowsPool},
			pods: []packing.Pod{mkPod("p")}, unsched: []string{"p"}, check: gap("p", packing.NoInstanceType,
				"NodePool windows requires kubernetes.io/os In [windows], but the catalog has no windows instance types, so it launches no node")},
		{name: "the pods of such a NodePool's peers still go to them", types: linux, pools: []packing.NodePool{windowsPool, pool("linux")},
			pods: []packing.Pod{mkPod("p")}, claims: 1, check: wantLabel("p", requirements.LabelNodePool, "linux")},
		{name: "a pod asking for an architecture no type has", types: fakeIts(3),
			pods: []packing.Pod{mkPod("p", nodeSelector(arch, "arm64"))}, unsched: []string{"p"},
			check: gap("p", packing.NoInstanceType, "the catalog has no arm64 instance types")},
		{name: "a pod requesting an extended resource no type has", pods: []packing.Pod{mkPod("p", req("nvidia.com/gpu", "1"))},
			unsched: []string{"p"}, check: all(gap("p", packing.Insufficient,
				"pod default/p requests 1 nvidia.com/gpu, but no instance type in the catalog has nvidia.com/gpu"),
				func(t *testing.T, o outcome) {
					why, _ := o.reason("p")
					assert.Equal(t, resources.Name("nvidia.com/gpu"), why.Resource)
					assert.Equal(t, int64(1), why.Requested)
				})},
		{name: "a pod asking for an instance type the catalog lacks",
			pods:    []packing.Pod{mkPod("p", nodeSelector(requirements.LabelInstanceType, "x9.huge"))},
			unsched: []string{"p"}, check: gap("p", packing.NoInstanceType, "no instance type in the catalog has node.kubernetes.io/instance-type x9.huge")},
		{name: "a pod asking for a zone the catalog lacks", pods: []packing.Pod{mkPod("p", term(in(requirements.LabelZone, "mars-1a", "mars-1b")))},
			unsched: []string{"p"}, check: gap("p", packing.NoInstanceType, "no instance type in the catalog has topology.kubernetes.io/zone mars-1a or mars-1b")},
		{name: "a NodePool's own catalog is named", pools: []packing.NodePool{func() packing.NodePool {
			np := pool("own")
			np.Catalog = buildCatalog(t, linux)
			return np
		}()}, pods: []packing.Pod{mkPod("p", nodeSelector(os, "windows"))}, unsched: []string{"p"},
			check: gap("p", packing.NoInstanceType, "the catalog of NodePool own has no windows instance types")},
		{name: "no gap when the types exist but not together (arch and zone)", types: []typeSpec{
			{name: "arm-z1", cpu: 4, memGi: 4, pods: 5, arch: "arm64", offerings: []instancetypes.Offering{odOffering(zone1, 0.5)}},
			{name: "amd-z2", cpu: 4, memGi: 4, pods: 5, offerings: []instancetypes.Offering{odOffering(zone2, 0.5)}}},
			pods: []packing.Pod{mkPod("p", nodeSelector(arch, "arm64", requirements.LabelZone, zone2))}, unsched: []string{"p"},
			check: gap("p", packing.NoInstanceType, "no instance type in NodePool default is compatible with pod default/p")},
	})
}

// TestWindowsNodePoolOnAWS: a Windows NodePool as in Karpenter's examples
// (kubernetes.io/os In [windows]) on the embedded AWS catalog, which has no
// Windows types, says so.
func TestWindowsNodePoolOnAWS(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	windows := packing.NodePool{Name: "windows2022", Requirements: requirements.MustParse(
		requirements.Expression{Key: requirements.LabelOS, Operator: requirements.In, Values: []string{"windows"}},
		requirements.Expression{Key: requirements.LabelCapacityType, Operator: requirements.In, Values: []string{"on-demand"}})}
	p := packing.Problem{Catalog: cat, NodePools: []packing.NodePool{windows},
		Pods: []packing.Pod{mkPod("iis", req("cpu", "1"), nodeSelector(requirements.LabelOS, "windows"))}}
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Len(t, plan.Unschedulable, 1)
	why := plan.Unschedulable[0].Reason
	assert.Equal(t, packing.NoInstanceType, why.Kind)
	assert.Equal(t, "windows2022", why.NodePool)
	assert.Contains(t, why.Message, "the catalog has no windows instance types")
	assert.Empty(t, verify.Plan(p, plan))
}
