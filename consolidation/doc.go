// Package consolidation decides which nodes of a cluster can be deleted,
// or replaced by cheaper ones, with every displaced pod still having a
// home: the consolidation half of Karpenter's disruption controller, as a
// pure function. [Plan] takes a [Cluster] snapshot and returns
// [Command]s — each with its reason, its candidate nodes, its replacement
// NodeClaims, the savings per hour and where every displaced pod lands —
// and, for every node left alone, an [Explanation].
//
// The semantics are Karpenter v1.14's:
//
//   - Candidates are managed, initialized nodes that are not being deleted
//     or nominated, carry no do-not-disrupt annotation, run no pod with an
//     active do-not-disrupt, no pod that a PodDisruptionBudget blocks, and
//     whose NodePool has consolidation enabled and whose consolidateAfter
//     has passed since the last pod event.
//   - Methods run in Karpenter's order: emptiness (every empty candidate
//     within the Empty budget, in one command); multi-node consolidation
//     (binary search over prefixes of up to 100 candidates ordered by
//     savings ratio — price ÷ disruption — for the largest that can be
//     deleted or replaced by one cheaper NodeClaim); single-node
//     consolidation (delete, or replace with one NodeClaim whose worst
//     launch price is strictly lower; spot-to-spot only when enabled and
//     with at least 15 cheaper types, truncated to 15).
//   - Every move is simulated with [packing.Solve] on the cluster without
//     the candidates: the other nodes keep their pods, the candidates' pods
//     and those of deleting nodes join the pending pods, and all of them
//     must be placed, none on a node that is not initialized. A candidate's
//     pods do not go to an initialized node inside its consolidateAfter
//     window (packing.Node.Settling; pending pods and those of deleting
//     nodes may), and a node that takes displaced pods has a pod event at
//     Now for the passes after.
//   - Delete or replace is decided as Karpenter's computeConsolidation
//     (K/controllers/disruption/consolidation.go:159-259): no new NodeClaim
//     for the displaced pods means delete; exactly one, replace, if an
//     instance type cheaper than the candidates together remains (for
//     multi-node also cheaper than any candidate of that type,
//     filterOutSameInstanceType); more than one, no command. As the
//     candidates are out of the simulation, a node of a multi-node prefix
//     is no home for the others' pods, and the binary search keeps the
//     longest valid prefix even when it launches a node and a shorter one
//     would be a pure delete. The simulation's solver minimises price and
//     may spread the displaced pods over several small new nodes where
//     Karpenter's scheduler fills one NodeClaim; so before rejecting a move
//     for needing more than one, Plan simulates it again with Karpenter's
//     packing rule (packing.Plain). Without that, nodeplan rejected longer
//     prefixes Karpenter accepts and took a shorter one that put the pods
//     on an existing node the longer prefix held — the kind of case the
//     issue saw (Karpenter launched a c6i.2xlarge for one 8Gi pod where
//     nodeplan used an existing node): Karpenter's decision was the one its
//     rules give (TestPlanDeleteOrReplace). Candidates of equal savings
//     ratio are ordered by name, where Karpenter's unstable sort leaves
//     them in any order, so the two may still choose different prefixes;
//     but where a budget ends within such a run of candidates (equal to a
//     micro-dollar an hour per unit of disruption), the dearer of them
//     are the ones kept, as in Karpenter's luckiest order (the generated
//     cluster fragmented-2107, 20 % budget: one Plan saves $19.83/h,
//     Karpenter's best wave, where by name it saved $17.94).
//     NodeClaims a simulation opens only for pending pods are the
//     provisioner's business and do not count, where Karpenter counts
//     every new NodeClaim of its simulation.
//   - Only reschedulable pods move (packing.Pod.Reschedulable, Karpenter's
//     IsReschedulable): daemonset pods, mirror pods (owner Node) and
//     terminating pods (deletionTimestamp set; a StatefulSet's excepted,
//     which move) stay on their node until it goes. They do not make a
//     node non-empty, get no placement, do not count in its disruption
//     cost, and neither their do-not-disrupt nor a PodDisruptionBudget
//     over them blocks the node (a terminating pod's do-not-disrupt never
//     blocks, see [disruption.PodBlocks]); they still take their node's
//     room in every simulation. A daemonset pod belongs to the
//     [packing.DaemonSet] that owns it ([packing.DaemonSet.Owns]), so a
//     node running it keeps no second share of room for that daemonset.
//   - Disruption budgets come from [disruption.AllowedDisruptions], the
//     same code drift uses.
//   - A node of unknown price (packing.Node.PriceUnknown: its catalog has
//     no offering of its instance type, zone and capacity type) is deleted
//     when empty, and never consolidated otherwise (kept, Why
//     PriceUnknown, the message naming what the catalog lacks). Karpenter's
//     emptiness does not look at the instance type either, and its
//     consolidation skips a node whose instance type it cannot find or
//     that has no zone or capacity-type label ("Instance Type not found");
//     a node whose type it finds but not the offering of its zone and
//     capacity type it prices at 0 and may consolidate, which nodeplan
//     does not: no move can be shown to save money on an unknown price. A
//     command's Savings leaves such nodes out; Command.Unpriced counts
//     them.
//   - CapacityBuffer pods (packing.Pod.Buffer, package buffer) among the
//     pending pods are Karpenter's virtual pods: every simulation places
//     them with the other pending pods, so they take room on the remaining
//     nodes and a replacement that takes some is sized for them
//     (K/controllers/disruption/helpers.go:73). Plan first runs the
//     provisioning pass once (the cluster as given) and records the nodes
//     it holds buffer pods on, Karpenter's bufferPodCounts; emptiness
//     leaves such a node alone (K/controllers/disruption/emptiness.go:51-57)
//     and multi- and single-node consolidation try it like a non-empty
//     node (kept Why BufferHeadroom in a WhenEmpty pool). A NodeClaim a
//     simulation opens for buffer pods that pass held on a node is a
//     replacement the move needs, as Karpenter counts every NodeClaim of
//     its simulation; buffer pods that already needed new capacity before
//     the move, like other pending pods, are the provisioner's business
//     (nodeplan's rule for pending pods, where Karpenter counts their
//     claims too). The pass is not rerun after each command, as
//     Karpenter's counts change only with its next provisioning pass.
//
// Where Karpenter returns one command per reconcile, Plan returns the
// sequence of commands Karpenter would issue on successive passes if the
// cluster did as told: each pass tries emptiness, multi-node, then
// single-node, and the first command found is applied to the state
// (candidates marked for deletion, pods moved, replacements in flight)
// before the next pass, so budgets and placements stay consistent; the
// state is a disruption.WhatIf, the what-if drift simulates on too, and
// [VerifyCommands] runs on disruption.Verifier, drift's checker core.
// As in Karpenter, whose controller requeues at once after a command and
// evaluates every method anew (K/controllers/disruption/controller.go:176-178),
// every pass re-evaluates every node: a node that took displaced pods is a
// candidate again as soon as its NodePool's consolidateAfter has passed
// since that pod event — at once with consolidateAfter 0, which is how
// chains of commands arise (the Consolidatable condition,
// K/controllers/nodeclaim/disruption/consolidation.go:65-80); with a
// longer consolidateAfter it is kept, Why ConsolidateAfter, and takes no
// more displaced pods. Plan ends only when a full pass finds nothing, so
// running it again on the cluster its commands leave finds nothing more
// (a tested property). Every command saves (Savings > 0) or only deletes
// nodes, and replacements, in flight, are no candidates, so no node is
// replaced back and the plan has at most as many commands as nodes. Two
// shortcuts keep this cheap. Once multi-node finds nothing, it is tried
// again only after an emptiness or multi-node command and once more before
// the plan ends, not after every single-node one (which only takes room
// away): the end is still a fixpoint, but a multi-node command Karpenter
// would issue between two single-node ones may come after them. And
// single-node consolidation does not simulate a candidate again whose
// simulation failed until the candidate takes pods, a command places pods
// of nodes that were already deleting, or (for ScoreTooLow) its pool's
// totals change: nothing else gives its pods room (the packer is a
// heuristic, so this is a premise, which the fixpoint property checks on
// generated clusters).
// With Options.Repack a further m→n search (see [Options]) follows; each
// command it finds is followed by Karpenter's loop again.
//
// Where nodeplan does better than Karpenter, soundly (every command is
// simulated and checked by the same rules, and [VerifyCommands] accepts
// it):
//
//   - With Options.Repack, after Karpenter's loop has reached its
//     fixpoint, an m→n search: any number of replacements (Karpenter
//     launches at most one and never splits a node into smaller ones),
//     every prefix of the candidates rather than a binary search (whether
//     a prefix can go is not monotone in its length, so the binary search
//     skips valid ones), then the best set grown by later candidates
//     (so a candidate that blocks a prefix is stepped over). Its
//     simulations send displaced pods past the nodes in flight (the
//     replacements of the plan's earlier commands), where Karpenter's
//     methods fail a move whose pods would land on one: the room an
//     earlier replacement has left is no home until it is initialized, so
//     the repack looks for other homes instead. Each command
//     it finds is followed by Karpenter's loop again, whose chains then
//     go on from it. As the search starts from the loop's fixpoint and
//     every command saves, a plan with Repack saves at least as much as
//     one without (a tested property).
//   - The simulation's solver places the displaced pods between the
//     remaining nodes and the new one to minimise price (packing.Best,
//     the better of Karpenter's first-fit rule and a cost-aware one), so
//     where both find one new node, nodeplan's may be the smaller; only
//     when it needs more than one does Plan fall back to Karpenter's rule
//     alone (above).
//   - Ties are broken by name, so the same snapshot gives the same plan.
//
// An [Explanation] that names a price writes it in the currency of the
// candidate's catalog ("cheaper than 1.013000 CNY/hour", through
// instancetypes.Price.Format); [Command.String] and the checker's
// violations, which know no catalog or need exact amounts, write the exact
// amount without a currency ("saves 0.200000/h").
//
// Cost model: one packing.Solve per simulated move. Emptiness is O(nodes);
// each multi-node pass makes O(log 100) solves; single-node one per
// candidate, and one more after each event that may change its outcome
// (above), stopping at Options.MaxSingle; the repack at most
// Options.MaxIterations per command it finds. A node that took pods is
// checked first against a bound on the room it could move into (the free
// room of the nodes that may take pods plus the largest instance type
// cheaper than it, summed per resource; the repack's sets likewise, with
// new nodes at the cheapest price per unit), which rules out without a
// solve what the solve would rule out; the packer fills the nodes it
// moves pods onto, so most of them fail it. Plan validates the cluster once up front
// (packing.Problem.Validate: every node, pod and label string, O(cluster
// size)); a simulation's Solve does not check the input nodes and their
// pods again, which a simulation only moves, nor, when no two of the
// cluster's pods share a namespace and name, the pending and displaced
// pods (else it checks them, and a move that makes a duplicate pending
// fails on it), but checks what it adds: the replacements in flight from
// earlier commands with their pods, the NodePools and the uniqueness of
// node names (packing.SolveVouched), O(nodes). Candidates are found
// once per state of the cluster (each applied command is a new state),
// and the simulations of one state share one copy of its nodes. With more
// than one core (GOMAXPROCS), each search simulates the move it likely
// tries next while it simulates the current one (multi-node: the prefix
// after a success; single-node: the next candidate; the repack: the next
// prefix, and the next candidate added to the same set), and cancels it
// when the search turns the other way (speculate.go): the commands are
// the same as one move at a time, and on two cores the multi-node search
// of the 2,000-node benchmark takes about a fifth less time, the repack
// about a tenth. On
// BenchmarkConsolidate's 2,000-node, 20,000-pod fragmented cluster the
// Plan takes 0.27 million allocations and 104 MiB, 0.80 million and 330
// MiB with Options.Repack, the simulations' solves reusing the arrays
// they compile into (timings in benchmarks/RESULTS.md).
// Plan is pure and deterministic and does not modify its input; it is safe
// for concurrent use.
package consolidation
