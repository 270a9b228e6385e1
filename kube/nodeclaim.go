package kube

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
	corev1 "k8s.io/api/core/v1"
)

// Annotations nodeplan puts on the NodeClaims it writes: the offering the
// plan chose and priced. Karpenter ignores them and launches from
// spec.requirements, which keep every candidate instance type.
// AnnotationPrice is the offering's hourly price as
// instancetypes.Price.Amount writes it ("0.096000", six decimals rounded
// half up), in the currency AnnotationCurrency names (an ISO 4217 code
// such as "USD" or "CNY").
const (
	AnnotationInstanceType = "nodeplan.io/instance-type"
	AnnotationZone         = "nodeplan.io/zone"
	AnnotationCapacityType = "nodeplan.io/capacity-type"
	AnnotationPrice        = "nodeplan.io/price-per-hour"
	AnnotationCurrency     = "nodeplan.io/price-currency"
)

// NodeClaim is a karpenter.sh/v1 NodeClaim as nodeplan writes it.
type NodeClaim struct {
	APIVersion string        `json:"apiVersion"`
	Kind       string        `json:"kind"`
	Metadata   ObjectMeta    `json:"metadata"`
	Spec       NodeClaimSpec `json:"spec"`
}

// NodeClaims renders the NodeClaims of a plan as Karpenter objects, in the
// plan's order, annotated with the chosen offering and its price in
// currency (the ISO 4217 code of the plan's catalog, its
// instancetypes.Origin.Currency; "" is instancetypes.DefaultCurrency). The
// NodePool each claim came from, looked up by name in
// pools, gives the node class reference, expiry, termination grace period,
// template labels and annotations, and the split between taints and
// startup taints; a claim whose pool is not in pools gets its merged taints
// as taints. Requirements keep the claim's constraints with
// node.kubernetes.io/instance-type In the candidate types, cheapest first.
//
// NodeClaims does not modify its arguments. O(claims × (requirements +
// candidates)).
func NodeClaims(plan packing.Plan, pools []NodePool, currency string) []NodeClaim {
	out := make([]NodeClaim, 0, len(plan.NodeClaims))
	for i := range plan.NodeClaims {
		c := &plan.NodeClaims[i]
		var pool *NodePool
		if j := slices.IndexFunc(pools, func(p NodePool) bool { return p.Metadata.Name == c.NodePool }); j >= 0 {
			pool = &pools[j]
		}
		out = append(out, nodeClaim(c, pool, cmp.Or(currency, instancetypes.DefaultCurrency)))
	}
	return out
}

func nodeClaim(c *packing.NodeClaim, pool *NodePool, currency string) NodeClaim {
	nc := NodeClaim{APIVersion: KarpenterAPIVersion, Kind: KindNodeClaim,
		Metadata: ObjectMeta{Name: c.Name, Labels: claimLabels(c, pool), Annotations: claimAnnotations(c, pool, currency)},
		Spec: NodeClaimSpec{Requirements: claimRequirements(c),
			Resources: &NodeClaimResources{Requests: Quantities(c.Requests)}}}
	if pool == nil {
		nc.Spec.Taints = coreTaints(c.Taints)
		return nc
	}
	t := &pool.Spec.Template.Spec
	nc.Spec.Taints, nc.Spec.StartupTaints = slices.Clone(t.Taints), slices.Clone(t.StartupTaints)
	nc.Spec.ExpireAfter, nc.Spec.TerminationGracePeriod = t.ExpireAfter, t.TerminationGracePeriod
	if t.NodeClassRef != nil {
		ref := *t.NodeClassRef
		nc.Spec.NodeClassRef = &ref
	}
	return nc
}

// claimLabels are the pool's template labels, the nodepool label and every
// single-valued In requirement but the hostname.
func claimLabels(c *packing.NodeClaim, pool *NodePool) map[string]string {
	l := map[string]string{}
	if pool != nil {
		maps.Copy(l, pool.Spec.Template.Metadata.Labels)
	}
	for r := range c.Requirements.All() {
		if r.Operator() == requirements.In && r.Len() == 1 && r.Key() != requirements.LabelHostname &&
			r.Key() != requirements.LabelInstanceType {
			l[r.Key()] = r.Values()[0]
		}
	}
	l[requirements.LabelNodePool] = c.NodePool
	return l
}

func claimAnnotations(c *packing.NodeClaim, pool *NodePool, currency string) map[string]string {
	a := map[string]string{}
	if pool != nil {
		maps.Copy(a, pool.Spec.Template.Metadata.Annotations)
	}
	a[AnnotationInstanceType] = c.InstanceType
	a[AnnotationZone] = c.Offering.Zone
	a[AnnotationCapacityType] = c.Offering.CapacityType.String()
	a[AnnotationPrice] = c.Offering.Price.Amount()
	a[AnnotationCurrency] = currency
	return a
}

