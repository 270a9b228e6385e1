// Package guide solves a provisioning problem with the configuration LP's
// help: it runs [packing.Solve], bounds the plan with [bound.ForPlan], and
// solves the problem again with each NodePool's instance types narrowed:
// to those the LP's solution launches in that pool
// ([bound.Bound.Configurations]); to those together with the types of the
// first plan's NodeClaims; and, for k = 1 to 4, to each pool's k types
// with the most nodes in the LP's solution. The LP sees every pod of a
// class at once, where the search places them one after another and
// picks each new node's type for the pods in hand; narrowed to the LP's
// types, the same search packs the classes the way the LP found cheapest.
// No narrowing wins everywhere: the LP's restricted solution, stopped
// early, may lack a type the search uses well; and where it spreads a
// little over many types, the search may take a type the LP barely uses
// for most of its nodes (on the mixed benchmark workload, GPU nodes four
// pods to a node, where the LP fills one-GPU nodes with general pods), so
// all of them are tried.
//
// Solve also follows the LP node by node ([bound.Bound.Patterns]): each
// pattern's whole nodes become a rule of the problem, and the pods of
// each such node are held together on a node of its NodePool and type
// (labels of their own, a required pod affinity to their node and a
// required anti-affinity to the type's other nodes), placed before the
// rest. Four pinnings, each a solve: the patterns' nodes rounded down; to
// the nearest; rounded down, then the LP of the pods left ([bound.Of],
// without the pods the unguided plan left out) solved again and rounded
// the same way, twice, the last to the nearest; and to the nearest again,
// holding all the pods dealt. The others hold only the pods whose rules
// the LP respects: a pod with a topology spread or a required pod
// affinity, which the LP relaxes, takes the room the held pods leave,
// where its rules let it. Under packing.RespectPreferences (Karpenter's
// default) a pod with a preferred term is never held: Respect relaxes a
// term only where the pod fits nowhere else, and a hold would make it
// relax them. A pinning that holds the same pods on the same nodes as one
// before is not solved again. The pods of a class are dealt to the nodes
// one workload (set of labels) after another, so that one node does not
// take a deployment's replicas that spread over zones. A pinned solve
// runs Options.Packing without restarts and with the held pods first; the
// pods it leaves out that the unguided plan placed are then solved alone,
// on the room its NodeClaims leave (as nodes in flight) and on new ones,
// and added to it. Every rule added only restricts, and the result is
// checked against the problem as given, as every guided plan is. A claim
// the left-out pods join keeps only its type and is narrowed to the node
// they were placed on (zone, capacity type, labels). Nothing is pinned
// under Options.Packing.PriorityOrder, since the held pods would jump the
// priorities, nor under packing.BudgetPreferences, whose cost of each
// preferred term a completed plan would not carry.
//
// [Solve] keeps the cheapest guided plan only when it is strictly cheaper, leaves
// exactly the same pods unschedulable (so the bound of the unguided plan
// bounds it as well) and passes the independent checker ([verify.Plan])
// against the problem as given, not the narrowed one: a narrowed pool may
// offer fewer zones, and a topology spread counts the pool's zones.
// Otherwise it returns the unguided plan, and never a worse one.
//
// What the guided plan gives up: its NodeClaims in a narrowed pool list
// only the narrowed types among their candidates ([packing.NodeClaim]
// InstanceTypes, and an instance-type requirement), and a pinned plan's
// NodeClaims the LP's type alone, so a host has fewer types, as few as
// one, to fall back on when the cheapest is out of capacity. Its
// unschedulable pods carry the unguided plan's reasons, which speak of
// the NodePools as written; under packing.BudgetPreferences its
// Preferences are the narrowed solve's, what each preferred term adds
// within the narrowed pools.
//
// Cost model: up to seven solves (the unguided and six narrowed), up to
// four pinned solves (each followed, when it leaves pods out, by a solve
// of those), one bound and two LPs of the pods left (the LP: 10 ms to 1 s
// on 2 cores for 1,000–5,000 pods) and one check of each cheaper plan
// until one passes; the same input gives the same Result. The pinned
// solves are the slowest, their pods each with rules of its own: 0.1–6.4 s
// in all at 100–5,000 pods on the benchmark workloads (RESULTS.md,
// twentieth session).
package guide
