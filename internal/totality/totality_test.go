package totality_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/planview"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/nodeplan/nodeplan/static"
)

var now = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// hostile are problemgen's hostile strings and a few that only a parser
// of numbers or durations meets.
func hostile() []string {
	return append(problemgen.HostileStrings(), "1e2147483648", "-1", "1e400", "0x10", "NaN", "-5m", "9223372036854775808",
		"*/5 * * * *", "@every 1h", "100%", "101%", "-1%")
}

// world is a small valid snapshot that every case breaks in one field: a
// pool, two nodes (one running a pod under a PDB and launched from an old
// image, so drift acts on it), a pending pod with every kind of string
// that needs a new node, a daemonset, and a NodeClass.
type world struct {
	drift.Cluster
	pending []packing.Pod
}

func newWorld(t testing.TB) *world {
	cat := catalog(t)
	np := packing.NodePool{Name: "default", Labels: map[string]string{"team": "web"},
		Requirements: requirements.MustParse(requirements.Expression{Key: requirements.LabelCapacityType, Operator: requirements.In,
			Values: []string{"on-demand", "spot"}}),
		Taints:        []requirements.Taint{{Key: "dedicated", Value: "web", Effect: requirements.NoSchedule}},
		StartupTaints: []requirements.Taint{{Key: "startup", Effect: requirements.NoSchedule}},
		Limits:        map[resources.Name]int64{resources.CPU: 1000_000},
		Disruption:    packing.Disruption{Budgets: []packing.Budget{{Nodes: "100%", Reasons: []string{"Drifted", "Underutilized", "Empty", "Expired"}}}}}
	tpl := drift.Template{NodePool: np, Annotations: map[string]string{"owner": "ops"},
		NodeClassRef: drift.NodeClassRef{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"}}
	class := drift.NodeClass{Name: "default", ImageIDs: []string{"ami-new"}, Subnets: []string{"subnet-a"},
		SecurityGroups: []string{"sg-1"}, Role: "role", Tags: map[string]string{"env": "prod"}}
	w := &world{Cluster: drift.Cluster{Input: drift.Input{
		NodePools: []drift.Template{tpl}, NodeClasses: map[string]drift.NodeClass{"default": class}, Catalog: cat, Now: now},
		DaemonSets: []packing.DaemonSet{{Name: "agent", Requests: resources.List{CPU: 50},
			Tolerations: []requirements.Toleration{{Operator: requirements.TolerateExists}}}},
		PDBs: []disruption.PDB{{Namespace: "default", Name: "db", DisruptionsAllowed: 1,
			Selector: requirements.FromLabels(map[string]string{"app": "db"})}}}}
	db := pod("db-0", "db")
	w.Nodes = []drift.NodeClaimState{w.state("n1", "m5.large", "zone-a", instancetypes.OnDemand, "ami-old", db),
		w.state("n2", "c5.large", "zone-b", instancetypes.Spot, "ami-new")}
	web := pod("web-0", "web")
	web.Requests.CPU = 3000 // more than a node has left: Solve opens a claim and pins its domains
	web.TopologySpread = []packing.TopologySpread{{TopologyKey: requirements.LabelZone, MaxSkew: 1, MatchLabelKeys: []string{"app"},
		Selector: requirements.FromLabels(map[string]string{"tier": "front"})}}
	web.AntiAffinity = []packing.PodAffinityTerm{{TopologyKey: requirements.LabelHostname, Namespaces: []string{"default"},
		Selector: requirements.FromLabels(map[string]string{"app": "web"})}}
	web.HostPorts = []packing.HostPort{{Port: 8080, Protocol: "TCP", IP: "0.0.0.0"}}
	web.Tolerations = []requirements.Toleration{{Key: "dedicated", Value: "web", Effect: requirements.NoSchedule},
		{Key: "startup", Operator: requirements.TolerateExists}}
	w.pending = []packing.Pod{web}
	return w
}

func (w *world) state(name, typ, zone string, ct instancetypes.CapacityType, image string, pods ...packing.Pod) drift.NodeClaimState {
	it, _ := w.Catalog.Get(typ)
	tpl := w.NodePools[0]
	n := packing.Node{Name: name, NodePool: "default", InstanceType: typ, Zone: zone, CapacityType: ct, Initialized: true,
		Allocatable: it.Allocatable, Price: it.Offerings[0].Price, CreationTime: now.Add(-2 * time.Hour), Pods: pods,
		Labels: map[string]string{requirements.LabelHostname: name, requirements.LabelZone: zone, "team": "web",
			requirements.LabelInstanceType: typ, requirements.LabelCapacityType: ct.String(), requirements.LabelNodePool: "default"},
		Taints:      []requirements.Taint{{Key: "dedicated", Value: "web", Effect: requirements.NoSchedule}},
		Annotations: map[string]string{"example.com/note": "x"}}
	return drift.NodeClaimState{Node: n, NodePoolHash: tpl.Hash(), NodePoolHashVersion: drift.HashVersion,
		Image: image, Subnet: "subnet-a", SecurityGroups: []string{"sg-1"},
		NodeClassHash: w.NodeClasses["default"].Hash(), NodeClassHashVersion: drift.NodeClassHashVersion,
		PodGracePeriods: map[string]time.Duration{"default/db-0": time.Minute}}
}

func pod(name, app string) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, UID: "uid-" + name, Labels: map[string]string{"app": app, "tier": "front"},
		Requests: resources.List{CPU: 250, Memory: 256 << 20}, CreationTime: now.Add(-time.Hour), Owner: "ReplicaSet/" + app,
		Tolerations: []requirements.Toleration{{Key: "dedicated", Operator: requirements.TolerateExists}}}
}

