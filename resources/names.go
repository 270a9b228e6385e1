package resources

import (
	"maps"
	"slices"
	"strings"
)

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

// SortedNames returns the names m has values for, in ascending order, as
// a new slice (nil for an empty m): the order in which to go through a
// map keyed by Name, such as a NodePool's limits, when the order reaches
// an output. It does not modify m; O(n log n) for n names.
func SortedNames(m map[Name]int64) []Name {
	return slices.Sorted(maps.Keys(m))
}
