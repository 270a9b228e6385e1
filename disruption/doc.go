// Package disruption holds what every voluntary disruption of a node
// obeys and what the consolidation and drift packages share, so that it
// lives in exactly one place:
//
//   - the rules: disruption budgets per NodePool and reason
//     ([AllowedDisruptions], checked by [ValidateBudgets]), the
//     karpenter.sh/do-not-disrupt annotation on pods and nodes
//     ([PodBlocks], [NodeBlocks]), PodDisruptionBudgets ([PDBBlocks]), the
//     order in which candidates are tried ([EvictionCost], [Order]) and the
//     names of replacement NodeClaims ([ReplacementName], checked by
//     [ReplacementNameProblem]);
//   - the vocabulary of commands: a [PodRef] names a pod, a [Home] says
//     where a displaced pod goes;
//   - the what-if the planners simulate commands on ([WhatIf]: take nodes
//     out, solve for their pods, apply the command);
//   - the core of the command checkers: a [Verifier] holds the cluster as
//     the commands so far leave it and the checks every command shares,
//     and [Moves] turns a command's homes into the problem and plan that
//     verify.Moves judges.
//
// Consolidation and drift keep only their own rules: which nodes a command
// may take, which pods move, protection, budgets and cost. The planners
// and the checkers share no planning code, so a checker stays a second
// opinion: WhatIf serves only the planners, Verifier and Moves only the
// checkers; both read which pods move through [Movable] and [Staying].
//
// The semantics are Karpenter v1's: budgets count nodes or a percentage of
// the pool's nodes rounded up, are active always or within Duration after
// their cron Schedule fires (parsed by github.com/robfig/cron/v3 in UTC, as
// Karpenter does), may be limited to some reasons, and the most restrictive
// active budget wins; nodes already disrupting or not ready consume the
// allowance. Every function is pure: time is a parameter, inputs are never
// modified, and nothing here allocates more than its result. A WhatIf and
// a Verifier are the mutable state of one plan or one check, made from
// copies of their inputs.
//
// Cost model: AllowedDisruptions is O(nodes + budgets × cron parse);
// PDBBlocks is O(pods × PDBs × selector size); Order is O(n log n) over the
// nodes after one O(pods) pass; a WhatIf costs one packing.Solve per
// simulation, which checks only the nodes not vouched for, O(1) per
// node looked up or retired, and O(pods of the node) per bind; a Verifier costs one
// verify.Moves per command and O(nodes) per node looked up by name.
package disruption
