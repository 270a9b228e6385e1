package kube

import (
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

func decodePod(t *testing.T, doc string) *corev1.Pod {
	t.Helper()
	var p corev1.Pod
	require.NoError(t, yaml.Unmarshal([]byte(doc), &p))
	return &p
}

const fullPod = `
metadata:
  name: api-0
  labels: {app: api, tier: backend}
  annotations:
    karpenter.sh/do-not-disrupt: "true"
    controller.kubernetes.io/pod-deletion-cost: "-5"
  ownerReferences: [{kind: ReplicaSet, name: api-abc, controller: true, apiVersion: apps/v1, uid: u}]
spec:
  priority: 100
  nodeSelector: {kubernetes.io/arch: amd64}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [us-east-1a, us-east-1b]}]
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 10
          preference:
            matchExpressions: [{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: topology.kubernetes.io/zone
          labelSelector: {matchLabels: {app: cache}}
          namespaces: [caching]
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 50
          podAffinityTerm:
            topologyKey: kubernetes.io/hostname
            labelSelector: {matchExpressions: [{key: app, operator: In, values: [api]}]}
            namespaceSelector: {}
            matchLabelKeys: [tier]
  tolerations:
    - {key: dedicated, operator: Equal, value: api, effect: NoSchedule}
    - {operator: Exists}
  topologySpreadConstraints:
    - maxSkew: 2
      topologyKey: topology.kubernetes.io/zone
      whenUnsatisfiable: ScheduleAnyway
      nodeTaintsPolicy: Honor
      labelSelector: {matchLabels: {app: api}}
  containers:
    - name: api
      ports: [{containerPort: 80, hostPort: 8080, protocol: UDP}]
      resources: {requests: {cpu: "1", memory: 1Gi}}
`

func TestFromPod(t *testing.T) {
	got, err := FromPod(decodePod(t, fullPod))
	require.NoError(t, err)
	assert.Equal(t, "default", got.Namespace)
	assert.Equal(t, "ReplicaSet/api-abc", got.Owner)
	assert.Equal(t, int32(100), got.Priority)
	assert.Equal(t, "true", got.DoNotDisrupt)
	assert.Equal(t, int32(-5), got.DeletionCost)
	assert.Equal(t, []packing.HostPort{{Port: 8080, Protocol: "UDP"}}, got.HostPorts)
	assert.Equal(t, int64(1000), got.Requests.CPU)

	assert.NoError(t, got.NodeAffinity.Matches(map[string]string{requirements.LabelArch: "amd64", requirements.LabelZone: "us-east-1b"}))
	assert.Error(t, got.NodeAffinity.Matches(map[string]string{requirements.LabelArch: "amd64", requirements.LabelZone: "us-east-1c"}))
	require.Len(t, got.NodeAffinity.Preferred, 1)
	assert.Equal(t, int32(10), got.NodeAffinity.Preferred[0].Weight)

	require.Len(t, got.Tolerations, 2)
	assert.True(t, got.Tolerations[0].Tolerates(requirements.Taint{Key: "dedicated", Value: "api", Effect: requirements.NoSchedule}))
	assert.True(t, got.Tolerations[1].Tolerates(requirements.Taint{Key: "x", Value: "y", Effect: requirements.NoExecute}))

	require.Len(t, got.TopologySpread, 1)
	ts := got.TopologySpread[0]
	assert.Equal(t, packing.ScheduleAnyway, ts.WhenUnsatisfiable)
	assert.Zero(t, ts.MinDomains) // minDomains is for DoNotSchedule only: TestLoadAcceptsSpecs
	assert.Equal(t, packing.Honor, ts.NodeTaintsPolicy)
	assert.Equal(t, packing.PolicyDefault, ts.NodeAffinityPolicy)

	require.Len(t, got.Affinity, 1)
	assert.Equal(t, int32(0), got.Affinity[0].Weight)
	assert.Equal(t, []string{"caching"}, got.Affinity[0].Namespaces)
	require.Len(t, got.AntiAffinity, 1)
	anti := got.AntiAffinity[0]
	assert.Equal(t, int32(50), anti.Weight)
	assert.True(t, anti.AllNamespaces)
	assert.NoError(t, anti.Selector.Matches(map[string]string{"app": "api", "tier": "backend"}))
	assert.Error(t, anti.Selector.Matches(map[string]string{"app": "api", "tier": "frontend"}), "matchLabelKeys adds tier")
}

// TestFromPodReschedulable: metadata.deletionTimestamp makes the pod
// Terminating and an owner of kind Node a mirror pod; neither moves when
// its node is disrupted.
func TestFromPodReschedulable(t *testing.T) {
	tests := []struct {
		name                string
		yaml                string
		terminating, mirror bool
	}{
		{"running", "metadata: {name: p}\nspec: {containers: [{name: c}]}\n", false, false},
		{"terminating", "metadata: {name: p, deletionTimestamp: '2025-01-31T23:59:00Z'}\nspec: {containers: [{name: c}]}\n", true, false},
		{"mirror", "metadata: {name: p, ownerReferences: [{apiVersion: v1, kind: Node, name: n1, uid: u, controller: true}]}\nspec: {containers: [{name: c}]}\n", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromPod(decodePod(t, tc.yaml))
			require.NoError(t, err)
			assert.Equal(t, tc.terminating, got.Terminating)
			assert.Equal(t, tc.mirror, got.IsMirror())
			assert.Equal(t, !tc.terminating && !tc.mirror, got.Reschedulable())
		})
	}
}

