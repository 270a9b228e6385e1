package packing_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// validationBase is a small valid problem every case of TestValidate
// breaks in one field: a pool, a pending pod spread by zone and by its
// labels, and a node with one bound pod.
func validationBase(t *testing.T) packing.Problem {
	bound := mkPod("bound", req("cpu", "100m"), podLabels("app", "db"))
	web := mkPod("web", req("cpu", "100m"), podLabels("app", "web", "rack-group", "r1"),
		spread(packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 1, MatchLabelKeys: []string{"app"}}))
	return packing.Problem{
		Catalog:    buildCatalog(t, defaultTypes()),
		NodePools:  []packing.NodePool{pool("default")},
		Pods:       []packing.Pod{web},
		Nodes:      []packing.Node{mkNode("n1", "default", "default-instance-type", zone1, bound)},
		DaemonSets: []packing.DaemonSet{{Name: "agent", Requests: resources.List{CPU: 10}}},
	}
}

// regionCatalog is the embedded AWS catalog of region (cn-north-1 prices
// in CNY, us-east-1 in USD), built once per region.
func regionCatalog(region string) *instancetypes.Catalog {
	regionCatalogs.Lock()
	defer regionCatalogs.Unlock()
	if c, ok := regionCatalogs.m[region]; ok {
		return c
	}
	c, err := instancetypes.AWS(instancetypes.Options{Region: region})
	if err != nil {
		panic(err)
	}
	regionCatalogs.m[region] = c
	return c
}

var regionCatalogs = struct {
	sync.Mutex
	m map[string]*instancetypes.Catalog
}{m: map[string]*instancetypes.Catalog{}}

// fieldErrors flattens the FieldErrors of a joined error.
func fieldErrors(err error) []*packing.FieldError {
	var fe *packing.FieldError
	if errors.As(err, &fe) && fe == err {
		return []*packing.FieldError{fe}
	}
	var out []*packing.FieldError
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			out = append(out, fieldErrors(e)...)
		}
	}
	return out
}

// solveSafely runs Solve and turns a panic into a test failure with the
// panic value, so that a table row shows which input panicked.
func solveSafely(t *testing.T, p packing.Problem, o packing.Options) (plan packing.Plan, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Solve panicked: %v", r)
		}
	}()
	return packing.Solve(p, o)
}