func catalog(t testing.TB) *instancetypes.Catalog {
	var types []instancetypes.InstanceType
	for i, name := range []string{"c5.large", "m5.large", "m5.xlarge"} {
		cpu := int64(2+2*(i/2)) * 1000
		it := instancetypes.InstanceType{Name: name, Capacity: resources.List{CPU: cpu, Memory: cpu << 22, Pods: 29},
			Requirements: requirements.MustParse(requirements.Expression{Key: requirements.LabelOS, Operator: requirements.In, Values: []string{"linux"}})}
		for _, z := range []string{"zone-a", "zone-b"} {
			p := instancetypes.Price(int64(i+1) * 90_000_000)
			it.Offerings = append(it.Offerings, instancetypes.Offering{Zone: z, CapacityType: instancetypes.OnDemand, Price: p, Available: true},
				instancetypes.Offering{Zone: z, CapacityType: instancetypes.Spot, Price: p / 3, Available: true})
		}
		types = append(types, it)
	}
	c, err := instancetypes.New(types)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The accessors of the world's objects, each returning the one a setter
// changes.
func (w *world) web() *packing.Pod         { return &w.pending[0] }
func (w *world) n1() *drift.NodeClaimState { return &w.Nodes[0] }
func (w *world) db() *packing.Pod          { return &w.Nodes[0].Node.Pods[0] }
func (w *world) pool() *packing.NodePool   { return &w.NodePools[0].NodePool }

func (w *world) problem() packing.Problem {
	p := packing.Problem{Pods: w.pending, Catalog: w.Catalog, DaemonSets: w.DaemonSets}
	for _, t := range w.NodePools {
		p.NodePools = append(p.NodePools, t.NodePool)
	}
	for _, s := range w.Nodes {
		p.Nodes = append(p.Nodes, s.Node)
	}
	return p
}

func (w *world) consolidation() consolidation.Cluster {
	p := w.problem()
	return consolidation.Cluster{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: p.Catalog, Pending: p.Pods,
		DaemonSets: p.DaemonSets, PDBs: w.PDBs, Now: now}
}

// stringFields put s in one string field of the world each.
var stringFields = []struct {
	name string
	set  func(w *world, s string)
}{
	{"pod.namespace", func(w *world, s string) { w.web().Namespace = s }},
	{"pod.name", func(w *world, s string) { w.web().Name = s }},
	{"pod.uid", func(w *world, s string) { w.web().UID = s }},
	{"pod.labels key", func(w *world, s string) { w.web().Labels[s] = "x" }},
	{"pod.labels value (matchLabelKeys)", func(w *world, s string) { w.web().Labels["app"] = s }},
	{"pod.owner", func(w *world, s string) { w.web().Owner = s }},
	{"pod.doNotDisrupt", func(w *world, s string) { w.web().DoNotDisrupt = s }},
	{"pod.topologySpread.topologyKey", func(w *world, s string) { w.web().TopologySpread[0].TopologyKey = s }},
	{"pod.topologySpread.matchLabelKeys", func(w *world, s string) { w.web().TopologySpread[0].MatchLabelKeys = []string{s} }},
	{"pod.antiAffinity.topologyKey", func(w *world, s string) { w.web().AntiAffinity[0].TopologyKey = s }},
	{"pod.antiAffinity.namespaces", func(w *world, s string) { w.web().AntiAffinity[0].Namespaces = []string{s} }},
	{"pod.hostPorts.protocol", func(w *world, s string) { w.web().HostPorts[0].Protocol = s }},
	{"pod.hostPorts.ip", func(w *world, s string) { w.web().HostPorts[0].IP = s }},
	{"pod.tolerations.key", func(w *world, s string) { w.web().Tolerations[0].Key = s }},
	{"pod.tolerations.value", func(w *world, s string) { w.web().Tolerations[0].Value = s }},
	{"bound pod.name", func(w *world, s string) { w.db().Name = s }},
	{"bound pod.labels value", func(w *world, s string) { w.db().Labels["app"] = s }},
	{"bound pod.owner", func(w *world, s string) { w.db().Owner = s }},
	{"terminating bound pod.owner", func(w *world, s string) { w.db().Owner, w.db().Terminating = s, true }},
	{"bound daemonset pod.namespace", func(w *world, s string) { w.db().Namespace, w.db().Owner = s, "DaemonSet/agent" }},
	{"bound pod.doNotDisrupt", func(w *world, s string) { w.db().DoNotDisrupt = s }},
	{"node.name", func(w *world, s string) { w.n1().Node.Name = s }},
	{"node.name without a hostname label", func(w *world, s string) {
		w.n1().Node.Name = s
		delete(w.n1().Node.Labels, requirements.LabelHostname)
	}},
	{"node.nodePool", func(w *world, s string) { w.n1().Node.NodePool = s }},
	{"node.instanceType", func(w *world, s string) {
		w.n1().Node.InstanceType = s
		delete(w.n1().Node.Labels, requirements.LabelInstanceType)
	}},
	{"node.zone", func(w *world, s string) {
		w.n1().Node.Zone = s
		delete(w.n1().Node.Labels, requirements.LabelZone)
	}},
	{"node.labels key", func(w *world, s string) { w.n1().Node.Labels[s] = "x" }},
	{"node.labels value (a pod spreads on it)", func(w *world, s string) {
		w.n1().Node.Labels["rack"] = s
		w.web().TopologySpread = append(w.web().TopologySpread, packing.TopologySpread{TopologyKey: "rack", MaxSkew: 1})
	}},
	{"node.taints key", func(w *world, s string) { w.n1().Node.Taints[0].Key = s }},
	{"node.taints value", func(w *world, s string) { w.n1().Node.Taints[0].Value = s }},
	{"node.annotations key", func(w *world, s string) { w.n1().Node.Annotations[s] = "true" }},
	{"node.annotations do-not-disrupt", func(w *world, s string) { w.n1().Node.Annotations[disruption.AnnotationDoNotDisrupt] = s }},
	{"state.image", func(w *world, s string) { w.n1().Image = s }},
	{"state.subnet", func(w *world, s string) { w.n1().Subnet = s }},
	{"state.securityGroups", func(w *world, s string) { w.n1().SecurityGroups = []string{s} }},
	{"state.nodePoolHash", func(w *world, s string) { w.n1().NodePoolHash = s }},
	{"state.nodeClassHashVersion", func(w *world, s string) { w.n1().NodeClassHashVersion = s }},
	{"state.podGracePeriods key", func(w *world, s string) { w.n1().PodGracePeriods[s] = time.Second }},
	{"pool.name", func(w *world, s string) { w.pool().Name = s }},
	{"pool.name with its nodes", func(w *world, s string) {
		w.pool().Name = s
		for i := range w.Nodes {
			w.Nodes[i].Node.NodePool = s
			delete(w.Nodes[i].Node.Labels, requirements.LabelNodePool)
		}
	}},
	{"pool.labels key", func(w *world, s string) { w.pool().Labels[s] = "x" }},
	{"pool.labels value", func(w *world, s string) { w.pool().Labels["team"] = s }},
	{"pool.taints key", func(w *world, s string) { w.pool().Taints[0].Key = s }},
	{"pool.startupTaints value", func(w *world, s string) { w.pool().StartupTaints[0].Value = s }},
	{"pool.budgets.nodes", func(w *world, s string) { w.pool().Disruption.Budgets[0].Nodes = s }},
	{"pool.budgets.schedule", func(w *world, s string) {
		w.pool().Disruption.Budgets[0].Schedule, w.pool().Disruption.Budgets[0].Duration = s, time.Hour
	}},
	{"pool.budgets.reasons", func(w *world, s string) { w.pool().Disruption.Budgets[0].Reasons = []string{s} }},
	{"template.annotations key", func(w *world, s string) { w.NodePools[0].Annotations[s] = "x" }},
	{"template.nodeClassRef.name", func(w *world, s string) { w.NodePools[0].NodeClassRef.Name = s }},
	{"nodeClass.imageIDs", func(w *world, s string) { w.editClass(func(c *drift.NodeClass) { c.ImageIDs = []string{s} }) }},
	{"nodeClass.role", func(w *world, s string) { w.editClass(func(c *drift.NodeClass) { c.Role = s }) }},
	{"nodeClass.tags key", func(w *world, s string) { w.editClass(func(c *drift.NodeClass) { c.Tags[s] = "x" }) }},
	{"nodeClass.name", func(w *world, s string) { w.editClass(func(c *drift.NodeClass) { c.Name = s }) }},
	{"daemonset.name", func(w *world, s string) { w.DaemonSets[0].Name = s }},
	{"daemonset.namespace", func(w *world, s string) { w.DaemonSets[0].Namespace = s }},
	{"daemonset.tolerations.key", func(w *world, s string) { w.DaemonSets[0].Tolerations[0].Key = s }},
	{"pdb.name", func(w *world, s string) { w.PDBs[0].Name = s }},
	{"pdb.namespace", func(w *world, s string) { w.PDBs[0].Namespace = s }},
}

// editClass changes the world's NodeClass, which the map holds by value.
func (w *world) editClass(f func(c *drift.NodeClass)) {
	c := w.NodeClasses["default"]
	f(&c)
	w.NodeClasses["default"] = c
}

// numberFields put an extreme int64 in one numeric field of the world
// each (truncated to the field's type).
var numberFields = []struct {
	name string
	set  func(w *world, v int64)
}{
	{"pod.requests.cpu", func(w *world, v int64) { w.web().Requests.CPU = v }},
	{"pod.requests.gpu", func(w *world, v int64) { w.web().Requests = w.web().Requests.With(resources.GPU, v) }},
	{"pod.priority", func(w *world, v int64) { w.web().Priority = int32(v) }},
	{"pod.deletionCost", func(w *world, v int64) { w.db().DeletionCost = int32(v) }},
	{"pod.topologySpread.maxSkew", func(w *world, v int64) { w.web().TopologySpread[0].MaxSkew = int32(v) }},
	{"pod.topologySpread.minDomains", func(w *world, v int64) { w.web().TopologySpread[0].MinDomains = int32(v) }},
	{"pod.hostPorts.port", func(w *world, v int64) { w.web().HostPorts[0].Port = int32(v) }},
	{"pod.antiAffinity.weight", func(w *world, v int64) { w.web().AntiAffinity[0].Weight = int32(v) }},
	{"bound pod.requests.memory", func(w *world, v int64) { w.db().Requests.Memory = v }},
	{"node.allocatable.memory", func(w *world, v int64) { w.n1().Node.Allocatable.Memory = v }},
	{"node.allocatable.pods", func(w *world, v int64) { w.n1().Node.Allocatable.Pods = v }},
	{"node.price", func(w *world, v int64) { w.n1().Node.Price = instancetypes.Price(v) }},
	{"node.creationTime", func(w *world, v int64) { w.n1().Node.CreationTime = time.Unix(0, v) }},
	{"pool.weight", func(w *world, v int64) { w.pool().Weight = int32(v) }},
	{"pool.limits.cpu", func(w *world, v int64) { w.pool().Limits[resources.CPU] = v }},
	{"pool.limits.nodes", func(w *world, v int64) { w.pool().Limits[packing.LimitNodes] = v }},
	{"pool.expireAfter", func(w *world, v int64) { w.pool().Disruption.ExpireAfter = time.Duration(v) }},
	{"pool.consolidateAfter", func(w *world, v int64) { w.pool().Disruption.ConsolidateAfter = time.Duration(v) }},
	{"pool.terminationGracePeriod", func(w *world, v int64) { w.pool().Disruption.TerminationGracePeriod = time.Duration(v) }},
	{"pool.budgets.duration", func(w *world, v int64) { w.pool().Disruption.Budgets[0].Duration = time.Duration(v) }},
	{"daemonset.requests.cpu", func(w *world, v int64) { w.DaemonSets[0].Requests.CPU = v }},
	{"pdb.disruptionsAllowed", func(w *world, v int64) { w.PDBs[0].DisruptionsAllowed = int32(v) }},
	{"state.podGracePeriod", func(w *world, v int64) { w.n1().PodGracePeriods["default/db-0"] = time.Duration(v) }},
	{"expiration.gracePeriod", func(w *world, v int64) { w.Expiration.GracePeriod = time.Duration(v) }},
}

// mustNotPanic runs f and fails the test, naming the case, if it panics.
func mustNotPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panicked: %v", what, r)
		}
	}()
	f()
}

