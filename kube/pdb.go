package kube

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// PodDisruptionBudget is what disruption needs of a policy/v1
// PodDisruptionBudget: the pods it covers and how many of them may be
// evicted now. The zero PodDisruptionBudget covers every pod of no
// namespace and allows no disruption.
//
// DisruptionsAllowed is status.disruptionsAllowed, as the disruption
// controller last computed it, when the status is current: written by it
// (status.observedGeneration ≥ 1, as the controller always writes) and
// not stale (≥ metadata.generation). A budget applied from Git has no
// status, kubectl create pdb --dry-run writes a zeroed one, and a stale
// one describes an older spec; for those [Load] computes the number from
// the spec as Kubernetes' disruption controller does and sets FromSpec
// (see "PodDisruptionBudgets" in the package doc for the rule).
type PodDisruptionBudget struct {
	Namespace, Name string
	// Selector chooses the pods in Namespace; a nil spec.selector becomes
	// [LabelMatchNothing], an empty one matches every pod.
	Selector           requirements.Set
	DisruptionsAllowed int32
	// FromSpec is true when DisruptionsAllowed was computed from the spec
	// because the status was not the disruption controller's or stale.
	FromSpec bool
	// AlwaysAllowUnhealthy is spec.unhealthyPodEvictionPolicy AlwaysAllow:
	// pods that are not Ready may be evicted whatever the budget allows.
	// false is the default, IfHealthyBudget.
	AlwaysAllowUnhealthy bool
}

// FromPodDisruptionBudget converts a policy/v1 PodDisruptionBudget with
// its status.disruptionsAllowed (see [Load] for budgets without a current
// status) and spec.unhealthyPodEvictionPolicy. It checks
// spec.minAvailable and spec.maxUnavailable as the API server does (at
// most one; a non-negative integer or a percentage up to 100%), and the
// policy (IfHealthyBudget, AlwaysAllow or unset). It does not modify pdb.
// Errors are *ObjectError values.
func FromPodDisruptionBudget(pdb *policyv1.PodDisruptionBudget) (PodDisruptionBudget, error) {
	ns := namespace(pdb.Namespace)
	sel, err := selector(pdb.Spec.Selector)
	out := PodDisruptionBudget{Namespace: ns, Name: pdb.Name, Selector: sel, DisruptionsAllowed: pdb.Status.DisruptionsAllowed}
	if err != nil {
		return out, wrap("PodDisruptionBudget", ns, pdb.Name, atField("spec.selector", err))
	}
	if out.AlwaysAllowUnhealthy, err = evictionPolicy(pdb.Spec.UnhealthyPodEvictionPolicy); err != nil {
		return out, wrap("PodDisruptionBudget", ns, pdb.Name, err)
	}
	return out, wrap("PodDisruptionBudget", ns, pdb.Name, checkBudget(&pdb.Spec))
}

// evictionPolicy reads spec.unhealthyPodEvictionPolicy: whether it is
// AlwaysAllow.
func evictionPolicy(p *policyv1.UnhealthyPodEvictionPolicyType) (bool, error) {
	switch {
	case p == nil || *p == policyv1.IfHealthyBudget:
		return false, nil
	case *p == policyv1.AlwaysAllow:
		return true, nil
	}
	return false, atField("spec.unhealthyPodEvictionPolicy", fmt.Errorf("%q is not %s or %s", *p, policyv1.IfHealthyBudget, policyv1.AlwaysAllow))
}

func checkBudget(s *policyv1.PodDisruptionBudgetSpec) error {
	if s.MinAvailable != nil && s.MaxUnavailable != nil {
		return atField("spec", errors.New("minAvailable and maxUnavailable cannot both be set"))
	}
	if err := countOrPercent(s.MinAvailable); err != nil {
		return atField("spec.minAvailable", err)
	}
	return atField("spec.maxUnavailable", countOrPercent(s.MaxUnavailable))
}

// countOrPercent checks a non-negative integer or a percentage 0%..100%.
func countOrPercent(v *intstr.IntOrString) error {
	switch {
	case v == nil:
		return nil
	case v.Type == intstr.Int && v.IntVal < 0:
		return fmt.Errorf("%d is negative", v.IntVal)
	case v.Type == intstr.Int:
		return nil
	}
	digits, ok := strings.CutSuffix(v.StrVal, "%")
	n, err := intstr.GetScaledValueFromIntOrPercent(v, 100, true)
	if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" || err != nil || n > 100 {
		return fmt.Errorf("%q is not an integer or a percentage 0%%..100%%", v.StrVal)
	}
	return nil
}

