package kube

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// LabelMatchNothing is the label key of the requirement that stands for a
// nil label selector, which in a topology spread constraint, pod affinity
// term or PodDisruptionBudget matches no pod: "LabelMatchNothing Exists".
// No real pod carries it.
const LabelMatchNothing = "nodeplan.io/match-nothing"

var matchNothing = requirements.NewSet(requirements.MustNew(LabelMatchNothing, requirements.Exists))

// selector compiles a label selector; nil matches nothing, empty everything.
// Errors name the matchLabels entry or matchExpressions[i] and its part.
func selector(ls *metav1.LabelSelector) (requirements.Set, error) {
	if ls == nil {
		return matchNothing, nil
	}
	if err := checkLabels("matchLabels", ls.MatchLabels); err != nil {
		return requirements.Set{}, err
	}
	reqs := make([]requirements.Requirement, 0, len(ls.MatchExpressions))
	for i, e := range ls.MatchExpressions {
		r, err := selectorRequirement(e)
		if err != nil {
			return requirements.Set{}, atField(fmt.Sprintf("matchExpressions[%d]", i), err)
		}
		reqs = append(reqs, r)
	}
	return requirements.FromLabels(ls.MatchLabels).Add(reqs...), nil
}

// selectorRequirement compiles a label selector expression, whose
// operator is In, NotIn, Exists or DoesNotExist.
func selectorRequirement(e metav1.LabelSelectorRequirement) (requirements.Requirement, error) {
	op, err := requirements.ParseOperator(string(e.Operator))
	if err != nil || op > requirements.DoesNotExist {
		return requirements.Requirement{}, atField("operator", fmt.Errorf("%q is not a label selector operator", e.Operator))
	}
	return requirement(e.Key, op, e.Values, nil)
}

// operator reads a node selector operator.
func operator(op string) (requirements.Operator, error) {
	o, err := requirements.ParseOperator(op)
	return o, atField("operator", err)
}

// requirement compiles a node selector requirement (a label selector
// expression, a NodePool requirement with its minValues) with
// requirements.New, the one validator: an error names the part that
// requirements.FieldError names (key, values, values[i], minValues).
func requirement(k string, op requirements.Operator, values []string, minValues *int) (requirements.Requirement, error) {
	r, err := requirements.New(k, op, values...)
	if err == nil && minValues != nil {
		r, err = r.WithMinValues(*minValues)
	}
	return r, subField(err)
}

// subField maps the requirements.FieldError in err (from a requirement,
// taint or toleration) onto a field below the caller's path; any other
// error is returned as it is.
func subField(err error) error {
	var fe *requirements.FieldError
	if errors.As(err, &fe) {
		return atField(fe.Field, fe.Err)
	}
	return err
}

// checkLabels checks a map of labels (or a nodeSelector): every key a
// label key and every value a label value, in key order. field is the
// map's path; the error names the entry, as field.key or field["a/b"].
func checkLabels(field string, m map[string]string) error {
	for _, k := range sortedKeys(m) {
		if err := requirements.ValidateKey(k); err != nil {
			return atField(field+key(k), err)
		}
		if err := requirements.ValidateValue(m[k]); err != nil {
			return atField(field+key(k), err)
		}
	}
	return nil
}

// checkKeys checks a list of label keys, such as matchLabelKeys.
func checkKeys(field string, keys []string) error {
	for i, k := range keys {
		if err := requirements.ValidateKey(k); err != nil {
			return atField(fmt.Sprintf("%s[%d]", field, i), err)
		}
	}
	return nil
}

// withLabelKeys adds matchLabelKeys (In the pod's value) and
// mismatchLabelKeys (NotIn it) to a selector; keys the pod lacks are
// ignored, as kube-scheduler does.
func withLabelKeys(s requirements.Set, labels map[string]string, match, mismatch []string) (requirements.Set, error) {
	for _, group := range []struct {
		keys []string
		op   requirements.Operator
	}{{match, requirements.In}, {mismatch, requirements.NotIn}} {
		for _, k := range group.keys {
			v, ok := labels[k]
			if !ok {
				continue
			}
			r, err := requirements.New(k, group.op, v)
			if err != nil {
				return s, err
			}
			s = s.Add(r)
		}
	}
	return s, nil
}

