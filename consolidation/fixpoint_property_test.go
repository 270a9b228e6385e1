package consolidation_test

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/internal/problemgen"
)

// fixpoint plans c with o and says what is wrong: a command that neither
// saves nor only deletes (a replacement that saves nothing could be
// undone by the next, a cycle), commands VerifyCommands rejects, or a
// cluster the commands leave on which Plan, run again with the same
// options, still finds a command — every node, those that took displaced
// pods included, must have been re-evaluated and the failures Plan
// remembered (retries) must still hold.
func fixpoint(c consolidation.Cluster, o consolidation.Options) string {
	r, err := consolidation.Plan(c, o)
	if err != nil {
		return err.Error()
	}
	for i, cmd := range r.Commands {
		if cmd.Savings <= 0 && (len(cmd.Replacements) > 0 || cmd.Savings < 0) {
			return fmt.Sprintf("command %d (%v) does not save", i, cmd)
		}
	}
	if v := consolidation.VerifyCommands(c, r.Commands); len(v) > 0 {
		return fmt.Sprintf("VerifyCommands: %v", v)
	}
	after, err := consolidation.After(c, o, r.Commands)
	if err != nil {
		return "After: " + err.Error()
	}
	again, err := consolidation.Plan(after, o)
	if err != nil {
		return "Plan on the cluster the commands leave: " + err.Error()
	}
	if len(again.Commands) > 0 {
		return fmt.Sprintf("not a fixpoint: after %v, Plan finds %v", r.Commands, again.Commands)
	}
	return ""
}

// TestPropertyFixpoint: on the spec clusters (do-not-disrupt pods and
// nodes, budgets) and the generated clusters of problemgen (pools, zones,
// spot, affinities, spreads, PodDisruptionBudgets, daemonsets), with and
// without the repack, every command saves (or only deletes), the
// sequence verifies, and Plan has nothing more to do on the cluster the
// commands leave.
func TestPropertyFixpoint(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261215) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 200
	props := gopter.NewProperties(params)
	props.Property("spec clusters", prop.ForAll(func(sp spec) string {
		return fixpoint(sp.cluster(), consolidation.Options{Repack: sp.Repack})
	}, genSpec()))
	props.TestingRun(t)
	frag := 200
	if testing.Short() {
		frag = 30
	}
	for seed := range uint64(frag) {
		for _, repack := range []bool{false, true} {
			if msg := fixpoint(fragmentedCluster(seed), consolidation.Options{Repack: repack}); msg != "" {
				t.Fatalf("fragmentedCluster(%d), Repack %t: %s", seed, repack, msg)
			}
		}
	}
	n := 300
	if testing.Short() {
		n = 50
	}
	for seed := range uint64(n) {
		seed += 7 << 40
		size := problemgen.Size{}
		if seed%2 == 1 {
			size = problemgen.Size{Nodes: 40, BoundPods: 8, Pods: 3}
		}
		c := generatedCluster(problemgen.Generate(seed, size), seed)
		o := generatedOptions(seed)
		o.MaxSingle = 0 // a cap leaves candidates untried by design
		if msg := fixpoint(c, o); msg != "" {
			t.Fatalf("seed %d (generatedCluster(problemgen.Generate(%d, %+v), %d), generatedOptions(%d) without MaxSingle): %s",
				seed, seed, size, seed, seed, msg)
		}
	}
}

// TestRoomIsNecessary: room (room.go) rules out only moves the simulation
// rejects too, on the clusters fragmentedCluster draws after Plan's
// commands (where the nodes that took pods are full), and it does rule
// some out.
func TestRoomIsNecessary(t *testing.T) {
	total := 0
	for seed := range uint64(100) {
		c := fragmentedCluster(seed)
		ruledOut, wrong, err := consolidation.RoomVerdicts(c, consolidation.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(wrong) > 0 {
			t.Fatalf("fragmentedCluster(%d): room ruled out %v, which the simulation accepts", seed, wrong)
		}
		total += ruledOut
	}
	if total == 0 {
		t.Fatal("room ruled nothing out: the check is vacuous here")
	}
	t.Logf("room ruled out %d moves", total)
}