// budget is a PodDisruptionBudget whose allowed disruptions Load computes
// from its spec once every pod and workload is known.
type budget struct {
	obj   *object
	index int // in builder.pdbs
	spec  policyv1.PodDisruptionBudgetSpec
	why   string // "no status from…", "status stale (…)"
}

func (b *builder) addPDB(pdb *policyv1.PodDisruptionBudget, o *object) error {
	p, err := FromPodDisruptionBudget(pdb)
	if err != nil {
		return err
	}
	if why := staleness(pdb); why != "" {
		b.budgets = append(b.budgets, budget{obj: o, index: len(b.pdbs), spec: pdb.Spec, why: why})
	}
	b.pdbs = append(b.pdbs, p)
	return nil
}

// staleness says why the status of pdb cannot be used, or "" when it can:
// the disruption controller always writes observedGeneration ≥ 1, so 0 is
// a status it never wrote (none, {}, or the zeroed one of kubectl create
// pdb --dry-run); one below metadata.generation describes an older spec.
func staleness(pdb *policyv1.PodDisruptionBudget) string {
	if pdb.Status.ObservedGeneration == 0 {
		return "no status from the disruption controller (observedGeneration 0)"
	}
	if g, og := pdb.Generation, pdb.Status.ObservedGeneration; og < g {
		return fmt.Sprintf("status stale (observedGeneration %d < generation %d)", og, g)
	}
	return ""
}

// computeBudgets sets DisruptionsAllowed of the budgets without a current
// status and warns once about each.
func (b *builder) computeBudgets(pdbs []PodDisruptionBudget, owners scales) {
	for _, bu := range b.budgets {
		p := &pdbs[bu.index]
		allowed, how := allowedDisruptions(&bu.spec, b.matching(p), owners)
		p.DisruptionsAllowed, p.FromSpec = allowed, true
		b.warn("%sPodDisruptionBudget %s: %s; disruptionsAllowed computed from spec: %d (%s)", bu.obj.prefix(),
			objectName(p.Namespace, p.Name), bu.why, allowed, how)
	}
}

// matching returns the Pod objects of the manifests that p selects.
func (b *builder) matching(p *PodDisruptionBudget) []*podFacts {
	var out []*podFacts
	for i := range b.in.pods {
		pod := &b.in.pods[i]
		if namespace(pod.ns) == p.Namespace && p.Selector.Matches(pod.labels) == nil {
			out = append(out, pod)
		}
	}
	return out
}

// scales maps the workloads of the manifests to their replicas; a
// ReplicaSet's entry also records its Deployment.
type scales map[ref]scaleOf

type scaleOf struct {
	replicas   int32
	deployment string // a ReplicaSet's controlling Deployment
}

func (b *builder) scales() scales {
	out := scales{}
	for _, sw := range b.workloads {
		w := &sw.v
		out[ref{w.kind, w.namespace, w.name}] = scaleOf{replicas: int32(w.replicas), deployment: w.owner}
	}
	return out
}

// allowedDisruptions is the disruption controller's rule
// (pkg/controller/disruption: getExpectedPodCount, countHealthyPods,
// updatePdbStatus) on the pods of the manifests: desired healthy pods
// from minAvailable or maxUnavailable, percentages of the expected count
// rounded up; allowed = healthy − desired, at least 0, and 0 when no pod
// is expected. The string says how the number came about.
func allowedDisruptions(s *policyv1.PodDisruptionBudgetSpec, pods []*podFacts, owners scales) (int32, string) {
	var expected, desired int
	switch {
	case s.MaxUnavailable != nil || s.MinAvailable != nil && s.MinAvailable.Type == intstr.String:
		var err error
		if expected, err = owners.expected(pods); err != nil {
			return 0, err.Error()
		}
	case s.MinAvailable != nil:
		expected = len(pods)
	default:
		return 0, "neither minAvailable nor maxUnavailable is set"
	}
	var what string
	if s.MaxUnavailable != nil {
		what = "maxUnavailable " + s.MaxUnavailable.String()
		n, _ := intstr.GetScaledValueFromIntOrPercent(s.MaxUnavailable, expected, true) // checked by FromPodDisruptionBudget
		desired = max(0, expected-n)
	} else {
		what = "minAvailable " + s.MinAvailable.String()
		desired, _ = intstr.GetScaledValueFromIntOrPercent(s.MinAvailable, expected, true)
	}
	healthy := healthyPods(pods)
	allowed := max(0, healthy-desired)
	if expected <= 0 {
		allowed = 0
	}
	return int32(min(allowed, 1<<31-1)), fmt.Sprintf("%d of %d matching pods ready, %d desired: %s of %d expected",
		healthy, len(pods), desired, what, expected)
}

