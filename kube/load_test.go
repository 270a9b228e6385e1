package kube

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func names(pods []packing.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Namespace+"/"+p.Name)
	}
	return out
}

func TestLoadSample(t *testing.T) {
	data, err := os.ReadFile("testdata/cluster.yaml")
	require.NoError(t, err)
	c, err := Load(Source{Name: "cluster.yaml", Data: data})
	require.NoError(t, err)
	assert.Equal(t, []string{"shop/web-0", "shop/web-1", "shop/web-2", "shop/web-3", "shop/web-4",
		"shop/api-0", "shop/api-1", "shop/api-2", "shop/api-3", "batch/giant-0",
		"shop/postgres-0", "shop/postgres-1", "shop/postgres-2", "ml/train-0", "ml/train-1"}, names(c.Pods),
		"web has 6 replicas, one already running; workloads expanded kind by kind (Deployments, StatefulSets, Jobs)")
	require.Len(t, c.Nodes, 1)
	assert.Equal(t, []string{"shop/web-7d4b9c-x2k8q"}, names(c.Nodes[0].Pods))
	assert.Len(t, c.DaemonSets, 2)
	assert.Len(t, c.NodePools, 2)
	require.Len(t, c.PodDisruptionBudgets, 1)
	assert.Equal(t, int32(1000000), c.Pods[5].Priority, "api pods get the critical PriorityClass")
	assert.Equal(t, []string{"skipped 1 object of a kind nodeplan does not read: Service ×1",
		"NodePool general: its EC2NodeClass default is not in the input: nodeplan, a what-if tool, plans the pool as if the class were Ready, " +
			"with no kubelet settings, in the catalog's zones (--zones, else the region's defaults)",
		"NodePool gpu: its EC2NodeClass gpu is not in the input: nodeplan, a what-if tool, plans the pool as if the class were Ready, " +
			"with no kubelet settings, in the catalog's zones (--zones, else the region's defaults)",
		"cluster.yaml: document 13: PodDisruptionBudget shop/postgres: no status from the disruption controller (observedGeneration 0); disruptionsAllowed computed from spec: 0 " +
			"(0 of 0 matching pods ready, 0 desired: maxUnavailable 1 of 0 expected)"}, c.Warnings)
	// api: the 2-cpu init container runs before the 250m sidecar starts, so
	// max(2, 1 + 0.25) = 2 cpu; memory max(1Gi, 2Gi + 256Mi).
	assert.Equal(t, int64(2000), c.Pods[5].Requests.CPU)
	assert.Equal(t, int64(2304<<20), c.Pods[5].Requests.Memory)
}

func TestLoadFormats(t *testing.T) {
	pad := strings.Repeat(" ", largeJSONSize)
	pod := func(name string) string {
		return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}`
	}
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"multi-document yaml with empty documents", "---\n# comment only\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n",
			[]string{"default/a", "default/b"}},
		{"json stream", pod("a") + "\n" + pod("b"), []string{"default/a", "default/b"}},
		{"json array", "[" + pod("a") + "," + pod("b") + "]", []string{"default/a", "default/b"}},
		{"kind List", `{"apiVersion":"v1","kind":"List","items":[` + pod("a") + `,{"apiVersion":"v1","kind":"PodList","items":[` + pod("b") + `]}]}`,
			[]string{"default/a", "default/b"}},
		{"yaml List", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a, namespace: x}\n", []string{"x/a"}},
		// Past largeJSONSize a JSON source is split as one document while
		// its validity is checked beside: a stream is not one.
		{"large json stream", pod("a") + pad + pod("b"), []string{"default/a", "default/b"}},
		{"large json array", "[" + pod("a") + "," + pad + pod("b") + "]", []string{"default/a", "default/b"}},
		// Container logs between a cluster-info dump's lists are not JSON:
		// the source is read as documents reads it, without them. Their
		// header inside a string is no log.
		{"large json with container logs", pod("a") + pad + "\n==== START logs for container c of pod ns/p ====\n{ not json\n" +
			"==== END logs for container c of pod ns/p ====\n" + pod("b"), []string{"default/a", "default/b"}},
		{"yaml with container logs", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n" +
			"==== START logs for container c of pod ns/p ====\nnot: [yaml\n==== END logs for container c of pod ns/p ====\n" +
			"---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n", []string{"default/a", "default/b"}},
		{"large json, a log header in a string", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","annotations":{"x":"` +
			`==== START logs for container c of pod ns/p ===="}}}` + pad, []string{"default/a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "f", Data: []byte(tc.data)})
			require.NoError(t, err)
			assert.Equal(t, tc.want, names(c.Pods))
		})
	}
	t.Run("large malformed json stream", func(t *testing.T) {
		_, err := Load(Source{Name: "f", Data: []byte(pod("a") + pad + `{"kind":`)})
		var de *DocumentError
		require.ErrorAs(t, err, &de)
		assert.Equal(t, 2, de.Index, "the second document is malformed")
		assert.ErrorIs(t, err, ErrMalformed)
	})
}

