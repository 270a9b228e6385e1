package packing_test

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// The fixture mirrors the fake cloud provider of Karpenter's scheduling
// suite, including its instance labels "integer", "size" and "special",
// which a pod may name before any NodePool defines them because they are
// instance-type labels.
const (
	zone1 = "test-zone-1"
	zone2 = "test-zone-2"
	zone3 = "test-zone-3"

	labelInteger = instancetypes.LabelFakeInteger // the core count
	labelSize    = instancetypes.LabelFakeSize    // small or large
	labelSpecial = instancetypes.LabelFakeSpecial // "optional" on large types only

	gpuA resources.Name = "fake.com/vendor-a"
	gpuB resources.Name = "fake.com/vendor-b"

	gib = int64(1) << 30
)

// typeSpec describes one fake instance type.
type typeSpec struct {
	name      string
	cpu       int64 // cores
	memGi     int64
	pods      int64
	arch      string // "" is amd64
	os        []string
	ext       []resources.Amount
	offerings []instancetypes.Offering // nil: Karpenter's five default offerings
}

// fakeType builds t as Karpenter's fake.NewInstanceType does: price
// 0.1·cores + 0.1·GB (+1 per device kind), overhead 100m/10Mi, spot in
// zones 1-2 and on-demand in zones 1-3.
func fakeType(s typeSpec) instancetypes.InstanceType {
	dollars := 0.1*float64(s.cpu) + 0.1*float64(s.memGi*gib)/1e9 + float64(len(s.ext))
	price := instancetypes.MustPriceFromDollars(dollars)
	offs := s.offerings
	if offs == nil {
		offs = []instancetypes.Offering{
			{Zone: zone1, CapacityType: instancetypes.Spot, Price: price, Available: true},
			{Zone: zone2, CapacityType: instancetypes.Spot, Price: price, Available: true},
			{Zone: zone1, CapacityType: instancetypes.OnDemand, Price: price, Available: true},
			{Zone: zone2, CapacityType: instancetypes.OnDemand, Price: price, Available: true},
			{Zone: zone3, CapacityType: instancetypes.OnDemand, Price: price, Available: true},
		}
	}
	capacity := resources.New(append([]resources.Amount{{Name: resources.CPU, Value: s.cpu * 1000},
		{Name: resources.Memory, Value: s.memGi * gib}, {Name: resources.Pods, Value: s.pods}}, s.ext...)...)
	return instancetypes.InstanceType{
		Name:         s.name,
		Requirements: fakeLabels(s),
		Capacity:     capacity,
		Overhead:     resources.List{CPU: 100, Memory: 10 << 20},
		Offerings:    offs,
	}
}

func fakeLabels(s typeSpec) requirements.Set {
	arch := cmp.Or(s.arch, "amd64")
	os := s.os
	if os == nil {
		os = []string{"darwin", "linux", "windows"}
	}
	reqs := []requirements.Requirement{
		requirements.MustNew(requirements.LabelArch, requirements.In, arch),
		requirements.MustNew(requirements.LabelOS, requirements.In, os...),
		requirements.MustNew(labelInteger, requirements.In, strconv.FormatInt(s.cpu, 10)),
	}
	if s.cpu > 4 && s.memGi > 8 {
		reqs = append(reqs, requirements.MustNew(labelSize, requirements.In, "large"),
			requirements.MustNew(labelSpecial, requirements.In, "optional"))
	} else {
		reqs = append(reqs, requirements.MustNew(labelSize, requirements.In, "small"),
			requirements.MustNew(labelSpecial, requirements.DoesNotExist))
	}
	return requirements.NewSet(reqs...)
}

// defaultTypes is the scheduling suite's default catalog.
func defaultTypes() []typeSpec {
	return []typeSpec{
		{name: "default-instance-type", cpu: 4, memGi: 4, pods: 5},
		{name: "small-instance-type", cpu: 2, memGi: 2, pods: 5},
		{name: "gpu-vendor-instance-type", cpu: 4, memGi: 4, pods: 5, ext: []resources.Amount{{Name: gpuA, Value: 2}}},
		{name: "gpu-vendor-b-instance-type", cpu: 4, memGi: 4, pods: 5, ext: []resources.Amount{{Name: gpuB, Value: 2}}},
		{name: "arm-instance-type", cpu: 16, memGi: 128, pods: 5, arch: "arm64", os: []string{"darwin", "ios", "linux", "windows"}},
		{name: "single-pod-instance-type", cpu: 4, memGi: 4, pods: 1},
	}
}

