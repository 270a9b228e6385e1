package sidebyside

import (
	"cmp"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/consolidation"
)

// TestGenerateFragmented: the generator is deterministic, puts every pod
// on exactly one node within the node's allocatable, keeps each
// deployment's spread, and draws 5 to 60 nodes.
func TestGenerateFragmented(t *testing.T) {
	for seed := range uint64(40) {
		f := GenerateFragmented(seed, 0)
		require.True(t, reflect.DeepEqual(f, GenerateFragmented(seed, 0)), "seed %d: not deterministic", seed)
		require.GreaterOrEqual(t, len(f.Nodes), 5, "seed %d", seed)
		require.LessOrEqual(t, len(f.Nodes), 60, "seed %d", seed)
		require.NotEmpty(t, f.Workload.Pods, "seed %d", seed)
		require.Empty(t, fragmentedViolation(f), "seed %d", seed)
	}
	require.Len(t, GenerateFragmented(1, 7).Nodes, 7)
}

// FuzzGenerateFragmented: for any seed and 0 to 60 nodes, the generated
// cluster holds fragmentedViolation's invariants, has the nodes asked
// for, converts for nodeplan, and consolidation.Plan plans it without an
// error (TestConsolidationCommandsVerify checks the commands). The seed
// corpus runs in normal tests.
func FuzzGenerateFragmented(f *testing.F) {
	f.Add(uint64(0), uint8(0))
	f.Add(uint64(1), uint8(1))
	f.Add(uint64(2104), uint8(0))
	f.Add(uint64(1<<64-1), uint8(60))
	f.Fuzz(func(t *testing.T, seed uint64, nodes uint8) {
		n := int(nodes % 61)
		g := GenerateFragmented(seed, n)
		if n > 0 {
			require.Len(t, g.Nodes, n)
		}
		require.Empty(t, fragmentedViolation(g))
		c, err := g.NodeplanCluster()
		require.NoError(t, err)
		_, err = consolidation.Plan(c, consolidation.Options{})
		require.NoError(t, err)
	})
}

// fragmentedViolation says what in f breaks the generator's promises (a
// pod not bound exactly once, a node over its allocatable, two replicas
// of a hostname-spread deployment on one node, a zone-spread deployment
// skewed by more than one), or "".
func fragmentedViolation(f Fragmented) string {
	return cmp.Or(boundViolation(f), spreadViolation(f))
}

// boundViolation says which pod of f is not bound exactly once or which
// node is over its allocatable, or "": what every completed command must
// keep.
func boundViolation(f Fragmented) string {
	seen := make([]int, len(f.Workload.Pods))
	for _, n := range f.Nodes {
		for _, i := range n.Pods {
			seen[i]++
		}
		if msg := f.overAllocatable(n); msg != "" {
			return msg
		}
	}
	for i, c := range seen {
		if c != 1 {
			return fmt.Sprintf("pod %s bound %d times", f.Workload.Pods[i].Name, c)
		}
	}
	return ""
}

// spreadViolation says which hostname-spread deployment of f has two
// replicas on one node or which zone-spread one is skewed by more than
// one over the three zones, or "": the generator's promise, stricter than
// maxSkew 1 (two replicas may share a node when every node holds one).
func spreadViolation(f Fragmented) string {
	zones := map[string]map[string]int{}
	for _, n := range f.Nodes {
		hosts := map[string]int{}
		for _, i := range n.Pods {
			p := f.Workload.Pods[i]
			for _, s := range p.TopologySpread {
				app := p.Labels["app"]
				switch s.Key {
				case hostnameKey:
					if hosts[app]++; hosts[app] > 1 {
						return fmt.Sprintf("two %s replicas on %s", app, n.Name)
					}
				case zoneKey:
					if zones[app] == nil {
						zones[app] = map[string]int{}
					}
					zones[app][n.Zone]++
				}
			}
		}
	}
	for app, byZone := range zones {
		lo, hi := len(f.Workload.Pods), 0
		for _, z := range fragmentedZones {
			lo, hi = min(lo, byZone[z]), max(hi, byZone[z])
		}
		if hi-lo > 1 {
			return fmt.Sprintf("%s zone skew %v", app, byZone)
		}
	}
	return ""
}

