package drift_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

func params() *gopter.TestParameters {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = 200
	p.Rng.Seed(7)
	return p
}

// knobs say how a generated node departs from its NodePool; expected
// restates the rules by brute force from them alone.
type knobs struct {
	hash, sg                                 int // hash: 0 same, 1 changed, 2 unrecorded, 3 other version; sg: 0 same, 1 fewer, 2 more
	imageGone, subnetGone, typeGone, windows bool
	classChanged, never                      bool
	ageMinutes                               int
}

func (k knobs) expected() []drift.Reason {
	var out []drift.Reason
	add := func(ok bool, r drift.Reason) {
		if ok {
			out = append(out, r)
		}
	}
	add(k.hash == 1, drift.NodePoolDrifted)
	add(k.windows, drift.RequirementsDrifted)
	add(k.typeGone && k.ageMinutes > 60, drift.InstanceTypeGone)
	add(k.imageGone, drift.ImageDrifted)
	add(k.subnetGone, drift.SubnetDrifted)
	add(k.sg != 0, drift.SecurityGroupsDrifted)
	add(k.classChanged, drift.NodeClassDrifted)
	add(!k.never && k.ageMinutes >= 720*60, drift.Expired)
	return out
}

func (k knobs) input() (drift.Input, time.Time) {
	s := state("n")
	in := input()
	if k.never {
		in.NodePools[0].NodePool.Disruption.ExpireNever = true
	}
	s.NodePoolHash = in.NodePools[0].Hash()
	switch k.hash {
	case 1:
		s.NodePoolHash = "0123456789abcdef"
	case 2:
		s.NodePoolHash = ""
	case 3:
		s.NodePoolHash, s.NodePoolHashVersion = "0123456789abcdef", "v0"
	}
	if k.windows {
		s.Node.Labels[requirements.LabelOS] = "windows"
	}
	if k.typeGone {
		s.Node.InstanceType, s.Node.Labels[requirements.LabelInstanceType] = "z9.huge", "z9.huge"
	}
	if k.imageGone {
		s.Image = "ami-gone"
	}
	if k.subnetGone {
		s.Subnet = "subnet-gone"
	}
	s.SecurityGroups = [][]string{{"sg-1", "sg-2"}, {"sg-1"}, {"sg-1", "sg-2", "sg-9"}}[k.sg]
	if k.classChanged {
		s.NodeClassHash = "fedcba9876543210"
	}
	in.Nodes = []drift.NodeClaimState{s}
	return in, t0.Add(time.Duration(k.ageMinutes) * time.Minute)
}

func genKnobs() gopter.Gen {
	return gopter.CombineGens(gen.IntRange(0, 3), gen.IntRange(0, 2), gen.SliceOfN(7, gen.Bool()),
		gen.OneGenOf(gen.IntRange(0, 120), gen.IntRange(720*60-2, 720*60+2), gen.IntRange(0, 900*60))).
		Map(func(v []any) knobs {
			b := v[2].([]bool)
			return knobs{hash: v[0].(int), sg: v[1].(int), imageGone: b[0], subnetGone: b[1], typeGone: b[2],
				windows: b[3], classChanged: b[4], never: b[5], ageMinutes: v[3].(int)}
		})
}

func TestDriftedIffSomeRuleSaysSo(t *testing.T) {
	props := gopter.NewProperties(params())
	props.Property("findings are exactly the rules that hold", prop.ForAll(func(k knobs) string {
		in, at := k.input()
		var got []drift.Reason
		for _, f := range evaluate(t, in, at) {
			got = append(got, f.Reason)
		}
		if want := k.expected(); !slices.Equal(got, want) {
			return fmt.Sprintf("%+v: got %v, want %v", k, got, want)
		}
		return ""
	}, genKnobs()))
	props.Property("Evaluate is deterministic", prop.ForAll(func(k knobs) bool {
		in, at := k.input()
		return fmt.Sprint(evaluate(t, in, at)) == fmt.Sprint(evaluate(t, in, at))
	}, genKnobs()))
	props.TestingRun(t)
}

