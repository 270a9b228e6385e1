package kube

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mib, gib = int64(1) << 20, int64(1) << 30

// m5Large returns the allocatable of m5.large in each pool's catalog of c.
func m5Large(t *testing.T, c Cluster, cat *instancetypes.Catalog) map[string]resources.List {
	t.Helper()
	p, err := c.Problem(cat)
	require.NoError(t, err)
	out := map[string]resources.List{}
	for _, np := range p.NodePools {
		it, ok := p.PoolCatalog(&np).Get("m5.large")
		require.True(t, ok, np.Name)
		out[np.Name] = it.Allocatable
	}
	return out
}

// An EC2NodeClass's spec.kubelet changes what its NodePools' nodes hold,
// as Karpenter's AWS provider computes it (issue 15: it was dropped).
func TestKubeletApplied(t *testing.T) {
	c, err := loadFixture(t, "kubelet-nodeclass.yaml")
	require.NoError(t, err)
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	got := m5Large(t, c, cat)
	// m5.large: 2 vCPU, 7577Mi after the VM overhead, 20Gi root volume.
	// tuned: pods min(2 × 2, 20) = 4; kube-reserved 200m, 100Mi, 3Gi;
	// system-reserved 100m, 100Mi, 1Gi; eviction ⌈5% of 7577Mi⌉ and 10%.
	assert.Equal(t, resources.List{CPU: 1700, Memory: 7577*mib - 200*mib - 397_253_018, EphemeralStorage: 14 * gib, Pods: 4}, got["tuned"])
	// dense: Bottlerocket sizes kube-reserved memory for its 110 pods.
	assert.Equal(t, resources.List{CPU: 1930, Memory: (7577 - (11*110 + 255) - 100) * mib, EphemeralStorage: 17 * gib, Pods: 110}, got["dense"])
	assert.Equal(t, resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 17 * gib, Pods: 29}, got["plain"])
}

// spec.kubelet is checked as Karpenter's CRD checks it; an error names the
// field, file and document.
func TestKubeletErrors(t *testing.T) {
	tests := []struct{ name, kubelet, msg string }{
		{"negative maxPods", "{maxPods: -1}", "spec.kubelet.maxPods: -1 is negative"},
		{"negative podsPerCore", "{podsPerCore: -2}", "spec.kubelet.podsPerCore: -2 is negative"},
		{"a resource it does not reserve", "{kubeReserved: {nvidia.com/gpu: '1'}}",
			`spec.kubelet.kubeReserved["nvidia.com/gpu"]: is not one of cpu, memory, ephemeral-storage, pid`},
		{"not a quantity", "{systemReserved: {memory: lots}}", `spec.kubelet.systemReserved.memory: "lots" is not a quantity`},
		{"a negative quantity", "{kubeReserved: {cpu: '-1'}}", `spec.kubelet.kubeReserved.cpu: "-1" is negative`},
		{"a percentage over 100", "{evictionHard: {memory.available: 150%}}", `spec.kubelet.evictionHard["memory.available"]: "150%" is not a percentage`},
		{"an unknown signal", "{evictionHard: {memory.free: 1Gi}}", `spec.kubelet.evictionHard["memory.free"]: is not one of memory.available`},
		{"a soft signal without grace period", "{evictionSoft: {memory.available: 1Gi}}",
			`spec.kubelet.evictionSoftGracePeriod["memory.available"]: evictionSoft signal has no matching evictionSoftGracePeriod`},
		{"image GC thresholds", "{imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 60}",
			"spec.kubelet.imageGCHighThresholdPercent: 50 must be above imageGCLowThresholdPercent 60"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Source{Name: "c.yaml", Data: []byte("apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\n" +
				"spec: {amiSelectorTerms: [{alias: al2023@latest}], kubelet: " + tc.kubelet + "}\n")})
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), "c.yaml: document 1: EC2NodeClass c: "+tc.msg)
		})
	}
}

// Settings nodeplan cannot apply are an error naming the field: a catalog
// whose types were given with their capacity and overhead.
func TestKubeletNotApplicable(t *testing.T) {
	c, err := loadFixture(t, "kubelet-nodeclass.yaml")
	require.NoError(t, err)
	cat, err := instancetypes.New([]instancetypes.InstanceType{{Name: "m5.large", Capacity: resources.List{CPU: 2000, Memory: 8 * gib, Pods: 29},
		Offerings: []instancetypes.Offering{{Zone: "us-east-1a", CapacityType: instancetypes.OnDemand, Price: 1, Available: true}}}})
	require.NoError(t, err)
	_, err = c.Problem(cat)
	require.Error(t, err)
	assert.ErrorIs(t, err, instancetypes.ErrNoModel)
	assert.Contains(t, err.Error(), "kubelet-nodeclass.yaml: document 1: items[0]: EC2NodeClass tuned: spec.kubelet.maxPods: cannot be applied:")
}

// A karpenter.sh/v1beta1 NodePool's kubelet settings are converted, not
// rejected: they take the place of its EC2NodeClass's, as Karpenter
// v1.0's conversion kept them for the AWS provider.
func TestKubeletV1beta1(t *testing.T) {
	pool := func(kubelet string) string {
		return "---\napiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: old}\nspec: {template: {spec: {" +
			"nodeClassRef: {apiVersion: karpenter.k8s.aws/v1, kind: EC2NodeClass, name: tuned}, " +
			"requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}], kubelet: " + kubelet + "}}}\n"
	}
	fixture, err := loadFixtureBytes("kubelet-nodeclass.yaml")
	require.NoError(t, err)
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	c, err := Load(Source{Name: "k.yaml", Data: fixture}, Source{Name: "old.yaml", Data: []byte(pool("{maxPods: 12, kubeReserved: {memory: 1Gi}}"))})
	require.NoError(t, err)
	got := m5Large(t, c, cat)
	assert.Equal(t, resources.List{CPU: 1930, Memory: (7577 - 1024 - 100) * mib, EphemeralStorage: 17 * gib, Pods: 12}, got["old"],
		"the pool's own settings, not its class's")
	assert.Equal(t, int64(4), got["tuned"].Pods, "the class's own pool keeps the class's")

	_, err = Load(Source{Name: "old.yaml", Data: []byte(pool("{maxPods: -3}"))})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "old.yaml: document 1: NodePool old: spec.template.spec.kubelet.maxPods: -3 is negative")
	assert.False(t, strings.Contains(err.Error(), "cannot be converted"))
}

func loadFixtureBytes(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", "manifests", name))
}
