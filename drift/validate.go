package drift

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// Validate reports every problem of in that [Evaluate] and [Commands]
// reject, each a *FieldError naming the object and field, joined: empty or
// duplicate node and NodePool names, a NodeClass keyed under a name other
// than its own, a negative Expiration.GracePeriod, a NodePool's negative
// expireAfter or terminationGracePeriod, and a node's negative pod grace
// period. Every error wraps [ErrInvalid].
// The complexity is O(nodes + pools + classes log classes + grace periods
// log grace periods); a valid input costs the two name sets' allocations.
func (in Input) Validate() error {
	var errs []error
	if in.Expiration.GracePeriod < 0 {
		errs = append(errs, negative("Input", "expiration.gracePeriod", in.Expiration.GracePeriod))
	}
	seen := make(map[string]bool, len(in.Nodes))
	for i := range in.Nodes {
		s := &in.Nodes[i]
		errs = appendName(errs, seen, "nodes", i, "node.name", s.Node.Name)
		errs = appendGracePeriods(errs, i, s.PodGracePeriods)
	}
	seen = make(map[string]bool, len(in.NodePools))
	for i := range in.NodePools {
		t := &in.NodePools[i]
		errs = appendName(errs, seen, "nodePools", i, "nodePool.name", t.NodePool.Name)
		if d := t.NodePool.Disruption; d.ExpireAfter < 0 {
			errs = append(errs, negative(index("nodePools", i), "disruption.expireAfter", d.ExpireAfter))
		}
		if d := t.NodePool.Disruption; d.TerminationGracePeriod < 0 {
			errs = append(errs, negative(index("nodePools", i), "disruption.terminationGracePeriod", d.TerminationGracePeriod))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(in.NodeClasses)) {
		if c := in.NodeClasses[k]; c.Name != "" && c.Name != k {
			errs = append(errs, &FieldError{Object: "NodeClass " + k, Field: "name", Msg: fmt.Sprintf("is %q", c.Name)})
		}
	}
	return errors.Join(errs...)
}

// index names element i of a list, formatted only for an error.
func index(list string, i int) string { return fmt.Sprintf("%s[%d]", list, i) }

// appendGracePeriods appends an error for every negative grace period of
// node i, in key order; it sorts only when there is one.
func appendGracePeriods(errs []error, i int, graces map[string]time.Duration) []error {
	for _, g := range graces {
		if g < 0 {
			for _, k := range slices.Sorted(maps.Keys(graces)) {
				if g := graces[k]; g < 0 {
					errs = append(errs, negative(index("nodes", i), fmt.Sprintf("podGracePeriods[%q]", k), g))
				}
			}
			return errs
		}
	}
	return errs
}

func negative(obj, field string, v fmt.Stringer) error {
	return &FieldError{Object: obj, Field: field, Msg: fmt.Sprintf("is negative (%s)", v)}
}

func appendName(errs []error, seen map[string]bool, list string, i int, field, name string) []error {
	switch {
	case name == "":
		return append(errs, &FieldError{Object: index(list, i), Field: field, Msg: "is empty"})
	case seen[name]:
		return append(errs, &FieldError{Object: index(list, i), Field: field, Msg: fmt.Sprintf("%q is a duplicate", name)})
	}
	seen[name] = true
	return errs
}

// Validate reports every problem of cl that [Commands] rejects, joined:
// those of [Input.Validate]; those of [packing.Problem.Validate] on the
// nodes, NodePools, catalog and daemonsets (so a nil Catalog is an error,
// as the simulation needs one); a pod name (namespace/name) empty or held
// by two pods of the nodes, since homes and grace periods name pods; every
// NodePool's disruption budgets ([disruption.ValidateBudgets]); and a
// PodDisruptionBudget with an empty name, a duplicate namespace/name or a
// negative DisruptionsAllowed. Every error wraps
// [ErrInvalid]; the packing ones also wrap packing.ErrInvalidProblem and
// are *packing.FieldError, the budget ones *disruption.BudgetError, the
// others *FieldError. The complexity is that of the checks, linear in the
// pods but for packing's.
func (cl Cluster) Validate() error {
	errs := []error{cl.Input.Validate(), invalid(cl.problem().Validate())}
	errs = append(errs, cl.validatePods()...)
	for _, t := range cl.NodePools {
		errs = append(errs, invalid(disruption.ValidateBudgets(t.NodePool)))
	}
	return errors.Join(append(errs, cl.validatePDBs()...)...)
}

// invalidError is another package's validation error that also matches
// ErrInvalid; its text is the original's.
type invalidError struct{ err error }

func (e *invalidError) Error() string   { return e.err.Error() }
func (e *invalidError) Unwrap() []error { return []error{e.err, ErrInvalid} }

// invalid wraps err so that errors.Is(err, ErrInvalid) holds; nil stays
// nil.
func invalid(err error) error {
	if err == nil {
		return nil
	}
	return &invalidError{err: err}
}

// validateFindings reports every finding Commands cannot act on, each a
// *FieldError, joined: an empty node name; a Reason that is not one of the
// package's; a Since after now; a drift finding marked Forceful (Karpenter
// budgets every drift) or an Interrupted one not marked Forceful (an
// interruption never is budgeted); a Deadline on a finding that is not an
// expiration, or before its Since; and a graceful expiration (Expired, not
// Forceful) without a Deadline.
func validateFindings(findings []Finding, now time.Time) error {
	var errs []error
	for i := range findings {
		f := &findings[i]
		bad := func(field, msg string) {
			errs = append(errs, &FieldError{Object: index("findings", i), Field: field, Msg: msg})
		}
		if f.Node == "" {
			bad("node", "is empty")
		}
		switch {
		case f.Reason < NodePoolDrifted || f.Reason > Interrupted:
			bad("reason", f.Reason.String()+" is unknown")
		case f.Reason.Drift() && f.Forceful:
			bad("forceful", "is true for "+f.Reason.String()+": drift is always budgeted")
		case f.Reason == Interrupted && !f.Forceful:
			bad("forceful", "is false for Interrupted: an interruption is never budgeted")
		case f.Reason == Expired && !f.Forceful && f.Deadline.IsZero():
			bad("deadline", "is zero for a graceful expiration (Expired, not forceful): it says when the expiration turns forceful")
		}
		if f.Since.After(now) {
			bad("since", fmt.Sprintf("%s is after now (%s)", f.Since.Format(time.RFC3339), now.Format(time.RFC3339)))
		}
		switch {
		case f.Deadline.IsZero():
		case f.Reason != Expired:
			bad("deadline", "is set for "+f.Reason.String()+": only an expiration has one")
		case f.Deadline.Before(f.Since):
			bad("deadline", fmt.Sprintf("%s is before since (%s)", f.Deadline.Format(time.RFC3339), f.Since.Format(time.RFC3339)))
		}
	}
	return errors.Join(errs...)
}

// problem is cl as a packing problem without pending pods.
func (cl Cluster) problem() packing.Problem {
	p := packing.Problem{Catalog: cl.Catalog, DaemonSets: cl.DaemonSets,
		Nodes: make([]packing.Node, len(cl.Nodes)), NodePools: make([]packing.NodePool, len(cl.NodePools))}
	for i := range cl.Nodes {
		p.Nodes[i] = cl.Nodes[i].Node
	}
	for i := range cl.NodePools {
		p.NodePools[i] = cl.NodePools[i].NodePool
	}
	return p
}

// validatePods reports empty and duplicate pod names. It names a pod only
// when it is wrong, so a valid pod costs no allocation; the set of names
// is sized up front.
func (cl Cluster) validatePods() []error {
	var errs []error
	n := 0
	for i := range cl.Nodes {
		n += len(cl.Nodes[i].Node.Pods)
	}
	seen := make(map[disruption.PodRef]bool, n)
	for i := range cl.Nodes {
		for j := range cl.Nodes[i].Node.Pods {
			ref := disruption.Ref(&cl.Nodes[i].Node.Pods[j])
			switch {
			case ref.Name == "":
				errs = append(errs, podNameError(i, j, "is empty"))
			case seen[ref]:
				errs = append(errs, podNameError(i, j, fmt.Sprintf("pod %s is held by an earlier node too", ref)))
			}
			seen[ref] = true
		}
	}
	return errs
}

// podNameError is the error of the name of pod j of node i.
func podNameError(i, j int, msg string) error {
	return &FieldError{Object: fmt.Sprintf("nodes[%d].node.pods[%d]", i, j), Field: "name", Msg: msg}
}

func (cl Cluster) validatePDBs() []error {
	var errs []error
	seen := map[[2]string]bool{}
	for i, b := range cl.PDBs {
		obj := fmt.Sprintf("pdbs[%d]", i)
		switch key := [2]string{b.Namespace, b.Name}; {
		case b.Name == "":
			errs = append(errs, &FieldError{Object: obj, Field: "name", Msg: "is empty"})
		case seen[key]:
			errs = append(errs, &FieldError{Object: obj, Field: "name", Msg: fmt.Sprintf("%s/%s is a duplicate", b.Namespace, b.Name)})
		default:
			seen[key] = true
		}
		if b.DisruptionsAllowed < 0 {
			errs = append(errs, &FieldError{Object: obj, Field: "disruptionsAllowed", Msg: fmt.Sprintf("is negative (%d)", b.DisruptionsAllowed)})
		}
	}
	return errs
}
