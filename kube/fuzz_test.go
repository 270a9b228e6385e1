package kube

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// hostile are strings Kubernetes rejects in names, label keys and values,
// taints and topology keys, or accepts only in some of these places.
var hostile = []string{"", " ", "a b", " app", "app ", "a/b", "a/b/c", "/a", "a/", "nämé-0", "pool/0", "ä", "日本",
	"bad value!", "a:b", "rack=\"a:b\"", strings.Repeat("x", 63), strings.Repeat("x", 64), strings.Repeat("y", 254) + "/k",
	"example.com/" + strings.Repeat("k", 64), "Upper", "-lead", "trail-", "a..b", "kubernetes.io/hostname", "0", "-1",
	"\x00", "\n", "a\tb", "\u00a0"}

// FuzzLoad checks that Load, and Cluster.CheckRegion on what it loads,
// never panic and that every error they return is a *DocumentError
// naming the file.
func FuzzLoad(f *testing.F) {
	for _, name := range []string{"testdata/cluster.yaml", "testdata/manifests/pdbs.yaml", "testdata/manifests/karpenter-v1beta1.yaml",
		"testdata/manifests/helm-ingress-nginx.yaml", "testdata/manifests/cluster-info-dump.txt", "testdata/manifests/podlist-api.json",
		"testdata/manifests/jobs.yaml", "testdata/manifests/kubelet-nodeclass.yaml", "testdata/manifests/nodeclass-ready.yaml",
		"testdata/manifests/karpenter-v1-full.yaml", "testdata/manifests/volumes.yaml", "testdata/manifests/admission.yaml",
		"testdata/manifests/csinodes.yaml"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(fullPod))
	f.Add([]byte(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}]}`))
	f.Add([]byte("kind: [\n"))
	f.Add([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 3}\n"))
	f.Add([]byte("[1, 2]"))
	f.Add([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: g}\nspec: {schedulingGates: [{name: g}], schedulerName: x, containers: [{name: c}]}\n" +
		"status: {nominatedNodeName: n}\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec: {replicas: 2, ordinals: {start: 3}}\n" +
		"---\napiVersion: v1\nkind: Node\nmetadata: {name: n, labels: {eks.amazonaws.com/capacityType: SPOT}}\n"))
	f.Add([]byte(podWith(`{containers: [{name: c, resources: {requests: {cpu: 1e2147483648}}}]}`)))
	f.Add([]byte("apiVersion: v1\nkind: LimitRange\nmetadata: {name: a}\nspec: {limits: [{type: Container, max: {cpu: '2'}, min: {memory: 1Mi}}, " +
		"{type: Pod}, {type: Container, defaultRequest: {nvidia.com/gpu: '1'}}]}\n---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: b}\n" +
		"spec: {limits: [{type: Container, default: {cpu: 1m}}]}\n---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n" +
		"spec: {template: {spec: {initContainers: [{name: i, resources: {limits: {cpu: '1'}}}], containers: [{name: c}]}}}\n"))
	f.Add([]byte("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d, uid: u}\nspec: {template: {spec: {containers: [{name: c}]}}}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, ownerReferences: [{kind: DaemonSet, name: d, uid: v, controller: true}]}\n" +
		"spec: {containers: [{name: c}]}\nstatus: {phase: Failed, conditions: [{type: PodResizePending, reason: Infeasible}], " +
		"containerStatuses: [{name: c, resources: {}, allocatedResources: {cpu: '3'}}, {name: c, resources: {requests: {memory: 1Gi}}}]}\n"))
	for _, h := range hostile {
		f.Add([]byte(volumeSeed(h)))
	}
	for i := 0; i+4 < len(hostile); i += 5 {
		f.Add([]byte(stringsCluster(hostile[i], hostile[i+1], hostile[i+2], hostile[i+3], hostile[i+4])))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Load(Source{Name: "fuzz.yaml", Data: data})
		if err == nil {
			err = c.CheckRegion(c.Region() + "-other")
		}
		var de *DocumentError
		if err != nil && !errors.Is(err, ErrNoObjects) && (!errors.As(err, &de) || de.File != "fuzz.yaml") {
			t.Fatalf("error %v is not a *DocumentError for fuzz.yaml", err)
		}
	})
}

// FuzzLoadStrings puts five strings in every place of a cluster where a
// name, label, taint, toleration, topology key or requirement goes. Load
// must either reject them with a *DocumentError naming the field, or
// return a cluster whose problem packing accepts and solves without
// panicking.
func FuzzLoadStrings(f *testing.F) {
	addStringSeeds(f)
	cat, err := instancetypes.AWS(instancetypes.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name, key, value, topology, pool string) {
		c, err := Load(Source{Name: "s.json", Data: []byte(stringsCluster(name, key, value, topology, pool))})
		if err != nil {
			var oe *ObjectError
			if !errors.As(err, &oe) || oe.Field == "" {
				t.Fatalf("error %v does not name an object's field", err)
			}
			return
		}
		if err := loadedLabels(&c); err != nil {
			t.Fatalf("Load accepted %q %q %q %q %q and returned %v", name, key, value, topology, pool, err)
		}
		p, err := c.Problem(cat)
		if err == nil {
			err = p.Validate()
		}
		if err != nil {
			t.Fatalf("Load accepted %q %q %q %q %q, packing rejects them: %v", name, key, value, topology, pool, err)
		}
		if _, err := packing.Solve(p, packing.Options{}); err != nil {
			t.Fatalf("Solve: %v", err)
		}
	})
}

// addStringSeeds adds the seeds of FuzzLoadStrings: the hostile strings
// in each place.
func addStringSeeds(f *testing.F) {
	for i := 0; i+4 < len(hostile); i++ {
		f.Add(hostile[i], hostile[i+1], hostile[i+2], hostile[i+3], hostile[(i+7)%len(hostile)])
		f.Add("web", hostile[i], "v", "zone", "general")
		f.Add(hostile[i], "app", "web", "zone", "general")
		f.Add("web", "app", hostile[i], "zone", "general")
		f.Add("web", "app", "web", hostile[i], "general")
		f.Add("web", "app", "web", "zone", hostile[i])
	}
	f.Add("web", "app", "web", "topology.kubernetes.io/zone", "general")
	f.Add("general", "team", "a", "kubernetes.io/hostname", "general")
}

// loadedLabels checks the labels of every pod, node and NodePool template
// that Load returned: packing turns them into requirements.
func loadedLabels(c *Cluster) error {
	var errs []error
	for _, p := range c.Pods {
		errs = append(errs, checkLabels("pod "+p.Name, p.Labels))
	}
	for _, n := range c.Nodes {
		errs = append(errs, checkLabels("node "+n.Name, n.Labels))
		for _, p := range n.Pods {
			errs = append(errs, checkLabels("pod "+p.Name, p.Labels))
		}
	}
	for _, np := range c.NodePools {
		errs = append(errs, checkLabels("nodepool "+np.Metadata.Name, np.Spec.Template.Metadata.Labels))
	}
	return errors.Join(errs...)
}

// stringsCluster writes a NodePool named pool; a Node named node-value
// without a hostname label, so that its name stands in for it; and a Pod
// (in namespace pool), a Deployment, a StatefulSet and a
// PodDisruptionBudget named name, in which key, value and topology take
// every role their names say.
func stringsCluster(name, key, value, topology, pool string) string {
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	n, k, v, tk, np, node := q(name), q(key), q(value), q(topology), q(pool), q("node-"+value)
	labels := fmt.Sprintf(`{%s: %s}`, k, v)
	selector := fmt.Sprintf(`{"matchLabels": %s, "matchExpressions": [{"key": %s, "operator": "In", "values": [%s]}]}`, labels, k, v)
	podSpec := fmt.Sprintf(`{"nodeSelector": %s, "tolerations": [{"key": %s, "value": %s, "effect": "NoSchedule"}, {"key": %s, "operator": "Exists"}],
		"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": %s, "whenUnsatisfiable": "DoNotSchedule", "labelSelector": %s, "matchLabelKeys": [%s]}],
		"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": %s, "operator": "In", "values": [%s]}]}]}},
			"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": %s, "labelSelector": %s, "namespaces": [%s], "matchLabelKeys": [%s]}]}},
		"containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}`, labels, k, v, tk, tk, selector, k, k, v, tk, selector, np, k)
	return strings.Join([]string{
		fmt.Sprintf(`{"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": {"name": %s}, "spec": {"template": {"metadata": {"labels": %s},
			"spec": {"requirements": [{"key": %s, "operator": "In", "values": [%s]}, {"key": %s, "operator": "Exists"}],
			"taints": [{"key": %s, "value": %s, "effect": "NoSchedule"}]}}}}`, np, labels, k, v, tk, k, v),
		fmt.Sprintf(`{"apiVersion": "v1", "kind": "Node", "metadata": {"name": %s, "labels": {%s: %s, %s: %s, "karpenter.sh/nodepool": %s}},
			"spec": {"taints": [{"key": %s, "value": %s, "effect": "NoSchedule"}]}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "20"}}}`,
			node, k, v, tk, v, np, k, v),
		fmt.Sprintf(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": %s, "namespace": %s, "labels": %s}, "spec": %s}`, n, np, labels, podSpec),
		fmt.Sprintf(`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": %s}, "spec": {"replicas": 2,
			"template": {"metadata": {"labels": %s}, "spec": %s}}}`, n, labels, podSpec),
		fmt.Sprintf(`{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": %s}, "spec": {"replicas": 1,
			"template": {"metadata": {"labels": %s}, "spec": %s}}}`, n, labels, podSpec),
		fmt.Sprintf(`{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": %s}, "spec": {"minAvailable": 1, "selector": %s}}`, n, selector),
	}, "\n")
}

