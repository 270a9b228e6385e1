package verify

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// The fixtures below are built by hand (not by Solve) so that Plan is
// tested independently of the solver.

var (
	vPrice      = instancetypes.MustPriceFromDollars(0.10)
	vLargePrice = instancetypes.MustPriceFromDollars(0.40)
)

func vCPU(s string) resources.List { return resources.MustParse(map[resources.Name]string{"cpu": s}) }

func vList(cpu, mem, pods string) resources.List {
	return resources.MustParse(map[resources.Name]string{"cpu": cpu, "memory": mem, "pods": pods})
}

func vOffering(zone string, ct instancetypes.CapacityType, price instancetypes.Price) instancetypes.Offering {
	return instancetypes.Offering{Zone: zone, CapacityType: ct, Price: price, Available: true}
}

// vCatalog has "small" (4 cpu) and "large" (8 cpu), amd64, in zones a and
// b. small also has an unavailable spot offering in b and a reservation of
// one unit in a.
func vCatalog(t testing.TB) *instancetypes.Catalog {
	arch := requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "amd64"))
	unavailable := vOffering("b", instancetypes.Spot, instancetypes.MustPriceFromDollars(0.04))
	unavailable.Available = false
	reserved := vOffering("a", instancetypes.Reserved, instancetypes.MustPriceFromDollars(0.001))
	reserved.ReservationID, reserved.ReservedUnits = "r-1", 1
	c, err := instancetypes.New([]instancetypes.InstanceType{
		{Name: "small", Requirements: arch, Capacity: vList("4", "8Gi", "10"), Offerings: []instancetypes.Offering{
			vOffering("a", instancetypes.OnDemand, vPrice), vOffering("b", instancetypes.OnDemand, vPrice), unavailable, reserved}},
		{Name: "large", Requirements: arch, Capacity: vList("8", "16Gi", "30"), Offerings: []instancetypes.Offering{
			vOffering("a", instancetypes.OnDemand, vLargePrice), vOffering("b", instancetypes.OnDemand, vLargePrice)}},
	})
	require.NoError(t, err)
	return c
}

// catalogOffering returns the catalog's own copy of an offering.
func catalogOffering(t testing.TB, c *instancetypes.Catalog, typ, zone string, ct instancetypes.CapacityType) instancetypes.Offering {
	it, ok := c.Get(typ)
	require.True(t, ok, typ)
	for _, o := range it.Offerings {
		if o.Zone == zone && o.CapacityType == ct {
			return o
		}
	}
	t.Fatalf("no offering %s/%s/%s", typ, zone, ct)
	return instancetypes.Offering{}
}

func vPod(name, app, cpu string) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, Labels: map[string]string{"app": app}, Requests: vCPU(cpu)}
}

func vLabels(m map[string]string) []requirements.Label {
	return requirements.FromLabels(m).Labels()
}

// claimLabelMap is the label map of a claim of pool default.
func claimLabelMap(zone, ct, typ string) map[string]string {
	return map[string]string{requirements.LabelArch: "amd64", requirements.LabelNodePool: "default",
		requirements.LabelZone: zone, requirements.LabelCapacityType: ct, requirements.LabelInstanceType: typ}
}

func vClaim(t testing.TB, c *instancetypes.Catalog, name, zone string, pods []int, requests resources.List) packing.NodeClaim {
	return packing.NodeClaim{
		Name: name, NodePool: "default",
		Requirements: requirements.NewSet(
			requirements.MustNew(requirements.LabelNodePool, requirements.In, "default"),
			requirements.MustNew(requirements.LabelZone, requirements.In, zone),
			requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand")),
		InstanceTypes: []string{"small", "large"},
		InstanceType:  "small",
		Offering:      catalogOffering(t, c, "small", zone, instancetypes.OnDemand),
		Pods:          pods,
		Requests:      requests,
		Labels:        vLabels(claimLabelMap(zone, "on-demand", "small")),
	}
}

// basic: node-1 (small, zone a, 1 cpu used) gets web-0; claim default-0
// (small, zone a) gets web-1 and web-2 plus the 100m daemonset; huge does
// not fit anywhere.
func basic(t testing.TB) (packing.Problem, packing.Plan) {
	c := vCatalog(t)
	minTypes, err := requirements.MustNew(requirements.LabelInstanceType, requirements.Exists).WithMinValues(2)
	require.NoError(t, err)
	p := packing.Problem{
		Catalog: c,
		Pods:    []packing.Pod{vPod("web-0", "web", "500m"), vPod("web-1", "web", "1"), vPod("web-2", "web", "1"), vPod("huge", "batch", "10")},
		NodePools: []packing.NodePool{{Name: "default",
			Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "amd64"), minTypes),
			Limits:       map[resources.Name]int64{resources.CPU: 8000, packing.LimitNodes: 2}}},
		Nodes: []packing.Node{{Name: "node-1", NodePool: "default", InstanceType: "small", Zone: "a", Initialized: true,
			Labels: map[string]string{requirements.LabelArch: "amd64"}, Allocatable: vList("4", "8Gi", "10"),
			Pods: []packing.Pod{vPod("sys-0", "sys", "1")}}},
		DaemonSets: []packing.DaemonSet{{Name: "logs", Requests: vCPU("100m")}},
	}
	plan := packing.Plan{
		Bindings:      []packing.Binding{{Pod: 0, Node: "node-1"}},
		NodeClaims:    []packing.NodeClaim{vClaim(t, c, "default-0", "a", []int{1, 2}, vCPU("2100m").With(resources.Pods, 3))},
		Unschedulable: []packing.Unschedulable{{Pod: 3, Reason: packing.Reason{Kind: packing.Insufficient, Message: "no instance type has 10 cpu"}}},
		Order:         []int{0, 1, 2},
		Price:         vPrice,
	}
	return p, plan
}

