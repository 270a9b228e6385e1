package verify

import (
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// checkOffering checks the claim's offering is an available offering of
// its chosen type compatible with its requirements (rule 7).
func (v *verifier) checkOffering(h *host) {
	c, o := h.claim, h.claim.Offering
	switch {
	case !slices.Contains(h.itype.Offerings, o):
		v.add(RuleOffering, -1, h.name, "claim %s: offering %s is not an offering of instance type %s", h.name, offeringName(o), h.itype.Name)
	case !o.Available:
		v.add(RuleOffering, -1, h.name, "claim %s: offering %s of instance type %s is not available", h.name, offeringName(o), h.itype.Name)
	case !o.Compatible(c.Requirements):
		v.add(RuleOffering, -1, h.name, "claim %s: offering %s does not meet the claim's requirements %s", h.name, offeringName(o), c.Requirements)
	}
}

func offeringName(o instancetypes.Offering) string {
	return o.CapacityType.String() + " in zone " + o.Zone + " at " + o.Price.String()
}

// checkOfferingLabels checks the claim's zone, capacity-type and
// instance-type labels name its offering and type.
func (v *verifier) checkOfferingLabels(h *host) {
	c := h.claim
	want := map[string]string{
		requirements.LabelZone:         c.Offering.Zone,
		requirements.LabelCapacityType: c.Offering.CapacityType.String(),
		requirements.LabelInstanceType: c.InstanceType,
	}
	for _, lb := range c.Labels {
		key, counts := counted(lb.Key, c.HasLabel)
		if w, ok := want[key]; counts && ok && w != lb.Value {
			v.add(RuleOffering, -1, c.Name, "claim %s: label %s=%s disagrees with its chosen offering and type (%s)", c.Name, lb.Key, lb.Value, w)
		}
	}
}

// reservationKey names one capacity reservation of one type and zone.
type reservationKey struct{ instanceType, zone, id string }

// checkReservations reports each claim beyond a reservation's units.
func (v *verifier) checkReservations() {
	used := map[reservationKey]int{}
	for i := range v.plan.NodeClaims {
		c := &v.plan.NodeClaims[i]
		if c.Offering.CapacityType != instancetypes.Reserved {
			continue
		}
		k := reservationKey{c.InstanceType, c.Offering.Zone, c.Offering.ReservationID}
		if used[k]++; used[k] > c.Offering.ReservedUnits {
			v.add(RuleReservation, -1, c.Name, "claim %s is claim number %d on reservation %q of %s in %s, which has %d units left",
				c.Name, used[k], k.id, k.instanceType, k.zone, c.Offering.ReservedUnits)
		}
	}
}

// checkPrice checks Plan.Price is the sum of the claims' offering prices.
func (v *verifier) checkPrice() {
	var sum instancetypes.Price
	for i := range v.plan.NodeClaims {
		sum = sat.Add(sum, v.plan.NodeClaims[i].Offering.Price)
	}
	if sum != v.plan.Price {
		v.add(RulePriceMismatch, -1, "", "plan price is %s but its claims' offerings sum to %s", v.plan.Price, sum)
	}
}

// checkLimits checks, per pool with claims, that its existing nodes plus
// its claims stay within its limits (rule 6). The claim reported is the
// first, in plan order, at which a limit is exceeded.
func (v *verifier) checkLimits() {
	for i := range v.p.NodePools {
		np := &v.p.NodePools[i]
		if v.pools[np.Name] == np && len(np.Limits) > 0 {
			v.checkPoolLimits(np)
		}
	}
}

func (v *verifier) checkPoolLimits(np *packing.NodePool) {
	usage, count := v.existingUsage(np)
	names := resources.SortedNames(np.Limits)
	exceeded := map[resources.Name]bool{}
	for _, h := range v.claimHosts() {
		if h.pool != np {
			continue
		}
		if count++; h.itype != nil {
			usage = usage.Add(h.itype.Capacity)
		}
		for _, name := range names {
			v.checkLimit(np, h, name, limitUsage(name, usage, count), exceeded)
		}
	}
}

func (v *verifier) checkLimit(np *packing.NodePool, h *host, name resources.Name, used int64, exceeded map[resources.Name]bool) {
	if limit := np.Limits[name]; used > limit && !exceeded[name] {
		exceeded[name] = true
		v.add(RuleLimit, -1, h.name, "claim %s brings NodePool %s to %s %d, above its limit %d", h.name, np.Name, name, used, limit)
	}
}

func limitUsage(name resources.Name, usage resources.List, count int64) int64 {
	if name == packing.LimitNodes {
		return count
	}
	return usage.Get(name)
}

// existingUsage sums the capacity (from the catalog when the type is
// found, else the allocatable) and count of np's existing nodes.
func (v *verifier) existingUsage(np *packing.NodePool) (resources.List, int64) {
	var usage resources.List
	var count int64
	for i := range v.p.Nodes {
		n := &v.p.Nodes[i]
		if n.NodePool != np.Name {
			continue
		}
		count++
		if t, ok := lookupType(v.catalogOf(np), n.InstanceType); ok {
			usage = usage.Add(t.Capacity)
		} else {
			usage = usage.Add(n.Allocatable)
		}
	}
	return usage, count
}