// TestHashProperties: the hash ignores map and taint order, and every
// hashed field changes it.
func TestHashProperties(t *testing.T) {
	props := gopter.NewProperties(params())
	keys := gen.SliceOfN(6, gen.AlphaString().Map(func(s string) string { return "k" + s }))
	build := func(ks []string, reverse bool) drift.Template {
		tpl := template("p")
		tpl.NodePool.Labels, tpl.Annotations = map[string]string{}, map[string]string{}
		order := slices.Clone(ks)
		if reverse {
			slices.Reverse(order)
		}
		for _, k := range order {
			tpl.NodePool.Labels[k], tpl.Annotations[k] = "v"+k, "a"+k
			tpl.NodePool.Taints = append(tpl.NodePool.Taints, requirements.Taint{Key: k, Effect: requirements.NoSchedule})
			tpl.NodePool.StartupTaints = append(tpl.NodePool.StartupTaints, requirements.Taint{Key: k, Value: "s", Effect: requirements.NoExecute})
		}
		return tpl
	}
	props.Property("stable under reordering", prop.ForAll(func(ks []string) bool {
		return build(ks, false).Hash() == build(ks, true).Hash()
	}, keys))
	changes := []func(*drift.Template){
		func(t *drift.Template) { t.NodePool.Labels["zz-new"] = "x" },
		func(t *drift.Template) { t.Annotations["zz-new"] = "x" },
		func(t *drift.Template) {
			t.NodePool.Taints = append(t.NodePool.Taints, requirements.Taint{Key: "zz", Effect: requirements.NoExecute})
		},
		func(t *drift.Template) {
			t.NodePool.StartupTaints = append(t.NodePool.StartupTaints, requirements.Taint{Key: "zz", Effect: requirements.NoSchedule})
		},
		func(t *drift.Template) { t.NodeClassRef.Group = "g2" },
		func(t *drift.Template) { t.NodeClassRef.Kind = "K2" },
		func(t *drift.Template) { t.NodeClassRef.Name = "n2" },
		func(t *drift.Template) { t.NodePool.Disruption.TerminationGracePeriod += time.Second },
		func(t *drift.Template) { t.NodePool.Disruption.ExpireAfter = 719 * time.Hour },
		func(t *drift.Template) { t.NodePool.Disruption.ExpireNever = true },
	}
	props.Property("changed by every hashed field", prop.ForAll(func(ks []string, i int) string {
		a, b := build(ks, false), build(ks, false)
		changes[i](&b)
		if a.Hash() == b.Hash() {
			return fmt.Sprintf("change %d kept the hash", i)
		}
		return ""
	}, keys, gen.IntRange(0, len(changes)-1)))
	props.Property("not changed by requirements or weight", prop.ForAll(func(ks []string, w int32) bool {
		a, b := build(ks, false), build(ks, false)
		b.NodePool.Weight = w
		b.NodePool.Requirements = requirements.NewSet(expr("x", requirements.Exists))
		return a.Hash() == b.Hash()
	}, keys, gen.Int32Range(1, 100)))
	props.TestingRun(t)
}