func TestValidate(t *testing.T) {
	pod := func(p *packing.Problem) *packing.Pod { return &p.Pods[0] }
	node := func(p *packing.Problem) *packing.Node { return &p.Nodes[0] }
	np := func(p *packing.Problem) *packing.NodePool { return &p.NodePools[0] }
	long := strings.Repeat("a", 64)
	tests := []struct {
		name          string
		mutate        func(p *packing.Problem)
		object, field string
	}{
		// Issue 20, point 1: NodePool names become the karpenter.sh/nodepool label.
		{"pool name not ASCII", func(p *packing.Problem) { np(p).Name, node(p).NodePool = "nämé-0", "nämé-0" }, "nodepool nämé-0", "name"},
		{"pool name with a slash", func(p *packing.Problem) { np(p).Name = "pool/0" }, "nodepool pool/0", "name"},
		{"pool name of 64 characters", func(p *packing.Problem) { np(p).Name = long }, "nodepool " + long, "name"},
		{"pool label value", func(p *packing.Problem) { np(p).Labels = map[string]string{"team": "a b"} }, "nodepool default", "labels"},
		{"pool label key", func(p *packing.Problem) { np(p).Labels = map[string]string{" team": "a"} }, "nodepool default", "labels"},
		// A node's hostname is its own (Karpenter's restricted label).
		{"pool hostname label", func(p *packing.Problem) { np(p).Labels = map[string]string{requirements.LabelHostname: "h"} }, "nodepool default", "labels"},
		{"pool hostname requirement", func(p *packing.Problem) {
			np(p).Requirements = requirements.NewSet(requirements.MustNew(requirements.LabelHostname, requirements.In, "h"))
		}, "nodepool default", "requirements"},
		{"pool taint", func(p *packing.Problem) {
			np(p).Taints = []requirements.Taint{{Key: "a:b", Effect: requirements.NoSchedule}}
		}, "nodepool default", "taints[0]"},
		{"pool startup taint", func(p *packing.Problem) {
			np(p).StartupTaints = []requirements.Taint{{Key: "a", Value: "x y", Effect: requirements.NoSchedule}}
		}, "nodepool default", "startupTaints[0]"},
		{"pool limit near 2^63", func(p *packing.Problem) { np(p).Limits = map[resources.Name]int64{resources.CPU: math.MaxInt64} }, "nodepool default", "limits.cpu"},
		{"pool limit negative", func(p *packing.Problem) { np(p).Limits = map[resources.Name]int64{packing.LimitNodes: -1} }, "nodepool default", "limits.nodes"},
		{"pool policy", func(p *packing.Problem) { np(p).Disruption.Policy = 7 }, "nodepool default", "disruption.consolidationPolicy"},
		{"pool consolidateAfter", func(p *packing.Problem) { np(p).Disruption.ConsolidateAfter = -time.Second }, "nodepool default", "disruption.consolidateAfter"},
		{"pool budget duration", func(p *packing.Problem) {
			np(p).Disruption.Budgets = []packing.Budget{{Nodes: "1", Duration: -time.Hour}}
		}, "nodepool default", "disruption.budgets[0].duration"},
		// Issue 15 point 8 and issue 20: labels reached through matchLabelKeys.
		{"pod label value through matchLabelKeys", func(p *packing.Problem) { pod(p).Labels["app"] = "bad value!" }, "pod default/web", "labels"},
		{"pod label key with a leading space", func(p *packing.Problem) { pod(p).Labels[" app"] = "x" }, "pod default/web", "labels"},
		{"matchLabelKeys key", func(p *packing.Problem) { pod(p).TopologySpread[0].MatchLabelKeys = []string{"a b"} }, "pod default/web", "topologySpread[0].matchLabelKeys[0]"},
		{"topology key", func(p *packing.Problem) { pod(p).TopologySpread[0].TopologyKey = "rack:1" }, "pod default/web", "topologySpread[0].topologyKey"},
		{"minDomains", func(p *packing.Problem) { pod(p).TopologySpread[0].MinDomains = -1 }, "pod default/web", "topologySpread[0].minDomains"},
		{"whenUnsatisfiable", func(p *packing.Problem) { pod(p).TopologySpread[0].WhenUnsatisfiable = 2 }, "pod default/web", "topologySpread[0].whenUnsatisfiable"},
		{"nodeAffinityPolicy", func(p *packing.Problem) { pod(p).TopologySpread[0].NodeAffinityPolicy = 3 }, "pod default/web", "topologySpread[0].nodeAffinityPolicy"},
		{"nodeTaintsPolicy", func(p *packing.Problem) { pod(p).TopologySpread[0].NodeTaintsPolicy = 9 }, "pod default/web", "topologySpread[0].nodeTaintsPolicy"},
		{"anti-affinity topology key", func(p *packing.Problem) {
			pod(p).AntiAffinity = []packing.PodAffinityTerm{{TopologyKey: "/zone"}}
		}, "pod default/web", "antiAffinity[0].topologyKey"},
		{"toleration with empty key and Equal", func(p *packing.Problem) { pod(p).Tolerations = []requirements.Toleration{{Value: "x"}} }, "pod default/web", "tolerations[0]"},
		{"toleration Exists with a value", func(p *packing.Problem) {
			pod(p).Tolerations = []requirements.Toleration{{Key: "k", Operator: requirements.TolerateExists, Value: "v"}}
		}, "pod default/web", "tolerations[0]"},
		{"toleration value", func(p *packing.Problem) { pod(p).Tolerations = []requirements.Toleration{{Key: "k", Value: "a/b"}} }, "pod default/web", "tolerations[0]"},
		{"toleration operator", func(p *packing.Problem) { pod(p).Tolerations = []requirements.Toleration{{Key: "k", Operator: 5}} }, "pod default/web", "tolerations[0]"},
		{"host port protocol", func(p *packing.Problem) {
			pod(p).HostPorts = []packing.HostPort{{Port: 80, Protocol: "tcp"}}
		}, "pod default/web", "hostPorts[0].protocol"},
		// Issue 20 ("accepted nonsense"): specs the API server rejects.
		{"minDomains with ScheduleAnyway", func(p *packing.Problem) {
			pod(p).TopologySpread[0].MinDomains, pod(p).TopologySpread[0].WhenUnsatisfiable = 2, packing.ScheduleAnyway
		}, "pod default/web", "topologySpread[0].minDomains"},
		{"two spreads with one topologyKey and whenUnsatisfiable", func(p *packing.Problem) {
			pod(p).TopologySpread = append(pod(p).TopologySpread, packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 2})
		}, "pod default/web", "topologySpread[1].topologyKey"},
		{"bound pod with two spreads of one pair", func(p *packing.Problem) {
			ts := packing.TopologySpread{TopologyKey: requirements.LabelHostname, MaxSkew: 1, WhenUnsatisfiable: packing.ScheduleAnyway}
			node(p).Pods[0].TopologySpread = []packing.TopologySpread{ts, ts}
		}, "node n1 pod default/bound", "topologySpread[1].topologyKey"},
		{"maxSkew 0", func(p *packing.Problem) { pod(p).TopologySpread[0].MaxSkew = 0 }, "pod default/web", "topologySpread[0].maxSkew"},
		{"host port twice, TCP by default", func(p *packing.Problem) {
			pod(p).HostPorts = []packing.HostPort{{Port: 80}, {Port: 81}, {Port: 80, Protocol: "TCP"}}
		}, "pod default/web", "hostPorts[2]"},
		{"bound pod host port twice on one IP", func(p *packing.Problem) {
			node(p).Pods[0].HostPorts = []packing.HostPort{{Port: 53, Protocol: "UDP", IP: "10.0.0.1"}, {Port: 53, Protocol: "UDP", IP: "10.0.0.1"}}
		}, "node n1 pod default/bound", "hostPorts[1]"},
		{"pool weight above 100", func(p *packing.Problem) { np(p).Weight = 101 }, "nodepool default", "weight"},
		{"pool weight negative", func(p *packing.Problem) { np(p).Weight = -1 }, "nodepool default", "weight"},
		// Requirement sets built unchecked (requirements.FromLabels).
		{"node selector value", func(p *packing.Problem) {
			pod(p).NodeAffinity.Selector = requirements.FromLabels(map[string]string{"zone": "a b"})
		}, "pod default/web", "nodeAffinity"},
		{"spread selector", func(p *packing.Problem) {
			pod(p).TopologySpread[0].Selector = requirements.FromLabels(map[string]string{"app": "bad value!"})
		}, "pod default/web", "topologySpread[0].labelSelector"},
		{"affinity selector", func(p *packing.Problem) {
			pod(p).Affinity = []packing.PodAffinityTerm{{TopologyKey: requirements.LabelZone, Selector: requirements.NewSet(requirements.Requirement{})}}
		}, "pod default/web", "affinity[0].labelSelector"},
		{"pool requirements", func(p *packing.Problem) {
			np(p).Requirements = requirements.FromLabels(map[string]string{"team/": "x"})
		}, "nodepool default", "requirements"},
		{"daemonset affinity", func(p *packing.Problem) {
			p.DaemonSets[0].NodeAffinity.Selector = requirements.FromLabels(map[string]string{"a": "-"})
		}, "daemonset agent", "nodeAffinity"},
		// Issue 20, point 10: quantities near 2^63.
		{"cpu request near 2^63", func(p *packing.Problem) { pod(p).Requests.CPU = math.MaxInt64 }, "pod default/web", "requests.cpu"},
		{"memory request above MaxAmount", func(p *packing.Problem) { pod(p).Requests.Memory = resources.MaxAmount + 1 }, "pod default/web", "requests.memory"},
		{"extended request near 2^63", func(p *packing.Problem) {
			pod(p).Requests = pod(p).Requests.With(gpuA, math.MaxInt64)
		}, "pod default/web", "requests." + string(gpuA)},
		{"negative request", func(p *packing.Problem) { pod(p).Requests.Pods = -1 }, "pod default/web", "requests.pods"},
		// Issue 20, point 2: a node label that is no label value, and the node fields that stand for labels.
		{"node label value", func(p *packing.Problem) {
			node(p).Labels = map[string]string{"rack": `"a:b"`}
			pod(p).TopologySpread = append(pod(p).TopologySpread, packing.TopologySpread{TopologyKey: "rack", MaxSkew: 1})
		}, "node n1", "labels"},
		{"node label key", func(p *packing.Problem) { node(p).Labels = map[string]string{"rack/a/b": "1"} }, "node n1", "labels"},
		{"node name of 64 characters without a hostname label", func(p *packing.Problem) { node(p).Name = long }, "node " + long, "name"},
		{"node zone", func(p *packing.Problem) { node(p).Zone = "zone a" }, "node n1", "zone"},
		{"node instance type", func(p *packing.Problem) { node(p).InstanceType = "m5 large" }, "node n1", "instanceType"},
		{"node pool", func(p *packing.Problem) { node(p).NodePool = "pool/0" }, "node n1", "nodePool"},
		{"node capacity type", func(p *packing.Problem) { node(p).CapacityType = 3 }, "node n1", "capacityType"},
		{"node taint", func(p *packing.Problem) { node(p).Taints = []requirements.Taint{{Key: "k", Effect: 9}} }, "node n1", "taints[0]"},
		{"node allocatable near 2^63", func(p *packing.Problem) { node(p).Allocatable.Memory = math.MaxInt64 }, "node n1", "allocatable.memory"},
		{"node price negative", func(p *packing.Problem) { node(p).Price = -1 }, "node n1", "price"},
		{"node price near 2^63", func(p *packing.Problem) { node(p).Price = instancetypes.MaxPrice }, "node n1", "price"},
		{"node price with PriceUnknown", func(p *packing.Problem) { node(p).Price, node(p).PriceUnknown = 1, true }, "node n1", "price"},
		// One currency per problem: a plan sums the prices of every pool.
		{"pool catalog in another currency", func(p *packing.Problem) { np(p).Catalog = regionCatalog("cn-north-1") }, "nodepool default", "catalog"},
		{"pool catalogs in two currencies", func(p *packing.Problem) {
			p.Catalog, np(p).Catalog = nil, regionCatalog("us-east-1")
			p.NodePools = append(p.NodePools, pool("china"))
			p.NodePools[1].Catalog = regionCatalog("cn-north-1")
		}, "nodepool china", "catalog"},
		// The pods of nodes, named only when wrong.
		{"bound pod label", func(p *packing.Problem) { node(p).Pods[0].Labels["app"] = "a b" }, "node n1 pod default/bound", "labels"},
		{"bound pod anti-affinity key", func(p *packing.Problem) {
			node(p).Pods[0].AntiAffinity = []packing.PodAffinityTerm{{TopologyKey: "bad key"}}
		}, "node n1 pod default/bound", "antiAffinity[0].topologyKey"},
		{"bound pod request near 2^63", func(p *packing.Problem) { node(p).Pods[0].Requests.CPU = math.MaxInt64 }, "node n1 pod default/bound", "requests.cpu"},
		{"daemonset request near 2^63", func(p *packing.Problem) { p.DaemonSets[0].Requests.CPU = math.MaxInt64 }, "daemonset agent", "requests.cpu"},
		{"daemonset toleration", func(p *packing.Problem) {
			p.DaemonSets[0].Tolerations = []requirements.Toleration{{Key: "k k", Operator: requirements.TolerateExists}}
		}, "daemonset agent", "tolerations[0]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := validationBase(t)
			tc.mutate(&p)
			_, err := solveSafely(t, p, packing.Options{})
			require.ErrorIs(t, err, packing.ErrInvalidProblem)
			found := false
			for _, fe := range fieldErrors(err) {
				found = found || (fe.Object == tc.object && fe.Field == tc.field)
			}
			assert.True(t, found, "want a FieldError on %s, field %s; got %v", tc.object, tc.field, err)
		})
	}
}