// fakeIts is Karpenter's fake.InstanceTypes(n): fake-it-i has i+1 cores,
// 2(i+1) GiB and 10(i+1) pods.
func fakeIts(n int) []typeSpec {
	out := make([]typeSpec, n)
	for i := range out {
		c := int64(i + 1)
		out[i] = typeSpec{name: fmt.Sprintf("fake-it-%d", i), cpu: c, memGi: 2 * c, pods: 10 * c}
	}
	return out
}

func buildCatalog(t testing.TB, specs []typeSpec) *instancetypes.Catalog {
	t.Helper()
	types := make([]instancetypes.InstanceType, len(specs))
	for i, s := range specs {
		types[i] = fakeType(s)
	}
	c, err := instancetypes.New(types)
	require.NoError(t, err)
	return c
}

// --- NodePools ---------------------------------------------------------------

type poolOpt func(*packing.NodePool)

// pool is a NodePool allowing spot and on-demand, as the suite's default.
func pool(name string, opts ...poolOpt) packing.NodePool {
	np := packing.NodePool{Name: name, Requirements: requirements.MustParse(
		requirements.Expression{Key: requirements.LabelCapacityType, Operator: requirements.In, Values: []string{"spot", "on-demand"}})}
	for _, o := range opts {
		o(&np)
	}
	return np
}

func poolReq(exprs ...requirements.Expression) poolOpt {
	return func(np *packing.NodePool) {
		np.Requirements = np.Requirements.Intersect(requirements.MustParse(exprs...))
	}
}

func poolLabels(kv ...string) poolOpt {
	return func(np *packing.NodePool) { np.Labels = kvMap(kv) }
}

func poolTaint(taints ...requirements.Taint) poolOpt {
	return func(np *packing.NodePool) { np.Taints = append(np.Taints, taints...) }
}

func poolStartupTaint(taints ...requirements.Taint) poolOpt {
	return func(np *packing.NodePool) { np.StartupTaints = append(np.StartupTaints, taints...) }
}

func poolWeight(w int32) poolOpt { return func(np *packing.NodePool) { np.Weight = w } }

func poolLimits(kv ...string) poolOpt {
	return func(np *packing.NodePool) {
		m := map[resources.Name]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[resources.Name(kv[i])] = kv[i+1]
		}
		l := resources.MustParse(m)
		np.Limits = map[resources.Name]int64{}
		for n := range m {
			np.Limits[n] = l.Get(n)
		}
	}
}

// --- pods --------------------------------------------------------------------

type podSpec struct {
	p    packing.Pod
	sel  map[string]string
	req  [][]requirements.Expression
	pref []requirements.WeightedTerm
}

type podOpt func(*podSpec)

// mkPod builds a pod in namespace default.
func mkPod(name string, opts ...podOpt) packing.Pod {
	s := podSpec{p: packing.Pod{Namespace: "default", Name: name, UID: name}}
	for _, o := range opts {
		o(&s)
	}
	na, err := requirements.NewNodeAffinity(s.sel, s.req, s.pref)
	if err != nil {
		panic(err)
	}
	s.p.NodeAffinity = na
	return s.p
}

// mkPods builds n pods named prefix-00, prefix-01, ...
func mkPods(prefix string, n int, opts ...podOpt) []packing.Pod {
	out := make([]packing.Pod, n)
	for i := range out {
		out[i] = mkPod(fmt.Sprintf("%s-%02d", prefix, i), opts...)
	}
	return out
}

// req sets the pod's requests from name/quantity pairs, e.g. "cpu", "1".
func req(kv ...string) podOpt {
	return func(s *podSpec) { s.p.Requests = parseList(kv) }
}

func parseList(kv []string) resources.List {
	m := map[resources.Name]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[resources.Name(kv[i])] = kv[i+1]
	}
	return resources.MustParse(m)
}

func podLabels(kv ...string) podOpt {
	return func(s *podSpec) { s.p.Labels = kvMap(kv) }
}

