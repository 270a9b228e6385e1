// Package bound computes a certified lower bound on the hourly price of
// the nodes a provisioning plan launches: no plan that places the same
// pods can cost less. With a plan's price it gives the plan's gap
// ([Bound.Gap]): "$X/h, within Y % of the best possible ($Z/h lower
// bound)".
//
// # The configuration LP
//
// [Of] groups the pending pods into classes ([packing.GroupClasses]: the
// solver's own compiled pools, compatible types, offerings and daemonset
// overhead) and solves the configuration LP of Gilmore and Gomory: a
// column is a node configuration, a NodePool, one of its instance types
// at one offering (zone and capacity type, at that offering's price) and
// how many pods of each class that node holds within its allocatable less
// the daemonsets' overhead, in every resource and in max pods;
//
//	minimise Σ price·x  subject to  Σ_columns pods of class k · x ≥ n_k for every class k, x ≥ 0.
//
// Sound side constraints are in the LP: a hostname anti-affinity group
// (pods whose required anti-affinity term on kubernetes.io/hostname
// selects themselves) has at most one pod per node; a class joins only
// the offerings its node affinity and volumes admit (zone-restricted
// pods pay their zone's price); a NodePool's limits are rows of their own
// (Σ capacity·x ≤ the limit less what its existing nodes count, as
// Solve charges them, and the "nodes" limit); an existing node is a free
// column used at most once, holding what its free room and its labels
// and taints admit.
//
// # Relaxed
//
// Everything else a plan must satisfy is dropped, which can only lower
// the bound: topology spread (its skew), pod affinity, anti-affinity other
// than the hostname kind or not selecting the pod itself (and all but the
// first group of a pod), preferences (Solve's plans honour them, at a
// cost the bound does not see), host ports, volume attach limits,
// minValues, reserved offerings' units, the PreferNoSchedule taints (a pod
// may tolerate them), a node's topology constraints and, on existing
// nodes, settling. Pods are also merged: when they form more than
// [Options.MaxClasses] classes (Karpenter's diverse benchmark has ≈1,900
// request shapes in 5,000 pods) their cpu, memory and ephemeral-storage
// requests are rounded down to a coarser grid (fewer significant bits)
// until the classes are few enough; a smaller pod never costs more, so
// the bound holds. Pods no room admits or holds ([Bound.Unplaceable]) are
// left out: a type beyond its pool's limits (compared in integers, as
// Solve charges them) holds none, and a class only existing nodes hold
// keeps at most as many pods as they hold. [Of] assumes every other pod is placed; when binding limits
// leave pods unschedulable in any plan, compare a plan with [ForPlan],
// which bounds the pods that plan placed.
//
// # Solving and certifying
//
// Column generation solves the LP's dual as the primal, max Σ n_k·y_k −
// Lᵀz − Σ w_n over the cuts found so far, one cut per column (pattern),
// seeded per class with its cheapest single-class column: a dense
// tableau simplex of this package, which keeps its basis when a round
// adds cuts and restores feasibility by a few dual-simplex pivots.
// Pricing a column (the most its node's pods are worth at y) is a vector
// knapsack over the classes. Its LP relaxation bounds it from above:
// a bounded-variable simplex, a row per resource and per anti-affinity
// group, gives the relaxation's duals, and the Lagrangian bound is
// evaluated at them, so that a float slip only weakens it (should the
// simplex not finish, coordinate descent finds the multipliers). The
// knapsack itself is solved exactly by branch and bound while a
// deterministic node budget lasts, each node bounded by those
// multipliers (over the pods that still fit, a group by its best member)
// and by the fractional knapsack of every resource alone. Where the
// search does not finish, a tighter bound than the relaxation's is taken:
// one resource kept in integers, the others charged at the multipliers,
// solved exactly by dynamic programming over that resource in units (the
// requests' greatest common divisor, doubled while the node holds more
// than a few thousand, each request rounded down, which only raises the
// bound). Where few pods fill a node it closes the relaxation's gap: on
// Karpenter's fake types, 10 Mi short of whole GiB, a 4 GiB pod's worth
// of memory is left over that no 4 GiB pod fits.
//
// The value reported is certified as benchmarks/karpenter's aggregated
// bound was: for the best dual point (y, z, w) with y, z clipped at 0, ρ
// bounds from above, over every column of every pool, type and offering
// (not only those in the LP), the ratio (pattern value at y − limit
// charge at z) ÷ price, each column by its exact search when it finished
// and otherwise by its Lagrangian bound, or the dynamic program's where
// less and where it can still raise the round's certificate, and w_n
// bounds each existing node's best pattern. (y, z, w)/max(1, ρ) is then feasible for the full
// dual, and its objective is a lower bound by weak duality, whatever the
// simplex computed; a relative 1e-9 is shaved for float rounding. The
// best certified value over the rounds is kept, so that stopping early
// (Options.MaxIterations, the search budget, or a stall) returns a
// valid, weaker bound; [Bound.Optimal] says the LP's optimum was reached.
// Two cheap certificates are also kept, and the largest reported: the
// dearest single pod's cheapest room, and per anti-affinity group the
// sum of its pods' single-pod prices (the existing nodes taking the
// dearest, one each).
//
// # The solver, and why not gonum
//
// gonum's lp.Simplex is the ecosystem's LP solver, but it returns neither
// the dual nor the basis, cannot start from a basis after cuts are added
// (each round would solve from scratch), and refactors the basis densely
// at every pivot (O(m³)); with hundreds of cuts that costs seconds. The
// in-house tableau is about 200 lines, warm-starts each round in a few
// pivots of O(rows × columns), and needs no robustness of its own: the
// certificate re-checks whatever it returns, so a numerical slip can only
// weaken the bound, never make it wrong. The tests check its optimum
// against hand-computed LPs and against gonum's lp.Simplex on random LPs
// (gonum is this package's test dependency only), and the certificate
// against every pattern by enumeration.
//
// # Cost
//
// Compiling p as Solve does, then per round O(columns × classes ×
// dimensions) for the Lagrangian bounds and at most the search budget:
// columns are the (pool, type) pairs that fit the limits times the
// distinct sets of classes their offerings admit, less dominated ones.
// 5,000 pods of Karpenter's diverse benchmark on the embedded AWS
// catalog (1,367 types) take well under a second (BenchmarkOf). Of and
// ForPlan are pure: no clock, no I/O, the inputs unmodified, the same
// output for the same input, safe for concurrent use.
package bound
