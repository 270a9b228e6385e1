package consolidation

import (
	"fmt"
	"github.com/nodeplan/nodeplan/internal/enum"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// Cluster is the snapshot Plan reads. The zero Cluster has no nodes and
// gives no commands; a cluster with nodes needs a Catalog (or a catalog on
// every NodePool).
type Cluster struct {
	// Nodes are the existing and in-flight nodes with their pods. A pod
	// that is not reschedulable (packing.Pod.Reschedulable: a daemonset
	// pod, a mirror pod, a terminating pod not of a StatefulSet) does not
	// make its node non-empty, is never moved and neither blocks nor
	// counts against the node's disruption (do-not-disrupt,
	// PodDisruptionBudgets, eviction cost); it still takes its node's room
	// until the node goes.
	Nodes      []packing.Node
	NodePools  []packing.NodePool
	Catalog    *instancetypes.Catalog
	Pending    []packing.Pod
	DaemonSets []packing.DaemonSet
	PDBs       []disruption.PDB
	// LastPodEvent is, per node name, when a pod last bound to or left it;
	// a node without an entry uses its CreationTime.
	LastPodEvent map[string]time.Time
	// NominatedUntil is, per node name, until when the provisioner has
	// nominated it for pending pods; such nodes are not candidates.
	NominatedUntil map[string]time.Time
	// Now is the moment the snapshot stands for: [Plan] and
	// [VerifyCommands] judge at it, and read no clock (drift.Input.Now is
	// drift's). The zero Now is the zero time.
	Now time.Time
}

// Options tune Plan. The zero Options are Karpenter's behaviour.
type Options struct {
	// MinPriceImprovement is the fraction (0..1) of the candidates' price
	// a replacement must save; 0 asks only for strictly cheaper.
	MinPriceImprovement float64
	// MinScore, when positive, asks every command's savings share ÷
	// disruption share (the Balanced score) to reach it, whatever the
	// pool's policy.
	MinScore float64
	// SpotToSpot enables replacing spot nodes by spot nodes, Karpenter's
	// SpotToSpotConsolidation feature gate.
	SpotToSpot bool
	// MaxCandidates caps the multi-node prefix; 0 means 100.
	MaxCandidates int
	// MaxSingle caps the single-node commands; 0 means unlimited. The
	// candidates the cap leaves untried are in Result.Kept, Why Capped.
	MaxSingle int
	// Repack runs the m→n search after Karpenter's methods: it tries each
	// prefix of the candidates (savings-ratio order) with any number of
	// replacements, keeps the one that saves most within the budgets, then
	// grows it by each later candidate whose addition saves more. Each
	// command it finds is applied and followed by Karpenter's methods
	// again, then by the search again, until neither finds a command.
	// MaxIterations caps the moves each search tries, half per phase; 0
	// means 200 (with more than one core a move may also be simulated
	// ahead and cancelled, which costs time, never a different plan).
	Repack        bool
	MaxIterations int
	// Solver is passed to packing.Solve for every simulation; its
	// Preferences may not be packing.BudgetPreferences.
	Solver packing.Options
}

func (o Options) maxCandidates() int { return cmpOr(o.MaxCandidates, 100) }
func (o Options) maxIterations() int { return cmpOr(o.MaxIterations, 200) }

func cmpOr(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

// Method is the consolidation method that produced a command.
type Method uint8

const (
	// Emptiness deletes empty nodes.
	Emptiness Method = iota
	// MultiNode deletes or replaces several nodes at once.
	MultiNode
	// SingleNode deletes or replaces one node.
	SingleNode
	// Repack is nodeplan's m→n search.
	Repack
)

// String returns the method's name.
func (m Method) String() string {
	return [...]string{"Emptiness", "MultiNode", "SingleNode", "Repack"}[min(int(m), 3)]
}

// Result is what Plan decides. Commands are to be executed in order; Kept
// explains, for every node no command touches, why, in node-name order.
type Result struct {
	Commands []Command
	Kept     []Explanation
}

// Command deletes its Candidates and launches its Replacements. Savings is
// the candidates' hourly price minus the replacements'. Homes say where
// each displaced pod lands, on an existing node or a replacement (never
// Unschedulable), in the order the simulation placed them: binding the
// pods in that order keeps every topology constraint at each step.
// Replacements are named "consolidation-<k>", k counting on over the
// plan's commands and skipping node names (disruption.ReplacementName).
type Command struct {
	Reason       disruption.Reason
	Method       Method
	Candidates   []string
	Replacements []packing.NodeClaim
	Savings      instancetypes.Price
	Homes        []disruption.Home
	// Unpriced counts the Candidates of unknown price
	// (packing.Node.PriceUnknown), which Savings leaves out: it is then
	// what the other candidates save, a lower bound. Only an emptiness
	// command deletes such nodes; the zero value says every candidate's
	// price is known.
	Unpriced int
}

// Decision is "delete" when a command launches nothing, else "replace".
func (c Command) Decision() string {
	if len(c.Replacements) == 0 {
		return "delete"
	}
	return "replace"
}

// String summarises the command in one line, as "Empty delete [a] (+0)
// saves 0.200000/h", with " and 1 of unknown price" when Unpriced is 1. A Command does not know its currency, so the savings
// are the exact amount without one (instancetypes.Price.String); to show a
// person, write cmd.Savings with the catalog's currency
// (instancetypes.Price.Format).
func (c Command) String() string {
	s := fmt.Sprintf("%s %s %v (+%d) saves %s", c.Reason, c.Decision(), c.Candidates, len(c.Replacements), c.Savings)
	if c.Unpriced > 0 {
		s += fmt.Sprintf(" and %d of unknown price", c.Unpriced)
	}
	return s
}

// Why classifies why a node is kept.
type Why uint8

const (
	// NotManaged: no NodePool of the cluster owns the node.
	NotManaged Why = iota
	// NotInitialized: the node is still in flight.
	NotInitialized
	// Deleting: the node is already marked for deletion.
	Deleting
	// Nominated: pending pods were nominated to the node.
	Nominated
	// NodeDoNotDisrupt: the node has karpenter.sh/do-not-disrupt.
	NodeDoNotDisrupt
	// PodDoNotDisrupt: a pod on the node has an active do-not-disrupt.
	PodDoNotDisrupt
	// PDBBlocked: a PodDisruptionBudget blocks a pod's eviction.
	PDBBlocked
	// Disabled: the NodePool has consolidation disabled.
	Disabled
	// ConsolidateAfter: a pod event is more recent than consolidateAfter.
	ConsolidateAfter
	// PolicyWhenEmpty: the pool consolidates only empty nodes.
	PolicyWhenEmpty
	// Budget: the pool's disruption budget is spent.
	Budget
	// PodsDoNotFit: a pod would find no home; Message names it.
	PodsDoNotFit
	// NoCheaperReplacement: replacing needs more than one node, or no
	// cheaper one exists.
	NoCheaperReplacement
	// SpotToSpot: the move would replace spot by spot, which is disabled or
	// has too few cheaper types.
	SpotToSpot
	// ScoreTooLow: the savings are not worth the disruption.
	ScoreTooLow
	// Changed: an earlier command moved pods onto the node. Plan no longer
	// gives it: such a node is a candidate again on the next pass, as in
	// Karpenter (kept only while its consolidateAfter runs, Why
	// ConsolidateAfter). The value stays so that the later ones keep theirs.
	Changed
	// Capped: Options.MaxSingle single-node commands were planned before
	// the node was tried.
	Capped
	// PriceUnknown: the node's price is unknown (packing.Node.PriceUnknown),
	// so no move can be shown to save money; as Karpenter, which
	// consolidates no node whose instance type it cannot find, only
	// emptiness deletes it.
	PriceUnknown
	// BufferHeadroom: the node is empty but the provisioning pass holds
	// CapacityBuffer pods on it (packing.Pod.Buffer), so emptiness leaves
	// it alone, as Karpenter's, and its NodePool consolidates only empty
	// nodes.
	BufferHeadroom
)

var whyNames = [...]string{"NotManaged", "NotInitialized", "Deleting", "Nominated", "NodeDoNotDisrupt",
	"PodDoNotDisrupt", "PDBBlocked", "Disabled", "ConsolidateAfter", "PolicyWhenEmpty", "Budget",
	"PodsDoNotFit", "NoCheaperReplacement", "SpotToSpot", "ScoreTooLow", "Changed", "Capped",
	"PriceUnknown", "BufferHeadroom"}

// String returns the name of w.
func (w Why) String() string { return enum.String(w, "Why", whyNames[:]) }

// Explanation says why a node is kept: the class and a sentence.
type Explanation struct {
	Node    string
	Why     Why
	Message string
}
