package instancetypes

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/resources"
)

// TestWithKubelet checks kubelet settings against the AWS provider's
// formulas, worked out by hand for m5.large (2 vCPU, 8192 MiB, 29
// ENI-limited pods): capacity memory 7577Mi, storage 20Gi; by default
// kube-reserved 70m, 574Mi (11·29 + 255), 1Gi and eviction 100Mi, 2Gi.
func TestWithKubelet(t *testing.T) {
	const m5Memory = 7577 * mib
	tests := []struct {
		name  string
		k     Kubelet
		pods  int64
		alloc resources.List // cpu, memory, ephemeral-storage
		out   bool           // the type is left out
	}{
		{"none", Kubelet{}, 29, resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 17 * gib}, false},
		{"maxPods: kube-reserved stays sized for the ENI count", Kubelet{MaxPods: 110, HasMaxPods: true}, 110,
			resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 17 * gib}, false},
		{"maxPods 0", Kubelet{HasMaxPods: true}, 0, resources.List{}, true},
		{"maxPods on Bottlerocket: kube-reserved for 110 pods", Kubelet{MaxPods: 110, HasMaxPods: true, Family: Bottlerocket}, 110,
			resources.List{CPU: 1930, Memory: (7577 - (11*110 + 255) - 100) * mib, EphemeralStorage: 17 * gib}, false},
		{"Windows: 110 pods without maxPods", Kubelet{Family: Windows}, 110,
			resources.List{CPU: 1930, Memory: (7577 - (11*110 + 255) - 100) * mib, EphemeralStorage: 17 * gib}, false},
		{"podsPerCore caps", Kubelet{PodsPerCore: 10}, 20, resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 17 * gib}, false},
		{"podsPerCore above the ENI count", Kubelet{PodsPerCore: 50}, 29, resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 17 * gib}, false},
		{"podsPerCore with maxPods", Kubelet{PodsPerCore: 10, MaxPods: 15, HasMaxPods: true}, 15,
			resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 17 * gib}, false},
		{"podsPerCore ignored by Bottlerocket", Kubelet{PodsPerCore: 10, Family: Bottlerocket}, 29,
			resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 17 * gib}, false},
		{"kubeReserved replaces", Kubelet{KubeReserved: map[resources.Name]int64{resources.CPU: 200, resources.Memory: 1 * gib}}, 29,
			resources.List{CPU: 1800, Memory: (7577 - 1024 - 100) * mib, EphemeralStorage: 17 * gib}, false},
		{"kubeReserved ephemeral-storage", Kubelet{KubeReserved: map[resources.Name]int64{resources.EphemeralStorage: 3 * gib}}, 29,
			resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 15 * gib}, false},
		{"systemReserved adds", Kubelet{SystemReserved: map[resources.Name]int64{resources.CPU: 100, resources.Memory: 100 * mib}}, 29,
			resources.List{CPU: 1830, Memory: 6803 * mib, EphemeralStorage: 17 * gib}, false},
		{"evictionHard memory.available quantity", Kubelet{MemoryAvailable: Threshold{Quantity: 500 * mib, Set: true}}, 29,
			resources.List{CPU: 1930, Memory: (7577 - 574 - 500) * mib, EphemeralStorage: 17 * gib}, false},
		{"evictionHard memory.available 5% of capacity, rounded up", Kubelet{MemoryAvailable: Threshold{Percent: 5, IsPercent: true, Set: true}}, 29,
			resources.List{CPU: 1930, Memory: m5Memory - 574*mib - 397_253_018, EphemeralStorage: 17 * gib}, false},
		{"evictionHard nodefs.available 15%", Kubelet{NodeFSAvailable: Threshold{Percent: 15, IsPercent: true, Set: true}}, 29,
			resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 16 * gib}, false},
		{"evictionHard 100% is none", Kubelet{NodeFSAvailable: Threshold{Percent: 100, IsPercent: true, Set: true}}, 29,
			resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 19 * gib}, false},
		{"an overhead above capacity leaves the type out", Kubelet{KubeReserved: map[resources.Name]int64{resources.CPU: 3000}}, 0, resources.List{}, true},
	}
	c, err := AWS(Options{})
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, err := c.WithKubelet(tc.k)
			require.NoError(t, err)
			it, ok := k.Get("m5.large")
			if tc.out {
				assert.False(t, ok, "left out")
				return
			}
			require.True(t, ok)
			assert.Equal(t, tc.pods, it.Capacity.Pods)
			assert.Equal(t, tc.pods, it.Allocatable.Pods)
			got := resources.List{CPU: it.Allocatable.CPU, Memory: it.Allocatable.Memory, EphemeralStorage: it.Allocatable.EphemeralStorage}
			assert.True(t, tc.alloc.Equal(got), "allocatable %s, want %s", got, tc.alloc)
			assert.Equal(t, c.Origin(), k.Origin())
			base, _ := c.Get("m5.large")
			assert.Equal(t, base.Offerings, it.Offerings)
		})
	}
}

