package shadow

import (
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/live"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// resource is one kind of object nodeplan shadow watches: a kind of
// live.Kinds, the one list of what nodeplan reads from a cluster.
type resource struct {
	gvr                 schema.GroupVersionResource
	kind                string
	karpenter, optional bool
	quiet               bool // optional without a warning (live.Kind.Quiet)
	// decode converts the JSON of an object to its typed value, a
	// pointer, with live's decoder (live.Kind.Decode): the fields its Go
	// type lacks are unknown.
	decode func(data []byte) (obj any, unknown []string, err error)
	// add appends the typed object (a pointer decode returned) to objs.
	add func(objs *kube.Objects, obj any)
}

// apiVersion is the group/version of r.
func (r *resource) apiVersion() string { return r.gvr.GroupVersion().String() }

// resources are the kinds a snapshot is built from (kube.Objects), in
// live.Kinds' order.
var resources = kinds()

func kinds() []resource {
	var out []resource
	for _, k := range live.Kinds() {
		out = append(out, resource{gvr: k.Resource, kind: k.Kind, karpenter: k.Karpenter, optional: k.Optional, quiet: k.Quiet, add: k.Add, decode: k.Decode})
	}
	return out
}