func nodeSelector(kv ...string) podOpt {
	return func(s *podSpec) { s.sel = kvMap(kv) }
}

// term adds a required node-affinity term (terms are ORed).
func term(exprs ...requirements.Expression) podOpt {
	return func(s *podSpec) { s.req = append(s.req, exprs) }
}

func prefer(weight int32, exprs ...requirements.Expression) podOpt {
	return func(s *podSpec) {
		s.pref = append(s.pref, requirements.WeightedTerm{Weight: weight, Expressions: exprs})
	}
}

func tolerate(tols ...requirements.Toleration) podOpt {
	return func(s *podSpec) { s.p.Tolerations = append(s.p.Tolerations, tols...) }
}

func spread(ts packing.TopologySpread) podOpt {
	return func(s *podSpec) { s.p.TopologySpread = append(s.p.TopologySpread, ts) }
}

func affinity(t packing.PodAffinityTerm) podOpt {
	return func(s *podSpec) { s.p.Affinity = append(s.p.Affinity, t) }
}

func antiAffinity(t packing.PodAffinityTerm) podOpt {
	return func(s *podSpec) { s.p.AntiAffinity = append(s.p.AntiAffinity, t) }
}

func hostPort(port int32, ip string) podOpt {
	return func(s *podSpec) { s.p.HostPorts = append(s.p.HostPorts, packing.HostPort{Port: port, IP: ip}) }
}

// spreadBy is a DoNotSchedule spread over key counting pods with labels kv.
func spreadBy(key string, skew int32, kv ...string) packing.TopologySpread {
	return packing.TopologySpread{TopologyKey: key, MaxSkew: skew, Selector: requirements.FromLabels(kvMap(kv))}
}

// podTerm is a pod (anti-)affinity term over key for pods with labels kv;
// weight 0 makes it required.
func podTerm(key string, weight int32, kv ...string) packing.PodAffinityTerm {
	return packing.PodAffinityTerm{TopologyKey: key, Weight: weight, Selector: requirements.FromLabels(kvMap(kv))}
}

// --- expressions and taints --------------------------------------------------

func in(key string, v ...string) requirements.Expression {
	return requirements.Expression{Key: key, Operator: requirements.In, Values: v}
}

func notIn(key string, v ...string) requirements.Expression {
	return requirements.Expression{Key: key, Operator: requirements.NotIn, Values: v}
}

func exists(key string) requirements.Expression {
	return requirements.Expression{Key: key, Operator: requirements.Exists}
}

func dne(key string) requirements.Expression {
	return requirements.Expression{Key: key, Operator: requirements.DoesNotExist}
}

func bound(key string, op requirements.Operator, n string) requirements.Expression {
	return requirements.Expression{Key: key, Operator: op, Values: []string{n}}
}

func withMin(e requirements.Expression, n int) requirements.Expression {
	e.MinValues = n
	return e
}

func taint(key string, effect requirements.Effect) requirements.Taint {
	return requirements.Taint{Key: key, Value: "true", Effect: effect}
}

func toleration(key string) requirements.Toleration {
	return requirements.Toleration{Key: key, Operator: requirements.TolerateExists}
}