// Topology fixture pod indexes.
const (
	tWeb0 = iota
	tWeb1
	tWeb2
	tWeb3
	tAPI
	tSolo0
	tSolo1
)

func zoneSpread() packing.TopologySpread {
	return packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 1,
		Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "web"))}
}

func appTerm(key, app string) packing.PodAffinityTerm {
	return packing.PodAffinityTerm{TopologyKey: key, Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, app))}
}

// topo: web-0..3 spread over zones a and b (maxSkew 1); api-0 needs a db
// pod in its zone (db-0 runs on node-1 in zone a); solo-0 and solo-1 repel
// each other per host.
func topo(t testing.TB) (packing.Problem, packing.Plan) {
	c := vCatalog(t)
	pods := []packing.Pod{vPod("web-0", "web", "500m"), vPod("web-1", "web", "500m"), vPod("web-2", "web", "500m"),
		vPod("web-3", "web", "500m"), vPod("api-0", "api", "500m"), vPod("solo-0", "solo", "500m"), vPod("solo-1", "solo", "500m")}
	for i := tWeb0; i <= tWeb3; i++ {
		pods[i].TopologySpread = []packing.TopologySpread{zoneSpread()}
	}
	pods[tAPI].Affinity = []packing.PodAffinityTerm{appTerm(requirements.LabelZone, "db")}
	pods[tSolo0].AntiAffinity = []packing.PodAffinityTerm{appTerm(requirements.LabelHostname, "solo")}
	pods[tSolo1].AntiAffinity = []packing.PodAffinityTerm{appTerm(requirements.LabelHostname, "solo")}
	p := packing.Problem{
		Catalog: c,
		Pods:    pods,
		NodePools: []packing.NodePool{{Name: "default", Requirements: requirements.NewSet(
			requirements.MustNew(requirements.LabelArch, requirements.In, "amd64"),
			requirements.MustNew(requirements.LabelZone, requirements.In, "a", "b"))}},
		Nodes: []packing.Node{{Name: "node-1", InstanceType: "small", Zone: "a", Initialized: true,
			Allocatable: vList("4", "8Gi", "10"), Pods: []packing.Pod{vPod("db-0", "db", "3")}}},
	}
	plan := packing.Plan{
		NodeClaims: []packing.NodeClaim{
			vClaim(t, c, "zone-a", "a", []int{tWeb0, tWeb1, tAPI, tSolo0}, vCPU("2").With(resources.Pods, 4)),
			vClaim(t, c, "zone-b", "b", []int{tWeb2, tWeb3, tSolo1}, vCPU("1500m").With(resources.Pods, 3)),
		},
		Order: []int{tWeb0, tWeb2, tWeb1, tWeb3, tAPI, tSolo0, tSolo1},
		Price: 2 * vPrice,
	}
	return p, plan
}

// movePod moves pod from claim index from to claim index to, keeping the
// claims' Requests as they were.
func movePod(plan *packing.Plan, pod, from, to int) {
	plan.NodeClaims[from].Pods = slices.DeleteFunc(slices.Clone(plan.NodeClaims[from].Pods), func(i int) bool { return i == pod })
	plan.NodeClaims[to].Pods = append(slices.Clone(plan.NodeClaims[to].Pods), pod)
}

