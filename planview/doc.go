// Package planview turns a provisioning plan into what a person reads: a
// [View] of rows — one per node, the unschedulable pods one by one and
// grouped by owner and reason, the totals — and writes it as a table
// ([View.WriteTable]) in the manner of kubectl: a header row, -o wide
// columns, --no-headers rows for scripts. The nodeplan command line and
// the quickstart example print plans with it, and package kube builds its
// JSON report from the same View, so the table and the JSON never
// disagree.
//
// # Contract
//
// [New] reads a packing.Problem and the packing.Plan solved from it and
// does not modify either; pod indexes of a plan that does not match its
// problem, out of range, are left out. Nodes are the new NodeClaims in plan order, then
// the existing nodes that hold pods in input order. Unschedulable pods keep
// the plan's order; groups ([Group]) gather the pods that share a namespace, an
// owner, a reason kind, a NodePool and a message (up to the pod's own name
// in it), largest group first, ties in plan order — so twelve replicas
// short of the same resource are one line, and a pod whose reason differs
// is never hidden in another's line. A pod without an owner is a group of
// its own.
//
// Every price printed carries its currency: an ISO 4217 code after the
// amount ("0.192000 USD/hour", written by instancetypes.Price.Format, the one
// formatter of prices for people), in column headers ("USD/HOUR") and in
// the totals. Amounts are hourly prices rounded half up to six
// decimals, monthly ones (instancetypes.HoursPerMonth hours) to two, with integer
// arithmetic, so the same plan prints the same bytes; instancetypes.Price
// writes both (Amount, MonthlyAmount), as it writes every price. An
// existing node of unknown price (packing.Node.PriceUnknown) is written
// "unknown" and counted apart in the totals ("plus 2 existing nodes at
// 0.384000 USD/hour and 1 of unknown price"), never as 0. [Options.Notes] are
// header lines, such as where the prices came from and how spot is
// modelled; the caller words them.
//
// # Cost model
//
// New is linear in the plan (plus sorting the groups) and allocates the
// View; writing is linear in the View. Nothing here is on a solver's hot
// path. A View is plain data, safe for concurrent reads.
//
// The package example runs a plan from packing.Solve to the table.
package planview
