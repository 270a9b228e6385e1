package disruption

import (
	"fmt"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/packing"
)

// AnnotationDoNotDisrupt is the annotation that protects a node (or, as
// [packing.Pod.DoNotDisrupt], a pod) from voluntary disruption.
const AnnotationDoNotDisrupt = "karpenter.sh/do-not-disrupt"

// PodBlocks reports whether pod p blocks the voluntary disruption of its
// node at now, and a sentence why: its do-not-disrupt is active
// ([DoNotDisruptActive]) and it is not [packing.Pod.Terminating]. A
// terminating pod never blocks: it is going anyway (Karpenter's
// IsDisruptable). PodBlocks allocates only for its sentence and is safe for
// concurrent use.
func PodBlocks(p packing.Pod, now time.Time) (bool, string) {
	if p.Terminating {
		return false, ""
	}
	return DoNotDisruptActive(p, now)
}

// DoNotDisruptActive reports whether pod p's do-not-disrupt is active at
// now, and a sentence why: p.DoNotDisrupt is "true", or a positive duration
// (time.ParseDuration) that has not elapsed since p.CreationTime. As in
// Karpenter's IsDoNotDisruptActive, any other value (a typo, "0s", "-5m")
// is ignored, a duration on a pod without a CreationTime is active (fail
// safe), and a terminating pod is not exempt (unlike [PodBlocks]).
// DoNotDisruptActive allocates only for its sentence and is safe for
// concurrent use.
func DoNotDisruptActive(p packing.Pod, now time.Time) (bool, string) {
	switch v := p.DoNotDisrupt; {
	case v == "":
		return false, ""
	case v == "true":
		return true, fmt.Sprintf("pod %s/%s has %s=true", p.Namespace, p.Name, AnnotationDoNotDisrupt)
	}
	d, err := time.ParseDuration(p.DoNotDisrupt)
	if err != nil || d <= 0 {
		return false, ""
	}
	if !p.CreationTime.IsZero() && now.Sub(p.CreationTime) >= d {
		return false, ""
	}
	return true, fmt.Sprintf("pod %s/%s has %s=%s, active until %s", p.Namespace, p.Name,
		AnnotationDoNotDisrupt, p.DoNotDisrupt, p.CreationTime.Add(d).UTC().Format(time.RFC3339))
}

// NodeBlocks reports whether node n opts out of voluntary disruption: its
// karpenter.sh/do-not-disrupt annotation is "true". Other values do not
// block, as in Karpenter.
func NodeBlocks(n packing.Node) (bool, string) {
	if n.Annotations[AnnotationDoNotDisrupt] != "true" {
		return false, ""
	}
	return true, fmt.Sprintf("node %s has %s=true", n.Name, AnnotationDoNotDisrupt)
}

// Movable returns a new slice of the pods that must move when their node
// goes ([packing.Pod.Reschedulable]), in order.
func Movable(pods []packing.Pod) []packing.Pod {
	return slices.DeleteFunc(slices.Clone(pods), func(p packing.Pod) bool { return !p.Reschedulable() })
}

// Staying returns a new slice of the pods that go with their node
// (daemonset, mirror and terminating pods: not [packing.Pod.Reschedulable]),
// in order.
func Staying(pods []packing.Pod) []packing.Pod {
	return slices.DeleteFunc(slices.Clone(pods), func(p packing.Pod) bool { return p.Reschedulable() })
}