// useReserved switches claim i to the reserved offering of small in a.
func useReserved(t testing.TB, p *packing.Problem, plan *packing.Plan, i int) {
	c := &plan.NodeClaims[i]
	old := c.Offering.Price
	c.Offering = catalogOffering(t, p.Catalog, "small", "a", instancetypes.Reserved)
	c.Requirements = c.Requirements.Without(requirements.LabelCapacityType)
	c.Labels = vLabels(claimLabelMap("a", "reserved", "small"))
	plan.Price += c.Offering.Price - old
}

// rackSpread moves topo's web pods to a spread on the custom key rack,
// whose domains are NodePool labels: default's r1, which both claims
// carry, and r2, the label of a second pool no claim comes from.
func rackSpread(p *packing.Problem, plan *packing.Plan) {
	p.NodePools[0].Labels = map[string]string{"rack": "r1"}
	other := p.NodePools[0]
	other.Name, other.Labels = "other", map[string]string{"rack": "r2"}
	p.NodePools = append(slices.Clone(p.NodePools), other)
	for i := range plan.NodeClaims {
		c := &plan.NodeClaims[i]
		c.Requirements = c.Requirements.Add(requirements.MustNew("rack", requirements.In, "r1"))
		c.Labels = append(slices.Clone(c.Labels), requirements.Label{Key: "rack", Value: "r1"})
	}
	for i := tWeb0; i <= tWeb3; i++ {
		s := zoneSpread()
		s.TopologyKey = "rack"
		p.Pods[i].TopologySpread = []packing.TopologySpread{s}
	}
}

func rulesOf(vs []Violation) []Rule {
	var out []Rule
	for _, v := range vs {
		out = append(out, v.Rule)
	}
	return out
}

type fixtureFunc func(testing.TB) (packing.Problem, packing.Plan)

func TestPlanValid(t *testing.T) {
	tests := []struct {
		name    string
		fixture fixtureFunc
		mutate  func(t testing.TB, p *packing.Problem, plan *packing.Plan)
	}{
		{"basic", basic, nil},
		{"topology", topo, nil},
		{"empty problem and plan", func(testing.TB) (packing.Problem, packing.Plan) { return packing.Problem{}, packing.Plan{} }, nil},
		{"PreferNoSchedule pool taint is relaxable", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.NodePools[0].Taints = []requirements.Taint{{Key: "soft", Effect: requirements.PreferNoSchedule}}
		}},
		{"uninitialized node ignores startup and not-ready taints", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			startup := requirements.Taint{Key: "cni", Value: "pending", Effect: requirements.NoSchedule}
			p.NodePools[0].StartupTaints = []requirements.Taint{startup}
			p.Nodes[0].Initialized = false
			p.Nodes[0].Taints = []requirements.Taint{startup, {Key: "node.kubernetes.io/not-ready", Effect: requirements.NoExecute},
				{Key: "soft", Effect: requirements.PreferNoSchedule}}
		}},
		{"tolerated node taint", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Nodes[0].Taints = []requirements.Taint{{Key: "team", Value: "x", Effect: requirements.NoSchedule}}
			p.Pods[0].Tolerations = []requirements.Toleration{{Key: "team", Value: "x"}}
		}},
		{"host ports on different protocols or addresses", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Nodes[0].Pods[0].HostPorts = []packing.HostPort{{Port: 80}, {Port: 53, Protocol: "UDP", IP: "10.0.0.1"}}
			p.Pods[0].HostPorts = []packing.HostPort{{Port: 80, Protocol: "UDP"}, {Port: 53, Protocol: "UDP", IP: "10.0.0.2"}}
		}},
		{"reserved offering within its units", basic, func(t testing.TB, p *packing.Problem, plan *packing.Plan) {
			useReserved(t, p, plan, 0)
		}},
		{"daemonset that does not tolerate the pool is no overhead", basic, func(_ testing.TB, p *packing.Problem, plan *packing.Plan) {
			p.NodePools[0].Taints = []requirements.Taint{{Key: "dedicated", Effect: requirements.NoSchedule}}
			for i := range p.Pods {
				p.Pods[i].Tolerations = []requirements.Toleration{{Key: "dedicated", Operator: requirements.TolerateExists}}
			}
			plan.NodeClaims[0].Requests = vCPU("2").With(resources.Pods, 2)
		}},
		{"Honor policy restricts spread domains to the pod's affinity", topo, func(_ testing.TB, p *packing.Problem, plan *packing.Plan) {
			zoneA := requirements.NewSet(requirements.MustNew(requirements.LabelZone, requirements.In, "a"))
			for i := tWeb0; i <= tWeb3; i++ {
				p.Pods[i].NodeAffinity = requirements.NodeAffinity{Selector: zoneA}
			}
			movePod(plan, tWeb2, 1, 0)
			movePod(plan, tWeb3, 1, 0)
			plan.NodeClaims[0].Requests = vCPU("3").With(resources.Pods, 6)
			plan.NodeClaims[1].Requests = vCPU("500m").With(resources.Pods, 1)
		}},
		{"first pod of a self-affine group", topo, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Pods[tWeb0].Affinity = []packing.PodAffinityTerm{appTerm(requirements.LabelZone, "web")}
		}},
		{"preferred terms are not required", topo, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Pods[tAPI].Affinity[0].Weight = 10
			p.Pods[tAPI].Affinity[0].Selector = requirements.NewSet(requirements.MustNew("app", requirements.In, "nothing"))
			p.Pods[tWeb1].TopologySpread[0].WhenUnsatisfiable = packing.ScheduleAnyway
			p.Pods[tWeb1].TopologySpread[0].MaxSkew = 0
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, plan := tc.fixture(t)
			if tc.mutate != nil {
				tc.mutate(t, &p, &plan)
			}
			assert.Empty(t, Plan(p, plan))
		})
	}
}