// claimRequirements writes the claim's requirements, sorted by key, with
// the instance types replaced by the candidates.
func claimRequirements(c *packing.NodeClaim) []Requirement {
	out := []Requirement{{Key: requirements.LabelInstanceType, Operator: string(corev1.NodeSelectorOpIn),
		Values: slices.Clone(c.InstanceTypes)}}
	for r := range c.Requirements.All() {
		if r.Key() != requirements.LabelInstanceType {
			out = append(out, Requirements(r)...)
		} else if r.MinValues() > 0 {
			out[0].MinValues = new(r.MinValues())
		}
	}
	slices.SortStableFunc(out, func(a, b Requirement) int { return cmp.Compare(a.Key, b.Key) })
	return out
}

// Requirements writes r as node selector requirements: one for its values
// or existence, and one per integer bound. A lower bound n ≥ 1 is written
// Gt n-1 and 0 as Gte 0; an upper bound n is written Lt n+1, and
// math.MaxInt64 as Lte. Every value written is a non-negative integer, as
// Karpenter's CRD requires (a Requirement's bounds are at least 0 and -1,
// since requirements.New takes no negative value), and every form is one
// requirements.Parse and Karpenter read back to the same set; Gt and Lt are
// kept where they suffice because Karpenter before v1.10 has no Gte or Lte.
// MinValues goes on the first. It allocates the result.
func Requirements(r requirements.Requirement) []Requirement {
	var out []Requirement
	key, vals := r.Key(), r.Values()
	gte, hasGte, lte, hasLte := r.Bounds()
	switch op := r.Operator(); {
	case op == requirements.In, op == requirements.NotIn && len(vals) > 0:
		out = append(out, Requirement{Key: key, Operator: op.String(), Values: vals})
	case op == requirements.DoesNotExist:
		out = append(out, Requirement{Key: key, Operator: op.String()})
	case !hasGte && !hasLte:
		out = append(out, Requirement{Key: key, Operator: requirements.Exists.String()})
	}
	if hasGte {
		out = append(out, lowerBound(key, gte))
	}
	if hasLte {
		out = append(out, upperBound(key, lte))
	}
	if n := r.MinValues(); n > 0 && len(out) > 0 {
		out[0].MinValues = new(n)
	}
	return out
}

func lowerBound(key string, gte int64) Requirement {
	if gte <= 0 {
		return Requirement{Key: key, Operator: requirements.Gte.String(), Values: []string{strconv.FormatInt(gte, 10)}}
	}
	return Requirement{Key: key, Operator: requirements.Gt.String(), Values: []string{strconv.FormatInt(gte-1, 10)}}
}

func upperBound(key string, lte int64) Requirement {
	if lte == math.MaxInt64 {
		return Requirement{Key: key, Operator: requirements.Lte.String(), Values: []string{strconv.FormatInt(lte, 10)}}
	}
	return Requirement{Key: key, Operator: requirements.Lt.String(), Values: []string{strconv.FormatInt(lte+1, 10)}}
}

// Quantities writes a resource list as Kubernetes quantity strings by
// resource name, omitting zero dimensions: cpu in millicores ("1500m"),
// memory and storage in binary units when exact ("3Gi"). Every string is
// one resources.ParseQuantity and apimachinery's resource.ParseQuantity
// read back to the value written. math.MinInt64, which a List reaches
// only by saturating and no nodeplan quantity can hold, is written as
// math.MinInt64+1.
func Quantities(l resources.List) map[string]string {
	out := map[string]string{}
	for _, field := range strings.Fields(readable(l).String()) {
		name, q, _ := strings.Cut(field, "=")
		out[name] = q
	}
	return out
}

// readable returns l with every math.MinInt64 dimension raised by one.
func readable(l resources.List) resources.List {
	for _, a := range []resources.Amount{{Name: resources.CPU, Value: l.CPU}, {Name: resources.Memory, Value: l.Memory},
		{Name: resources.EphemeralStorage, Value: l.EphemeralStorage}, {Name: resources.Pods, Value: l.Pods}} {
		if a.Value == math.MinInt64 {
			l = l.With(a.Name, math.MinInt64+1)
		}
	}
	for name, v := range l.Extended() {
		if v == math.MinInt64 {
			l = l.With(name, math.MinInt64+1)
		}
	}
	return l
}

func coreTaints(ts []requirements.Taint) []corev1.Taint {
	out := make([]corev1.Taint, 0, len(ts))
	for _, t := range ts {
		out = append(out, corev1.Taint{Key: t.Key, Value: t.Value, Effect: corev1.TaintEffect(t.Effect.String())})
	}
	return out
}
