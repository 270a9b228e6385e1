package problemgen

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// LabelApp is the pod label selectors of generated pods match.
const LabelApp = "app"

var (
	cpuChoices = []int64{0, 100, 250, 500, 1000, 1500, 2000, 3500, 7000}
	memChoices = []int64{0, 128 * mib, 512 * mib, gib, 2 * gib, 4 * gib, 12 * gib}
)

// pendingPods draws workloads of one to four replicas sharing a template
// until Size.Pods pods (at most) exist.
func (g *gen) pendingPods() []packing.Pod {
	n := g.intn(g.size.Pods + 1)
	pods := make([]packing.Pod, 0, n)
	for w := 0; len(pods) < n; w++ {
		tmpl := g.template(true)
		for r := range min(1+g.intn(4), n-len(pods)) {
			pods = append(pods, g.pod(fmt.Sprintf("w%d-%d", w, r), tmpl))
		}
	}
	return pods
}

// pod is tmpl named name, with its own labels map.
func (g *gen) pod(name string, tmpl packing.Pod) packing.Pod {
	p := tmpl
	p.Name, p.UID = name, "uid-"+name
	p.Labels = maps.Clone(tmpl.Labels)
	p.CreationTime = tmpl.CreationTime.Add(time.Duration(g.intn(3)) * time.Second)
	return p
}

// app returns a new app name, or sometimes one already in use.
func (g *gen) app() string {
	if len(g.apps) > 0 && g.chance(1, 4) {
		return pick(g, g.apps)
	}
	a := "app-" + strconv.Itoa(len(g.apps))
	g.apps = append(g.apps, a)
	return a
}

// template draws the shared part of a workload's pods; pending templates
// get node-side constraints too.
func (g *gen) template(pending bool) packing.Pod {
	app := g.app()
	p := packing.Pod{Namespace: "default", Labels: map[string]string{LabelApp: app}, Requests: g.requests(),
		Priority: int32(g.intn(3) * 100), CreationTime: epoch.Add(time.Duration(g.intn(4)) * time.Hour)}
	if g.chance(1, 6) {
		p.Namespace = "ns-1"
	}
	if g.chance(1, 3) {
		p.Labels["tier"] = pick(g, []string{"web", "db"})
	}
	p.AntiAffinity = g.antiAffinity(app)
	if g.chance(1, 10) {
		p.HostPorts = []packing.HostPort{{Port: int32(8080 + g.intn(2)), Protocol: pick(g, []string{"", "TCP", "UDP"})}}
	}
	if pending {
		g.constrain(&p, app)
	}
	return p
}

func (g *gen) requests() resources.List {
	r := resources.List{CPU: pick(g, cpuChoices), Memory: pick(g, memChoices)}
	if g.chance(1, 10) {
		r = r.With(resources.GPU, int64(1+g.intn(2)))
	}
	if g.chance(1, 25) {
		r.CPU = 1_000_000 // too big for any type
	}
	return r
}

// constrain adds the node-side and topology constraints of a pending pod.
func (g *gen) constrain(p *packing.Pod, app string) {
	p.NodeAffinity = g.nodeAffinity()
	p.Tolerations = g.tolerations()
	if g.chance(1, 4) {
		p.TopologySpread = withSpread(p.TopologySpread, g.spread(app))
	}
	if g.chance(1, 12) {
		p.TopologySpread = withSpread(p.TopologySpread, g.spread(app))
	}
	if g.chance(1, 8) {
		p.Affinity = []packing.PodAffinityTerm{g.affinityTerm(pick(g, g.apps))}
	}
}

// nodeAffinity draws a nodeSelector, required terms (ORed) and preferred
// terms, each with its own chance.
func (g *gen) nodeAffinity() requirements.NodeAffinity {
	var sel map[string]string
	if g.chance(1, 5) {
		sel = g.selector()
	}
	var required [][]requirements.Expression
	if g.chance(1, 6) {
		for range 1 + g.intn(2) {
			required = append(required, g.term())
		}
	}
	var preferred []requirements.WeightedTerm
	if g.chance(1, 6) {
		for range 1 + g.intn(2) {
			preferred = append(preferred, requirements.WeightedTerm{Weight: int32(1 + g.intn(100)), Expressions: g.term()})
		}
	}
	a, err := requirements.NewNodeAffinity(sel, required, preferred)
	if err != nil {
		panic(fmt.Sprintf("problemgen: generated node affinity is invalid: %v", err)) // a bug here
	}
	return a
}

func (g *gen) selector() map[string]string {
	switch g.intn(6) {
	case 0:
		return map[string]string{requirements.LabelArch: "amd64"}
	case 1:
		return map[string]string{LabelTeam: pick(g, []string{"a", "b"})}
	case 2:
		return map[string]string{requirements.LabelZone: pick(g, g.zones)}
	case 3:
		return map[string]string{requirements.LabelCapacityType: "spot"}
	case 4:
		return map[string]string{LabelUnknown: "x"} // no node has it
	}
	return map[string]string{requirements.LabelInstanceType: pick(g, g.types)}
}