// checkWorld drives every entry point that reads a whole snapshot with w
// and reports, naming the case, a panic, an error that names nothing, or a
// result its verifier rejects.
func checkWorld(t *testing.T, name string, w *world) {
	t.Helper()
	p := w.problem()
	mustNotPanic(t, name+": packing", func() { checkPacking(t, name, p) })
	mustNotPanic(t, name+": consolidation", func() { checkConsolidation(t, name, w.consolidation()) })
	mustNotPanic(t, name+": disruption", func() { checkDisruption(w) })
	mustNotPanic(t, name+": drift", func() { checkDrift(t, name, w) })
	mustNotPanic(t, name+": static", func() { checkStatic(t, name, w) })
}

func checkPacking(t *testing.T, name string, p packing.Problem) {
	_ = verify.Plan(p, packing.Plan{})
	plan, err := packing.Solve(p, packing.Options{})
	switch {
	case err != nil && !errors.Is(err, packing.ErrInvalidProblem):
		t.Errorf("%s: packing.Solve: an error that names no field: %v", name, err)
	case err == nil:
		if v := verify.Plan(p, plan); len(v) > 0 {
			t.Errorf("%s: verify.Plan rejects the plan of Solve: %v", name, v)
		}
	}
	view(&p, &plan)
}

// view drives planview with a plan of p: New, and both writers.
func view(p *packing.Problem, plan *packing.Plan) {
	v := planview.New(p, plan)
	_ = v.WriteTable(io.Discard, planview.Options{Wide: true})
	_ = v.WriteSummary(io.Discard, planview.Options{})
}