// handMade is a two- or three-node cluster on fake types for the rows of
// TestConsolidationRows: nodes[i] is "<type> <pod>…", each pod
// "<name>:<app>:<millicores>".
func handMade(nodes []string, pdbs []PDB, doNotDisrupt ...string) Fragmented {
	f := GenerateFragmented(0, 1)
	f.Name, f.Budget, f.PDBs, f.DoNotDisrupt, f.Nodes = "hand-made", "100%", pdbs, map[string]bool{}, nil
	f.Workload.Pods = nil
	for _, p := range doNotDisrupt {
		f.DoNotDisrupt[p] = true
	}
	for i, spec := range nodes {
		fields := strings.Fields(spec)
		n := BoundNode{Name: fmt.Sprintf("node-%d", i), InstanceType: fields[0], Zone: fragmentedZones[0]}
		for _, p := range fields[1:] {
			var name, app string
			var milli int64
			parts := strings.Split(p, ":")
			name, app = parts[0], parts[1]
			_, _ = fmt.Sscan(parts[2], &milli)
			n.Pods = append(n.Pods, len(f.Workload.Pods))
			f.Workload.Pods = append(f.Workload.Pods, workload.Pod{Namespace: fragmentedNamespace, Name: name,
				Labels: map[string]string{"app": app}, CPUMilli: milli, MemoryBytes: 128 << 20})
		}
		f.Nodes = append(f.Nodes, n)
	}
	return f
}

// TestConsolidationRows: behaviour rows of Karpenter's disruption suites,
// through the harness and through nodeplan; both must give the listed
// candidates (each command's, in order) and no replacement.
func TestConsolidationRows(t *testing.T) {
	rows := []struct {
		name  string
		f     Fragmented
		moves [][]string
	}{
		{ // emptiness_test.go:111 "should allow all empty nodes to be disrupted"; fake-it-0 is the cheapest type
			name:  "empty node deleted",
			f:     handMade([]string{"fake-it-1", "fake-it-0 a:web:100"}, nil),
			moves: [][]string{{"node-0"}},
		},
		{ // consolidation_test.go:2587 "can delete nodes, considers PDB"
			name: "PDB with no disruption allowed keeps its node",
			f: handMade([]string{"fake-it-3 a:web:100 b:web:100", "fake-it-3 c:db:100"},
				[]PDB{{Name: "db", Selector: map[string]string{"app": "db"}}}),
			moves: [][]string{{"node-0"}},
		},
		{ // consolidation_test.go:2686 "can delete nodes, considers karpenter.sh/do-not-disrupt set to true on pods"
			name:  "do-not-disrupt pod keeps its node",
			f:     handMade([]string{"fake-it-3 a:web:100 b:web:100", "fake-it-3 c:db:100"}, nil, "c"),
			moves: [][]string{{"node-0"}},
		},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			k, err := RunKarpenterConsolidation(row.f, DisruptionOptions{})
			require.NoError(t, err)
			n, err := RunNodeplanConsolidation(row.f, consolidation.Options{})
			require.NoError(t, err)
			for side, r := range map[string]Consolidated{"karpenter": k, "nodeplan": n} {
				var got [][]string
				for _, m := range r.Moves {
					require.Empty(t, m.Launches, "%s: %v", side, r.Moves)
					got = append(got, m.Candidates)
				}
				require.Equal(t, row.moves, got, "%s: %v", side, r.Moves)
			}
			require.InDelta(t, k.Saved(), n.Saved(), 1e-6)
		})
	}
}