func TestCommandsRespectBudgets(t *testing.T) {
	props := gopter.NewProperties(params())
	budget := gen.OneGenOf(gen.IntRange(0, 4).Map(func(n int) string { return fmt.Sprint(n) }),
		gen.IntRange(0, 100).Map(func(n int) string { return fmt.Sprintf("%d%%", n) }))
	props.Property("budgeted commands per pool never exceed the allowance", prop.ForAll(func(n, m int, b1, b2 string, busy []bool) string {
		cl := cluster()
		cl.NodePools = []drift.Template{template("p1"), template("p2")}
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: b1}}
		cl.NodePools[1].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: b2}}
		for i := range n + m {
			s := drifted(fmt.Sprintf("n%02d", i), time.Duration(i)*time.Minute)
			if busy[i] {
				s.Node.Pods = []packing.Pod{pod(fmt.Sprintf("p%02d", i), "500m")}
			}
			s.Node.NodePool = "p1"
			if i >= n {
				s.Node.NodePool = "p2"
			}
			s.NodePoolHash = ""
			cl.Nodes = append(cl.Nodes, s)
		}
		cmds, blocked := run(t, cl, now)
		if len(cmds)+len(blocked) != n+m {
			return fmt.Sprintf("%d commands + %d blocked for %d nodes", len(cmds), len(blocked), n+m)
		}
		nodes := make([]packing.Node, len(cl.Nodes))
		for i := range cl.Nodes {
			nodes[i] = cl.Nodes[i].Node
		}
		for _, tpl := range cl.NodePools {
			allowed, err := disruption.AllowedDisruptions(tpl.NodePool, nodes, disruption.Drifted, now)
			if err != nil {
				return err.Error()
			}
			used := 0
			for _, c := range cmds {
				if c.NodePool == tpl.NodePool.Name && !c.Forceful {
					used++
				}
			}
			if used > allowed {
				return fmt.Sprintf("pool %s: %d commands, budget allows %d", tpl.NodePool.Name, used, allowed)
			}
		}
		return ""
	}, gen.IntRange(0, 6), gen.IntRange(0, 6), budget, budget, gen.SliceOfN(12, gen.Bool())))
	props.TestingRun(t)
}

func TestInterruptionNeverRelaunchesOnAMarkedOffering(t *testing.T) {
	props := gopter.NewProperties(params())
	types := []string{"c5.large", "m5.large", "m5.xlarge"}
	props.Property("no replacement uses a marked offering", prop.ForAll(func(ts, zs []int, hit []bool) string {
		cl := cluster()
		var notices []drift.Notice
		for i := range ts {
			s := spotNode(fmt.Sprintf("s%d", i))
			s.Node.InstanceType, s.Node.Zone = types[ts[i]], zones[zs[i]]
			s.Node.Pods = []packing.Pod{pod(fmt.Sprintf("p%d", i), "900m")}
			cl.Nodes = append(cl.Nodes, s)
			if hit[i] {
				notices = append(notices, drift.Notice{Kind: drift.SpotInterruption, Node: s.Node.Name, Time: now})
			}
		}
		p, err := drift.Interruption(notices, clusterAt(cl, now), cl.Catalog, time.Minute)
		if err != nil {
			return err.Error()
		}
		for _, c := range p.Replacement.NodeClaims {
			k := instancetypes.OfferingKey{InstanceType: c.InstanceType, Zone: c.Offering.Zone, CapacityType: c.Offering.CapacityType}
			if slices.ContainsFunc(p.Unavailable, func(m drift.MarkedOffering) bool { return m.Key == k }) {
				return fmt.Sprintf("claim %s launches on marked %+v", c.Name, k)
			}
		}
		if len(p.Homes) != len(p.Findings) {
			return fmt.Sprintf("%d homes for %d drained nodes with one pod each", len(p.Homes), len(p.Findings))
		}
		return ""
	}, gen.SliceOfN(5, gen.IntRange(0, 2)), gen.SliceOfN(5, gen.IntRange(0, 1)), gen.SliceOfN(5, gen.Bool())))
	props.TestingRun(t)
}