func checkConsolidation(t *testing.T, name string, c consolidation.Cluster) {
	_ = consolidation.VerifyCommands(c, nil)
	r, err := consolidation.Plan(c, consolidation.Options{Repack: true})
	if err != nil {
		return // every error of Plan names the object and field (see consolidation's tests)
	}
	if v := consolidation.VerifyCommands(c, r.Commands); len(v) > 0 {
		t.Errorf("%s: consolidation.VerifyCommands rejects the commands of Plan: %v", name, v)
	}
	for _, cmd := range r.Commands {
		_ = consolidation.Validate(cmd, c)
	}
}

func checkDisruption(w *world) {
	for _, r := range []disruption.Reason{disruption.Underutilized, disruption.Empty, disruption.Drifted, disruption.Expired} {
		_, _ = disruption.AllowedDisruptions(*w.pool(), w.problem().Nodes, r, now)
	}
	for _, b := range w.pool().Disruption.Budgets {
		_, _ = disruption.Active(b, now)
	}
	for _, s := range w.Nodes {
		disruption.NodeBlocks(s.Node)
		disruption.PDBBlocks(s.Node.Pods, w.PDBs)
		for _, p := range s.Node.Pods {
			disruption.PodBlocks(p, now)
		}
	}
	disruption.Order(w.problem().Nodes)
}

