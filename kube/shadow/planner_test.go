package shadow

import (
	"strings"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// objects decodes the YAML documents of text into typed objects with the
// resource table, as the informers store them.
func objects(t *testing.T, text string) kube.Objects {
	t.Helper()
	var objs kube.Objects
	for _, doc := range strings.Split(text, "\n---\n") {
		var u map[string]any
		require.NoError(t, yaml.Unmarshal([]byte(doc), &u))
		i := 0
		for i < len(resources) && resources[i].kind != u["kind"] {
			i++
		}
		require.Less(t, i, len(resources), "kind %v", u["kind"])
		data, err := yaml.YAMLToJSON([]byte(doc))
		require.NoError(t, err)
		obj, unknown, err := resources[i].decode(data)
		require.NoError(t, err)
		require.Empty(t, unknown)
		resources[i].add(&objs, obj)
	}
	return objs
}

const pool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
      - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large, m5.xlarge, m5.2xlarge]}
  disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 30s}
`

func pendingPod(name string) string {
	return `apiVersion: v1
kind: Pod
metadata: {name: ` + name + `, namespace: default, creationTimestamp: "2026-01-02T02:00:00Z"}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`
}

const emptyNode = `apiVersion: v1
kind: Node
metadata:
  name: n1
  creationTimestamp: "2026-01-02T01:00:00Z"
  labels: {karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: m5.large, topology.kubernetes.io/zone: us-east-1a,
    karpenter.sh/capacity-type: on-demand, kubernetes.io/arch: amd64, kubernetes.io/os: linux, karpenter.sh/registered: "true",
    karpenter.sh/initialized: "true"}
spec: {providerID: "aws:///us-east-1a/i-1"}
status:
  allocatable: {cpu: 1930m, memory: 7Gi, pods: "29"}
  capacity: {cpu: "2", memory: 8Gi, pods: "29"}
  conditions: [{type: Ready, status: "True"}]
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: default-abc
  creationTimestamp: "2026-01-02T01:00:00Z"
  labels: {karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: m5.large, topology.kubernetes.io/zone: us-east-1a,
    karpenter.sh/capacity-type: on-demand}
spec:
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
  requirements: [{key: karpenter.sh/nodepool, operator: In, values: [default]}]
status: {nodeName: n1, providerID: "aws:///us-east-1a/i-1"}
`

func awsCatalog(t *testing.T) *instancetypes.Catalog {
	t.Helper()
	cat, err := instancetypes.AWS(instancetypes.Options{Region: "us-east-1"})
	require.NoError(t, err)
	return cat
}

// TestPlannerProvision: the planner on typed objects answers what
// packing.Solve answers on the same cluster loaded from its manifests.
func TestPlannerProvision(t *testing.T) {
	huge := strings.Replace(pendingPod("huge"), `cpu: "1"`, `cpu: "10000"`, 1)
	text := pool + "---\n" + pendingPod("a") + "---\n" + pendingPod("b") + "---\n" + pendingPod("c") + "---\n" + huge
	cat := awsCatalog(t)
	p := &Planner{Catalog: cat}
	d, err := p.Provision(objects(t, text))
	require.NoError(t, err)

	cl, err := kube.Load(kube.Source{Name: "x.yaml", Data: []byte(text)})
	require.NoError(t, err)
	prob, err := cl.Problem(cat)
	require.NoError(t, err)
	plan, err := packing.Solve(prob, packing.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, plan.NodeClaims)
	assert.Equal(t, Decision{Pending: 4, Placed: 3, Unschedulable: 1, Nodes: len(plan.NodeClaims), Price: plan.Price,
		PendingPods: []string{"default/a", "default/b", "default/c", "default/huge"}, UnschedulablePods: []string{"default/huge"}}, d)
}

// TestPlannerDisrupt: an empty node is consolidated away, saving its
// price.
func TestPlannerDisrupt(t *testing.T) {
	cat := awsCatalog(t)
	p := &Planner{Catalog: cat}
	price, err := p.Price(Offering{InstanceType: "m5.large", Zone: "us-east-1a", CapacityType: "on-demand"})
	require.NoError(t, err)
	d, err := p.Disrupt(objects(t, pool+"---\n"+emptyNode), time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.Equal(t, Decision{Consolidation: Commands{Commands: 1, Deleted: 1, Change: -price}}, d)
}

// TestPlannerDrift: a node past its NodePool's expireAfter is replaced;
// drift's change is the replacement's price minus the node's.
func TestPlannerDrift(t *testing.T) {
	p := &Planner{Catalog: awsCatalog(t)}
	expiring := strings.Replace(pool, "  template:\n    spec:\n", "  template:\n    spec:\n      expireAfter: 1h\n", 1)
	bound := strings.Replace(pendingPod("a"), "spec:\n", "spec:\n  nodeName: n1\n", 1)
	d, err := p.Disrupt(objects(t, expiring+"---\n"+emptyNode+"---\n"+bound), time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.Equal(t, Commands{Commands: 1, Deleted: 1, Launched: 1}, d.Drift, "m5.large replaced by m5.large")
}

func TestPlannerPrice(t *testing.T) {
	p := &Planner{Catalog: awsCatalog(t)}
	tests := []struct {
		name string
		o    Offering
		err  string
	}{
		{"known", Offering{"m5.large", "us-east-1a", "on-demand"}, ""},
		{"unknown type", Offering{"m5.huge", "us-east-1a", "on-demand"}, "no instance type m5.huge"},
		{"unknown zone", Offering{"m5.large", "eu-west-1a", "on-demand"}, "no on-demand offering of m5.large in zone eu-west-1a"},
		{"bad capacity type", Offering{"m5.large", "us-east-1a", "cheap"}, "cheap"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := p.Price(tc.o)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, instancetypes.MustPriceFromDollars(0.096), got)
		})
	}
	_, err := (&Planner{}).Price(Offering{"m5.large", "us-east-1a", "on-demand"})
	require.Error(t, err)
}
