package packing

import (
	"fmt"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// podGap reports what the pod asks for that no type of the pool's catalog
// has at all: a label value, such as an OS, an architecture or another
// well-known label's value (NoInstanceType), or an extended resource
// (Insufficient). Its reason names the catalog's gap ("the catalog has no
// windows instance types"), since no NodePool setting can help; a gap in
// one pool's own catalog names that catalog (see catalogName), as poolGap
// does for what the pool itself asks for.
func (d poolDiagnosis) podGap() (Reason, bool) {
	cat := d.catalog()
	if r, ok := d.r.labelGap(cat, d.v.reqs); ok {
		return d.reason(NoInstanceType, "pod %s requires %s, but %s", d.pod, r, gapText(r, d.catalogName())), true
	}
	if name, ok := d.r.resourceGap(cat, d.v.info.req); ok {
		n := d.v.info.req.Get(name)
		return Reason{Kind: Insufficient, Resource: name, Requested: n, Message: fmt.Sprintf(
			"pod %s requests %s %s, but no instance type in %s has %s", d.pod, formatAmount(name, n), name, d.catalogName(), name)}, true
	}
	return Reason{}, false
}

// poolGap reports a requirement of the pool itself that no type of its
// catalog meets, which leaves it no instance type at all.
func (d poolDiagnosis) poolGap() (Reason, bool) {
	if len(d.pl.types) > 0 || len(d.pl.unfit) > 0 {
		return Reason{}, false
	}
	r, ok := d.r.labelGap(d.catalog(), d.pl.reqs)
	if !ok {
		return Reason{}, false
	}
	return d.reason(NoInstanceType, "NodePool %s requires %s, but %s, so it launches no node and pod %s cannot go there",
		d.pl.np.Name, r, gapText(r, d.catalogName()), d.pod), true
}

// catalog returns the pool's catalog.
func (d poolDiagnosis) catalog() *instancetypes.Catalog { return d.r.s.prob.PoolCatalog(d.pl.np) }

// catalogName is how a message names the pool's catalog.
func (d poolDiagnosis) catalogName() string {
	if d.pl.np.Catalog != nil {
		return "the catalog of NodePool " + d.pl.np.Name
	}
	return "the catalog"
}

// gapText says that catalog of (as "the catalog") has no type meeting r.
func gapText(r requirements.Requirement, of string) string {
	in := r.Operator() == requirements.In
	switch {
	case in && (r.Key() == requirements.LabelOS || r.Key() == requirements.LabelArch):
		return fmt.Sprintf("%s has no %s instance types", of, strings.Join(r.Values(), " or "))
	case in:
		return fmt.Sprintf("no instance type in %s has %s %s", of, r.Key(), strings.Join(r.Values(), " or "))
	}
	return fmt.Sprintf("no instance type in %s has %s", of, r)
}

// gapKey memoizes a gap query: a requirement (its exact key, see
// keys.go) or a resource name against a catalog.
type gapKey struct {
	cat      *instancetypes.Catalog
	resource bool
	q        string
}

// labelGap returns the first requirement of reqs, in key order, that asks
// for a value of a label some type of cat defines (In, Exists, a bound)
// and that no type of cat meets. O(types) per requirement, memoized.
func (r *run) labelGap(cat *instancetypes.Catalog, reqs requirements.Set) (requirements.Requirement, bool) {
	for req := range reqs.All() {
		if op := req.Operator(); op == requirements.NotIn || op == requirements.DoesNotExist {
			continue
		}
		b, _ := req.AppendBinary(nil)
		k := gapKey{cat, false, string(b)}
		gap, seen := r.memo.gaps[k]
		if !seen {
			gap = labelMissing(cat, req)
			r.memo.gaps[k] = gap
		}
		if gap {
			return req, true
		}
	}
	return requirements.Requirement{}, false
}

// labelMissing reports whether some type of cat defines req's key and none
// has a value req admits.
func labelMissing(cat *instancetypes.Catalog, req requirements.Requirement) bool {
	defined := false
	for _, t := range cat.Types() {
		if !t.Requirements.Has(req.Key()) {
			continue
		}
		if defined = true; t.Requirements.Get(req.Key()).Intersects(req) {
			return false
		}
	}
	return defined
}

// resourceGap returns the first extended resource need asks for that no
// type of cat has any capacity of, memoized.
func (r *run) resourceGap(cat *instancetypes.Catalog, need resources.List) (resources.Name, bool) {
	for name, n := range need.Extended() {
		if n <= 0 {
			continue
		}
		k := gapKey{cat, true, string(name)}
		gap, seen := r.memo.gaps[k]
		if !seen {
			gap = !catalogHas(cat, name)
			r.memo.gaps[k] = gap
		}
		if gap {
			return name, true
		}
	}
	return "", false
}

func catalogHas(cat *instancetypes.Catalog, name resources.Name) bool {
	for _, t := range cat.Types() {
		if t.Capacity.Get(name) > 0 {
			return true
		}
	}
	return false
}