// healthyPods counts the pods that are Ready and not being deleted.
func healthyPods(pods []*podFacts) int {
	n := 0
	for _, p := range pods {
		if !p.deleting && p.ready {
			n++
		}
	}
	return n
}

func ready(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// errNoScale is why Kubernetes cannot compute a budget whose pods are
// controlled by a kind without a scale: it then allows no disruption.
var errNoScale = errors.New("has no scale; Kubernetes then allows no disruption unless minAvailable is an integer")

// errNoController is why Kubernetes cannot compute a budget one of whose
// pods has a controller it cannot find: it then allows no disruption.
var errNoController = errors.New("is not in the input; Kubernetes' disruption controller allows no disruption " +
	"when it cannot find a pod's controller: add it to the manifests")

// expected is the disruption controller's getExpectedScale: the summed
// replicas of the pods' controllers, each counted once. A pod without a
// controller counts for nothing, as in Kubernetes. A controller that is
// not in the input, and one of a kind without a scale (Job, DaemonSet,
// Node), make the count fail, as in Kubernetes, whose fail-safe then
// allows no disruption.
func (s scales) expected(pods []*podFacts) (int, error) {
	counted := map[ref]bool{}
	total := 0
	for _, p := range pods {
		ctl := p.ctl
		if !ctl.set {
			continue
		}
		switch ctl.kind {
		case "Job", "DaemonSet", "Node":
			return 0, fmt.Errorf("pod %s is controlled by %s/%s, which %w", p.name, ctl.kind, ctl.name, errNoScale)
		}
		key, scale, ok := s.controller(ref{ctl.kind, namespace(p.ns), ctl.name}, p.labels[appsv1.DefaultDeploymentUniqueLabelKey])
		switch {
		case !ok:
			return 0, fmt.Errorf("pod %s is controlled by %s/%s, which %w", p.name, ctl.kind, ctl.name, errNoController)
		case !counted[key]:
			counted[key] = true
			total += int(scale)
		}
	}
	return total, nil
}

// controller finds the workload that scales pods controlled by c: a
// ReplicaSet's Deployment when the manifests hold it ([scales.deployment]),
// else c itself; false when the manifests hold neither.
func (s scales) controller(c ref, hash string) (ref, int32, bool) {
	if d, ok := s.deployment(c, hash); ok {
		if scale, found := s[d]; found {
			return d, scale.replicas, true
		}
	}
	scale, ok := s[c]
	return c, scale.replicas, ok
}

// deployment names the Deployment that controls the ReplicaSet rs: the one
// its ownerReferences name when the manifests hold rs, else the one its
// name and its pods' pod-template-hash point to (the Deployment controller
// names a ReplicaSet deployment-hash); false when neither does or rs is no
// ReplicaSet. The Deployment itself need not be in the manifests.
func (s scales) deployment(rs ref, hash string) (ref, bool) {
	if rs.kind != "ReplicaSet" {
		return ref{}, false
	}
	if w, ok := s[rs]; ok {
		return ref{"Deployment", rs.namespace, w.deployment}, w.deployment != ""
	}
	name, ok := strings.CutSuffix(rs.name, "-"+hash)
	return ref{"Deployment", rs.namespace, name}, ok && hash != ""
}

// owners are the workloads a pod present in the manifests counts for: its
// owner and a ReplicaSet's Deployment ([scales.deployment]).
func (s scales) owners(p *packing.Pod) []ref {
	o, ok := ownerRef(p.Namespace, p.Owner)
	if !ok {
		return nil
	}
	if d, ok := s.deployment(o, p.Labels[appsv1.DefaultDeploymentUniqueLabelKey]); ok {
		return []ref{o, d}
	}
	return []ref{o}
}
