package consolidation_test

import (
	"slices"
	"testing"

	"github.com/nodeplan/nodeplan/consolidation"
)

// TestRepackPastInFlight: in fragmentedCluster(95) a multi-node command
// leaves its replacement in flight, with room to spare. The repack's
// simulations send displaced pods past it (a node in flight is no home
// for them, by Karpenter's rule, so landing there fails the move) and
// find one more command: n05 and n15 replaced by four smaller nodes.
// Before, the packer put those pods into the in-flight node's room, and
// every such simulation failed.
func TestRepackPastInFlight(t *testing.T) {
	c := fragmentedCluster(95)
	r, err := consolidation.Plan(c, consolidation.Options{Repack: true})
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(r.Commands, func(cmd consolidation.Command) bool { return cmd.Method == consolidation.Repack })
	if at < 0 {
		t.Fatalf("no repack command: %v", r.Commands)
	}
	inFlight := map[string]bool{}
	for _, cmd := range r.Commands[:at] {
		for _, nc := range cmd.Replacements {
			inFlight[nc.Name] = true
		}
	}
	if len(inFlight) == 0 {
		t.Fatalf("no replacement in flight before the repack: %v", r.Commands)
	}
	for _, h := range r.Commands[at].Homes {
		if inFlight[h.NodeClaim] || inFlight[h.Node] {
			t.Errorf("pod %v lands on %s%s, in flight", h.Pod, h.Node, h.NodeClaim)
		}
	}
	if got := r.Commands[at].String(); got != "Underutilized replace [n05 n15] (+4) saves 0.050000/h" {
		t.Errorf("repack command %q", got)
	}
	if v := consolidation.VerifyCommands(c, r.Commands); len(v) > 0 {
		t.Fatal(v)
	}
}
