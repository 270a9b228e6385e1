package resources

import "strings"

// Name is a Kubernetes resource name such as "cpu" or "nvidia.com/gpu".
type Name string

// Core resource names, stored in the fields of a [List].
const (
	CPU              Name = "cpu"               // millicores in a List
	Memory           Name = "memory"            // bytes
	EphemeralStorage Name = "ephemeral-storage" // bytes
	Pods             Name = "pods"              // a count
)

// Well-known extended resource names (whole units in a List).
const (
	GPU         Name = "nvidia.com/gpu"
	AMDGPU      Name = "amd.com/gpu"
	Neuron      Name = "aws.amazon.com/neuron"
	NeuronCore  Name = "aws.amazon.com/neuroncore"
	PodENI      Name = "vpc.amazonaws.com/pod-eni"
	HabanaGaudi Name = "habana.ai/gaudi"
)

// isExtended reports whether n is an extended resource in the Kubernetes
// sense: a domain-prefixed name outside kubernetes.io that is not a quota
// "requests." name. Such resources must be whole numbers.
func isExtended(n Name) bool {
	s := string(n)
	return strings.Contains(s, "/") && !strings.Contains(s, "kubernetes.io/") &&
		!strings.HasPrefix(s, "requests.")
}

// wholeOnly reports whether quantities of n must be whole numbers.
func wholeOnly(n Name) bool {
	return n == Pods || isExtended(n)
}