func TestPlanMutations(t *testing.T) {
	tests := []struct {
		name    string
		fixture fixtureFunc
		mutate  func(t testing.TB, p *packing.Problem, plan *packing.Plan)
		want    Rule
		only    bool // no other rule may be reported
	}{
		{"pod dropped", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) { plan.Unschedulable = nil }, RulePodLost, true},
		{"pod duplicated", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.Unschedulable = append(plan.Unschedulable, packing.Unschedulable{Pod: 1, Reason: packing.Reason{Message: "x"}})
		}, RulePodDuplicated, true},
		{"order misses a pod", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) { plan.Order = []int{0, 1} }, RuleOrderMismatch, true},
		{"order lists an unschedulable pod", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.Order = append(plan.Order, 3)
		}, RuleOrderMismatch, true},
		{"order lists a pod twice", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.Order = append(plan.Order, 0)
		}, RuleOrderMismatch, true},
		{"binding to a missing node", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) { plan.Bindings[0].Node = "ghost" }, RuleUnknownNode, true},
		{"claim named as a node", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) { p.Nodes[0].Name = "default-0" }, RuleClaimName, false},
		{"claim named as a node's hostname", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Nodes[0].Labels = map[string]string{requirements.LabelArch: "amd64", requirements.LabelHostname: "default-0"}
		}, RuleClaimName, true},
		{"two claims of one name", basic, func(t testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.NodeClaims = append(plan.NodeClaims, vClaim(t, vCatalog(t), "default-0", "a", nil, vCPU("100m")))
		}, RuleClaimName, false},
		{"binding to a node marked for deletion", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Nodes[0].MarkedForDeletion = true
		}, RuleUnknownNode, false},
		{"displaced pod bound to a settling node", basic, func(_ testing.TB, p *packing.Problem, plan *packing.Plan) {
			n := slices.IndexFunc(p.Nodes, func(n packing.Node) bool { return n.Name == plan.Bindings[0].Node })
			p.Nodes[n].Settling, p.Pods[plan.Bindings[0].Pod].Displaced = true, true
		}, RuleUnknownNode, true},
		{"pod index out of range", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.Bindings = append(plan.Bindings, packing.Binding{Pod: 99, Node: "node-1"})
		}, RuleUnknownPod, true},
		{"existing node over capacity", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Pods[0].Requests = vCPU("3500m")
		}, RuleOverCapacity, true},
		{"existing node out of pod slots", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Nodes[0].Allocatable = p.Nodes[0].Allocatable.With(resources.Pods, 1)
		}, RuleOverCapacity, true},
		{"claim over capacity of a candidate", basic, func(_ testing.TB, p *packing.Problem, plan *packing.Plan) {
			p.Pods[1].Requests = vCPU("3")
			plan.NodeClaims[0].Requests = vCPU("4100m").With(resources.Pods, 3)
		}, RuleOverCapacity, true},
		{"claim requests wrong", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.NodeClaims[0].Requests = vCPU("2").With(resources.Pods, 2)
		}, RuleRequestsMismatch, true},
		{"node selector not met on claim", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Pods[1].NodeAffinity.Selector = requirements.NewSet(requirements.MustNew(requirements.LabelZone, requirements.In, "b"))
		}, RuleNodeAffinity, true},
		{"hostname DoesNotExist on a claim", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Pods[1].NodeAffinity.Required = []requirements.Set{requirements.NewSet(requirements.MustNew(requirements.LabelHostname, requirements.DoesNotExist))}
		}, RuleNodeAffinity, true},
		{"hostname In the claim's name (unknown until launch)", basic, func(_ testing.TB, p *packing.Problem, plan *packing.Plan) {
			p.Pods[1].NodeAffinity.Selector = requirements.NewSet(requirements.MustNew(requirements.LabelHostname, requirements.In, plan.NodeClaims[0].Name))
		}, RuleNodeAffinity, true},
		{"required node affinity not met on node", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Pods[0].NodeAffinity.Required = []requirements.Set{
				requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "arm64")),
				requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, "large"))}
		}, RuleNodeAffinity, true},
		{"untolerated pool taint", basic, func(_ testing.TB, p *packing.Problem, plan *packing.Plan) {
			p.NodePools[0].Taints = []requirements.Taint{{Key: "dedicated", Effect: requirements.NoSchedule}}
			plan.NodeClaims[0].Requests = vCPU("2").With(resources.Pods, 2)
		}, RuleTaint, true},
		{"untolerated node taint", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Nodes[0].Taints = []requirements.Taint{{Key: "team", Value: "x", Effect: requirements.NoExecute}}
		}, RuleTaint, true},
		{"initialized node keeps its startup taint", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			startup := requirements.Taint{Key: "cni", Value: "pending", Effect: requirements.NoSchedule}
			p.NodePools[0].StartupTaints = []requirements.Taint{startup}
			p.Nodes[0].Taints = []requirements.Taint{startup}
		}, RuleTaint, true},
		{"unknown NodePool", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) { plan.NodeClaims[0].NodePool = "ghost" }, RuleNodePoolRequirement, true},
		{"claim label breaks the pool", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			l := claimLabelMap("a", "on-demand", "small")
			l[requirements.LabelArch] = "arm64"
			plan.NodeClaims[0].Labels = vLabels(l)
		}, RuleNodePoolRequirement, true},
		{"candidate type outside the pool", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.NodePools[0].Requirements = p.NodePools[0].Requirements.Add(
				requirements.MustNew(requirements.LabelInstanceType, requirements.NotIn, "large"))
		}, RuleNodePoolRequirement, false},
		{"minValues not kept", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.NodeClaims[0].InstanceTypes = []string{"small"}
		}, RuleMinValues, true},
		{"cpu limit exceeded", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.NodePools[0].Limits[resources.CPU] = 7999
		}, RuleLimit, true},
		{"node count limit exceeded", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.NodePools[0].Limits[packing.LimitNodes] = 1
		}, RuleLimit, true},
		{"offering not in the catalog", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.NodeClaims[0].Offering.Price++
			plan.Price++
		}, RuleOffering, true},
		{"unavailable offering", basic, func(t testing.TB, p *packing.Problem, plan *packing.Plan) {
			c := &plan.NodeClaims[0]
			c.Offering = catalogOffering(t, p.Catalog, "small", "b", instancetypes.Spot)
			c.Requirements = c.Requirements.Without(requirements.LabelZone, requirements.LabelCapacityType)
			c.Labels = vLabels(claimLabelMap("b", "spot", "small"))
			plan.Price = c.Offering.Price
		}, RuleOffering, true},
		{"offering incompatible with the claim", basic, func(t testing.TB, p *packing.Problem, plan *packing.Plan) {
			c := &plan.NodeClaims[0]
			c.Offering = catalogOffering(t, p.Catalog, "small", "b", instancetypes.OnDemand)
			c.Labels = vLabels(claimLabelMap("b", "on-demand", "small"))
		}, RuleOffering, true},
		{"zone label disagrees with the offering", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.NodeClaims[0].Labels = vLabels(claimLabelMap("b", "on-demand", "small"))
		}, RuleOffering, true},
		{"reservation over-used", basic, func(t testing.TB, p *packing.Problem, plan *packing.Plan) {
			second := vClaim(t, p.Catalog, "default-1", "a", []int{2}, vCPU("1100m").With(resources.Pods, 2))
			plan.NodeClaims[0].Pods = []int{1}
			plan.NodeClaims[0].Requests = vCPU("1100m").With(resources.Pods, 2)
			plan.NodeClaims = append(plan.NodeClaims, second)
			plan.Price += second.Offering.Price
			p.NodePools[0].Limits = nil
			useReserved(t, p, plan, 0)
			useReserved(t, p, plan, 1)
		}, RuleReservation, true},
		{"wrong price", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) { plan.Price++ }, RulePriceMismatch, true},
		{"host port clash with a bound pod", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Nodes[0].Pods[0].HostPorts = []packing.HostPort{{Port: 8080, IP: "0.0.0.0"}}
			p.Pods[0].HostPorts = []packing.HostPort{{Port: 8080, Protocol: "TCP", IP: "10.0.0.1"}}
		}, RuleHostPort, true},
		{"host port clash on a claim", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Pods[1].HostPorts = []packing.HostPort{{Port: 53, Protocol: "UDP"}}
			p.Pods[2].HostPorts = []packing.HostPort{{Port: 53, Protocol: "UDP", IP: "::"}}
		}, RuleHostPort, true},
		{"unknown candidate type", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.NodeClaims[0].InstanceTypes = []string{"small", "large", "ghost"}
		}, RuleUnknownInstanceType, true},
		{"chosen type not a candidate", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.NodeClaims[0].InstanceTypes = []string{"large"}
			plan.NodeClaims[0].Requests = vCPU("2100m").With(resources.Pods, 3)
		}, RuleUnknownInstanceType, false},
		{"nil catalog", basic, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) { p.Catalog = nil }, RuleUnknownInstanceType, false},
		{"missing reason", basic, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.Unschedulable[0].Reason.Message = ""
		}, RuleMissingReason, true},

		{"spread broken by the order", topo, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			plan.Order = []int{tWeb0, tWeb1, tWeb2, tWeb3, tAPI, tSolo0, tSolo1}
		}, RuleTopologySpread, true},
		{"spread broken by placement", topo, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			movePod(plan, tWeb3, 1, 0)
			plan.NodeClaims[0].Requests = vCPU("2500m").With(resources.Pods, 5)
			plan.NodeClaims[1].Requests = vCPU("1").With(resources.Pods, 2)
		}, RuleTopologySpread, true},
		{"spread counts only domains the Ignore policy admits", topo, func(_ testing.TB, p *packing.Problem, plan *packing.Plan) {
			zoneA := requirements.NewSet(requirements.MustNew(requirements.LabelZone, requirements.In, "a"))
			for i := tWeb0; i <= tWeb3; i++ {
				p.Pods[i].NodeAffinity = requirements.NodeAffinity{Selector: zoneA}
				p.Pods[i].TopologySpread[0].NodeAffinityPolicy = packing.Ignore
			}
			movePod(plan, tWeb2, 1, 0)
			movePod(plan, tWeb3, 1, 0)
			plan.NodeClaims[0].Requests = vCPU("3").With(resources.Pods, 6)
			plan.NodeClaims[1].Requests = vCPU("500m").With(resources.Pods, 1)
		}, RuleTopologySpread, true},
		{"spread under minDomains", topo, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			for i := tWeb0; i <= tWeb3; i++ {
				p.Pods[i].TopologySpread[0].MinDomains = 3
			}
		}, RuleTopologySpread, true},
		{"spread counts a NodePool label's empty domain", topo, func(_ testing.TB, p *packing.Problem, plan *packing.Plan) {
			rackSpread(p, plan)
		}, RuleTopologySpread, true},
		{"hostname spread", topo, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			for i := tWeb0; i <= tWeb3; i++ {
				s := zoneSpread()
				s.TopologyKey = requirements.LabelHostname
				p.Pods[i].TopologySpread = append(p.Pods[i].TopologySpread, s)
			}
		}, RuleTopologySpread, true},
		{"spread key missing on the node", topo, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			s := zoneSpread()
			s.TopologyKey = "rack"
			p.Pods[tWeb0].TopologySpread = []packing.TopologySpread{s}
		}, RuleTopologySpread, true},
		{"affinity target in another zone", topo, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			movePod(plan, tAPI, 0, 1)
			plan.NodeClaims[0].Requests = vCPU("1500m").With(resources.Pods, 3)
			plan.NodeClaims[1].Requests = vCPU("2").With(resources.Pods, 4)
		}, RulePodAffinity, true},
		{"affinity target placed nowhere", topo, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Nodes[0].Pods = nil
		}, RulePodAffinity, true},
		{"anti-affinity broken", topo, func(_ testing.TB, _ *packing.Problem, plan *packing.Plan) {
			movePod(plan, tSolo1, 1, 0)
			plan.NodeClaims[0].Requests = vCPU("2500m").With(resources.Pods, 5)
			plan.NodeClaims[1].Requests = vCPU("1").With(resources.Pods, 2)
		}, RulePodAntiAffinity, true},
		{"inverse anti-affinity of a bound pod", topo, func(_ testing.TB, p *packing.Problem, _ *packing.Plan) {
			p.Nodes[0].Pods[0].AntiAffinity = []packing.PodAffinityTerm{appTerm(requirements.LabelZone, "web")}
		}, RulePodAntiAffinity, true},
		{"inverse anti-affinity of a pod placed earlier", topo, repelWebs, RulePodAntiAffinity, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, plan := tc.fixture(t)
			require.Empty(t, Plan(p, plan), "fixture must be valid")
			tc.mutate(t, &p, &plan)
			got := Plan(p, plan)
			require.Contains(t, rulesOf(got), tc.want, "%v", got)
			if tc.only {
				for _, v := range got {
					assert.Equal(t, tc.want, v.Rule, "%v", v)
				}
			}
		})
	}
}