// checkDrift runs Evaluate, Commands and Interruption: an error must wrap
// drift.ErrInvalid, and commands must pass drift.VerifyCommands.
func checkDrift(t *testing.T, name string, w *world) {
	_ = w.Input.Validate()
	notices := []drift.Notice{{Kind: drift.SpotInterruption, Node: "n2", Time: now}, {Kind: drift.StateChange, Node: w.Nodes[0].Node.Name, State: "stopping"}}
	if _, err := drift.Interruption(notices, w.Cluster, w.Catalog, time.Minute); err != nil && !errors.Is(err, drift.ErrInvalid) {
		t.Errorf("%s: drift.Interruption: an error that names no field: %v", name, err)
	}
	findings, err := drift.Evaluate(w.Input)
	if err != nil {
		if !errors.Is(err, drift.ErrInvalid) {
			t.Errorf("%s: drift.Evaluate: an error that names no field: %v", name, err)
		}
		return
	}
	cmds, _, err := drift.Commands(findings, w.Cluster)
	switch {
	case err != nil && !errors.Is(err, drift.ErrInvalid):
		t.Errorf("%s: drift.Commands: an error that names no field: %v", name, err)
	case err == nil:
		if v := drift.VerifyCommands(w.Cluster, cmds); len(v) > 0 {
			t.Errorf("%s: drift.VerifyCommands rejects the commands of Commands: %v", name, v)
		}
	}
}