// TestValidateAcceptsEdges: the bounds themselves and Kubernetes-valid
// strings at their limits are accepted and solved.
func TestValidateAcceptsEdges(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(p *packing.Problem)
	}{
		{"base", func(*packing.Problem) {}},
		{"node of unknown price", func(p *packing.Problem) { p.Nodes[0].PriceUnknown = true }},
		{"pool catalog in USD, problem catalog in the default currency", func(p *packing.Problem) {
			p.NodePools[0].Catalog = regionCatalog("us-east-1")
		}},
		{"pool name of 63 characters", func(p *packing.Problem) {
			p.NodePools[0].Name, p.Nodes[0].NodePool = strings.Repeat("p", 63), strings.Repeat("p", 63)
		}},
		{"long node name with a hostname label", func(p *packing.Problem) {
			p.Nodes[0].Name = strings.Repeat("n", 100) + ".example.com"
			p.Nodes[0].Labels = map[string]string{requirements.LabelHostname: "n1"}
		}},
		// A field the node's labels override is not read (see labels.go),
		// under the beta key as under the stable one.
		{"zone field under a beta zone label", func(p *packing.Problem) {
			p.Nodes[0].Zone = "zone a"
			p.Nodes[0].Labels = map[string]string{"failure-domain.beta.kubernetes.io/zone": zone1}
		}},
		{"instance type field under a beta instance-type label", func(p *packing.Problem) {
			p.Nodes[0].InstanceType = "m5 large"
			p.Nodes[0].Labels = map[string]string{"beta.kubernetes.io/instance-type": "default-instance-type"}
		}},
		{"label key whose prefix part exceeds 63 characters", func(p *packing.Problem) {
			p.Pods[0].Labels[strings.Repeat("x", 70)+".example.com/app"] = "v"
		}},
		{"values at the bounds", func(p *packing.Problem) {
			p.NodePools[0].Limits = map[resources.Name]int64{resources.CPU: packing.MaxLimit}
			p.Nodes[0].Price = instancetypes.MaxValidPrice
			p.Nodes[0].Pods[0].Requests.EphemeralStorage = resources.MaxAmount
		}},
		{"empty key Exists toleration", func(p *packing.Problem) {
			p.Pods[0].Tolerations = []requirements.Toleration{{Operator: requirements.TolerateExists}}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := validationBase(t)
			tc.mutate(&p)
			plan, err := solveSafely(t, p, packing.Options{})
			require.NoError(t, err)
			assert.Empty(t, verify.Plan(p, plan))
		})
	}
}