// repelWebs gives solo-0, placed first, a required anti-affinity against
// the web pods in its zone.
func repelWebs(_ testing.TB, p *packing.Problem, plan *packing.Plan) {
	p.Pods[tSolo1].AntiAffinity = nil
	p.Pods[tSolo0].AntiAffinity = []packing.PodAffinityTerm{appTerm(requirements.LabelZone, "web")}
	p.Pods[tSolo0].AntiAffinity[0].Namespaces = []string{"default"}
	plan.Order = []int{tSolo0, tWeb0, tWeb2, tWeb1, tWeb3, tAPI, tSolo1}
}

func TestPlanInverseAntiAffinityNamesTheLaterPod(t *testing.T) {
	p, plan := topo(t)
	repelWebs(t, &p, &plan)
	got := Plan(p, plan)
	require.NotEmpty(t, got)
	var pods []int
	for _, v := range got {
		pods = append(pods, v.Pod)
	}
	assert.Equal(t, []int{tWeb0, tWeb1}, pods, "%v", got)
}

func TestRuleString(t *testing.T) {
	tests := []struct {
		rule Rule
		want string
	}{
		{RulePodLost, "PodLost"},
		{RuleMinValues, "MinValues"},
		{RuleMissingReason, "MissingReason"},
		{RuleUnknownPod, "UnknownPod"},
		{Rule(200), "Rule(200)"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tc.rule.String())
	}
	for r := RulePodLost; r <= RuleClaimName; r++ {
		assert.NotContains(t, r.String(), "Rule(", "rule %d has no name", r)
	}
}