// checkStatic decides w's pool as a static pool of 1 replica whose nodes
// are drifted NodeClaims: an error must wrap static.ErrInvalid or be a
// budget's, and static.Verify must accept a result.
func checkStatic(t *testing.T, name string, w *world) {
	in := static.Input{Pools: []static.Pool{{NodePool: *w.pool(), Replicas: 1}}, Catalog: w.Catalog, PDBs: w.PDBs, Now: now}
	for _, n := range w.problem().Nodes {
		in.Claims = append(in.Claims, static.Claim{Name: n.Name, NodePool: n.NodePool, Resolved: true, Drifted: true, Node: n})
	}
	var be *disruption.BudgetError
	res, err := static.Decide(in)
	switch {
	case err != nil && !errors.Is(err, static.ErrInvalid) && !errors.As(err, &be):
		t.Errorf("%s: static.Decide: an error that names no field: %v", name, err)
	case err == nil:
		if v := static.Verify(in, res); len(v) > 0 {
			t.Errorf("%s: static.Verify rejects the result of Decide: %v", name, v)
		}
	}
}

func TestHostileStringsInSnapshots(t *testing.T) {
	checkWorld(t, "base", newWorld(t))
	for _, f := range stringFields {
		t.Run(f.name, func(t *testing.T) {
			for _, s := range hostile() {
				w := newWorld(t)
				f.set(w, s)
				checkWorld(t, fmt.Sprintf("%s=%q", f.name, abbrev(s)), w)
			}
		})
	}
}

func TestExtremeNumbersInSnapshots(t *testing.T) {
	for _, f := range numberFields {
		t.Run(f.name, func(t *testing.T) {
			for _, v := range problemgen.ExtremeInts() {
				w := newWorld(t)
				f.set(w, v)
				checkWorld(t, fmt.Sprintf("%s=%d", f.name, v), w)
			}
		})
	}
}

// abbrev shortens long strings in case names.
func abbrev(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%s…(%d bytes)", s[:20], len(s))
	}
	return s
}

// TestHostileStringsInParsers drives the entry points that take strings
// directly: requirements, resources, instancetypes and disruption.
func TestHostileStringsInParsers(t *testing.T) {
	for _, s := range hostile() {
		mustNotPanic(t, fmt.Sprintf("requirements(%q)", abbrev(s)), func() { requirementsEntryPoints(t, s) })
		mustNotPanic(t, fmt.Sprintf("resources(%q)", abbrev(s)), func() { resourcesEntryPoints(t, s) })
		mustNotPanic(t, fmt.Sprintf("instancetypes(%q)", abbrev(s)), func() { instancetypesEntryPoints(t, s) })
		mustNotPanic(t, fmt.Sprintf("disruption(%q)", abbrev(s)), func() { _, _ = disruption.ParseReason(s) })
	}
}

// invalidIf fails when err is nil although valid is false, or the reverse.
func invalidIf(t *testing.T, what string, err error, valid bool) {
	t.Helper()
	if (err == nil) != valid {
		t.Errorf("%s: error %v, want valid=%v", what, err, valid)
	}
}

