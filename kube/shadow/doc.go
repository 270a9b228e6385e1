// Package shadow runs nodeplan beside a live Karpenter: for every batch
// of NodeClaims Karpenter creates for pending pods, and for every
// disruption (nodes marked, deleted, replaced), it says what nodeplan
// would have done on the snapshot of that moment, and what both cost an
// hour.
//
// The package has two parts. The [Accountant] is pure: it takes the
// NodeClaim and Node changes ([Change]) with the times the caller
// observed them, asks a [Decider] (nodeplan's [Planner]) for nodeplan's
// answer, and returns [Event] values and their [Totals]; the same calls
// give the same events. [Watch] feeds it from client-go informers on a
// live cluster, with get, list and watch only: it never writes.
// [ExampleAccountant] shows the accountant alone.
//
// Karpenter's NodeClaims are priced at the offering Karpenter resolved
// (the node.kubernetes.io/instance-type, topology.kubernetes.io/zone and
// karpenter.sh/capacity-type labels it sets when it launches); a claim
// whose labels do not come within Options.ResolveTimeout, or whose
// offering the catalog lacks, is reported unpriced, never at 0, and the
// event's difference is then unknown. The embedded catalogs
// (instancetypes.AWS, Azure) have no reserved offerings, so a reserved
// NodeClaim is always unpriced, and price spot at the modelled discount,
// not at what Karpenter paid.
package shadow
