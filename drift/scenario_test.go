package drift_test

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// scenario is a drift cluster decoded from bytes, shared by the property
// tests and FuzzEvaluate: nodes drifted, expired (forcefully or within the
// grace period), interrupted or healthy, in two zones and up to two
// NodePools with budgets from 0 to 100%, each with or without a
// terminationGracePeriod (so drift is eventual disruption in one, graceful
// in the other, or either in both); pods that spread over zones or
// hosts, carry do-not-disrupt or run under a PodDisruptionBudget allowing
// 0 or 1, or under two; daemonset pods; and, for a few values of the byte
// after the nodes, one invalid option or input.
type scenario struct {
	cl       drift.Cluster
	findings []drift.Finding
	now      time.Time
	evalErr  error // Evaluate's on cl.Input
}

// byteReader hands out the bytes of data, then zeros.
type byteReader struct {
	data []byte
	i    int
}

func (r *byteReader) next() byte {
	if r.i >= len(r.data) {
		return 0
	}
	r.i++
	return r.data[r.i-1]
}

func (r *byteReader) bit(b byte, i uint) bool { return b&(1<<i) != 0 }

var scenarioBudgets = []string{"", "0", "1", "2", "100%", "50%", "0%", "3"}

// decodeScenario builds a scenario from data; a few inputs are invalid
// (see invalidate).
func decodeScenario(data []byte) scenario {
	r := &byteReader{data: data}
	count, budget, flags := int(r.next()%8)+1, scenarioBudgets[r.next()%8], r.next()
	cl := drift.Cluster{Input: input()}
	sc := scenario{now: t0.Add(721 * time.Hour)}
	if r.bit(flags, 0) {
		cl.Expiration.GracePeriod = 2 * time.Hour // expired nodes are still graceful
	} else if r.bit(flags, 1) {
		cl.Expiration.GracePeriod = 30 * time.Minute // grace over: forceful
	}
	if r.bit(flags, 2) {
		cl.NodePools[0].NodePool.Disruption.TerminationGracePeriod = time.Hour
	}
	if budget != "" {
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: budget}}
	}
	if r.bit(flags, 3) {
		b := r.next()
		other := template("other")
		other.NodePool.Disruption.Budgets = []packing.Budget{{Nodes: scenarioBudgets[b%8]}}
		if other.NodePool.Disruption.Budgets[0].Nodes == "" {
			other.NodePool.Disruption.Budgets = nil
		}
		if r.bit(b, 3) {
			other.NodePool.Disruption.TerminationGracePeriod = 20 * time.Minute
		}
		cl.NodePools = append(cl.NodePools, other)
	}
	if r.bit(flags, 4) {
		b := r.next()
		cl.PDBs = append(cl.PDBs, disruption.PDB{Namespace: "default", Name: "db",
			Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "db")), DisruptionsAllowed: int32(b % 2)})
		if r.bit(b, 1) {
			cl.PDBs = append(cl.PDBs, disruption.PDB{Namespace: "default", Name: "all", DisruptionsAllowed: 3})
		}
	}
	key, minDomains := scenarioSpread(flags)
	spread := packing.TopologySpread{TopologyKey: key, MaxSkew: 1, MinDomains: minDomains,
		Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "web"))}
	if r.bit(flags, 7) {
		spread.NodeTaintsPolicy = packing.Honor
	}
	for i := range count {
		sc.addNode(r, &cl, i, spread)
	}
	invalidate(&cl, r.next())
	sc.cl = cl
	found, err := drift.Evaluate(inputAt(cl.Input, sc.now))
	sc.findings, sc.evalErr = append(found, sc.findings...), err
	return sc
}

// invalidate makes cl invalid for a few values of b: a negative option,
// a pod name held twice, a negative PDB allowance, an invalid budget.
func invalidate(cl *drift.Cluster, b byte) {
	switch b {
	case 1:
		cl.Expiration.GracePeriod = -time.Hour
	case 2:
		cl.NodePools[0].NodePool.Disruption.ExpireAfter = -time.Hour
	case 3:
		cl.NodePools[0].NodePool.Disruption.TerminationGracePeriod = -time.Second
	case 4:
		cl.Nodes[0].Node.Pods = append(cl.Nodes[0].Node.Pods, pod("twice", "100m"), pod("twice", "100m"))
	case 5:
		cl.PDBs = append(cl.PDBs, disruption.PDB{Namespace: "default", Name: "negative", DisruptionsAllowed: -1})
	case 6:
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "-5"}}
	case 7:
		cl.Nodes[0].PodGracePeriods = map[string]time.Duration{"default/x": -time.Minute}
	}
}