// term draws one or two node-selector expressions.
func (g *gen) term() []requirements.Expression {
	out := []requirements.Expression{g.expression()}
	if g.chance(1, 3) {
		out = append(out, g.expression())
	}
	return out
}

func (g *gen) expression() requirements.Expression {
	e := func(key string, op requirements.Operator, values ...string) requirements.Expression {
		return requirements.Expression{Key: key, Operator: op, Values: values}
	}
	switch g.intn(8) {
	case 0:
		return e(requirements.LabelZone, requirements.In, subset(g, g.zones)...)
	case 1:
		return e(requirements.LabelArch, requirements.In, "arm64")
	case 2:
		return e(requirements.LabelCapacityType, requirements.NotIn, "spot")
	case 3:
		return e(requirements.LabelInstanceCPU, requirements.Gt, strconv.Itoa(1+g.intn(8)))
	case 4:
		return e(requirements.LabelInstanceType, requirements.In, pick(g, g.types), pick(g, g.types))
	case 5:
		return e(LabelGeneration, requirements.Lt, strconv.Itoa(2+g.intn(4)))
	case 6:
		return e(LabelTeam, requirements.In, "a")
	}
	return e(requirements.LabelCapacityType, requirements.In, "spot")
}

func (g *gen) tolerations() []requirements.Toleration {
	var out []requirements.Toleration
	if g.chance(1, 3) {
		out = append(out, requirements.Toleration{Key: TaintDedicated, Operator: requirements.TolerateExists})
	}
	if g.chance(1, 6) {
		out = append(out, requirements.Toleration{Key: TaintDedicated, Value: "gpu", Effect: requirements.NoSchedule})
	}
	if g.chance(1, 8) {
		out = append(out, requirements.Toleration{Key: TaintSoft, Operator: requirements.TolerateExists, Effect: requirements.PreferNoSchedule})
	}
	if g.chance(1, 10) {
		out = append(out, requirements.Toleration{Operator: requirements.TolerateExists})
	}
	return out
}

// topologyKey is the zone, usually, or the hostname.
func (g *gen) topologyKey() string {
	if g.chance(2, 3) {
		return requirements.LabelZone
	}
	return requirements.LabelHostname
}

func appSelector(app string) requirements.Set {
	return requirements.NewSet(requirements.MustNew(LabelApp, requirements.In, app))
}

func (g *gen) spread(app string) packing.TopologySpread {
	ts := packing.TopologySpread{TopologyKey: g.topologyKey(), MaxSkew: int32(1 + g.intn(2)), Selector: appSelector(app)}
	if g.chance(1, 4) {
		ts.WhenUnsatisfiable = packing.ScheduleAnyway
	}
	if g.chance(1, 5) {
		if minDomains := int32(2 + g.intn(2)); ts.WhenUnsatisfiable == packing.DoNotSchedule {
			ts.MinDomains = minDomains // the API server takes minDomains with DoNotSchedule only
		}
	}
	if g.chance(1, 8) {
		ts.NodeAffinityPolicy = packing.InclusionPolicy(g.intn(3))
		ts.NodeTaintsPolicy = packing.InclusionPolicy(g.intn(3))
	}
	if g.chance(1, 10) {
		ts.MatchLabelKeys = []string{"tier"}
	}
	return ts
}

// withSpread returns spreads with ts added, or in place of the constraint
// with its topologyKey and whenUnsatisfiable, which the API server allows
// once per pod. It modifies neither spreads nor its backing array.
func withSpread(spreads []packing.TopologySpread, ts packing.TopologySpread) []packing.TopologySpread {
	i := slices.IndexFunc(spreads, func(o packing.TopologySpread) bool {
		return o.TopologyKey == ts.TopologyKey && o.WhenUnsatisfiable == ts.WhenUnsatisfiable
	})
	if i < 0 {
		return append(slices.Clip(spreads), ts)
	}
	out := slices.Clone(spreads)
	out[i] = ts
	return out
}

// affinityTerm is a term on target's pods, required half the time.
func (g *gen) affinityTerm(target string) packing.PodAffinityTerm {
	t := packing.PodAffinityTerm{TopologyKey: g.topologyKey(), Selector: appSelector(target)}
	if g.chance(1, 2) {
		t.Weight = int32(1 + g.intn(100))
	}
	if g.chance(1, 8) {
		t.AllNamespaces = true
	}
	return t
}

// antiAffinity keeps an app's pods apart, by hostname usually.
func (g *gen) antiAffinity(app string) []packing.PodAffinityTerm {
	if !g.chance(1, 5) {
		return nil
	}
	t := packing.PodAffinityTerm{TopologyKey: requirements.LabelHostname, Selector: appSelector(app)}
	if g.chance(1, 6) {
		t.TopologyKey = requirements.LabelZone
	}
	if g.chance(1, 4) {
		t.Weight = int32(1 + g.intn(100))
	}
	return []packing.PodAffinityTerm{t}
}