func requirementsEntryPoints(t *testing.T, s string) {
	keyOK, valueOK := requirements.ValidateKey(s) == nil, requirements.ValidateValue(s) == nil
	for op := range requirements.Operator(8) {
		_, _ = requirements.New(s, op, s)
		_, _ = requirements.New("k", op, s)
		_, _ = requirements.New(s, op)
	}
	_, err := requirements.New(s, requirements.Exists)
	invalidIf(t, "New(key, Exists)", err, keyOK)
	_, err = requirements.New("k", requirements.In, s)
	invalidIf(t, "New(k, In, value)", err, valueOK)
	_, err = requirements.Parse(requirements.Expression{Key: s, Operator: requirements.In, Values: []string{s}, MinValues: 1})
	invalidIf(t, "Parse", err, keyOK && valueOK)
	a, err := requirements.NewNodeAffinity(map[string]string{s: s}, [][]requirements.Expression{{{Key: s, Operator: requirements.Gt, Values: []string{s}}}},
		[]requirements.WeightedTerm{{Weight: 1, Expressions: []requirements.Expression{{Key: "k", Operator: requirements.NotIn, Values: []string{s}}}}})
	if err == nil {
		_ = a.Matches(map[string]string{s: s})
	}
	invalidIf(t, "Taint.Validate", requirements.Taint{Key: s, Value: "v", Effect: requirements.NoSchedule}.Validate(), keyOK)
	invalidIf(t, "Toleration.Validate", requirements.Toleration{Key: "k", Value: s}.Validate(), valueOK)
	_, _ = requirements.ParseEffect(s)
	set := requirements.FromLabels(map[string]string{s: s})
	invalidIf(t, "Set.Validate", set.Validate(), keyOK && valueOK)
	_ = set.String()
	_ = requirements.IsWellKnown(s)
}

func resourcesEntryPoints(t *testing.T, s string) {
	_, _ = resources.ParseQuantity(s)
	_, _ = resources.Parse(map[resources.Name]string{resources.CPU: s, resources.Name(s): "1"})
	if q, err := resources.ParseQuantity(s); err == nil {
		_ = q.String()
		_ = q.MilliValue()
	}
}

func instancetypesEntryPoints(t *testing.T, s string) {
	_, _ = instancetypes.ParseCapacityType(s)
	base := func() instancetypes.InstanceType {
		return instancetypes.InstanceType{Name: "t", Capacity: resources.List{CPU: 1000, Memory: 1 << 30, Pods: 10},
			Offerings: []instancetypes.Offering{{Zone: "z", Price: 1, Available: true}}}
	}
	for _, mutate := range []func(*instancetypes.InstanceType){
		func(it *instancetypes.InstanceType) { it.Name = s },
		func(it *instancetypes.InstanceType) { it.Offerings[0].Zone = s },
		func(it *instancetypes.InstanceType) {
			it.Offerings[0].CapacityType, it.Offerings[0].ReservationID, it.Offerings[0].ReservedUnits = instancetypes.Reserved, s, 1
		},
		func(it *instancetypes.InstanceType) {
			it.Requirements = requirements.FromLabels(map[string]string{"k": s})
		},
	} {
		it := base()
		mutate(&it)
		if c, err := instancetypes.New([]instancetypes.InstanceType{it}); err == nil {
			_, _, _ = c.Cheapest(requirements.Set{})
			_, _ = c.WithAvailability(instancetypes.OfferingKey{InstanceType: s, Zone: s})
		}
	}
	for _, o := range []instancetypes.Options{{Region: s}, {Zones: []string{s}}, {SpotPrice: map[string]float64{s: 1}}} {
		_, _ = instancetypes.Parse(catalogDoc(t, "m5.large"), o)
	}
	_, _ = instancetypes.Parse(catalogDoc(t, s), instancetypes.Options{})
	_, _ = instancetypes.Parse([]byte(s), instancetypes.Options{})
}

// catalogDoc is a one-type catalog file naming its type name.
func catalogDoc(t *testing.T, name string) []byte {
	doc := map[string]any{"source": []string{"test"}, "generated": "2026-01-01", "region_prices": []string{"us-east-1"},
		"instanceTypes": []map[string]any{{"name": name, "family": "m5", "size": "large", "vcpu": 2, "memoryMiB": 8192,
			"gpus": 0, "gpuManufacturer": "", "gpuName": "", "arch": "amd64", "bareMetal": false, "price": map[string]float64{"us-east-1": 0.096}}}}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestExtremeArguments drives the constructors that take numbers.
func TestExtremeArguments(t *testing.T) {
	for _, v := range problemgen.ExtremeInts() {
		n := int(v)
		mustNotPanic(t, fmt.Sprintf("Synthetic(%d)", n), func() {
			c, err := instancetypes.Synthetic(n, 1)
			if (err == nil) != (n >= 0 && n <= instancetypes.MaxSynthetic) || (err == nil && c.Len() != n) {
				t.Errorf("Synthetic(%d): %v", n, err)
			}
		})
	}
	for _, d := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 1e300, math.MaxInt64 / 1e9, 0} {
		mustNotPanic(t, fmt.Sprint("PriceFromDollars ", d), func() { _, _ = instancetypes.PriceFromDollars(d) })
	}
	mustNotPanic(t, "Interruption latencies", func() {
		w := newWorld(t)
		for _, l := range problemgen.ExtremeInts() {
			_, _ = drift.Interruption([]drift.Notice{{Kind: drift.NoticeKind(l & 7), Node: "n2"}}, w.Cluster, w.Catalog, time.Duration(l))
		}
	})
}