// scenarioSpread is the topology key web pods spread over: none, zone or
// hostname, and the minimum number of zones.
func scenarioSpread(flags byte) (string, int32) {
	switch flags >> 5 & 7 {
	case 1, 2:
		return requirements.LabelZone, 0
	case 3:
		return requirements.LabelZone, 3
	case 4, 5:
		return requirements.LabelHostname, 0
	}
	return "", 0
}

var scenarioZones = []string{"zone-a", "zone-b", "zone-a", "zone-c"}

// addNode decodes node i from two bytes: its kind (healthy, drifted,
// expired, interrupted), zone (zone-c is offered by no type), pool,
// do-not-disrupt, whether it is initialized and tainted, its pods, and
// whether it is named as node i-1's replacement would be.
func (sc *scenario) addNode(r *byteReader, cl *drift.Cluster, i int, spread packing.TopologySpread) {
	b, b2 := r.next(), r.next()
	name := fmt.Sprintf("n%d", i)
	if r.bit(b2, 3) && i > 0 {
		name = fmt.Sprintf("n%d-replacement-1", i-1) // the name Commands would give n(i-1)'s replacement
	}
	s := state(name)
	s.Node.CreationTime = t0.Add(700 * time.Hour)
	s.NodePoolHash = ""
	s.Node.Zone = scenarioZones[b&3]
	s.Node.Labels[requirements.LabelZone] = s.Node.Zone
	switch b >> 2 & 3 {
	case 1:
		s.Image, s.DriftedSince = "ami-ancient", t0.Add(time.Duration(b2>>4)*time.Minute)
	case 2:
		s.Node.CreationTime = t0
	case 3:
		sc.findings = append(sc.findings, drift.Finding{Node: name, NodePool: "default", Reason: drift.Interrupted,
			Message: "interrupted", Since: sc.now, Forceful: true})
	}
	if r.bit(b, 4) {
		s.Node.Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
	}
	if r.bit(b, 5) && len(cl.NodePools) > 1 {
		s.Node.NodePool = "other"
		for k := range sc.findings {
			if sc.findings[k].Node == name {
				sc.findings[k].NodePool = "other"
			}
		}
	}
	s.Node.Initialized = !r.bit(b2, 0)
	if r.bit(b2, 1) {
		s.Node.Taints = []requirements.Taint{{Key: "dedicated", Value: "db", Effect: requirements.NoSchedule}}
	}
	for k := range int(b>>6) + int(b2>>2&1)*3 {
		s.Node.Pods = append(s.Node.Pods, scenarioPod(r.next(), fmt.Sprintf("%s-%d", name, k), spread))
	}
	cl.Nodes = append(cl.Nodes, s)
}

var scenarioCPU = []string{"100m", "300m", "700m", "1500m"}

// scenarioPod decodes one pod: web (spread) or db (under the PDB, with
// required anti-affinity on hostname), its size, do-not-disrupt, a
// toleration of the db taint, and whether it is a daemonset pod.
func scenarioPod(b byte, name string, spread packing.TopologySpread) packing.Pod {
	p := pod(name, scenarioCPU[b>>1&3])
	p.Labels = map[string]string{"app": "db"}
	if b&1 == 0 {
		p.Labels["app"] = "web"
		if spread.TopologyKey != "" {
			p.TopologySpread = []packing.TopologySpread{spread}
		}
	} else if b>>6&1 == 1 {
		p.AntiAffinity = []packing.PodAffinityTerm{{TopologyKey: requirements.LabelHostname,
			Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "db"))}}
	}
	switch b >> 3 & 3 {
	case 1:
		p.DoNotDisrupt = "true"
	case 2:
		p.Owner = "DaemonSet/logs"
	}
	if b>>5&1 == 1 {
		p.Tolerations = []requirements.Toleration{{Key: "dedicated", Operator: requirements.TolerateExists}}
	}
	return p
}
