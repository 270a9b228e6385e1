package verify

import (
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// checkHosts runs the per-node and per-claim checks (rules 3 to 8).
func (v *verifier) checkHosts() {
	for _, h := range v.hosts {
		if h.claim != nil {
			v.checkClaim(h)
		} else {
			v.checkNodeFit(h)
		}
		v.checkPodsOn(h)
		v.checkHostPorts(h)
	}
}

func (v *verifier) checkClaim(h *host) {
	v.checkCandidates(h)
	v.checkChosen(h)
	v.checkPool(h)
	if h.itype != nil && h.pool != nil {
		v.checkRequests(h) // the overhead is unknown without the pool
	}
	if h.itype != nil {
		v.checkOffering(h)
	}
	v.checkOfferingLabels(h)
}

// checkCandidates checks that every candidate type exists, holds the pods
// with the daemonsets, and (pool known) intersects the pool's requirements.
func (v *verifier) checkCandidates(h *host) {
	c := h.claim
	if len(c.InstanceTypes) == 0 {
		v.add(RuleUnknownInstanceType, -1, c.Name, "claim %s lists no candidate instance types", c.Name)
	}
	for _, name := range c.InstanceTypes {
		t, ok := lookupType(v.catalogOf(h.pool), name)
		if !ok {
			v.add(RuleUnknownInstanceType, -1, c.Name, "claim %s lists instance type %q, which its catalog lacks", c.Name, name)
			continue
		}
		v.checkFit(h, v.overhead(h.pool, t), t.Allocatable, "instance type "+name)
		v.checkTypeInPool(h, t)
	}
}

func (v *verifier) checkTypeInPool(h *host, t *instancetypes.InstanceType) {
	if h.pool == nil {
		return
	}
	if err := t.Requirements.Intersects(v.poolReqs[h.pool.Name]); err != nil {
		v.add(RuleNodePoolRequirement, -1, h.name, "claim %s: instance type %s does not meet the requirements of NodePool %s: %v",
			h.name, t.Name, h.pool.Name, err)
	}
}

// checkChosen checks that the chosen type is a known candidate.
func (v *verifier) checkChosen(h *host) {
	c := h.claim
	if !slices.Contains(c.InstanceTypes, c.InstanceType) {
		v.add(RuleUnknownInstanceType, -1, c.Name, "claim %s chose instance type %q, which is not among its candidates", c.Name, c.InstanceType)
	}
	if h.itype == nil {
		v.add(RuleUnknownInstanceType, -1, c.Name, "claim %s chose instance type %q, which its catalog lacks", c.Name, c.InstanceType)
	}
}

// checkRequests checks NodeClaim.Requests against pods plus overhead.
func (v *verifier) checkRequests(h *host) {
	want := v.podsRequest(h).Add(v.overhead(h.pool, h.itype))
	if !want.Equal(h.claim.Requests) {
		v.add(RuleRequestsMismatch, -1, h.name, "claim %s: Requests are %q but its pods and daemonsets on %s request %q",
			h.name, h.claim.Requests.String(), h.itype.Name, want.String())
	}
}

// checkPool checks the claim's pool exists and launches nodes, its labels meet the pool's
// requirements and its candidates keep the pool's minValues (rule 6).
func (v *verifier) checkPool(h *host) {
	if h.pool == nil {
		v.add(RuleNodePoolRequirement, -1, h.name, "claim %s names NodePool %q, which does not exist", h.name, h.claim.NodePool)
		return
	}
	if h.pool.Unavailable != "" {
		v.add(RuleNodePoolRequirement, -1, h.name, "claim %s is of NodePool %s, which launches no node: %s", h.name, h.pool.Name, h.pool.Unavailable)
	}
	reqs := v.poolReqs[h.pool.Name]
	for _, lb := range h.claim.Labels {
		if key, ok := counted(lb.Key, h.claim.HasLabel); ok && reqs.Has(key) && !reqs.Get(key).Has(lb.Value) {
			v.add(RuleNodePoolRequirement, -1, h.name, "claim %s: label %s=%s breaks NodePool %s requirement %s",
				h.name, lb.Key, lb.Value, h.pool.Name, reqs.Get(key))
		}
	}
	v.checkMinValues(h, reqs)
}

// ownLabelsMet reports whether reqs, np's full requirements, admit the
// labels every node of np carries: its labels and its name (see
// [packing.NodePool.EffectiveLabels]). A pool whose requirements exclude them can launch no valid
// node.
func ownLabelsMet(np *packing.NodePool, reqs requirements.Set) bool {
	for k, val := range np.EffectiveLabels() {
		if !reqs.Get(k).Has(val) {
			return false
		}
	}
	return true
}

func (v *verifier) checkMinValues(h *host, reqs requirements.Set) {
	types := v.candidateTypes(h)
	for r := range reqs.All() {
		if r.MinValues() == 0 {
			continue
		}
		if n := distinctValues(types, r); n < r.MinValues() {
			v.add(RuleMinValues, -1, h.name, "claim %s: its instance types offer %d distinct values of %s, NodePool %s asks for at least %d",
				h.name, n, r.Key(), h.pool.Name, r.MinValues())
		}
	}
}

// candidateTypes returns the claim's candidate types its catalog has.
func (v *verifier) candidateTypes(h *host) []*instancetypes.InstanceType {
	var out []*instancetypes.InstanceType
	for _, name := range h.claim.InstanceTypes {
		if t, ok := lookupType(v.catalogOf(h.pool), name); ok {
			out = append(out, t)
		}
	}
	return out
}

// distinctValues counts the values of r's key that types state with In and
// r allows.
func distinctValues(types []*instancetypes.InstanceType, r requirements.Requirement) int {
	seen := map[string]bool{}
	for _, t := range types {
		tr := t.Requirements.Get(r.Key())
		if !t.Requirements.Has(r.Key()) || tr.Complement() {
			continue
		}
		for _, val := range tr.Values() {
			seen[val] = seen[val] || r.Has(val)
		}
	}
	n := 0
	for _, ok := range seen {
		if ok {
			n++
		}
	}
	return n
}
