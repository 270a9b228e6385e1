package kube

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// podWith is a Pod document whose spec is given as YAML flow.
func podWith(spec string) string {
	return "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec: " + spec + "\n"
}

// TestLoadFieldErrors checks that each error names the file, document,
// object and field path, and echoes the value as written.
func TestLoadFieldErrors(t *testing.T) {
	tests := []struct{ name, doc, msg string }{
		{"not a quantity", podWith(`{containers: [{name: c, resources: {requests: {cpu: abc}}}]}`),
			`Pod shop/p: spec.containers[0].resources.requests.cpu: "abc" is not a quantity`},
		{"echoed as written, not canonicalised", podWith(`{containers: [{name: c, resources: {requests: {memory: 1e400}}}]}`),
			`Pod shop/p: spec.containers[0].resources.requests.memory: "1e400" has an exponent outside ±64`},
		{"out of range", podWith(`{containers: [{name: c, resources: {requests: {memory: 10E}}}]}`),
			`Pod shop/p: spec.containers[0].resources.requests.memory: "10E" is out of range`},
		{"JSON number quantity", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"shop"},` +
			`"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":1e19}}}]}}`,
			`Pod shop/p: spec.containers[0].resources.requests.cpu: "1e19" is out of range`},
		{"a quantity of the wrong JSON type", podWith(`{containers: [{name: c, resources: {requests: {cpu: [1]}}}]}`),
			`Pod shop/p: spec.containers[0].resources.requests.cpu: [1] is not a quantity`},
		{"negative number", podWith(`{containers: [{name: c, resources: {requests: {cpu: -1}}}]}`),
			`Pod shop/p: spec.containers[0].resources.requests.cpu: "-1" is negative`},
		{"a bool is not a quantity", podWith(`{containers: [{name: c, resources: {requests: {cpu: true}}}]}`),
			`Pod shop/p: spec.containers[0].resources.requests.cpu: true is not a quantity`},
		{"negative limit", podWith(`{initContainers: [{name: c, resources: {limits: {memory: -1Gi}}}]}`),
			`Pod shop/p: spec.initContainers[0].resources.limits.memory: "-1Gi" is negative`},
		{"fractional extended resource", podWith(`{containers: [{name: a}, {name: b, resources: {limits: {nvidia.com/gpu: 500m}}}]}`),
			`Pod shop/p: spec.containers[1].resources.limits["nvidia.com/gpu"]: "500m" is not a whole number`},
		{"ephemeral container", podWith(`{ephemeralContainers: [{name: e, resources: {requests: {cpu: x}}}]}`),
			`Pod shop/p: spec.ephemeralContainers[0].resources.requests.cpu: "x" is not a quantity`},
		{"pod-level resources", podWith(`{resources: {requests: {cpu: 1.5.5}}}`), `Pod shop/p: spec.resources.requests.cpu: "1.5.5" is not a quantity`},
		{"overhead", podWith(`{overhead: {memory: lots}}`), `Pod shop/p: spec.overhead.memory: "lots" is not a quantity`},
		{"emptyDir sizeLimit", podWith(`{volumes: [{name: v, emptyDir: {sizeLimit: 1Zi}}]}`),
			`Pod shop/p: spec.volumes[0].emptyDir.sizeLimit: "1Zi" is not a quantity`},
		{"status quantities too", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nstatus: {containerStatuses: [{name: c, allocatedResources: {cpu: '1e99999'}}]}\n",
			`Pod shop/p: status.containerStatuses[0].allocatedResources.cpu: "1e99999" has an exponent outside ±64`},
		{"too long", podWith(`{containers: [{name: c, resources: {requests: {memory: "0.00000000000000000000000000000000000000000000000000000000000000001"}}}]}`),
			`Pod shop/p: spec.containers[0].resources.requests.memory: "0.00000000000000000000000000000000000000000000000000000000000000…" is longer than 64 characters`},
		{"node allocatable", "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\nstatus: {allocatable: {pods: '1.5'}}\n",
			`Node node-a: status.allocatable.pods: "1.5" is not a whole number`},
		{"node capacity", "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\nstatus: {capacity: {memory: 8 Gi}}\n",
			`Node node-a: status.capacity.memory: "8 Gi" is not a quantity`},
		{"workload template", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {template: {spec: {containers: [{name: c, resources: {requests: {cpu: '?'}}}]}}}\n",
			`Deployment default/d: spec.template.spec.containers[0].resources.requests.cpu: "?" is not a quantity`},
		{"NodePool limits", "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np}\nspec: {limits: {cpu: a lot}}\n",
			`NodePool np: spec.limits.cpu: "a lot" is not a quantity`},
		{"v1beta1 NodePool limits", "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: np}\nspec: {limits: {memory: 1e2147483648}}\n",
			`NodePool np: spec.limits.memory: "1e2147483648" has an exponent outside ±64`},
		{"EC2NodeClass volume size", "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\nspec: {blockDeviceMappings: [{ebs: {volumeSize: 1e2147483648}}]}\n",
			`EC2NodeClass c: spec.blockDeviceMappings[0].ebs.volumeSize: "1e2147483648" has an exponent outside ±64`},
		{"type mismatch deep in a list", podWith(`{containers: [{name: a}, {name: b, ports: [{containerPort: http}]}]}`),
			`Pod shop/p: spec.containers[1].ports[0].containerPort: cannot read string "http" as int32`},
		{"integer out of range", podWith(`{priority: 3000000000}`), `Pod shop/p: spec.priority: cannot read number 3000000000 as int32`},
		{"map key of a label map", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop, labels: {app: [x]}}\n",
			`Pod shop/p: metadata.labels.app: cannot read array as string`},
		{"time", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop, creationTimestamp: yesterday}\n",
			`Pod shop/p: metadata.creationTimestamp: cannot read "yesterday" as v1.Time: `},
		{"int or string", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: 1.5}\n",
			`PodDisruptionBudget default/b: spec.minAvailable: cannot read 1.5 as intstr.IntOrString: `},
		{"field names are case-sensitive, as the API server's", podWith(`{Containers: [{name: c, Resources: {requests: {cpu: x}}}]}`),
			`Pod shop/p: spec.Containers: unknown field: field names are case-sensitive; did you mean containers?`},
		{"a duplicate key is checked too", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"shop"},` +
			`"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1e2147483648","cpu":"1"}}}]}}`,
			`Pod shop/p: spec.containers[0].resources.requests.cpu: "1e2147483648" has an exponent outside ±64`},
		{"empty name", "apiVersion: v1\nkind: Pod\nmetadata: {namespace: shop}\n", `Pod shop/: metadata.name: is empty`},
		{"empty NodePool name", "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {}\nspec: {}\n", `NodePool : metadata.name: is empty`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			first := "---\n# first\n---\n" // YAML; a JSON stream's first document is an object
			if tc.doc[0] == '{' {
				first = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"first"}}` + "\n"
			}
			_, err := Load(Source{Name: "e.yaml", Data: []byte(first + tc.doc)})
			require.Error(t, err)
			var de *DocumentError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, 2, de.Index)
			var oe *ObjectError
			require.ErrorAs(t, err, &oe, "names the object")
			assert.NotEmpty(t, oe.Field, "names the field")
			assert.Contains(t, err.Error(), "e.yaml: document 2: "+tc.msg)
		})
	}
}

func TestLoadDuplicates(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: web-0, namespace: shop}\n"
	pool := func(v string) string {
		return "apiVersion: karpenter.sh/" + v + "\nkind: NodePool\nmetadata: {name: general}\nspec: {}\n"
	}
	tests := []struct {
		name    string
		sources []Source
		msg     string
	}{
		{"pod in two files", []Source{{Name: "a.yaml", Data: []byte("---\n" + pod)}, {Name: "b.yaml", Data: []byte(pod)}},
			"b.yaml: document 1: Pod shop/web-0: metadata.name: duplicate: the same Pod is at a.yaml: document 1"},
		{"pod in a list, namespace defaulted", []Source{{Name: "l.json", Data: []byte(`{"apiVersion":"v1","kind":"PodList","items":[` +
			`{"metadata":{"name":"a"}},{"metadata":{"name":"a","namespace":"default"}}]}`)}},
			"l.json: document 1: items[1]: Pod default/a: metadata.name: duplicate: the same Pod is at l.json: document 1: items[0]"},
		// Pods are checked by sorting them: the first duplicate in reading
		// order is reported, naming the first pod of its name.
		{"pods, three of a name and two of another, unsorted", []Source{{Name: "l.json", Data: []byte(`{"apiVersion":"v1","kind":"PodList","items":[` +
			`{"metadata":{"name":"b"}},{"metadata":{"name":"c"}},{"metadata":{"name":"a"}},{"metadata":{"name":"c","namespace":"default"}},` +
			`{"metadata":{"name":"b"}},{"metadata":{"name":"c"}}]}`)}},
			"l.json: document 1: items[3]: Pod default/c: metadata.name: duplicate: the same Pod is at l.json: document 1: items[1]"},
		{"NodePool at two versions", []Source{{Name: "p.yaml", Data: []byte(pool("v1") + "---\n" + pool("v1beta1"))}},
			"p.yaml: document 2: NodePool general: metadata.name: duplicate: the same NodePool is at p.yaml: document 1"},
		{"Node", []Source{{Name: "n.yaml", Data: []byte("kind: Node\napiVersion: v1\nmetadata: {name: node-a, namespace: ignored}\n---\nkind: Node\napiVersion: v1\nmetadata: {name: node-a}\n")}},
			"n.yaml: document 2: Node node-a: metadata.name: duplicate: the same Node is at n.yaml: document 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(tc.sources...)
			require.ErrorIs(t, err, ErrDuplicate)
			var oe *ObjectError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "metadata.name", oe.Field)
			assert.EqualError(t, err, tc.msg)
		})
	}
	c, err := Load(Source{Name: "ok.yaml", Data: []byte(pod + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: web-0, namespace: other}\n")})
	require.NoError(t, err, "the same name in another namespace")
	assert.Len(t, c.Pods, 2)
}

// TestLoadExpandedNamesAreUnique: pods a workload expands into never take
// the name of a pod in the manifests, of another workload's pod, or of a
// StatefulSet's pod.
func TestLoadExpandedNamesAreUnique(t *testing.T) {
	c, err := Load(Source{Name: "w.yaml", Data: []byte(`