func TestViolationString(t *testing.T) {
	v := Violation{Rule: RuleTaint, Pod: 2, Node: "n", Message: "pod a/b on node n: taint x:NoSchedule is not tolerated"}
	assert.Equal(t, "Taint: pod a/b on node n: taint x:NoSchedule is not tolerated", v.String())
}

// corrupt is the mutation [FuzzPlan] applies for one input byte pair.
func corrupt(p *packing.Problem, plan *packing.Plan, op, arg byte) {
	n := int(int8(arg))
	claim := func() *packing.NodeClaim {
		if len(plan.NodeClaims) == 0 {
			plan.NodeClaims = append(plan.NodeClaims, packing.NodeClaim{})
		}
		return &plan.NodeClaims[int(arg)%len(plan.NodeClaims)]
	}
	switch op % 12 {
	case 0:
		plan.Order = append(plan.Order, n)
	case 1:
		plan.Bindings = append(plan.Bindings, packing.Binding{Pod: n, Node: "node-1"})
	case 2:
		claim().Pods = append(claim().Pods, n)
	case 3:
		plan.Unschedulable = append(plan.Unschedulable, packing.Unschedulable{Pod: n})
	case 4:
		p.Catalog = nil
	case 5:
		claim().NodePool = ""
	case 6:
		claim().InstanceType = "ghost"
	case 7:
		p.NodePools = nil
	case 8:
		p.Nodes = nil
	case 9:
		claim().InstanceTypes = nil
	case 10:
		plan.NodeClaims = append(plan.NodeClaims, packing.NodeClaim{Name: "node-1", Pods: []int{n}})
	case 11:
		p.Pods = p.Pods[:int(arg)%(len(p.Pods)+1)]
	}
}