// nodeAffinity compiles a pod spec's nodeSelector and node affinity.
// matchFields on metadata.name becomes a kubernetes.io/hostname
// requirement; an empty required term matches no node, as in Kubernetes.
// Every expression is compiled here first, so that an error names its
// path; requirements.NewNodeAffinity then compiles them into alternatives.
func nodeAffinity(spec *corev1.PodSpec) (requirements.NodeAffinity, error) {
	var required [][]requirements.Expression
	var preferred []requirements.WeightedTerm
	if err := checkLabels("spec.nodeSelector", spec.NodeSelector); err != nil {
		return requirements.NodeAffinity{}, err
	}
	const path = "spec.affinity.nodeAffinity"
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil {
		var err error
		if r := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
			if required, err = terms(r.NodeSelectorTerms); err != nil {
				return requirements.NodeAffinity{}, atField(path+".requiredDuringSchedulingIgnoredDuringExecution", err)
			}
		}
		if preferred, err = preferences(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution); err != nil {
			return requirements.NodeAffinity{}, atField(path+".preferredDuringSchedulingIgnoredDuringExecution", err)
		}
	}
	na, err := requirements.NewNodeAffinity(spec.NodeSelector, required, preferred)
	return na, atField(path, err) // checked above; kept should the rules part
}

// terms converts required node selector terms, empty ones included, so
// that the index of each is the manifest's.
func terms(ts []corev1.NodeSelectorTerm) ([][]requirements.Expression, error) {
	out := make([][]requirements.Expression, 0, len(ts))
	for i := range ts {
		exprs, err := term(&ts[i])
		if err != nil {
			return nil, atField(fmt.Sprintf("nodeSelectorTerms[%d]", i), err)
		}
		out = append(out, exprs)
	}
	return out, nil
}

func preferences(ps []corev1.PreferredSchedulingTerm) ([]requirements.WeightedTerm, error) {
	var out []requirements.WeightedTerm
	for i := range ps {
		if err := requirements.ValidateWeight(ps[i].Weight); err != nil {
			return nil, atField(fmt.Sprintf("[%d].weight", i), err)
		}
		exprs, err := term(&ps[i].Preference)
		if err != nil {
			return nil, atField(fmt.Sprintf("[%d].preference", i), err)
		}
		out = append(out, requirements.WeightedTerm{Weight: ps[i].Weight, Expressions: exprs})
	}
	return out, nil
}

func term(t *corev1.NodeSelectorTerm) ([]requirements.Expression, error) {
	var out []requirements.Expression
	for i, e := range t.MatchExpressions {
		x, err := expression(e.Key, string(e.Operator), e.Values)
		if err != nil {
			return nil, atField(fmt.Sprintf("matchExpressions[%d]", i), err)
		}
		out = append(out, x)
	}
	for i, e := range t.MatchFields {
		if e.Key != "metadata.name" {
			return nil, atField(fmt.Sprintf("matchFields[%d].key", i), fmt.Errorf("%q is not a supported field (only metadata.name)", e.Key))
		}
		x, err := expression(requirements.LabelHostname, string(e.Operator), e.Values)
		if err != nil {
			return nil, atField(fmt.Sprintf("matchFields[%d]", i), err)
		}
		out = append(out, x)
	}
	return out, nil
}

// expression checks a node selector requirement by compiling it
// ([requirement]) and returns it as the Expression NewNodeAffinity takes.
func expression(k, op string, values []string) (requirements.Expression, error) {
	o, err := operator(op)
	if err != nil {
		return requirements.Expression{}, err
	}
	_, err = requirement(k, o, values, nil)
	return requirements.Expression{Key: k, Operator: o, Values: values}, err
}