func TestLoadWorkloads(t *testing.T) {
	const docs = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec: {replicas: 2, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c}]}}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-abc
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: u, controller: true}]
spec: {replicas: 2, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: lone}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec: {replicas: 3, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: v1
kind: Pod
metadata: {name: db-1, ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u, controller: true}]}
spec: {containers: [{name: c}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec: {parallelism: 5, completions: 2, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: paused}
spec: {suspend: true, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: v1
kind: Pod
metadata: {name: done}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata: {name: ds-pod, ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u}]}
---
apiVersion: v1
kind: Pod
metadata: {name: lost}
spec: {nodeName: ghost}
`
	c, err := Load(Source{Name: "w.yaml", Data: []byte(docs)})
	require.NoError(t, err)
	assert.Equal(t, []string{"default/db-1", "default/web-0", "default/web-1", "default/lone-0", "default/db-0", "default/db-2",
		"default/once-0", "default/once-1"}, names(c.Pods))
	assert.Equal(t, "Deployment/web", c.Pods[1].Owner)
	assert.Equal(t, "web", c.Pods[1].Labels["app"])
	assert.Equal(t, "db-2", c.Pods[5].Labels["statefulset.kubernetes.io/pod-name"])
	assert.Equal(t, []string{
		"skipped 1 Pod: phase Succeeded takes no room: default/done (w.yaml: document 8)",
		"skipped 1 Pod: a pending daemonset pod is counted by its DaemonSet: default/ds-pod (w.yaml: document 9)",
		"skipped 1 Pod: bound to a node that is not in the input: default/lost on ghost (w.yaml: document 10)",
		"skipped 1 ReplicaSet: their Deployment is expanded instead: default/web-abc (w.yaml: document 2)",
	}, c.Warnings)
}

// TestLoadPresentPodsOfADeployment: a Deployment expands only the replicas
// its present pods do not fill; a pod of one of its ReplicaSets counts for
// it when the ReplicaSet's ownerReferences name it, or, without the
// ReplicaSet, when the ReplicaSet's name is the Deployment's and the pod's
// pod-template-hash.
func TestLoadPresentPodsOfADeployment(t *testing.T) {
	const deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2, template: {spec: {containers: [{name: c}]}}}\n"
	const replicaSet = "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-abc, ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: u, controller: true}]}\n" +
		"spec: {replicas: 2, template: {spec: {containers: [{name: c}]}}}\n"
	pod := func(owner, hash string) string {
		return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {pod-template-hash: '" + hash + "'}, ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: " + owner + ", uid: u, controller: true}]}\n"
	}
	tests := []struct {
		name, docs string
		want       []string
	}{
		{"the ReplicaSet's owner, without a hash label", deployment + replicaSet + pod("web-abc", ""), []string{"default/p", "default/web-0"}},
		{"the hash, without the ReplicaSet", deployment + pod("web-abc", "abc"), []string{"default/p", "default/web-0"}},
		{"a ReplicaSet name not ending in the hash points to no Deployment", deployment + pod("web", "abc"), []string{"default/p", "default/web-0", "default/web-1"}},
		{"another hash", deployment + pod("web-abc", "xyz"), []string{"default/p", "default/web-0", "default/web-1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "d.yaml", Data: []byte(tc.docs)})
			require.NoError(t, err)
			assert.Equal(t, tc.want, names(c.Pods))
		})
	}
}

func TestLoadBoundPods(t *testing.T) {
	const docs = `
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: a}
spec: {nodeName: node-1, containers: [{name: c, resources: {requests: {cpu: 300m}}}]}
---
apiVersion: v1
kind: Node
metadata: {name: node-1}
status: {allocatable: {cpu: "2", pods: "10"}}
`
	c, err := Load(Source{Name: "b.yaml", Data: []byte(docs)})
	require.NoError(t, err)
	assert.Empty(t, c.Pods)
	require.Len(t, c.Nodes, 1)
	require.Len(t, c.Nodes[0].Pods, 1)
	assert.True(t, resources.List{CPU: 300}.Equal(c.Nodes[0].Pods[0].Requests))
}

func TestLoadErrors(t *testing.T) {
	tests := []struct{ name, data, msg string }{
		{"malformed yaml", "apiVersion: v1\nkind: Pod\n---\nkind: [Pod\n", "bad.yaml: document 2: malformed document: "},
		{"malformed json", `{"kind": "Pod",}`, "bad.yaml: document 1: malformed document: "},
		{"no kind", "apiVersion: v1\nmetadata: {name: a}\n", "bad.yaml: document 1: malformed document: no kind"},
		{"not an object", "- 1\n- 2\n", "bad.yaml: document 1: items[0]: malformed document: "},
		{"wrong field type", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: 3}\n",
			"bad.yaml: document 1: Pod default/a: spec.containers: cannot read number 3 as []v1.Container"},
		{"bad quantity", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, resources: {requests: {cpu: lots}}}]}\n",
			`bad.yaml: document 1: Pod default/a: spec.containers[0].resources.requests.cpu: "lots" is not a quantity`},
		{"bad pod in list", `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"tolerations":[{"operator":"Like"}]}}]}`,
			`bad.yaml: document 1: items[0]: Pod default/a: spec.tolerations[0].operator: "Like" is not Equal or Exists`},
		{"bad workload template", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      tolerations: [{operator: Like}]\n",
			`bad.yaml: document 1: Deployment default/web: spec.template.spec.tolerations[0].operator: "Like" is not Equal or Exists`},
		{"negative replicas", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {replicas: -1}\n",
			"bad.yaml: document 1: StatefulSet default/db: spec.replicas: -1 is outside 0..100000"},
		{"negative ordinals start", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {replicas: 1, ordinals: {start: -1}}\n",
			"bad.yaml: document 1: StatefulSet default/db: spec.ordinals.start: -1 is negative"},
		{"too many replicas", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {parallelism: 1000000}\n",
			"bad.yaml: document 1: Job default/j: spec.parallelism: 1000000 is outside 0..100000"},
		{"too many replicas in all", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 60000}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: e}\nspec: {replicas: 60000}\n",
			"bad.yaml: document 2: Deployment default/e: spec.replicas: 60000 more replicas bring the workloads loaded to 120000, over the limit of 100000"},
		{"bad daemonset", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds, namespace: kube-system}\nspec: {template: {spec: {containers: [{name: c, resources: {requests: {cpu: '-1'}}}]}}}\n",
			`bad.yaml: document 1: DaemonSet kube-system/ds: spec.template.spec.containers[0].resources.requests.cpu: "-1" is negative`},
		{"bad pdb selector", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: pdb}\nspec: {selector: {matchExpressions: [{key: a, operator: Lt, values: ['1']}]}}\n",
			`bad.yaml: document 1: PodDisruptionBudget default/pdb: spec.selector.matchExpressions[0].operator: "Lt" is not a label selector operator`},
		{"bad node", "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\nspec: {taints: [{key: a, effect: Later}]}\n",
			"bad.yaml: document 1: Node node-a: spec.taints[0].effect: "},
		// Issue 20: pod specs the API server rejects.
		{"minDomains with ScheduleAnyway", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 3}]\n",
			"bad.yaml: document 1: Pod default/a: spec.topologySpreadConstraints[0].minDomains: is set (3) with whenUnsatisfiable ScheduleAnyway"},
		{"minDomains 0", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, minDomains: 0}]\n",
			"bad.yaml: document 1: Pod default/a: spec.topologySpreadConstraints[0].minDomains: is 0; must be greater than 0"},
		{"maxSkew 0", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  topologySpreadConstraints: [{maxSkew: 0, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}]\n",
			"bad.yaml: document 1: Pod default/a: spec.topologySpreadConstraints[0].maxSkew: is 0; must be at least 1"},
		{"one spread pair twice", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway}\n  - {maxSkew: 2, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway}\n  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway}\n",
			"bad.yaml: document 1: Pod default/a: spec.topologySpreadConstraints[2].topologyKey: topology.kubernetes.io/zone with ScheduleAnyway is the pair of [0]"},
		{"one spread pair twice in a template", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}]\n",
			"bad.yaml: document 1: Deployment default/web: spec.template.spec.topologySpreadConstraints[1].topologyKey: "},
		{"host port of two containers", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers: [{name: a, ports: [{containerPort: 80, hostPort: 80}]}, {name: b, ports: [{containerPort: 81, hostPort: 80, protocol: TCP}]}]\n",
			"bad.yaml: document 1: Pod default/a: spec.containers[1].ports[0].hostPort: 80/TCP is bound twice: spec.containers[0].ports[0] has it"},
		{"host port twice on one IP", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers: [{name: a, ports: [{containerPort: 53, hostPort: 53, protocol: UDP, hostIP: 10.0.0.1}, {containerPort: 54, hostPort: 53, protocol: UDP, hostIP: 10.0.0.1}]}]\n",
			"bad.yaml: document 1: Pod default/a: spec.containers[0].ports[1].hostPort: 53/UDP is bound twice: spec.containers[0].ports[0] has it"},
		{"host port twice in one init container", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  initContainers: [{name: i, ports: [{containerPort: 80, hostPort: 80}, {containerPort: 81, hostPort: 80}]}]\n",
			"bad.yaml: document 1: Pod default/a: spec.initContainers[0].ports[1].hostPort: 80/TCP is bound twice: spec.initContainers[0].ports[0] has it"},
		{"host port of a sidecar and a container", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  initContainers: [{name: s, restartPolicy: Always, ports: [{containerPort: 80, hostPort: 80}]}]\n  containers: [{name: a, ports: [{containerPort: 80, hostPort: 80}]}]\n",
			"bad.yaml: document 1: Pod default/a: spec.containers[0].ports[0].hostPort: 80/TCP is bound twice: spec.initContainers[0].ports[0] has it"},
		{"host port out of range", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers: [{name: a, ports: [{containerPort: 80, hostPort: 70000}]}]\n",
			"bad.yaml: document 1: Pod default/a: spec.containers[0].ports[0].hostPort: 70000 is not a port"},
		{"host port protocol", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers: [{name: a, ports: [{containerPort: 80, hostPort: 80, protocol: tcp}]}]\n",
			`bad.yaml: document 1: Pod default/a: spec.containers[0].ports[0].protocol: "tcp" is not TCP, UDP or SCTP`},
		{"bad nodepool", "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np}\nspec: {weight: 101, template: {spec: {requirements: []}}}\n",
			"bad.yaml: document 1: NodePool np: spec.weight: 101 is outside 1..100"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Source{Name: "bad.yaml", Data: []byte(tc.data)})
			require.Error(t, err)
			var de *DocumentError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, "bad.yaml", de.File)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestLoadNoObjects(t *testing.T) {
	tests := []struct {
		name    string
		sources []Source
		msg     string
	}{
		{"no sources", nil, "no objects: no sources"},
		{"empty files", []Source{{Name: "a.yaml"}, {Name: "b.yaml", Data: []byte("\n")}}, "no objects in a.yaml, b.yaml"},
		{"comments and separators only", []Source{{Name: "a.yaml", Data: []byte("# Source: chart/templates/x.yaml\n---\n---\n# nothing\n")}},
			"no objects in a.yaml"},
		{"empty List and empty typed list", []Source{{Name: "l.json", Data: []byte(`{"apiVersion":"v1","kind":"List","items":[]}` +
			`{"apiVersion":"v1","kind":"PodList","metadata":{},"items":null}`)}, {Name: "e.json", Data: []byte("[]")}},
			"no objects in l.json, e.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(tc.sources...)
			require.ErrorIs(t, err, ErrNoObjects)
			assert.EqualError(t, err, tc.msg)
		})
	}
	_, err := Load(Source{Name: "a.yaml"}, Source{Name: "cm.yaml", Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")})
	assert.NoError(t, err, "an object of a kind nodeplan does not read is an object")
}

// A StatefulSet's pods are numbered from spec.ordinals.start: with start 1
// and 2 replicas they are name-1 and name-2, and name-0 is not a pod of
// it (a Deployment may take that name).
func TestStatefulSetOrdinals(t *testing.T) {
	const sts = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: kafka}\nspec: {replicas: 2, %stemplate: {spec: {containers: [{name: c}]}}}\n"
	const pod = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s, ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: kafka, " +
		"uid: u, controller: true}]}\nspec: {containers: [{name: c}]}\n"
	const deploy = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: kafka}\nspec: {replicas: 1, template: {spec: {containers: [{name: c}]}}}\n"
	tests := []struct {
		name, doc string
		want      []string // pending pods, as namespace/name and owner
	}{
		{"no ordinals", fmt.Sprintf(sts, ""), []string{"default/kafka-0 StatefulSet/kafka", "default/kafka-1 StatefulSet/kafka"}},
		{"start 0", fmt.Sprintf(sts, "ordinals: {start: 0}, "), []string{"default/kafka-0 StatefulSet/kafka", "default/kafka-1 StatefulSet/kafka"}},
		{"start 1", fmt.Sprintf(sts, "ordinals: {start: 1}, "), []string{"default/kafka-1 StatefulSet/kafka", "default/kafka-2 StatefulSet/kafka"}},
		{"start 1, both present", fmt.Sprintf(sts, "ordinals: {start: 1}, ") + fmt.Sprintf(pod, "kafka-1") + fmt.Sprintf(pod, "kafka-2"),
			[]string{"default/kafka-1 StatefulSet/kafka", "default/kafka-2 StatefulSet/kafka"}},
		{"start 5, one present", fmt.Sprintf(sts, "ordinals: {start: 5}, ") + fmt.Sprintf(pod, "kafka-6"),
			[]string{"default/kafka-6 StatefulSet/kafka", "default/kafka-5 StatefulSet/kafka"}},
		{"start 1 leaves name-0 to a Deployment", fmt.Sprintf(sts, "ordinals: {start: 1}, ") + deploy,
			[]string{"default/kafka-0 Deployment/kafka", "default/kafka-1 StatefulSet/kafka", "default/kafka-2 StatefulSet/kafka"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "s.yaml", Data: []byte(tc.doc)})
			require.NoError(t, err)
			var got []string
			for _, p := range c.Pods {
				got = append(got, p.Key()+" "+p.Owner)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestLoadAcceptsSpecs: what the API server accepts next to the rejections
// of TestLoadErrors: a host port per protocol and per IP string, the same
// host port in two init containers (which run one by one), one spread per
// topologyKey and whenUnsatisfiable, minDomains with DoNotSchedule.
func TestLoadAcceptsSpecs(t *testing.T) {
	c, err := Load(Source{Name: "ok.yaml", Data: []byte(`apiVersion: v1
kind: Pod
metadata: {name: a}
spec:
  initContainers:
  - {name: i, ports: [{containerPort: 80, hostPort: 80}]}
  - {name: j, ports: [{containerPort: 80, hostPort: 80}]}
  containers:
  - name: a
    ports:
    - {containerPort: 80, hostPort: 80}
    - {containerPort: 81, hostPort: 80, protocol: UDP}
    - {containerPort: 82, hostPort: 80, hostIP: 0.0.0.0}
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, minDomains: 3}
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway}
`)})
	require.NoError(t, err)
	require.Len(t, c.Pods, 1)
	assert.Len(t, c.Pods[0].HostPorts, 3)
	require.Len(t, c.Pods[0].TopologySpread, 2)
	assert.Equal(t, int32(3), c.Pods[0].TopologySpread[0].MinDomains)
}
