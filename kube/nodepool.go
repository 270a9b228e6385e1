package kube

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Karpenter's API group, version and kinds.
const (
	KarpenterAPIVersion = "karpenter.sh/v1"
	KindNodePool        = "NodePool"
	KindNodeClaim       = "NodeClaim"
)

// Never is Karpenter's spelling of a disabled duration.
const Never = "Never"

// NodePool reads the YAML (or JSON) of a Karpenter karpenter.sh/v1
// NodePool: the fields nodeplan uses, under the same names: its whole
// spec, where [Load] rejects a field it does not know, and part of its
// metadata and status, where such fields are ignored. See the package doc
// for why this is not sigs.k8s.io/karpenter's type. The zero NodePool is
// unnamed and invalid.
type NodePool struct {
	APIVersion string       `json:"apiVersion"`
	Kind       string       `json:"kind"`
	Metadata   ObjectMeta   `json:"metadata"`
	Spec       NodePoolSpec `json:"spec"`
	// Status holds the conditions Karpenter wrote; a pool whose Ready
	// condition is not True launches nothing ([Cluster.Problem]).
	Status NodePoolStatus `json:"status,omitzero"`
	// kubelet holds the kubelet settings of a karpenter.sh/v1beta1 pool,
	// which Karpenter v1.0's conversion kept for the pool in place of its
	// EC2NodeClass's.
	kubelet *KubeletConfiguration
}

// NodePoolStatus is the part of a NodePool's status nodeplan reads.
type NodePoolStatus struct {
	Conditions []Condition `json:"conditions,omitempty"`
}

// ObjectMeta is the part of Kubernetes object metadata nodeplan reads and
// writes.
type ObjectMeta struct {
	Name        string            `json:"name,omitempty"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	// DeletionTimestamp is set on an object being deleted: a static
	// NodePool being deleted scales neither up nor down ([Cluster.Static]).
	DeletionTimestamp *metav1.Time `json:"deletionTimestamp,omitempty"`
}

// NodePoolSpec is a NodePool's spec.
type NodePoolSpec struct {
	Template   NodeClaimTemplate `json:"template"`
	Disruption Disruption        `json:"disruption"`
	// Limits cap the pool's summed capacity; "nodes" caps the node count.
	Limits corev1.ResourceList `json:"limits,omitempty"`
	// Weight (1..100) orders the pools, higher first; nil is 0.
	Weight *int32 `json:"weight,omitempty"`
	// Replicas, when set, makes the pool static (Karpenter v1.14, alpha):
	// it keeps that many nodes, provisions none for pending pods and
	// consolidates none: nodeplan launches nothing from it for pending
	// pods and keeps its nodes ([FromNodePool]); [Cluster.Static] says how
	// spec.replicas scales it (package static).
	Replicas *int64 `json:"replicas,omitempty"`
}

// NodeClaimTemplate is spec.template of a NodePool.
type NodeClaimTemplate struct {
	Metadata ObjectMeta    `json:"metadata,omitempty"`
	Spec     NodeClaimSpec `json:"spec"`
}

// NodeClaimSpec is the spec of a NodeClaim, and of a NodePool's template
// (which has no Resources).
type NodeClaimSpec struct {
	Taints        []corev1.Taint `json:"taints,omitempty"`
	StartupTaints []corev1.Taint `json:"startupTaints,omitempty"`
	Requirements  []Requirement  `json:"requirements"`
	// Resources are the requests the NodeClaim was opened for.
	Resources    *NodeClaimResources `json:"resources,omitempty"`
	NodeClassRef *NodeClassReference `json:"nodeClassRef,omitempty"`
	// TerminationGracePeriod is a Go duration such as "48h".
	TerminationGracePeriod string `json:"terminationGracePeriod,omitempty"`
	// ExpireAfter is a Go duration or "Never"; empty is Karpenter's 720h.
	ExpireAfter string `json:"expireAfter,omitempty"`
}

// Requirement is a node selector requirement with Karpenter's minValues.
type Requirement struct {
	Key       string   `json:"key"`
	Operator  string   `json:"operator"`
	Values    []string `json:"values,omitempty"`
	MinValues *int     `json:"minValues,omitempty"`
}

// NodeClaimResources are a NodeClaim's spec.resources.
type NodeClaimResources struct {
	Requests map[string]string `json:"requests,omitempty"`
}

// NodeClassReference names the provider's node class (an EC2NodeClass,
// say).
type NodeClassReference struct {
	Group string `json:"group"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
}