// WithKubelet keeps the catalog's other settings: Options.MaxPods, a
// catalog file's overrides, and zones moved before or after.
func TestWithKubeletKeeps(t *testing.T) {
	c, err := AWS(Options{MaxPods: 50})
	require.NoError(t, err)
	k, err := c.WithKubelet(Kubelet{PodsPerCore: 20})
	require.NoError(t, err)
	it, _ := k.Get("m5.large")
	assert.Equal(t, int64(40), it.Capacity.Pods, "min(Options.MaxPods 50, 20 × 2)")

	same, err := c.WithKubelet(Kubelet{})
	require.NoError(t, err)
	assert.Same(t, c, same, "the zero Kubelet changes nothing")

	z, err := c.WithZones("us-east-1d")
	require.NoError(t, err)
	zk, err := z.WithKubelet(Kubelet{MaxPods: 7, HasMaxPods: true})
	require.NoError(t, err)
	it, _ = zk.Get("m5.large")
	assert.Equal(t, int64(7), it.Capacity.Pods)
	assert.Equal(t, "us-east-1d", it.Offerings[0].Zone)

	doc := `{"instanceTypes": [{"name": "x1.big", "vcpu": 4, "memoryMiB": 16384, "arch": "amd64", "maxPods": 58,
		"price": {"us-east-1": 0.2}, "overhead": {"memory": "1Gi"}, "capacity": {"pods": "30"}}]}`
	f, err := Parse([]byte(doc), Options{})
	require.NoError(t, err)
	fk, err := f.WithKubelet(Kubelet{MaxPods: 100, HasMaxPods: true, KubeReserved: map[resources.Name]int64{resources.CPU: 500}})
	require.NoError(t, err)
	it, _ = fk.Get("x1.big")
	assert.Equal(t, int64(30), it.Capacity.Pods, "the file's capacity override applies last")
	assert.Equal(t, int64(1*gib), it.Overhead.Memory, "the file's overhead override applies last")
	assert.Equal(t, int64(500), it.Overhead.CPU)
}

func TestWithKubeletNoModel(t *testing.T) {
	c, err := New([]InstanceType{{Name: "given", Capacity: resources.List{CPU: 1000, Memory: gib, Pods: 10},
		Offerings: []Offering{{Zone: "z", CapacityType: OnDemand, Price: 1, Available: true}}}})
	require.NoError(t, err)
	_, err = c.WithKubelet(Kubelet{MaxPods: 5, HasMaxPods: true})
	assert.ErrorIs(t, err, ErrNoModel)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.ErrorContains(t, err, `instance type "given": kubelet`)
}

func TestAMIFamilyString(t *testing.T) {
	assert.Equal(t, "Bottlerocket", Bottlerocket.String())
	assert.Equal(t, "AMIFamily(9)", AMIFamily(9).String())
}