func kvMap(kv []string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// --- nodes -------------------------------------------------------------------

// mkNode is an initialized node of pool np ("" for unmanaged) in zone with
// the allocatable of the named default type.
func mkNode(name, np, typ, zone string, pods ...packing.Pod) packing.Node {
	alloc := resources.List{}
	for _, s := range append(defaultTypes(), fakeIts(5)...) {
		if s.name == typ {
			t := fakeType(s)
			alloc = t.Capacity.Sub(t.Overhead)
		}
	}
	return packing.Node{Name: name, NodePool: np, InstanceType: typ, Zone: zone, CapacityType: instancetypes.OnDemand,
		Allocatable: alloc, Pods: pods, Initialized: true}
}

// --- outcome -----------------------------------------------------------------

// outcome is a solved scenario with queries by pod name.
type outcome struct {
	prob packing.Problem
	plan packing.Plan
	byIx map[int]string // pod index -> name
	ix   map[string]int
}

func newOutcome(p packing.Problem, plan packing.Plan) outcome {
	o := outcome{prob: p, plan: plan, byIx: map[int]string{}, ix: map[string]int{}}
	for i, pd := range p.Pods {
		o.byIx[i], o.ix[pd.Name] = pd.Name, i
	}
	return o
}

// unscheduled returns the sorted names of the pods the plan left out.
func (o outcome) unscheduled() []string {
	out := []string{}
	for _, u := range o.plan.Unschedulable {
		out = append(out, o.byIx[u.Pod])
	}
	slices.Sort(out)
	return out
}

// reason returns why the named pod was left out.
func (o outcome) reason(name string) (packing.Reason, bool) {
	for _, u := range o.plan.Unschedulable {
		if o.byIx[u.Pod] == name {
			return u.Reason, true
		}
	}
	return packing.Reason{}, false
}

// claimOf returns the new NodeClaim holding the named pod.
func (o outcome) claimOf(name string) (packing.NodeClaim, bool) {
	for _, c := range o.plan.NodeClaims {
		if slices.Contains(c.Pods, o.ix[name]) {
			return c, true
		}
	}
	return packing.NodeClaim{}, false
}

// nodeOf returns the existing node the named pod is bound to.
func (o outcome) nodeOf(name string) (string, bool) {
	for _, b := range o.plan.Bindings {
		if b.Pod == o.ix[name] {
			return b.Node, true
		}
	}
	return "", false
}

// labelOf returns the label key of wherever the named pod went: the claim's
// labels (hostname: the claim's name) or the node's.
func (o outcome) labelOf(name, key string) (string, bool) {
	if c, ok := o.claimOf(name); ok {
		return claimLabel(c, key)
	}
	if n, ok := o.nodeOf(name); ok {
		for i := range o.prob.Nodes {
			if o.prob.Nodes[i].Name == n {
				v, ok := nodeLabel(&o.prob.Nodes[i], key)
				return v, ok
			}
		}
	}
	return "", false
}

func claimLabel(c packing.NodeClaim, key string) (string, bool) {
	if key == requirements.LabelHostname {
		return c.Name, true
	}
	for _, l := range c.Labels {
		if l.Key == key {
			return l.Value, true
		}
	}
	return "", false
}

func nodeLabel(n *packing.Node, key string) (string, bool) {
	if v, ok := n.Labels[key]; ok {
		return v, true
	}
	switch key {
	case requirements.LabelHostname:
		return n.Name, true
	case requirements.LabelZone:
		return n.Zone, n.Zone != ""
	case requirements.LabelInstanceType:
		return n.InstanceType, n.InstanceType != ""
	}
	return "", false
}

// skew counts, per domain of key, the pods in namespace default with labels
// kv (pending ones placed by the plan and those already on nodes), and
// returns the non-zero counts sorted, as Karpenter's ExpectSkew.
func (o outcome) skew(key string, kv ...string) []int {
	sel := requirements.FromLabels(kvMap(kv))
	counts := map[string]int{}
	for i := range o.prob.Nodes {
		n := &o.prob.Nodes[i]
		for _, p := range n.Pods {
			if d, ok := nodeLabel(n, key); ok && p.Namespace == "default" && sel.Matches(p.Labels) == nil {
				counts[d]++
			}
		}
	}
	for i, p := range o.prob.Pods {
		if d, ok := o.labelOf(o.byIx[i], key); ok && sel.Matches(p.Labels) == nil {
			counts[d]++
		}
	}
	out := slices.Collect(maps.Values(counts))
	slices.Sort(out)
	return out
}

// types returns the chosen instance type of every claim, sorted.
func (o outcome) types() []string {
	out := []string{}
	for _, c := range o.plan.NodeClaims {
		out = append(out, c.InstanceType)
	}
	slices.Sort(out)
	return out
}

func odOffering(zone string, dollars float64) instancetypes.Offering {
	return instancetypes.Offering{Zone: zone, CapacityType: instancetypes.OnDemand, Price: instancetypes.MustPriceFromDollars(dollars), Available: true}
}

func spotOffering(zone string, dollars float64) instancetypes.Offering {
	return instancetypes.Offering{Zone: zone, CapacityType: instancetypes.Spot, Price: instancetypes.MustPriceFromDollars(dollars), Available: true}
}