// tolerations converts tolerations; tolerationSeconds is not modelled.
func tolerations(ts []corev1.Toleration) ([]requirements.Toleration, error) {
	out := make([]requirements.Toleration, 0, len(ts))
	for i, t := range ts {
		tol, err := toleration(t)
		if err != nil {
			return nil, atField(fmt.Sprintf("[%d]", i), err)
		}
		out = append(out, tol)
	}
	return out, nil
}

// toleration converts a toleration, checked by requirements.Toleration's
// Validate (as the API server checks it).
func toleration(t corev1.Toleration) (requirements.Toleration, error) {
	tol := requirements.Toleration{Key: t.Key, Value: t.Value}
	switch t.Operator {
	case "", corev1.TolerationOpEqual:
	case corev1.TolerationOpExists:
		tol.Operator = requirements.TolerateExists
	default:
		return tol, atField("operator", fmt.Errorf("%q is not Equal or Exists", t.Operator))
	}
	var err error
	if tol.Effect, err = requirements.ParseEffect(string(t.Effect)); err != nil {
		return tol, atField("effect", err)
	}
	return tol, subField(tol.Validate())
}

// taints converts node or NodePool taints, checked by requirements.Taint's
// Validate; every one needs an effect.
func taints(ts []corev1.Taint) ([]requirements.Taint, error) {
	out := make([]requirements.Taint, 0, len(ts))
	for i, t := range ts {
		e, err := requirements.ParseEffect(string(t.Effect))
		if err != nil {
			return nil, atField(fmt.Sprintf("[%d].effect", i), err)
		}
		taint := requirements.Taint{Key: t.Key, Value: t.Value, Effect: e}
		if err := taint.Validate(); err != nil {
			return nil, atField(fmt.Sprintf("[%d]", i), subField(err))
		}
		out = append(out, taint)
	}
	return out, nil
}

// spreads converts topology spread constraints and checks them together
// by packing's rules ([packing.ValidateTopologySpreads]), as the API
// server does: maxSkew, minDomains with DoNotSchedule, one constraint per
// topologyKey and whenUnsatisfiable.
func spreads(cs []corev1.TopologySpreadConstraint) ([]packing.TopologySpread, error) {
	const field = "spec.topologySpreadConstraints"
	out := make([]packing.TopologySpread, 0, len(cs))
	for i := range cs {
		ts, err := spread(&cs[i])
		if err != nil {
			return nil, atField(fmt.Sprintf("%s[%d]", field, i), err)
		}
		out = append(out, ts)
	}
	return out, packingField(field, packing.ValidateTopologySpreads(out))
}

// packingField maps the first *packing.FieldError in err, whose Field is
// relative to the list or object at field, onto field; any other error is
// returned as it is.
func packingField(field string, err error) error {
	var fe *packing.FieldError
	if errors.As(err, &fe) {
		return atField(join(field, fe.Field), errors.New(fe.Msg))
	}
	return err
}

func spread(c *corev1.TopologySpreadConstraint) (packing.TopologySpread, error) {
	ts := packing.TopologySpread{TopologyKey: c.TopologyKey, MaxSkew: c.MaxSkew, MatchLabelKeys: slices.Clone(c.MatchLabelKeys)}
	if err := requirements.ValidateKey(c.TopologyKey); err != nil {
		return ts, atField("topologyKey", err)
	}
	if err := checkKeys("matchLabelKeys", c.MatchLabelKeys); err != nil {
		return ts, err
	}
	switch c.WhenUnsatisfiable {
	case corev1.DoNotSchedule, "":
	case corev1.ScheduleAnyway:
		ts.WhenUnsatisfiable = packing.ScheduleAnyway
	default:
		return ts, atField("whenUnsatisfiable", fmt.Errorf("%q is not DoNotSchedule or ScheduleAnyway", c.WhenUnsatisfiable))
	}
	if c.MinDomains != nil {
		if *c.MinDomains < 1 { // packing reads 0 as unset; the API server takes a set minDomains above 0 only
			return ts, atField("minDomains", fmt.Errorf("is %d; must be greater than 0 when set", *c.MinDomains))
		}
		ts.MinDomains = *c.MinDomains
	}
	var err error
	if ts.NodeAffinityPolicy, err = policy(c.NodeAffinityPolicy); err != nil {
		return ts, atField("nodeAffinityPolicy", err)
	}
	if ts.NodeTaintsPolicy, err = policy(c.NodeTaintsPolicy); err != nil {
		return ts, atField("nodeTaintsPolicy", err)
	}
	ts.Selector, err = selector(c.LabelSelector)
	return ts, atField("labelSelector", err)
}

