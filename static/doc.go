// Package static decides what Karpenter does with static NodePools (v1.14,
// alpha, gate StaticCapacity): pools whose spec.replicas fixes how many
// NodeClaims they keep, whatever the pending pods. [Decide] is a pure
// function of the pools, their NodeClaims and the instant; it returns one
// [Decision] per pool: how many NodeClaims to create, which to delete,
// which drifted nodes to replace, and a [Note] whenever a pool does
// nothing or less than asked.
//
// The rules are Karpenter v1.14.1's (sigs.k8s.io/karpenter/pkg):
//
//   - Counting (controllers/state/statenodepool.go): a pool's NodeClaims
//     are deleting (the NodeClaim or its node being deleted), pending
//     disruption (taken by a disruption command), or else active.
//   - Scale-up (controllers/static/provisioning/controller.go:76-124): a
//     pool that is Ready and not being deleted, with active + pending
//     disruption below replicas, creates replicas − active NodeClaims, at
//     most limits.nodes − (active + deleting + pending disruption):
//     deleting NodeClaims count against limits.nodes (ReserveNodeCount).
//   - Scale-down (controllers/static/deprovisioning/controller.go:84-313):
//     a pool not being deleted with active above replicas deletes
//     active − replicas NodeClaims, ignoring budgets and
//     PodDisruptionBudgets, in this order: NodeClaims without a
//     providerID; empty nodes (no pods, or only daemonset pods, none with
//     an active karpenter.sh/do-not-disrupt); then the other nodes, those
//     without an active do-not-disrupt pod first, each group by
//     rescheduling cost × lifetime remaining ascending
//     ([disruption.EvictionCost] × [disruption.LifetimeRemaining], the
//     cost consolidation orders candidates by). Deleting NodeClaims are no
//     candidates.
//   - StaticDrift (controllers/disruption/staticdrift.go:50-106): a
//     resolved, initialized NodeClaim with Drifted=True, not deleting nor
//     pending disruption, without do-not-disrupt on its node and (unless
//     the pool sets a terminationGracePeriod: drift is an eventual
//     disruption) without a pod blocking eviction (do-not-disrupt, a
//     PodDisruptionBudget), is a candidate. A pool whose Drifted budget
//     ([disruption.AllowedDisruptions]) is 0, or whose active + pending
//     disruption exceed replicas, replaces none; otherwise it replaces
//     min(budget, candidates, room under limits.nodes) of them, each in
//     its own [Replacement]: one new NodeClaim of the pool, then the
//     candidate deleted. At limits.nodes = NodeClaims no drift happens.
//
// New NodeClaims: Karpenter creates them from the pool's template with no
// pods and launches the cheapest offering its provider picks among the
// pool's compatible types. nodeplan prices every one at the pool's
// cheapest compatible offering ([instancetypes.Catalog.Cheapest] on the
// pool's requirements: [Decision.Launch]); a provider that weighs
// capacity (spot's price-capacity-optimized) may launch another.
//
// Where nodeplan differs from Karpenter, and why:
//
//   - Karpenter's order among unresolved NodeClaims, among empty nodes and
//     among drift candidates is its list or map order, and its sort of the
//     other nodes is not stable. nodeplan breaks every tie by NodeClaim
//     name, and takes drift candidates by [disruption.Order] (eviction
//     cost ascending, then name), so that the result is deterministic.
//   - Karpenter runs scale-up and StaticDrift in two controllers that race
//     for the same limits.nodes reservation. One decision here reserves
//     the drift replacements first and lets scale-up take the room left,
//     so that a Decision never takes a pool past limits.nodes.
//   - A NodeClaim without a providerID that is being deleted has no node
//     in Karpenter's cluster state, which then counts it active until it
//     is gone; nodeplan counts it deleting, as it is.
//   - Karpenter's scale-down lists every pod bound to a node
//     (utils/node/node.go:107-119), Succeeded and Failed ones included, so
//     a finished pod keeps a node from being empty and adds to its cost.
//     Package kube drops finished pods when it loads a node (they hold no
//     resources and will not come back), so such a node is empty here.
//     A do-not-disrupt pod blocks here as in Karpenter even while it
//     terminates (IsDoNotDisruptActive: [disruption.DoNotDisruptActive]).
//   - Karpenter's pending-disruption state lives in its memory; a host
//     that cannot see it leaves [Claim].PendingDisruption false.
//
// [Verify] is the independent checker of a Result: it counts the
// NodeClaims again and checks each [Rule] (limits.nodes, when to create,
// exact scale-down in Karpenter's order, recomputed, drift candidates and
// budget), sharing no code with Decide but disruption's rules (budget,
// do-not-disrupt, eviction cost, lifetime remaining).
//
// Static pools are not provisioned for pending pods, consolidated, or
// drifted by the drift package's rules; their nodes stay existing
// capacity for pending pods. Hosts mark them packing.NodePool.Unavailable
// and ConsolidateNever (package kube does).
//
// Cost model: Decide is O(claims log claims + pods + pools × one catalog
// lookup); it allocates the result and a sorted copy of the claims, and
// never modifies its input. See [Example] for a use.
package static