// Disruption is spec.disruption of a NodePool.
type Disruption struct {
	// ConsolidateAfter is a Go duration or "Never"; empty is 0s.
	ConsolidateAfter string `json:"consolidateAfter,omitempty"`
	// ConsolidationPolicy is WhenEmptyOrUnderutilized (the default),
	// WhenEmpty or Balanced.
	ConsolidationPolicy string   `json:"consolidationPolicy,omitempty"`
	Budgets             []Budget `json:"budgets,omitempty"`
}

// Budget is a disruption budget.
type Budget struct {
	Nodes    string   `json:"nodes"`
	Schedule *string  `json:"schedule,omitempty"`
	Duration string   `json:"duration,omitempty"`
	Reasons  []string `json:"reasons,omitempty"`
}

// FromNodePool converts a NodePool: requirements with minValues, template
// labels, taints and startup taints, limits, weight and disruption. A
// static pool (spec.replicas) gets packing.NodePool.Unavailable and
// consolidation disabled, as Karpenter provisions from and consolidates
// no static pool. It does not modify np. Errors are *ObjectError values
// naming the field.
func FromNodePool(np *NodePool) (packing.NodePool, error) {
	out, err := fromNodePool(np)
	return out, wrap(KindNodePool, "", np.Metadata.Name, err)
}

func fromNodePool(np *NodePool) (packing.NodePool, error) {
	out := packing.NodePool{Name: np.Metadata.Name, Labels: maps.Clone(np.Spec.Template.Metadata.Labels)}
	spec := &np.Spec.Template.Spec
	if np.Metadata.Name == "" {
		return out, atField("metadata.name", errors.New("is empty"))
	}
	if err := requirements.ValidateValue(np.Metadata.Name); err != nil {
		return out, atField("metadata.name", fmt.Errorf("must be a label value, as it becomes the %s label: %w", requirements.LabelNodePool, err))
	}
	if err := checkLabels("spec.template.metadata.labels", np.Spec.Template.Metadata.Labels); err != nil {
		return out, err
	}
	if err := notHostname(np); err != nil {
		return out, err
	}
	var err error
	if out.Weight, err = weight(np.Spec.Weight); err != nil {
		return out, atField("spec.weight", err)
	}
	if out.Requirements, err = poolRequirements(spec.Requirements); err != nil {
		return out, atField("spec.template.spec.requirements", err)
	}
	if out.Taints, err = taints(spec.Taints); err != nil {
		return out, atField("spec.template.spec.taints", err)
	}
	if out.StartupTaints, err = taints(spec.StartupTaints); err != nil {
		return out, atField("spec.template.spec.startupTaints", err)
	}
	if out.Limits, err = limits(np.Spec.Limits); err != nil {
		return out, atField("spec.limits", err)
	}
	if out.Disruption, err = disruption(&np.Spec); err != nil {
		return out, err
	}
	return out, markStatic(&out, &np.Spec)
}

// markStatic makes np launch no node and consolidate none when it is a static
// pool (spec.replicas set), as Karpenter's provisioner and consolidation
// skip static pools. It rejects what Karpenter's NodePool CRD rejects on a
// static pool: a weight, and limits other than nodes.
func markStatic(np *packing.NodePool, spec *NodePoolSpec) error {
	replicas := spec.Replicas
	switch {
	case replicas == nil:
		return nil
	case *replicas < 0:
		return atField("spec.replicas", fmt.Errorf("%d is negative", *replicas))
	case spec.Weight != nil:
		return atField("spec.weight", errors.New("is not supported on static NodePools (spec.replicas set)"))
	}
	for _, name := range slices.Sorted(maps.Keys(spec.Limits)) {
		if name != corev1.ResourceName(packing.LimitNodes) {
			return atField("spec.limits"+key(string(name)), errors.New("only nodes is supported on static NodePools (spec.replicas set)"))
		}
	}
	np.Unavailable = fmt.Sprintf("static NodePool (spec.replicas %d): Karpenter provisions no node of it for pending pods; "+
		"a static pool is scaled by spec.replicas alone (nodeplan static)", *replicas)
	np.Disruption.ConsolidateNever = true
	return nil
}

func weight(w *int32) (int32, error) {
	if w == nil {
		return 0, nil
	}
	if *w < 1 || *w > packing.MaxWeight { // the CRD's minimum and maximum; packing reads 0 as unset
		return 0, fmt.Errorf("%d is outside 1..%d", *w, packing.MaxWeight)
	}
	return *w, nil
}