// TestFromDaemonSetOwnsItsPods: the converted DaemonSet owns the converted
// pods it controls, in its namespace only (an empty one is "default" on
// both sides).
func TestFromDaemonSetOwnsItsPods(t *testing.T) {
	ref := []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "logs", UID: "u", Controller: new(true)}}
	ds, err := FromDaemonSet(&appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "logs"}})
	require.NoError(t, err)
	assert.Equal(t, "default/logs", ds.Key())
	for _, tc := range []struct {
		namespace string
		want      bool
	}{{"", true}, {"default", true}, {"kube-system", false}} {
		pod, err := FromPod(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "logs-x", Namespace: tc.namespace, OwnerReferences: ref}})
		require.NoError(t, err)
		assert.Equal(t, tc.want, ds.Owns(&pod), "pod in %q", tc.namespace)
	}
}

func TestFromPodNilSelectorMatchesNothing(t *testing.T) {
	got, err := FromPod(decodePod(t, `
metadata: {name: p}
spec:
  topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}]
`))
	require.NoError(t, err)
	assert.Error(t, got.TopologySpread[0].Selector.Matches(map[string]string{}))
	assert.Error(t, got.TopologySpread[0].Selector.Matches(map[string]string{"app": "x"}))
}

// TestFromPodEmptyNodeSelectorTerms: a required node selector term
// without expressions matches no node, as in Kubernetes; a pod whose terms
// are all empty fits nowhere, and beside a real term it changes nothing.
func TestFromPodEmptyNodeSelectorTerms(t *testing.T) {
	tests := []struct {
		name, terms string
		matches     map[string]string // nil: no node
	}{
		{"only an empty term", `[{}]`, nil},
		{"empty terms only", `[{matchExpressions: []}, {}]`, nil},
		{"an empty term beside a real one", `[{}, {matchExpressions: [{key: zone, operator: In, values: [a]}]}]`, map[string]string{"zone": "a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromPod(decodePod(t, "metadata: {name: p}\nspec: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "+tc.terms+"}}}}\n"))
			require.NoError(t, err)
			if tc.matches == nil {
				assert.Empty(t, got.NodeAffinity.Alternatives())
				assert.Error(t, got.NodeAffinity.Matches(map[string]string{"zone": "a"}))
				return
			}
			require.Len(t, got.NodeAffinity.Alternatives(), 1)
			assert.NoError(t, got.NodeAffinity.Matches(tc.matches))
			assert.Error(t, got.NodeAffinity.Matches(map[string]string{"zone": "b"}))
		})
	}
}