// TestOptionsValidate: each invalid option is an error naming it (issue
// 20, point 2: a negative MaxInstanceTypes panicked inside Best's
// goroutine and killed the process).
func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		o    packing.Options
		want string
	}{
		{packing.Options{MaxInstanceTypes: -1}, "MaxInstanceTypes"},
		{packing.Options{Strategy: packing.Plain, MaxInstanceTypes: math.MinInt}, "MaxInstanceTypes"},
		{packing.Options{Strategy: 3}, "Strategy"},
		{packing.Options{Restarts: math.MaxInt}, "Restarts"},
		{packing.Options{NodeOverhead: instancetypes.MaxValidPrice + 1}, "NodeOverhead"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			_, err := solveSafely(t, validationBase(t), tc.o)
			require.ErrorIs(t, err, packing.ErrInvalidOptions)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	for _, o := range []packing.Options{{}, {Restarts: -5, NodeOverhead: -1}, {Strategy: packing.CostAware, Restarts: 4096,
		MaxInstanceTypes: 1, NodeOverhead: instancetypes.MaxValidPrice}} {
		_, err := solveSafely(t, validationBase(t), o)
		assert.NoError(t, err, "%+v", o)
	}
}

// TestValidateBoundPodsAllocate: valid pods of nodes, a cluster's most
// numerous objects, cost Validate no allocation.
func TestValidateBoundPodsAllocate(t *testing.T) {
	allocs := func(pods int) float64 {
		p := validationBase(t)
		bound := p.Nodes[0].Pods[0]
		bound.TopologySpread = p.Pods[0].TopologySpread
		bound.Tolerations = []requirements.Toleration{{Key: "k", Operator: requirements.TolerateExists}}
		bound.HostPorts = []packing.HostPort{{Port: 80, Protocol: "UDP"}}
		p.Nodes[0].Pods = nil
		for i := range pods {
			bound.Name = strconv.Itoa(i)
			p.Nodes[0].Pods = append(p.Nodes[0].Pods, bound)
		}
		require.NoError(t, p.Validate())
		return testing.AllocsPerRun(20, func() { _ = p.Validate() })
	}
	assert.Equal(t, allocs(1), allocs(500), "allocations grow with the bound pods")
}

// TestLimitUsageDoesNotWrap: a pool whose existing nodes' capacity sums
// past 2^63 stays over its limit (issue 20, point 10); the sum wrapped to
// a negative usage and let a new claim through.
func TestLimitUsageDoesNotWrap(t *testing.T) {
	p := validationBase(t)
	p.NodePools[0].Limits = map[resources.Name]int64{resources.CPU: packing.MaxLimit}
	p.Nodes = nil
	for i := range 8200 { // 8,200 × 2^50 > 2^63
		p.Nodes = append(p.Nodes, packing.Node{Name: "big-" + strconv.Itoa(i), NodePool: "default", MarkedForDeletion: true,
			Allocatable: resources.List{CPU: resources.MaxAmount, Memory: resources.MaxAmount, Pods: 100}})
	}
	plan, err := solveSafely(t, p, packing.Options{Strategy: packing.Plain})
	require.NoError(t, err)
	assert.Empty(t, plan.NodeClaims)
	require.Len(t, plan.Unschedulable, 1)
	assert.Equal(t, packing.LimitExceeded, plan.Unschedulable[0].Reason.Kind)
	assert.Empty(t, verify.Plan(p, plan))
}

// TestPlanPriceSaturates: 9,300 claims at MaxValidPrice cost more than
// 2^63 nano-dollars; the plan's price stops at MaxPrice instead of
// wrapping to a negative price (issue 20, point 10).
func TestPlanPriceSaturates(t *testing.T) {
	dear := fakeType(typeSpec{name: "dear", cpu: 1, memGi: 1, pods: 10,
		offerings: []instancetypes.Offering{odOffering(zone1, 1)}})
	dear.Offerings[0].Price = instancetypes.MaxValidPrice
	cat, err := instancetypes.New([]instancetypes.InstanceType{dear})
	require.NoError(t, err)
	p := packing.Problem{Catalog: cat, NodePools: []packing.NodePool{{Name: "default"}},
		Pods: mkPods("web", 9300, req("cpu", "800m"))} // one per node
	plan, err := solveSafely(t, p, packing.Options{Strategy: packing.CostAware})
	require.NoError(t, err)
	require.Len(t, plan.NodeClaims, 9300)
	assert.Equal(t, instancetypes.MaxPrice, plan.Price)
	assert.Empty(t, verify.Plan(p, plan))
}

// TestValidateSpecsAccepted: what the API server accepts next to the
// rejections of TestValidate: one host port per protocol and per IP
// string, one spread per topologyKey and whenUnsatisfiable, minDomains
// with DoNotSchedule, weights 0 and 100.
func TestValidateSpecsAccepted(t *testing.T) {
	p := validationBase(t)
	web := &p.Pods[0]
	web.HostPorts = []packing.HostPort{{Port: 80}, {Port: 80, Protocol: "UDP"}, {Port: 80, IP: "0.0.0.0"}, {Port: 80, IP: "10.0.0.1"}}
	web.TopologySpread[0].MinDomains = 3
	web.TopologySpread = append(web.TopologySpread,
		packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 1, WhenUnsatisfiable: packing.ScheduleAnyway},
		packing.TopologySpread{TopologyKey: requirements.LabelHostname, MaxSkew: 1})
	p.NodePools[0].Weight = packing.MaxWeight
	p.NodePools = append(p.NodePools, pool("unweighted"))
	require.NoError(t, p.Validate())
}