// TestHostileResultsInVerifiers hands the verifiers, and planview, results
// no solver would produce: indexes out of range, unknown and hostile
// names, extreme prices. They must report violations (planview: show what
// it can name), never panic.
func TestHostileResultsInVerifiers(t *testing.T) {
	w := newWorld(t)
	p := w.problem()
	plan, err := packing.Solve(p, packing.Options{})
	if err != nil || len(plan.NodeClaims) == 0 {
		t.Fatalf("the world needs a claim: %v %+v", err, plan)
	}
	c := w.consolidation()
	for _, s := range hostile() {
		for _, v := range append(problemgen.ExtremeInts(), 2, 3) {
			name := fmt.Sprintf("%q/%d", abbrev(s), v)
			for i, mutate := range planMutations {
				q := plan
				q.NodeClaims = slices.Clone(plan.NodeClaims)
				q.NodeClaims[0].Pods = slices.Clone(plan.NodeClaims[0].Pods)
				mutate(&q, s, v)
				mustNotPanic(t, fmt.Sprintf("verify.Plan, plan mutation %d, %s", i, name), func() { verify.Plan(p, q) })
				mustNotPanic(t, fmt.Sprintf("planview.New, plan mutation %d, %s", i, name), func() { view(&p, &q) })
			}
			cmd := consolidation.Command{Candidates: []string{s, "n1"}, Savings: instancetypes.Price(v),
				Replacements: []packing.NodeClaim{{Name: s, NodePool: s, InstanceTypes: []string{s}, InstanceType: s, Pods: []int{int(v)}}},
				Homes: []disruption.Home{{Pod: disruption.PodRef{Namespace: s, Name: s}, Node: s},
					{Pod: disruption.PodRef{Namespace: "default", Name: "db-0"}, NodeClaim: s}}}
			mustNotPanic(t, "consolidation.VerifyCommands "+name, func() { consolidation.VerifyCommands(c, []consolidation.Command{cmd}) })
			mustNotPanic(t, "consolidation.Validate "+name, func() { _ = consolidation.Validate(cmd, c) })
			dcmd := drift.Command{Node: s, NodePool: s, Reason: disruption.Reason(v & 0xff),
				Replacements: cmd.Replacements, Homes: []disruption.Home{{Pod: disruption.PodRef{Namespace: s, Name: s}, Node: s, NodeClaim: s}}}
			mustNotPanic(t, "drift.VerifyCommands "+name, func() { drift.VerifyCommands(w.Cluster, []drift.Command{dcmd}) })
		}
	}
}

// planMutations corrupt one part of a plan each.
var planMutations = []func(pl *packing.Plan, s string, v int64){
	func(pl *packing.Plan, s string, v int64) {
		pl.Bindings = append(pl.Bindings, packing.Binding{Pod: int(v), Node: s})
	},
	func(pl *packing.Plan, s string, v int64) {
		pl.NodeClaims[0].Pods = append(pl.NodeClaims[0].Pods, int(v))
	},
	func(pl *packing.Plan, s string, v int64) { pl.NodeClaims[0].InstanceTypes = []string{s} },
	func(pl *packing.Plan, s string, v int64) { pl.NodeClaims[0].InstanceType = s },
	func(pl *packing.Plan, s string, v int64) { pl.NodeClaims[0].NodePool = s },
	func(pl *packing.Plan, s string, v int64) { pl.NodeClaims[0].Name = s },
	func(pl *packing.Plan, s string, v int64) {
		pl.NodeClaims[0].Offering.Zone, pl.NodeClaims[0].Offering.Price = s, instancetypes.Price(v)
	},
	func(pl *packing.Plan, s string, v int64) { pl.Order = append(pl.Order, int(v)) },
	func(pl *packing.Plan, s string, v int64) {
		pl.Unschedulable = append(pl.Unschedulable, packing.Unschedulable{Pod: int(v)})
	},
	func(pl *packing.Plan, s string, v int64) { pl.Price = instancetypes.Price(v) },
	func(pl *packing.Plan, s string, v int64) {
		pl.NodeClaims = append(pl.NodeClaims, packing.NodeClaim{Name: s, Pods: []int{int(v)}})
	},
}
