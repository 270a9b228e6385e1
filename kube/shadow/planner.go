package shadow

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/packing"
)

// Planner is the [Decider] of nodeplan shadow: nodeplan provision,
// consolidate and drift on a snapshot, as the commands run them, on one
// catalog. The zero Planner has no catalog and prices nothing.
type Planner struct {
	Catalog *instancetypes.Catalog
	// Consolidation are the options of consolidation.Plan (nodeplan
	// consolidate's --spot-to-spot).
	Consolidation consolidation.Options
	// ExpireGrace is nodeplan drift's --expire-grace.
	ExpireGrace time.Duration
}

var _ Decider = (*Planner)(nil)

// Provision solves the snapshot's provisioning problem
// (kube.Cluster.Problem, packing.Solve) as nodeplan provision does.
func (p *Planner) Provision(objs kube.Objects) (Decision, error) {
	cl, err := kube.FromObjects(objs)
	if err != nil {
		return Decision{}, err
	}
	prob, err := cl.Problem(p.Catalog)
	if err != nil {
		return Decision{}, err
	}
	plan, err := packing.Solve(prob, packing.Options{})
	if err != nil {
		return Decision{}, err
	}
	d := Decision{Pending: len(prob.Pods), Unschedulable: len(plan.Unschedulable), Nodes: len(plan.NodeClaims), Price: plan.Price}
	d.Placed = d.Pending - d.Unschedulable
	for _, pod := range prob.Pods {
		d.PendingPods = append(d.PendingPods, pod.Key())
	}
	for _, u := range plan.Unschedulable {
		d.UnschedulablePods = append(d.UnschedulablePods, d.PendingPods[u.Pod])
	}
	return d, nil
}

// Disrupt runs consolidation.Plan as nodeplan consolidate does and
// drift.Evaluate and drift.Commands as nodeplan drift does, at now.
func (p *Planner) Disrupt(objs kube.Objects, now time.Time) (Decision, error) {
	cl, err := kube.FromObjects(objs)
	if err != nil {
		return Decision{}, err
	}
	var d Decision
	if d.Consolidation, err = p.consolidate(&cl, now); err != nil {
		return Decision{}, err
	}
	if d.Drift, err = p.drift(&cl, now); err != nil {
		return Decision{}, err
	}
	return d, nil
}

func (p *Planner) consolidate(cl *kube.Cluster, now time.Time) (Commands, error) {
	cc, err := cl.Consolidation(p.Catalog, now)
	if err != nil {
		return Commands{}, err
	}
	res, err := consolidation.Plan(cc, p.Consolidation)
	if err != nil {
		return Commands{}, err
	}
	out := Commands{Commands: len(res.Commands)}
	for _, c := range res.Commands {
		out.Deleted += len(c.Candidates)
		out.Launched += len(c.Replacements)
		out.Unpriced += c.Unpriced
		out.Change -= c.Savings
	}
	return out, nil
}

func (p *Planner) drift(cl *kube.Cluster, now time.Time) (Commands, error) {
	dc, _, err := cl.Drift(p.Catalog)
	if err != nil {
		return Commands{}, err
	}
	dc.Expiration.GracePeriod, dc.Now = p.ExpireGrace, now
	if err := dc.Validate(); err != nil {
		return Commands{}, err
	}
	findings, err := drift.Evaluate(dc.Input)
	if err != nil {
		return Commands{}, err
	}
	cmds, _, err := drift.Commands(findings, dc)
	if err != nil {
		return Commands{}, err
	}
	price := map[string]packing.Node{}
	for _, s := range dc.Nodes {
		price[s.Node.Name] = s.Node
	}
	out := Commands{Commands: len(cmds), Deleted: len(cmds)}
	for _, c := range cmds {
		out.Launched += len(c.Replacements)
		for _, r := range c.Replacements {
			out.Change += r.Offering.Price
		}
		if n := price[c.Node]; n.PriceUnknown {
			out.Unpriced++
		} else {
			out.Change -= n.Price
		}
	}
	return out, nil
}

// Price returns the catalog's price of o's instance type, zone and
// capacity type.
func (p *Planner) Price(o Offering) (instancetypes.Price, error) {
	if p.Catalog == nil {
		return 0, fmt.Errorf("no catalog")
	}
	ct, err := instancetypes.ParseCapacityType(o.CapacityType)
	if err != nil {
		return 0, err
	}
	t, ok := p.Catalog.Get(o.InstanceType)
	if !ok {
		return 0, fmt.Errorf("the catalog has no instance type %s", o.InstanceType)
	}
	for _, off := range t.Offerings {
		if off.Zone == o.Zone && off.CapacityType == ct {
			return off.Price, nil
		}
	}
	return 0, fmt.Errorf("the catalog has no %s offering of %s in zone %s", o.CapacityType, o.InstanceType, o.Zone)
}
