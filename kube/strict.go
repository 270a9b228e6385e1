package kube

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/nodeplan/nodeplan/planview"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// ErrUnknownField is wrapped by the error about a field of an object that
// its type lacks, where nodeplan reads every field ([strictMembers]), and
// about a field name that matches one only under case folding (the API
// server matches names case-sensitively).
var ErrUnknownField = errors.New("unknown field")

// ErrDuplicateField is wrapped by the error about a field or map key that
// appears twice in one object.
var ErrDuplicateField = errors.New("duplicate")

// ownPackage is the import path of this package, whose structs read part
// of Karpenter's objects.
var ownPackage = reflect.TypeFor[NodePool]().PkgPath()

// strictMembers are, by struct type, the members inside which nodeplan
// reads every field, so that a field their type lacks is a misspelling
// that would change the answer, and an error: a pod's node selection,
// tolerations, spread and resources, a node's taints, a budget's
// selector, a NodePool's spec, an EC2NodeClass's kubelet, a
// PersistentVolume's node affinity, a StorageClass's allowed topologies and
// a LimitRange's spec. Elsewhere an
// unknown field is recorded for one warning (a cluster newer than these
// types writes fields they lack), or, in this package's structs, skipped.
var strictMembers = map[reflect.Type][]string{
	reflect.TypeFor[corev1.PodSpec]():                   {"nodeSelector", "affinity", "tolerations", "topologySpreadConstraints", "resources", "overhead"},
	reflect.TypeFor[corev1.Container]():                 {"resources", "ports"},
	reflect.TypeFor[corev1.NodeSpec]():                  {"taints"},
	reflect.TypeFor[policyv1.PodDisruptionBudgetSpec](): {"selector"},
	reflect.TypeFor[NodePool]():                         {"spec"},
	reflect.TypeFor[EC2NodeClassSpec]():                 {"kubelet", "metadataOptions"},
	reflect.TypeFor[nodePoolSpecV1beta1]():              {"template", "disruption", "limits"},
	reflect.TypeFor[corev1.PersistentVolumeSpec]():      {"nodeAffinity"},
	reflect.TypeFor[storagev1.StorageClass]():           {"allowedTopologies"},
	reflect.TypeFor[corev1.LimitRange]():                {"spec"},
}

// maxUnknown is how many unknown fields a warning names.
const maxUnknown = 3

// unknownLog records the unknown fields of Kubernetes' types one check
// skipped: how many, and the paths of the first few. The zero unknownLog
// is empty.
type unknownLog struct {
	n     int
	paths []string
}

func (l *unknownLog) reset() { l.n, l.paths = 0, l.paths[:0] }

// add records the field at path.
func (l *unknownLog) add(path func() string) {
	if l.n++; len(l.paths) < maxUnknown {
		l.paths = append(l.paths, path())
	}
}

// unknownFields gathers the unknown fields of every object Load decoded,
// for one warning.
type unknownFields struct {
	n        int
	examples []string
}

// add records the unknown fields of o's last check.
func (u *unknownFields) add(o *object, l *unknownLog) {
	u.n += l.n
	if len(u.examples) >= maxUnknown || len(l.paths) == 0 {
		return
	}
	oe := o.errorf("", nil)
	for _, p := range l.paths {
		if len(u.examples) < maxUnknown {
			u.examples = append(u.examples, fmt.Sprintf("%s %s %s (%s)", oe.Kind, objectName(oe.Namespace, oe.Name), p, o.where()))
		}
	}
}

// lines returns the warning, if there were unknown fields.
func (u *unknownFields) lines() []string {
	if u.n == 0 {
		return nil
	}
	more := ""
	if u.n > len(u.examples) {
		more = fmt.Sprintf(", and %d more", u.n-len(u.examples))
	}
	return []string{fmt.Sprintf("ignored %s, which the Kubernetes API types nodeplan is built with lack (a newer cluster's fields, or misspelt): %s%s",
		planview.Count(u.n, "unknown field"), strings.Join(u.examples, ", "), more)}
}

// keyRef is a map key of the walk: its text as written (part of the
// data) and whether it is plain.
type keyRef struct {
	key   []byte
	plain bool
}