// notHostname rejects a NodePool that sets or requires the hostname
// label, as Karpenter's validation does (its restricted label): a node's
// hostname is its own.
func notHostname(np *NodePool) error {
	restricted := fmt.Errorf("%s is restricted: Karpenter rejects a NodePool that sets or requires a node's hostname", requirements.LabelHostname)
	for _, k := range sortedKeys(np.Spec.Template.Metadata.Labels) {
		if requirements.Normalize(k) == requirements.LabelHostname {
			return atField("spec.template.metadata.labels"+key(k), restricted)
		}
	}
	for i, r := range np.Spec.Template.Spec.Requirements {
		if requirements.Normalize(r.Key) == requirements.LabelHostname {
			return atField(fmt.Sprintf("spec.template.spec.requirements[%d].key", i), restricted)
		}
	}
	return nil
}

// poolRequirements compiles a NodePool's requirements; an error names
// [i] and the part of it.
func poolRequirements(rs []Requirement) (requirements.Set, error) {
	reqs := make([]requirements.Requirement, 0, len(rs))
	for i, r := range rs {
		x, err := poolRequirement(r)
		if err != nil {
			return requirements.Set{}, atField(fmt.Sprintf("[%d]", i), err)
		}
		reqs = append(reqs, x)
	}
	return requirements.NewSet(reqs...), nil
}

func poolRequirement(r Requirement) (requirements.Requirement, error) {
	op, err := operator(r.Operator)
	if err != nil {
		return requirements.Requirement{}, err
	}
	return requirement(r.Key, op, r.Values, r.MinValues)
}

func limits(rl corev1.ResourceList) (map[resources.Name]int64, error) {
	if len(rl) == 0 {
		return nil, nil
	}
	l, err := list(rl)
	if err != nil {
		return nil, err
	}
	out := make(map[resources.Name]int64, len(rl))
	for name := range rl {
		out[resources.Name(name)] = l.Get(resources.Name(name))
	}
	return out, nil
}

func disruption(spec *NodePoolSpec) (packing.Disruption, error) {
	d, t := spec.Disruption, &spec.Template.Spec
	var out packing.Disruption
	var err error
	if out.Policy, err = consolidationPolicy(d.ConsolidationPolicy); err != nil {
		return out, atField("spec.disruption.consolidationPolicy", err)
	}
	if out.ConsolidateAfter, out.ConsolidateNever, err = nillableDuration(d.ConsolidateAfter); err != nil {
		return out, atField("spec.disruption.consolidateAfter", err)
	}
	if out.ExpireAfter, out.ExpireNever, err = nillableDuration(t.ExpireAfter); err != nil {
		return out, atField("spec.template.spec.expireAfter", err)
	}
	if out.TerminationGracePeriod, err = duration(t.TerminationGracePeriod); err != nil {
		return out, atField("spec.template.spec.terminationGracePeriod", err)
	}
	out.Budgets, err = budgets(d.Budgets)
	return out, atField("spec.disruption.budgets", err)
}

func consolidationPolicy(s string) (packing.ConsolidationPolicy, error) {
	for _, p := range []packing.ConsolidationPolicy{packing.WhenEmptyOrUnderutilized, packing.WhenEmpty, packing.Balanced} {
		if s == p.String() {
			return p, nil
		}
	}
	if s == "" {
		return packing.WhenEmptyOrUnderutilized, nil
	}
	return 0, fmt.Errorf("%q is not WhenEmptyOrUnderutilized, WhenEmpty or Balanced", s)
}

// nillableDuration reads a Go duration or "Never"; "" is zero.
func nillableDuration(s string) (time.Duration, bool, error) {
	if s == Never {
		return 0, true, nil
	}
	d, err := duration(s)
	return d, false, err
}

func duration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a non-negative duration", s)
	}
	return d, nil
}

func budgets(bs []Budget) ([]packing.Budget, error) {
	var out []packing.Budget
	for i, b := range bs {
		if err := budgetNodes(b.Nodes); err != nil {
			return nil, atField(fmt.Sprintf("[%d].nodes", i), err)
		}
		d, err := duration(b.Duration)
		if err != nil {
			return nil, atField(fmt.Sprintf("[%d].duration", i), err)
		}
		if (b.Schedule == nil) != (b.Duration == "") {
			return nil, atField(fmt.Sprintf("[%d]", i), fmt.Errorf("schedule and duration must be set together"))
		}
		out = append(out, packing.Budget{Nodes: b.Nodes, Schedule: deref(b.Schedule), Duration: d, Reasons: slices.Clone(b.Reasons)})
	}
	return out, nil
}

func budgetNodes(s string) error {
	n, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
	if err != nil || n < 0 || (strings.HasSuffix(s, "%") && n > 100) {
		return fmt.Errorf("%q is not a count or a percentage", s)
	}
	return nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