// TestValidateTopologySpreads: the one rule kube applies with the YAML
// path of the list, fields relative to it.
func TestValidateTopologySpreads(t *testing.T) {
	zone := packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 1, WhenUnsatisfiable: packing.ScheduleAnyway}
	minDomains := zone
	minDomains.MinDomains = 2
	tests := []struct {
		name   string
		ts     []packing.TopologySpread
		fields []string
	}{
		{"valid", []packing.TopologySpread{zone}, nil},
		{"minDomains with ScheduleAnyway", []packing.TopologySpread{minDomains}, []string{"[0].minDomains"}},
		{"one pair twice", []packing.TopologySpread{zone, zone, zone}, []string{"[1].topologyKey", "[2].topologyKey"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fields []string
			for _, fe := range fieldErrors(packing.ValidateTopologySpreads(tc.ts)) {
				assert.Empty(t, fe.Object)
				assert.ErrorIs(t, fe, packing.ErrInvalidProblem)
				fields = append(fields, fe.Field)
			}
			assert.Equal(t, tc.fields, fields)
		})
	}
}

func TestHostPortValidate(t *testing.T) {
	for _, tc := range []struct {
		hp    packing.HostPort
		field string
	}{
		{packing.HostPort{Port: 80}, ""},
		{packing.HostPort{Port: 65535, Protocol: "SCTP"}, ""},
		{packing.HostPort{Port: 0}, "port"},
		{packing.HostPort{Port: 65536}, "port"},
		{packing.HostPort{Port: 80, Protocol: "udp"}, "protocol"},
	} {
		err := tc.hp.Validate()
		if tc.field == "" {
			assert.NoError(t, err, "%+v", tc.hp)
			continue
		}
		var fe *packing.FieldError
		require.ErrorAs(t, err, &fe, "%+v", tc.hp)
		assert.Equal(t, tc.field, fe.Field)
	}
	assert.True(t, packing.HostPort{Port: 80}.Same(packing.HostPort{Port: 80, Protocol: "TCP"}))
	assert.False(t, packing.HostPort{Port: 80}.Same(packing.HostPort{Port: 80, IP: "0.0.0.0"}))
	assert.False(t, packing.HostPort{Port: 80}.Same(packing.HostPort{Port: 80, Protocol: "UDP"}))
}

// TestValidatePendingSameForGOMAXPROCS: the pending pods are checked on
// several goroutines; the errors, pods named in order, duplicates
// included, are the same on one.
func TestValidatePendingSameForGOMAXPROCS(t *testing.T) {
	p := validationBase(t)
	for i := range 1_000 {
		pod := mkPod(fmt.Sprintf("many-%d", i%997), req("cpu", "100m")) // three names twice
		switch i % 251 {
		case 7:
			pod.Requests.CPU = -1
		case 11:
			pod.Labels = map[string]string{"bad key!": "v"}
		}
		p.Pods = append(p.Pods, pod)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var errs []string
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		err := p.Validate()
		require.Error(t, err)
		errs = append(errs, err.Error())
	}
	assert.Equal(t, errs[0], errs[1])
	assert.Equal(t, errs[0], errs[2])
	assert.Len(t, fieldErrors(p.Validate()), 4+4+3, "four bad requests, four bad labels, three duplicates")
	for _, want := range []string{"pod default/many-7: requests.cpu", "pod default/many-760: requests.cpu",
		"pod default/many-11: labels", "pod default/many-764: labels", "pod default/many-2: name"} {
		assert.Contains(t, errs[2], want)
	}
}