// FuzzPlan corrupts valid plans and problems arbitrarily: Plan must
// not panic, must sort its output, and must be deterministic.
func FuzzPlan(f *testing.F) {
	f.Add(false, []byte{})
	f.Add(false, []byte{0, 200, 1, 99, 2, 255, 3, 7})
	f.Add(true, []byte{4, 0, 5, 0, 6, 1, 9, 0})
	f.Add(true, []byte{7, 0, 8, 0, 10, 3, 11, 2})
	f.Add(false, []byte{11, 0, 0, 0, 2, 1})
	f.Fuzz(func(t *testing.T, topology bool, ops []byte) {
		fixture := fixtureFunc(basic)
		if topology {
			fixture = topo
		}
		p, plan := fixture(t)
		for i := 0; i+1 < len(ops); i += 2 {
			corrupt(&p, &plan, ops[i], ops[i+1])
		}
		got := Plan(p, plan)
		assert.True(t, slices.IsSortedFunc(got, compareViolations), "%v", got)
		assert.Equal(t, got, Plan(p, plan))
		for _, v := range got {
			assert.True(t, v.Pod >= -1 && v.Pod < len(p.Pods), "%v", v)
			assert.NotEmpty(t, v.Message)
		}
	})
}

func TestPlanDoesNotModifyInputs(t *testing.T) {
	p, plan := topo(t)
	p2, plan2 := topo(t)
	p2.Catalog = p.Catalog
	for i := range plan.NodeClaims {
		plan2.NodeClaims[i].Offering = plan.NodeClaims[i].Offering
	}
	plan.Order = []int{tWeb3, tWeb2, tWeb1, tWeb0, 42, -1}
	plan2.Order = []int{tWeb3, tWeb2, tWeb1, tWeb0, 42, -1}
	require.NotEmpty(t, Plan(p, plan))
	assert.Equal(t, p2, p)
	assert.Equal(t, plan2, plan)
}

