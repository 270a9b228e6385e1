// Package packing is nodeplan's provisioning solver: given pending pods,
// NodePools, an instance catalog, the existing nodes and the daemonsets,
// [Solve] decides which pods go on existing nodes, which new NodeClaims to
// launch (with their instance-type candidates, cheapest first, and the
// chosen offering), and which pods cannot be placed and why.
//
// The semantics are Karpenter's provisioning scheduler: first-fit
// decreasing over pods ordered by CPU then memory; existing nodes first
// (initialized ones first, then by name), then claims opened in this solve,
// then a new claim from the first NodePool in weight order (ties by name,
// descending, as Karpenter); a claim's requirements and instance types
// narrow as pods join; taints and tolerations (PreferNoSchedule hard until
// relaxed), host ports, max pods, daemonset overhead per instance type,
// NodePool limits and minValues; topology spread, pod affinity and
// anti-affinity including the inverse anti-affinity of running pods;
// preferences relaxed in Karpenter's order; failed pods retried while a pass
// makes progress.
//
// Preferences (preferred node and pod (anti-)affinity, ScheduleAnyway
// spreads) follow Options.Preferences: RespectPreferences, the default,
// and IgnorePreferences are Karpenter's two policies. BudgetPreferences
// is nodeplan's own, because Respect can cost far more than the pods need
// (a preferred hostname anti-affinity takes a node per pod: 1.5 times the
// price of ignoring it on Karpenter's preference benchmark) and Ignore
// gives up preferences that cost nothing. It groups the pending pods'
// terms per namespace, owner and term; solves ignoring them all (price
// C0) and respecting them all; and while the plan costs more than
// (1 + Options.PreferenceBudget) × C0 or leaves more pods out than the
// ignoring plan, measures what relaxing each honoured term saves (one
// solve each) and relaxes the dearest, up front for every pod that has
// it; then it honours again, last relaxed first, each relaxed term with
// which the plan still fits. Every solve is a full Solve with the same
// options, so the result is deterministic; at most 64 solves decide (past
// that, the terms are relaxed dearest first without measuring, and at the
// cap all are, which is the ignoring plan) and at most 64 more measure
// Plan.Preferences: per term, whether the plan honours it and what
// honouring it adds to the price, the other terms as decided (the
// restoring pass uses the decision's solves while any are left, and its
// plans serve the report). An honoured term is honoured as
// Respect honours it: a pod that fits nowhere still relaxes it. The
// search is greedy: terms that cost only together (two deployments each
// forcing a node per pod) each measure near zero while both are
// honoured, so it may relax more terms than the fewest that would do
// (the pass that honours terms again recovers some); it always ends
// within the budget.
//
// Buffer pods (Pod.Buffer: a CapacityBuffer's virtual pods, package
// buffer) are pending pods to the solve, so provisioning keeps their room,
// but, as Karpenter drops its virtual pods from the scheduling results,
// the Plan reports them only in Plan.Headroom: held on an existing node,
// on a NodeClaim (opened for them or shared with real pods, and paid for in
// Plan.Price), or unschedulable with a reason. Bindings, NodeClaims' Pods,
// Order and Unschedulable hold real pods only, each exactly once.
// Plan.HeadroomOnNodes counts them per node, Karpenter's bufferPodCounts.
//
// Where nodeplan differs on purpose:
//   - Strategy Best (the default) also runs a cost-aware placement rule and
//     returns whichever plan is cheaper, so it never costs more than the
//     Karpenter-like rule on the same input.
//   - The cost-aware rule takes pods by the sum of their shares of all cpu
//     and all memory requested, larger first; Plain keeps Karpenter's
//     cpu-then-memory order. Sorting by cpu alone leaves memory-heavy pods
//     for last, where nothing is left to pair them with.
//   - Best searches where Karpenter draws: Karpenter breaks ties between
//     equally good zones in Go map order, so the same pods give plans that
//     differ by up to a fifth in price from one run to the next. Best
//     reruns both rules with the other rule's pod order, then with seeded
//     random tie-breaks (zones, pods of equal size, claims with as many
//     pods) and, in half of those, a random blend of cpu and memory as the
//     size order, and keeps the best plan: the same input still gives the
//     same plan. Options.Restarts sets how many; by default at most about
//     1,024 extra pod placements a rule, and past 1,024 pods the other
//     rule's pod order alone. A small problem (at most 64 pods, nodes and
//     their pods) whose best pass places every pod also gets up to 32
//     passes a rule with its pods in a seeded random order (ties broken
//     as a restart's), kept when they place every pod for less: a pod whose zone spread counts pods placed
//     before it may find only a dearer zone, and Karpenter, whose order
//     puts tiny pods last too, sometimes gets lucky there.
//   - After every pass Best merges pairs of claims of one NodePool that a
//     single node holds for no more than the two cost: cheaper, or as cheap
//     with a node fewer. Karpenter fills one claim as far as it goes, so it
//     needs no merging; the cost-aware rule, which places pods one at a
//     time on the cheapest step, does. Claims whose pods look at hostnames
//     (hostname spread or anti-affinity, or counted by one), that are pinned
//     to different topology domains, share a host port, or belong to a pool
//     with reserved offerings or limits that could bind stay apart.
//   - After merging, a cost-aware pass refills: a claim whose pods all fit
//     the room other claims have left on their current types goes, and its
//     pods join those claims (refill.go). Only pods free of topology and
//     hostname rules, host ports and volumes move (buffer pods as any
//     other, so that marking pods as buffers changes no placement), into
//     claims that already admit their requirements, so no count or rule
//     any other placement relied on changes. Merged nodes keep room that no pod
//     placed later revisits: on Karpenter's basic scale-out (AWS catalog,
//     5,000 pods) refill takes the plan from $672.33/h to $633.84/h.
//   - A claim's zone (and any topology key) is fixed as soon as a pod that
//     is counted by a topology constraint joins it, so that every count the
//     solver relies on is the one the launched node will have; Karpenter
//     leaves it open and records every possible zone.
//   - A claim's topology domain is chosen among those where one of its
//     remaining types holds the pod (with the claim's other pods, within
//     the pool's limits) and can launch; Karpenter takes any domain at
//     the least count and fails the pod when no type there fits it.
//   - NodePool limits are charged with the chosen type's capacity, not the
//     largest candidate's; candidates that would break the limit are left
//     out of the claim's fallbacks.
//   - When a NodePool limit binds (a pass leaves a pod unschedulable that
//     a pool would take but for its limits), not every pod can be placed,
//     and the two differ in which ones are. Karpenter takes the pods in
//     its order (largest cpu, then memory, first), each to the weightiest
//     pool that takes it (K/controllers/provisioning/scheduling/
//     scheduler.go:582-612, 695-789): a pod whose claim would break the
//     limit stays pending, and later, smaller pods may still be placed. So
//     a weighty limited pool spends its capacity on pods a lighter pool
//     could hold, and a pod only it admits (a category or capacity type
//     only it offers, a selector on its label) stays pending.
//     [Options].LimitPolicy chooses. [LimitLargestFirst] is Karpenter's
//     rule, and Plain with it is Karpenter's scheduler. [LimitMostPods],
//     the default, gives a bound pool's capacity first to the pods that
//     need it: a pass whose limit binds is run again with the pods that
//     only bound pools admit (in any relaxation) first, in the pass's
//     order and then smallest first, the others after, spilling to the
//     other pools as the limit leaves them no room; and, when a bound
//     pool reaches a zone no other pool does (on-demand beside a spot
//     pool whose types are offered in fewer zones), once more with that
//     pool's claims for pods others admit kept to those zones, so that
//     zone-spread pods are not held to the count of a zone the limit has
//     starved. A pool whose limits are full (no room for a new node for
//     some pod placed in another pool), even with every pod placed, gets
//     one rerun per zone with its nodes kept to that zone, so that its
//     capacity goes where the other pools are dearer or absent (one
//     on-demand node in the zone spot does not reach, spot in the
//     others, as Karpenter's luckier runs do). When limits bind or fill,
//     one more rerun puts first, smallest first, the pods that each need
//     a node of their own (a required hostname anti-affinity counting
//     the pod itself): wherever they go they pay for a whole node, so a
//     limited pool's small nodes save most on them, where pods that
//     share nodes lose little in another pool. The run placing more
//     pods, then the cheaper, is kept. Where no limit binds or fills
//     nothing runs again and the plans are the same. The default departs from
//     Karpenter because a pod left pending is a workload down (it places
//     no fewer pods than LimitLargestFirst and usually more, though its
//     reruns are a heuristic, not a proof that no order places more), and Best already prefers the plan that
//     places more pods to a cheaper one. Best also compares its passes
//     by the number of pods placed first and only then by price, under
//     either policy, so it may leave a large pod pending to place several
//     smaller ones: it places at least as many pods as Plain, but not
//     necessarily the pods Karpenter would, and with as many pods placed
//     its plan may cost more than one that places fewer.
//   - A self-affine pod (required pod affinity that selects itself) starts
//     a new group only when no matching pod runs anywhere, as kube-scheduler
//     decides; Karpenter also bootstraps it when the matching pods are in
//     domains it cannot reach, launching a node the pod never binds to.
//   - A required node-affinity term that contradicts itself or the
//     nodeSelector matches no node (Karpenter's algebra turns "In [b]" and
//     "DoesNotExist" into DoesNotExist, which an unlabelled node satisfies).
//   - A NodePool whose requirements exclude a label its own nodes carry
//     (karpenter.sh/nodepool In other names, NotIn its name or
//     DoesNotExist, or a requirement against one of its labels) launches
//     nothing: its pods go to another pool or are unschedulable with a
//     reason naming the conflict, and its domains count for no spread.
//   - A NodePool with [NodePool].Unavailable set (Karpenter provisions
//     from no NodePool that is not Ready or is static) launches nothing
//     and its domains count for no spread; a pod it would take and no
//     other pool does is unschedulable with kind [Unavailable] naming the
//     pool and why. Its existing nodes take pods as any node does.
//   - Capacity reservations are held by claims during the solve, so no
//     reservation is promised to more claims than it has units.
//   - The cost-aware strategy prefers many right-sized nodes to a few large
//     ones whenever that is cheaper; merging then joins those that a larger
//     type of the same price holds. On the AWS catalog Best can still use
//     more nodes than Karpenter, at a lower price (see
//     benchmarks/RESULTS.md). Per-node costs the catalog does not price can
//     be given as Options.NodeOverhead.
//
// Daemonset overhead is counted per instance type, as Karpenter's
// daemon-overhead groups count it: a daemonset runs on type T of NodePool
// P when it tolerates P's taints (PreferNoSchedule aside), one of its
// required node-affinity alternatives (nodeSelector included) is
// compatible with P's requirements and labels (a key P leaves undefined
// is allowed when it is well known or one of T's labels), and T's
// requirements intersect that alternative. Its requests, with its pod
// slot, count on T whatever they ask for: a claim's pods plus T's
// overhead must fit T, so a type its daemonsets alone overfill (a
// daemonset that tolerates everything and requests a GPU, on a type
// without GPUs) is never a candidate, and its values (zones, say) are no
// topology domains of P (Karpenter counts every type of the pool, so a
// spread would wait forever on a zone no node of P can launch in).
// verify.Plan checks the same rule on every candidate type and domain;
// NodeClaim.Requests carries the chosen type's overhead. On an existing
// node, the pods bound there count with their requests, and Solve keeps
// room for each daemonset that runs there (its tolerations and node
// affinity against the node's taints and labels) but owns no pod on it
// yet; which daemonset a bound pod belongs to is one rule,
// [DaemonSet.Owns]: same namespace, Owner "DaemonSet/<name>".
//
// Pods bound to a node stay there in Solve, whatever they are: a
// terminating pod ([Pod.Terminating]) still takes its room, as
// kube-scheduler counts it until it is gone. Which bound pods move when
// their node is disrupted is [Pod.Reschedulable] (Karpenter's
// IsReschedulable): not daemonset pods, not mirror pods ([Pod.IsMirror]),
// not terminating pods except a StatefulSet's; consolidation and drift
// move those and no others.
//
// The domains of a topology key, over which a spread's skew, its least
// loaded eligible domain and minDomains are counted, are the values
// existing nodes carry and, for every NodePool that launches (neither
// Unavailable nor excluding its own labels), the values its requirements
// and labels state with In, and those its instance types state with In
// that it allows (a zone only where the type has a usable offering; none
// of a type its daemonsets overfill), as Karpenter builds its topology
// domain groups. So a custom key set as a NodePool label (example.com/rack:
// rack-a) has that pool's value as a domain, empty until one of its
// claims holds a pod, and a pool label can meet minDomains. A pod counted
// by a spread it does not state itself counts in whatever domain it lands
// in. Solve and verify.Plan count domains by this one rule.
//
// A new node's hostname is unknown until it launches, and every node has
// one: as Karpenter gives a new NodeClaim the requirement
// kubernetes.io/hostname In [a placeholder], a pod whose nodeSelector or
// required node affinity asks for a hostname value (In), its absence
// (DoesNotExist) or a bound goes only to an existing node that matches;
// Exists and NotIn admit a new node. verify.Plan matches a claim's pods
// against a hostname no selector can name.
//
// A node's labels are read under their stable keys (requirements.Normalize):
// a deprecated beta label, such as failure-domain.beta.kubernetes.io/zone,
// counts as its stable key (topology.kubernetes.io/zone) unless the node
// also has the stable label, which then wins; the Node's fields (Name,
// Zone, InstanceType, NodePool, CapacityType) stand for their well-known
// labels only where the node has no label for them under either key, so a
// label wins over a field that disagrees with it. Topology keys are
// normalised the same way, so a term on the beta zone key counts zones.
// A NodePool's labels, which its nodes carry, and a NodeClaim's are read
// the same way. Solve and verify.Plan read labels by this one rule
// ([Node.EffectiveLabels], [NodePool.EffectiveLabels]).
//
// A pod's volumes' requirements ([Volumes.Requirements] of [Pod.Volumes])
// bound where it goes as its required node affinity does: its
// alternatives are its own each ANDed with each of its volumes', in that
// order, pairs that contradict each other left out. Unlike its own affinity they do not
// narrow the domains its topology spread counts under nodeAffinityPolicy
// Honor, as Karpenter adds volume requirements to the NodeClaim only
// (topology_test.go:3060); verify.Plan counts the same way.
//
// CSI attach limits are Karpenter's (scheduling/volumeusage.go): a
// pending pod joins an existing or in-flight node only while, for every
// driver the node limits ([Node.VolumeLimits]), the distinct claims of
// its pods and the pod's own ([Volumes.Claims]; a claim mounted by several
// pods counts once, a volume without a driver not at all) stay within the
// limit; a node already over a limit takes no pending pod, as Karpenter
// checks the union of every driver. New NodeClaims have no limit: the
// node's CSINode, and with it the count, exists only once it runs. When
// the attach limit is what keeps a pod off an existing node and no new
// node can take it, its reason is [AttachLimit]. A pending pod with an
// invalid claim ([Volume].Invalid: Karpenter's ValidatePersistentVolumeClaims
// rejects it) is placed nowhere, with kind [InvalidVolume]; a Displaced pod's
// claims are not checked, as Karpenter validates those of pending pods
// only (controllers/disruption/helpers.go:72-98). The check is
// one nil test per node for a node without limits and one length test for
// a pod without volumes, and allocates nothing. Consolidation and drift
// keep the limits, as their simulations are Solve and their checks
// verify.Moves. See ExampleVolume.
//
// For consolidation simulations, a Node marked Settling (inside its
// NodePool's consolidateAfter) takes no pod marked Displaced, as Karpenter's
// scheduler rules when it simulates consolidation.
//
// Cost model: compilation is O(pods × counters + pools × types); placement
// is a search of the existing nodes through a segment tree of their free
// CPU and memory, then a scan of the open claims in order (Plain, as
// Karpenter) or a range scan by free CPU capped at a fixed number of
// visits (CostAware), over blocks of claims that each know the most memory
// any of them has left, so that claims short of memory are passed over a
// block at a time. Choosing a new claim's topology domain costs
// O(types + domains) (one pass over each, bitsets per domain), so a key
// with many values, such as the instance type, costs about what a zone
// does. Instance-type compatibility is computed once
// per distinct requirement set, as bitsets, and shared by the passes a
// goroutine runs; offerings are tested through per-type masks of (zone,
// capacity type). Best runs its two rules on two goroutines (with one
// restart a rule, its four greedy passes as tasks on up to GOMAXPROCS
// goroutines, each with its own memo), each pass followed by a
// merge of O(rounds × claims × 8) bitset operations (and, cost-aware, a
// refill of O(claims log claims) plus at most 4,096 claim visits per pod
// it tries to move); the default restarts
// add at most about 1,024 pod placements per rule, so they cost much on
// small problems (a 100-pod solve takes several times as long), and past
// 1,024 pods the second pod order doubles each rule's passes; a rule stops
// its restarts once a pass places every pod at no charge (on the existing
// nodes, or on claims priced at 0), which no pass beats, and CostAware
// stops once Plain has such a pass, which Best then takes. Compilation
// reads the nodes on up to GOMAXPROCS goroutines; the plan is the same for
// any GOMAXPROCS. [SolveContext] checks its context every 64
// pods of a pass, before every merge round and every restart: a
// cancelled solve stops within that much work and returns no plan.
//
// A pod placed nowhere gets a [Reason] for the NodePool it came closest in;
// when the pod or a NodePool asks for what no instance type of the catalog
// has at all (an OS, an architecture, another well-known label's value, an
// extended resource), the reason says so: "the catalog has no windows
// instance types", "no instance type in the catalog has nvidia.com/gpu".
//
// Package packing/verify is the independent checker of a Plan against its
// Problem; it imports only this package's exported API.
//
// Every input gets a plan or a named error, never a panic: [Problem.Validate]
// checks every string that becomes a label or a requirement as Kubernetes
// does (requirements.ValidateKey and ValidateValue) and rejects a NodePool
// that sets or requires kubernetes.io/hostname, as Karpenter does (a new
// node's hostname is its own: a claim's is its [NodeClaim].Name, never an
// existing node's), and [Options.Validate] every option; a failure of the solver itself (a bug) is recovered on
// whichever goroutine it happens and returned as an error wrapping
// [ErrInternal], after every goroutine of the solve has stopped.
//
// Validation is O(size of the problem) and runs on every Solve. nodeplan's
// consolidation and drift packages, which validate a cluster once and then
// solve one simulation of it per move, call [SolveVouched] instead: the
// nodes they vouch for (through a type internal to the module, so no
// other program can) are the validated ones, which a simulation changes
// only by moving pods between them and flipping their flags, and are not
// checked again; everything else (pending and displaced pods, in-flight
// replacements and their pods, NodePools, daemonsets, catalogs, duplicate
// names) is checked as Solve checks it. On a 2,000-node, 20,000-pod
// cluster that removes about a fifth of a consolidation plan's
// allocations.
//
// Bounds: Validate keeps every number where the solver's arithmetic is
// exact. One object's resource value is at most resources.MaxAmount (2^50:
// 1 PiB, 1.1 billion cores), a NodePool limit at most [MaxLimit] (2^60), a
// node's price (like an offering's) at most instancetypes.MaxValidPrice (a
// million currency units an hour, about 2^50 nano-units). No real cluster comes near
// them, and the solver combines only a few such values at a time (a pod's
// requests against a node's room, a type's capacity against a limit, the
// difference of two prices), far below 2^63. Sums over a number of objects
// no validation bounds saturate instead of wrapping: resource lists
// (resources.List), a pool's committed capacity (held just above MaxLimit,
// so that a pool over its limit stays over it), a plan's price and the
// price totals of consolidation (at instancetypes.MaxPrice, which 9,223
// claims at the price bound do not reach).
//
// Solve is pure: no clock, no randomness, no I/O; inputs are never
// modified, and the output is byte-for-byte deterministic. See ExampleSolve.
package packing
