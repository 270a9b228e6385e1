package drift_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// generatedScenario is the drift scenario of a generated problem: its
// nodes (with their pods), pools, catalog and daemonsets, with the
// budgets, terminationGracePeriods, do-not-disrupt marks and
// PodDisruptionBudgets of problemgen.Disruptive; findings for a random
// half of the nodes (drifted, or interrupted and forceful) besides those
// Evaluate makes, at a time when the nodes are young, just expired, or
// expired past a graceful expiration's grace period.
func generatedScenario(p packing.Problem, seed uint64) scenario {
	rng := rand.New(rand.NewPCG(seed, 23))
	q, pdbs := problemgen.Disruptive(p, seed)
	cl := drift.Cluster{Input: drift.Input{Catalog: q.Catalog}, DaemonSets: q.DaemonSets, PDBs: pdbs}
	if rng.IntN(3) == 0 {
		cl.Expiration.GracePeriod = time.Duration(1+rng.IntN(48)) * time.Hour
	}
	for _, np := range q.NodePools {
		cl.NodePools = append(cl.NodePools, drift.Template{NodePool: np})
	}
	sc := scenario{now: t0.Add([]time.Duration{2 * time.Hour, 721 * time.Hour, 760 * time.Hour}[rng.IntN(3)])}
	reasons := []drift.Reason{drift.NodePoolDrifted, drift.RequirementsDrifted, drift.InstanceTypeGone, drift.Interrupted}
	for _, n := range q.Nodes {
		cl.Nodes = append(cl.Nodes, drift.NodeClaimState{Node: n})
		if rng.IntN(2) == 0 {
			continue
		}
		r := reasons[rng.IntN(len(reasons))]
		sc.findings = append(sc.findings, drift.Finding{Node: n.Name, NodePool: n.NodePool, Reason: r,
			Message: "generated", Since: sc.now.Add(-time.Hour), Forceful: r == drift.Interrupted})
	}
	sc.cl = cl
	found, err := drift.Evaluate(inputAt(cl.Input, sc.now))
	sc.findings, sc.evalErr = append(found, sc.findings...), err
	return sc
}

// TestCommandsOnGeneratedClusters: on the clusters of problemgen.Generate
// (unusual shapes included: GPU daemonsets tolerating everything, pools
// excluding themselves, hostname and beta-label constraints, bounds),
// every command sequence Commands returns passes checkSequence (no error
// on a valid cluster, VerifyCommands accepts it, every node with findings
// once in the commands or the blocked list, deterministic, the cluster
// unchanged), whenever the snapshot itself passes verify.Plan.
func TestCommandsOnGeneratedClusters(t *testing.T) {
	for seed := range uint64(1000) {
		seed += 8 << 40
		p := problemgen.Generate(seed, problemgen.Size{})
		sc := generatedScenario(p, seed)
		base := packing.Problem{NodePools: p.NodePools, Catalog: p.Catalog, Nodes: p.Nodes, DaemonSets: p.DaemonSets}
		if len(verify.Plan(base, packing.Plan{})) > 0 {
			continue // the snapshot is already invalid (an overcommitted node)
		}
		if msg := safeCheck(sc); msg != "" {
			t.Fatalf("seed %d (problemgen.Generate(%d, problemgen.Size{}), generatedScenario(p, %d)): %s\n%s",
				seed, seed, seed, msg, problemgen.Dump(p))
		}
	}
}

// safeCheck is checkSequence with a panic turned into its message.
func safeCheck(sc scenario) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v", r)
		}
	}()
	return checkSequence(sc)
}