func TestStringsClusterValid(t *testing.T) {
	c, err := Load(Source{Name: "s.json", Data: []byte(stringsCluster("web", "app", "web", "topology.kubernetes.io/zone", "general"))})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Pods) != 4 || len(c.NodePools) != 1 || len(c.Nodes) != 1 || len(c.PodDisruptionBudgets) != 1 {
		t.Fatalf("the generator's valid cluster loads as %d pods, %d pools, %d nodes, %d budgets", len(c.Pods), len(c.NodePools), len(c.Nodes), len(c.PodDisruptionBudgets))
	}
}

// volumeSeed is a node with a CSINode, a claim, a volume and a class,
// and a pod mounting them, with s as the driver, claim and class names
// and the count.
func volumeSeed(s string) string {
	q := strconv.Quote(s)
	return "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n---\napiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n}\n" +
		"spec: {drivers: [{name: " + q + ", nodeID: x, allocatable: {count: " + q + "}}, {name: d, allocatable: {count: 1}}]}\n---\n" +
		"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: ns, annotations: {pv.kubernetes.io/bind-completed: " + q + "}}\n" +
		"spec: {volumeName: " + q + ", storageClassName: " + q + "}\n---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: " + q + "}\n" +
		"spec: {csi: {driver: " + q + ", volumeHandle: h}}\n---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: " + q + "}\n" +
		"provisioner: " + q + "\nvolumeBindingMode: " + q + "\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\n" +
		"spec: {nodeName: n, containers: [{name: c}], volumes: [{name: v, persistentVolumeClaim: {claimName: " + q + "}}, " +
		"{name: e, ephemeral: {volumeClaimTemplate: {spec: {storageClassName: " + q + "}}}}]}\n"
}