// TestWithKubeletInvalid: what the EC2NodeClass CRD rejects is an error
// naming the Kubelet field, never a silently emptied or shrunk catalog.
func TestWithKubeletInvalid(t *testing.T) {
	pct := func(p float64) Threshold { return Threshold{Percent: p, IsPercent: true, Set: true} }
	tests := []struct {
		name string
		k    Kubelet
		want string
	}{
		{"negative maxPods", Kubelet{MaxPods: -1, HasMaxPods: true}, "Kubelet.MaxPods: invalid options: -1 not in 0..2147483647"},
		{"maxPods above int32", Kubelet{MaxPods: 1 << 31, HasMaxPods: true}, "Kubelet.MaxPods: invalid options: 2147483648 not in"},
		{"maxPods without HasMaxPods", Kubelet{MaxPods: 5}, "Kubelet.MaxPods: invalid options: 5 without HasMaxPods"},
		{"negative podsPerCore", Kubelet{PodsPerCore: -1}, "Kubelet.PodsPerCore: invalid options: -1 not in"},
		{"GPU kubeReserved", Kubelet{KubeReserved: map[resources.Name]int64{"nvidia.com/gpu": 1}},
			"Kubelet.KubeReserved[nvidia.com/gpu]: invalid options: not one of cpu, memory, ephemeral-storage, pid"},
		{"pods kubeReserved", Kubelet{KubeReserved: map[resources.Name]int64{resources.Pods: 5}}, "Kubelet.KubeReserved[pods]: invalid options: not one of"},
		{"pods systemReserved", Kubelet{SystemReserved: map[resources.Name]int64{resources.Pods: 5}}, "Kubelet.SystemReserved[pods]: invalid options: not one of"},
		{"negative kubeReserved", Kubelet{KubeReserved: map[resources.Name]int64{resources.Memory: -1}}, "Kubelet.KubeReserved[memory]: invalid options: -1 not in 0.."},
		{"negative systemReserved", Kubelet{SystemReserved: map[resources.Name]int64{resources.CPU: -100}}, "Kubelet.SystemReserved[cpu]: invalid options: -100 not in 0.."},
		{"huge systemReserved", Kubelet{SystemReserved: map[resources.Name]int64{resources.CPU: math.MaxInt64}}, "Kubelet.SystemReserved[cpu]: invalid options: 9223372036854775807 not in 0.."},
		{"percent above 100", Kubelet{NodeFSAvailable: pct(150)}, "Kubelet.NodeFSAvailable.Percent: invalid options: 150 not in 0..100"},
		{"negative percent", Kubelet{MemoryAvailable: pct(-1)}, "Kubelet.MemoryAvailable.Percent: invalid options: -1 not in 0..100"},
		{"NaN percent", Kubelet{MemoryAvailable: pct(math.NaN())}, "Kubelet.MemoryAvailable.Percent: invalid options: NaN not in 0..100"},
		{"three decimals", Kubelet{MemoryAvailable: pct(5.555)}, "Kubelet.MemoryAvailable.Percent: invalid options: 5.555 has more than two decimals"},
		{"negative quantity", Kubelet{MemoryAvailable: Threshold{Quantity: -1, Set: true}}, "Kubelet.MemoryAvailable.Quantity: invalid options: -1 not in 0.."},
		{"quantity with percent", Kubelet{MemoryAvailable: Threshold{Quantity: 5, IsPercent: true, Set: true}}, "Kubelet.MemoryAvailable.Quantity: invalid options: 5 given with IsPercent"},
		{"percent without IsPercent", Kubelet{NodeFSAvailable: Threshold{Percent: 5, Set: true}}, "Kubelet.NodeFSAvailable.Percent: invalid options: 5 given without IsPercent"},
		{"not set", Kubelet{NodeFSAvailable: Threshold{Quantity: 5}}, "Kubelet.NodeFSAvailable: invalid options: Quantity, Percent or IsPercent given, but not Set"},
		{"unknown family", Kubelet{Family: 99}, "Kubelet.Family: invalid options: AMIFamily(99) is not one of Default, Bottlerocket, Windows"},
	}
	c, err := AWS(Options{})
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := c.WithKubelet(tc.k)
			if err == nil {
				t.Fatalf("accepted: %d of %d types", out.Len(), c.Len())
			}
			assert.ErrorIs(t, err, ErrInvalidOptions)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.True(t, strings.HasPrefix(err.Error(), "instancetypes: "+tc.want), "%v", err)
			assert.NotContains(t, err.Error(), "\n", "one error, not one per type")
		})
	}
}

// TestWithKubeletValid: the limits of the CRD are accepted, and pid is
// checked but reserves nothing a pod requests.
func TestWithKubeletValid(t *testing.T) {
	c, err := AWS(Options{})
	require.NoError(t, err)
	for _, k := range []Kubelet{
		{MaxPods: math.MaxInt32, HasMaxPods: true, PodsPerCore: math.MaxInt32},
		{KubeReserved: map[resources.Name]int64{"pid": 1000}, SystemReserved: map[resources.Name]int64{"pid": 100, resources.Memory: 0}},
		{MemoryAvailable: Threshold{Percent: 0.29, IsPercent: true, Set: true}, NodeFSAvailable: Threshold{Percent: 100, IsPercent: true, Set: true}},
		{MemoryAvailable: Threshold{Set: true}, NodeFSAvailable: Threshold{Percent: 0, IsPercent: true, Set: true}},
	} {
		out, err := c.WithKubelet(k)
		require.NoError(t, err, "%+v", k)
		assert.Equal(t, c.Len(), out.Len(), "%+v: every type kept", k)
	}
}