func policy(p *corev1.NodeInclusionPolicy) (packing.InclusionPolicy, error) {
	switch {
	case p == nil:
		return packing.PolicyDefault, nil
	case *p == corev1.NodeInclusionPolicyHonor:
		return packing.Honor, nil
	case *p == corev1.NodeInclusionPolicyIgnore:
		return packing.Ignore, nil
	}
	return 0, fmt.Errorf("%q is not Honor or Ignore", *p)
}

// podAffinity converts the pod (anti-)affinity terms of a pod; required
// terms get Weight 0. A namespaceSelector (which would need namespace
// labels) widens a term to every namespace.
func podAffinity(pod *corev1.Pod, req []corev1.PodAffinityTerm, pref []corev1.WeightedPodAffinityTerm) ([]packing.PodAffinityTerm, error) {
	var out []packing.PodAffinityTerm
	for i := range req {
		t, err := affinityTerm(pod, &req[i], 0)
		if err != nil {
			return nil, atField(fmt.Sprintf("requiredDuringSchedulingIgnoredDuringExecution[%d]", i), err)
		}
		out = append(out, t)
	}
	for i := range pref {
		t, err := affinityTerm(pod, &pref[i].PodAffinityTerm, pref[i].Weight)
		if err != nil {
			return nil, atField(fmt.Sprintf("preferredDuringSchedulingIgnoredDuringExecution[%d].podAffinityTerm", i), err)
		}
		out = append(out, t)
	}
	return out, nil
}

func affinityTerm(pod *corev1.Pod, t *corev1.PodAffinityTerm, weight int32) (packing.PodAffinityTerm, error) {
	if err := checkTerm(t); err != nil {
		return packing.PodAffinityTerm{}, err
	}
	sel, err := selector(t.LabelSelector)
	if err != nil {
		return packing.PodAffinityTerm{}, atField("labelSelector", err)
	}
	if sel, err = withLabelKeys(sel, pod.Labels, t.MatchLabelKeys, t.MismatchLabelKeys); err != nil {
		return packing.PodAffinityTerm{}, atField("matchLabelKeys", err)
	}
	return packing.PodAffinityTerm{TopologyKey: t.TopologyKey, Selector: sel, Weight: weight,
		Namespaces: slices.Clone(t.Namespaces), AllNamespaces: t.NamespaceSelector != nil}, nil
}

// checkTerm checks the strings of a pod affinity term: its topology key,
// matchLabelKeys and mismatchLabelKeys, and namespaces.
func checkTerm(t *corev1.PodAffinityTerm) error {
	if err := requirements.ValidateKey(t.TopologyKey); err != nil {
		return atField("topologyKey", err)
	}
	if err := checkKeys("matchLabelKeys", t.MatchLabelKeys); err != nil {
		return err
	}
	if err := checkKeys("mismatchLabelKeys", t.MismatchLabelKeys); err != nil {
		return err
	}
	for i, ns := range t.Namespaces {
		if err := dnsName(ns, validation.IsDNS1123Label); err != nil {
			return atField(fmt.Sprintf("namespaces[%d]", i), err)
		}
	}
	return nil
}
