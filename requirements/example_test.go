package requirements_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/requirements"
)

func ExampleRequirement_Intersect() {
	zones := requirements.MustNew(requirements.LabelZone, requirements.In, "us-east-1a", "us-east-1b")
	notB := requirements.MustNew(requirements.LabelZone, requirements.NotIn, "us-east-1b")
	fmt.Println(zones.Intersect(notB))

	cpu := requirements.MustNew(requirements.LabelInstanceCPU, requirements.Gt, "4")
	small := requirements.MustNew(requirements.LabelInstanceCPU, requirements.Lt, "16")
	both := cpu.Intersect(small)
	fmt.Println(both, both.Has("8"), both.Has("16"))
	// Output:
	// topology.kubernetes.io/zone In [us-east-1a]
	// karpenter.k8s.aws/instance-cpu Exists >=5 <=15 true false
}

func ExampleSet_Compatible() {
	node := requirements.FromLabels(map[string]string{
		requirements.LabelZone: "us-east-1a",
		requirements.LabelArch: "arm64",
	})
	pod := requirements.MustParse(
		requirements.Expression{Key: requirements.LabelArch, Operator: requirements.In, Values: []string{"arm64"}},
		requirements.Expression{Key: requirements.LabelCapacityType, Operator: requirements.In, Values: []string{"spot"}},
	)
	fmt.Println(node.Compatible(pod))
	fmt.Println(node.StrictlyCompatible(pod))

	amd := requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "amd64"))
	fmt.Println(node.Compatible(amd))
	// Output:
	// <nil>
	// label "karpenter.sh/capacity-type" does not have known values (required karpenter.sh/capacity-type In [spot])
	// key kubernetes.io/arch: kubernetes.io/arch In [amd64] does not intersect kubernetes.io/arch In [arm64]
}

func ExampleTolerates() {
	taints := []requirements.Taint{
		{Key: "nvidia.com/gpu", Value: "true", Effect: requirements.NoSchedule},
		{Key: "dedicated", Value: "ml", Effect: requirements.NoExecute},
	}
	gpuOnly := []requirements.Toleration{{Key: "nvidia.com/gpu", Operator: requirements.TolerateExists}}
	fmt.Println(requirements.Tolerates(gpuOnly, taints))

	both := append(gpuOnly, requirements.Toleration{Key: "dedicated", Value: "ml", Effect: requirements.NoExecute})
	fmt.Println(requirements.Tolerates(both, taints))
	// Output:
	// did not tolerate taint dedicated=ml:NoExecute
	// <nil>
}
