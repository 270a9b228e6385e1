package kube

import "strings"

// ref names an object by kind, namespace and name. It is comparable and is
// the key of every map of objects [Load] keeps (pods present, workloads and
// their scales, StatefulSet pod names), so no map spells its key another
// way. The namespace is empty for cluster-scoped objects.
type ref struct{ kind, namespace, name string }

// ownerRef reads a packing.Pod's Owner, "Kind/name", as the ref of that
// owner in namespace ns; false when the pod has none.
func ownerRef(ns, owner string) (ref, bool) {
	kind, name, ok := strings.Cut(owner, "/")
	return ref{kind, ns, name}, ok
}