func TestPlanReportsEachViolationOnceInOrder(t *testing.T) {
	p, plan := basic(t)
	plan.Unschedulable = nil
	plan.Price++
	plan.Bindings[0].Node = "ghost"
	got := Plan(p, plan)
	assert.Equal(t, []Violation{
		{Rule: RulePodLost, Pod: 3, Message: "pod default/huge is neither bound, on a claim, nor unschedulable"},
		{Rule: RuleUnknownNode, Pod: 0, Node: "ghost", Message: `pod default/web-0 is bound to node "ghost", which does not exist`},
		{Rule: RulePriceMismatch, Pod: -1, Message: "plan price is 0.100000001/h but its claims' offerings sum to 0.100000/h"},
	}, got)
}

func BenchmarkPlan(b *testing.B) {
	p, plan := topo(b)
	b.ReportAllocs()
	for b.Loop() {
		Plan(p, plan)
	}
}

// TestPlanTermNamespacesCountApart: two pods with the same required
// anti-affinity term (app=solo per host, no namespaces named) in two
// namespaces count only their own namespace's pods. node-1 runs solo-x in
// default; solo-0 (default) goes to a new node, solo-1 (other) to node-1,
// which holds no solo pod of its namespace: the plan is valid. The replay
// keeps running counts per selector, and these two terms, alike but for
// the namespace, must not share them.
func TestPlanTermNamespacesCountApart(t *testing.T) {
	c := vCatalog(t)
	solo0, solo1 := vPod("solo-0", "solo", "500m"), vPod("solo-1", "solo", "500m")
	solo1.Namespace = "other"
	solo0.AntiAffinity = []packing.PodAffinityTerm{appTerm(requirements.LabelHostname, "solo")}
	solo1.AntiAffinity = []packing.PodAffinityTerm{appTerm(requirements.LabelHostname, "solo")}
	p := packing.Problem{
		Catalog: c,
		Pods:    []packing.Pod{solo0, solo1},
		NodePools: []packing.NodePool{{Name: "default", Requirements: requirements.NewSet(
			requirements.MustNew(requirements.LabelArch, requirements.In, "amd64"))}},
		Nodes: []packing.Node{{Name: "node-1", InstanceType: "small", Zone: "a", Initialized: true,
			Allocatable: vList("4", "8Gi", "10"), Pods: []packing.Pod{vPod("solo-x", "solo", "500m")}}},
	}
	plan := packing.Plan{
		Bindings:   []packing.Binding{{Pod: 1, Node: "node-1"}},
		NodeClaims: []packing.NodeClaim{vClaim(t, c, "zone-a", "a", []int{0}, vCPU("500m").With(resources.Pods, 1))},
		Order:      []int{0, 1},
		Price:      vPrice,
	}
	assert.Empty(t, Plan(p, plan))
	plan.Bindings, plan.NodeClaims[0].Pods = nil, []int{0, 1} // solo-1 beside solo-0: still another namespace
	plan.NodeClaims[0].Requests = vCPU("1").With(resources.Pods, 2)
	assert.Empty(t, Plan(p, plan))
	p.Pods[1].Namespace = "default" // now the two repel each other: solo-1's term, and solo-0's on solo-1
	assert.Equal(t, []Rule{RulePodAntiAffinity, RulePodAntiAffinity}, rulesOf(Plan(p, plan)))
}