func TestFromPodErrors(t *testing.T) {
	tests := []struct{ name, doc, msg string }{
		{"bad node affinity operator", `
metadata: {name: p, namespace: ns}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Near, values: [b]}]}]`,
			`Pod ns/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: `},
		{"unsupported matchFields", `
metadata: {name: p}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchFields: [{key: spec.providerID, operator: In, values: [x]}]}]`,
			`matchFields[0].key: "spec.providerID" is not a supported field (only metadata.name)`},
		{"bad toleration operator", `
metadata: {name: p}
spec: {tolerations: [{key: a, operator: Like}]}`, `Pod default/p: spec.tolerations[0].operator: "Like" is not Equal or Exists`},
		{"bad toleration effect", `
metadata: {name: p}
spec: {tolerations: [{key: a, operator: Exists, effect: Sometimes}]}`, `Pod default/p: spec.tolerations[0].effect: `},
		{"bad whenUnsatisfiable", `
metadata: {name: p}
spec: {topologySpreadConstraints: [{maxSkew: 1, topologyKey: k, whenUnsatisfiable: Maybe}]}`,
			`spec.topologySpreadConstraints[0].whenUnsatisfiable: "Maybe" is not DoNotSchedule or ScheduleAnyway`},
		{"bad nodeAffinityPolicy", `
metadata: {name: p}
spec: {topologySpreadConstraints: [{maxSkew: 1, topologyKey: k, whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: Sometimes}]}`,
			`spec.topologySpreadConstraints[0].nodeAffinityPolicy: "Sometimes" is not Honor or Ignore`},
		{"bad label selector operator", `
metadata: {name: p}
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - {topologyKey: k, labelSelector: {matchExpressions: [{key: a, operator: Gt, values: ["1"]}]}}`,
			`spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator: "Gt" is not a label selector operator`},
		{"bad deletion cost", `
metadata: {name: p, annotations: {controller.kubernetes.io/pod-deletion-cost: lots}}`,
			`Pod default/p: metadata.annotations["controller.kubernetes.io/pod-deletion-cost"]: "lots" is not a 32-bit integer`},
		{"negative request", `
metadata: {name: p}
spec: {containers: [{name: c, resources: {requests: {memory: "-1Gi"}}}]}`,
			`Pod default/p: spec.containers[0].resources.requests: `},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromPod(decodePod(t, tc.doc))
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			var oe *ObjectError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "Pod", oe.Kind)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestFromNode(t *testing.T) {
	var n corev1.Node
	require.NoError(t, yaml.Unmarshal([]byte(`
metadata:
  name: n1
  labels:
    karpenter.sh/nodepool: general
    karpenter.sh/capacity-type: spot
    beta.kubernetes.io/instance-type: m5.large
    failure-domain.beta.kubernetes.io/zone: us-east-1b
spec:
  unschedulable: true
  taints: [{key: dedicated, value: x, effect: NoExecute}]
status:
  capacity: {cpu: "2", memory: 8Gi, pods: "29"}
`), &n))
	got, err := FromNode(&n)
	require.NoError(t, err)
	assert.Equal(t, "general", got.NodePool)
	assert.Equal(t, "m5.large", got.InstanceType)
	assert.Equal(t, "us-east-1b", got.Zone)
	assert.Equal(t, instancetypes.Spot, got.CapacityType)
	assert.False(t, got.Initialized, "no karpenter.sh/initialized label")
	assert.Equal(t, int64(2000), got.Allocatable.CPU, "capacity when allocatable is empty")
	assert.Equal(t, []requirements.Taint{{Key: "dedicated", Value: "x", Effect: requirements.NoExecute},
		{Key: corev1.TaintNodeUnschedulable, Effect: requirements.NoSchedule}}, got.Taints)
}

func TestFromNodeErrors(t *testing.T) {
	tests := []struct{ name, doc, msg string }{
		{"bad capacity type", `{metadata: {name: node-a, labels: {karpenter.sh/capacity-type: cheap}}}`,
			`Node node-a: metadata.labels["karpenter.sh/capacity-type"]: `},
		{"taint without effect", `{metadata: {name: node-a}, spec: {taints: [{key: a}]}}`, `Node node-a: spec.taints[0].effect: invalid requirement: must be NoSchedule, PreferNoSchedule or NoExecute`},
		{"negative allocatable", `{metadata: {name: node-a}, status: {allocatable: {cpu: "-1"}}}`, `Node node-a: status.allocatable: `},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var n corev1.Node
			require.NoError(t, yaml.Unmarshal([]byte(tc.doc), &n))
			_, err := FromNode(&n)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}