// TestConsolidationWave: under a budget of one node, the full loop
// consolidates four underused nodes command after command, as each
// completes and frees the budget; a wave stops after the first command,
// whose candidate, marked for deletion, spends the budget
// (BuildDisruptionBudgetMapping, disruption/helpers.go:262-314).
func TestConsolidationWave(t *testing.T) {
	f := handMade([]string{"fake-it-3 a:web:100", "fake-it-3 b:web:100", "fake-it-3 c:web:100", "fake-it-3 d:web:100"}, nil)
	f.Budget = "1"
	full, err := RunKarpenterConsolidation(f, DisruptionOptions{})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(full.Moves), 3, "%v", full.Moves)
	wave, err := RunKarpenterConsolidation(f, DisruptionOptions{Wave: true})
	require.NoError(t, err)
	require.Len(t, wave.Moves, 1, "%v", wave.Moves)
	require.Greater(t, full.Saved(), wave.Saved())
	capped, err := RunKarpenterConsolidation(f, DisruptionOptions{MaxCommands: 2})
	require.NoError(t, err)
	require.Len(t, capped.Moves, 2, "%v", capped.Moves)
}

// TestConsolidationAccounting: on generated clusters, each side starts at
// the cluster's price, every command saves money, and the savings are the
// sum of the commands' (Karpenter's full loop and wave alike; its harness
// also checks that no pod is lost).
func TestConsolidationAccounting(t *testing.T) {
	seeds := []uint64{7, 8, 9}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		f := GenerateFragmented(seed, 12)
		n, err := RunNodeplanConsolidation(f, consolidation.Options{})
		require.NoError(t, err)
		k, err := RunKarpenterConsolidation(f, DisruptionOptions{})
		require.NoError(t, err)
		w, err := RunKarpenterConsolidation(f, DisruptionOptions{Wave: true})
		require.NoError(t, err)
		for side, r := range map[string]Consolidated{"nodeplan": n, "karpenter": k, "wave": w} {
			require.InDelta(t, f.Price(), r.Before, 1e-9, "seed %d %s", seed, side)
			sum := 0.0
			for _, m := range r.Moves {
				require.Positive(t, m.Savings, "seed %d %s: %s", seed, side, m)
				sum += m.Savings
			}
			require.InDelta(t, sum, r.Saved(), 1e-6, "seed %d %s: %v", seed, side, r.Moves)
		}
		require.NotEmpty(t, k.Moves, "seed %d: the generated cluster gave Karpenter nothing to do", seed)
	}
}

// ratio is a ÷ b, or 1 when both are 0.
func ratio(a, b float64) float64 {
	if b == 0 && a == 0 {
		return 1
	}
	return a / b
}

func moveList(ms []Move) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "  %s\n", m)
	}
	return b.String()
}

// TestConsolidationCountsRunningPods: Karpenter's topology counts the pods
// already bound (its Topology.countDomains finds their nodes by name,
// scheduling/topology.go:419-428, so the harness's nodes are
// cluster-scoped): deleting node-1 and node-2 may not put b beside a,
// whose hostname spread (maxSkew 1) b shares
// (scheduling/topologygroup.go:239-250), so both sides replace them by a
// fake-it-0 and keep the spread.
func TestConsolidationCountsRunningPods(t *testing.T) {
	f := handMade([]string{"fake-it-0 a:web:100", "fake-it-1 c:db:100", "fake-it-3 b:web:100"}, nil)
	for i := range f.Workload.Pods {
		if f.Workload.Pods[i].Labels["app"] == "web" {
			f.Workload.Pods[i].TopologySpread = []workload.Spread{{Key: hostnameKey, MaxSkew: 1, DoNotSchedule: true,
				Selector: map[string]string{"app": "web"}}}
		}
	}
	k, err := RunKarpenterConsolidation(f, DisruptionOptions{})
	require.NoError(t, err)
	require.Empty(t, fragmentedViolation(k.End), "%v", k.Moves)
	n, err := RunNodeplanLoop(f, consolidation.Options{}, 0)
	require.NoError(t, err)
	require.Empty(t, fragmentedViolation(n.End), "%v", n.Moves)
	require.InDelta(t, k.Saved(), n.Saved(), 1e-6, "karpenter %v, nodeplan %v", k.Moves, n.Moves)
}