apiVersion: v1
kind: Pod
metadata: {name: web-0}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec: {replicas: 2, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: web}
spec: {parallelism: 1, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec: {replicas: 4, template: {spec: {containers: [{name: c}]}}}
`)})
	require.NoError(t, err)
	// Workloads are expanded kind by kind: Deployments, StatefulSets, Jobs.
	assert.Equal(t, []string{"default/web-0", "default/web-4", "default/web-5", "default/web-1", "default/web-2", "default/web-3", "default/web-6"}, names(c.Pods))
	assert.Equal(t, "Deployment/web", c.Pods[1].Owner)
	assert.Equal(t, "StatefulSet/web", c.Pods[3].Owner, "web-0 is taken by a pod that is not the StatefulSet's")
	assert.Equal(t, "Job/web", c.Pods[6].Owner)
}

// TestLoadHugeExponent is issue 20.3: apimachinery's quantity decoder does
// not return on 1e2147483648. Load must reject it before apimachinery sees
// it; the deadline only turns a hang into a failure.
func TestLoadHugeExponent(t *testing.T) {
	for _, q := range []string{"1e2147483648", "-1e-2147483648", "1E2147483647", "0.5e-2147483648"} {
		done := make(chan error, 1)
		go func() {
			_, err := Load(Source{Name: "q.yaml", Data: []byte(podWith(`{containers: [{name: c, resources: {requests: {cpu: "` + q + `"}}}]}`))})
			done <- err
		}()
		select {
		case err := <-done:
			var oe *ObjectError
			require.True(t, errors.As(err, &oe), "%s: %v", q, err)
			assert.Equal(t, "spec.containers[0].resources.requests.cpu", oe.Field)
		case <-time.After(time.Minute):
			t.Fatalf("Load did not return on cpu %s", q)
		}
	}
}

func TestLoadHeadErrors(t *testing.T) {
	tests := []struct{ name, doc, msg string }{
		{"name is not a string (YAML 1.1 reads n as false)", "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n",
			"h.yaml: document 1: malformed document: metadata.name: cannot read bool as string"},
		{"kind is not a string", `{"kind": 3}`, "h.yaml: document 1: malformed document: kind: cannot read number 3 as string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Source{Name: "h.yaml", Data: []byte(tc.doc)})
			require.ErrorIs(t, err, ErrMalformed)
			assert.EqualError(t, err, tc.msg)
		})
	}
}