// checkSequence runs Commands on sc and returns what is wrong: an answer
// on an input Cluster.Validate rejects (or an error on one it accepts), a
// violation of VerifyCommands, a node with findings not exactly once in
// the commands or the blocked list, a drifted node of a NodePool with a
// terminationGracePeriod blocked by its pods' protection, a change to the
// cluster, or a second run that differs.
func checkSequence(sc scenario) string {
	before := fmt.Sprintf("%+v", sc.cl)
	cmds, blocked, err := drift.Commands(sc.findings, clusterAt(sc.cl, sc.now))
	if after := fmt.Sprintf("%+v", sc.cl); after != before {
		return "Commands modified the cluster"
	}
	if msg := checkInvalid(sc, cmds, blocked, err); msg != "" || err != nil {
		return msg
	}
	if vs := drift.VerifyCommands(clusterAt(sc.cl, sc.now), cmds); len(vs) > 0 {
		return fmt.Sprintf("VerifyCommands: %v", vs)
	}
	seen := map[string]int{}
	for _, c := range cmds {
		seen[c.Node]++
	}
	for _, b := range blocked {
		seen[b.Node]++
	}
	for _, f := range sc.findings {
		if seen[f.Node] != 1 {
			return fmt.Sprintf("node %s is in %d commands or blocked entries", f.Node, seen[f.Node])
		}
	}
	if msg := checkEventual(sc.cl, blocked); msg != "" {
		return msg
	}
	again, blockedAgain, _ := drift.Commands(sc.findings, clusterAt(sc.cl, sc.now))
	if fmt.Sprint(again, blockedAgain) != fmt.Sprint(cmds, blocked) {
		return "Commands is not deterministic"
	}
	return ""
}

// checkEventual says which node, blocked for a drift (its deciding finding
// is one, so it is budgeted and charged to Drifted) in a NodePool with a
// terminationGracePeriod, was blocked by a pod's do-not-disrupt or
// PodDisruptionBudget, which eventual disruption goes past: the sentences
// of disruption.PodBlocks and PDBBlocks start with "pod ".
func checkEventual(cl drift.Cluster, blocked []drift.Blocked) string {
	for _, b := range blocked {
		k := slices.IndexFunc(cl.NodePools, func(t drift.Template) bool { return t.NodePool.Name == b.NodePool })
		if b.Reason.Drift() && k >= 0 && cl.NodePools[k].NodePool.Disruption.TerminationGracePeriod > 0 && strings.HasPrefix(b.Message, "pod ") {
			return fmt.Sprintf("node %s is eventual disruption but blocked: %s", b.Node, b.Message)
		}
	}
	return ""
}

// checkInvalid says what is wrong with how Evaluate and Commands answered
// sc: each must reject what Cluster.Validate rejects (Evaluate the part
// Input.Validate covers) with an ErrInvalid error and nothing else.
func checkInvalid(sc scenario, cmds []drift.Command, blocked []drift.Blocked, err error) string {
	verr := sc.cl.Validate()
	switch {
	case (sc.evalErr != nil) != (sc.cl.Input.Validate() != nil):
		return fmt.Sprintf("Evaluate said %v where Input.Validate says %v", sc.evalErr, sc.cl.Input.Validate())
	case (err != nil) != (verr != nil):
		return fmt.Sprintf("Commands said %v where Cluster.Validate says %v", err, verr)
	case err != nil && (!errors.Is(err, drift.ErrInvalid) || cmds != nil || blocked != nil):
		return fmt.Sprintf("Commands on an invalid cluster: %v, %v, %v", err, cmds, blocked)
	}
	return ""
}

// TestCommandsPassVerifyCommands: on clusters mixing forceful commands
// (expired past the grace period, interrupted) with budgeted ones,
// protected pods, PodDisruptionBudgets allowing 0 and topology spreads,
// every command sequence Commands returns passes VerifyCommands.
func TestCommandsPassVerifyCommands(t *testing.T) {
	p := params()
	p.MinSuccessfulTests = 400
	props := gopter.NewProperties(p)
	props.Property("VerifyCommands accepts Commands", prop.ForAll(func(shape []byte) string {
		if msg := checkSequence(decodeScenario(shape)); msg != "" {
			return fmt.Sprintf("shape %x: %s", shape, msg)
		}
		return ""
	}, gen.SliceOfN(96, gen.UInt8())))
	props.TestingRun(t)
}
