// Command nodeplan answers "what would Karpenter launch for this, and what
// would it cost?" — and what it would consolidate or replace — from
// Kubernetes and Karpenter manifests or a running cluster. Its usage, as
// nodeplan help prints it (the usage constant; a test keeps this copy
// equal to it):
//
//	nodeplan provision [-f FILE|DIR... [-R]] [--catalog aws|azure|PATH] [--region R]
//	      [--zones Z,...] [--prices FILE] [--capacity-types on-demand,spot,reserved]
//	      [--spot-discount F] [-o table|wide|json|yaml] [--no-headers]
//	      [--preferences respect|ignore|within=F] [--limit-policy most-pods|largest-first] [--guided]
//	      [--then-consolidate [--now RFC3339] [--spot-to-spot]]
//	nodeplan consolidate [-f FILE|DIR... [-R]] [--now RFC3339] [--spot-to-spot] [catalog flags] [-o table|json]
//	nodeplan drift [-f FILE|DIR... [-R]] [--now RFC3339] [--expire-grace D] [catalog flags] [-o table|json]
//	nodeplan repair [-f FILE|DIR... [-R]] [--now RFC3339] [--policy TYPE=STATUS:DURATION...] [catalog flags] [-o table|json]
//	nodeplan static [-f FILE|DIR... [-R]] [--now RFC3339] [catalog flags] [-o table|json]
//	nodeplan diff [-f FILE|DIR... [-R]] [--now RFC3339] [--spot-to-spot] [catalog flags] [-o table|wide|json]
//	nodeplan shadow [--kubeconfig FILE] [--context NAME] [--duration D] [--metrics-addr ADDR]
//	      [--batch-idle D] [--batch-max D] [--spot-to-spot] [--expire-grace D] [catalog flags] [-o table|json]
//	nodeplan version
//	nodeplan help [COMMAND]
//
// "nodeplan COMMAND --help" (or -h) lists a command's flags with their
// defaults.
//
// Cluster: without -f (and without file arguments) a command reads the
// running cluster its kubeconfig names, with kubectl's rules: --kubeconfig
// PATH, else $KUBECONFIG, else ~/.kube/config, at --context or the current
// context; in a pod without any, its service account. It plans for every
// namespace, not the context's as kubectl would: a node plan is
// cluster-wide. -n NAMESPACE plans the pending pods and workloads of one
// namespace, still counting the bound pods, nodes and daemonsets of all;
// -A (every namespace) is the default. --request-timeout D (default 1m, 0
// for no limit) bounds each request. nodeplan only lists:
// kube/deploy/clusterrole.yaml is the ClusterRole it needs (package
// kube/live has the details). A read longer than a second says how far it
// got on stderr. An API server that is unreachable or refuses (Unauthorized,
// Forbidden) is exit status 2 with its message; so are the cluster flags
// beside -f, and a missing kubeconfig outside a pod.
//
// Input, as kubectl's: -f (--filename) names a file, "-" (stdin) or a
// directory, whose *.yaml, *.yml and *.json files are read in name order;
// -R (--recursive) also reads its subdirectories, depth first in name
// order. A file may also be named without -f, and flags may come before or
// after file names (nodeplan provision cluster.yaml -o json); "--" ends the
// flags. The files are read in the order the command line names them,
// with -f or without. An input that holds no object at all (empty files,
// an empty List) is an error, exit status 2: "no objects in …".
//
// The manifests may hold Pods, Nodes, DaemonSets, Deployments, ReplicaSets,
// StatefulSets, Jobs, PodDisruptionBudgets, PriorityClasses,
// PersistentVolumeClaims, PersistentVolumes and StorageClasses (a pod is
// kept in the zones its volumes allow), CSINodes (the nodes' CSI attach
// limits), LimitRanges (the container defaults of the pods workloads
// expand to), karpenter.sh/v1 NodePools and NodeClaims, karpenter.k8s.aws/v1
// EC2NodeClasses, karpenter.sh/v1alpha1 NodeOverlays (prices and capacity
// of the catalog; every command warns of an overlay that is not applied or
// selects no offering), and PodTemplates and autoscaling.x-k8s.io/v1beta1
// CapacityBuffers (headroom), as YAML or JSON: one object per document, kind List (the
// output of kubectl get -o yaml), typed lists such as PodList or
// NodePoolList (raw API responses, whose items carry no kind), and the
// output of kubectl cluster-info dump. karpenter.sh/v1beta1 NodePools and
// NodeClaims and karpenter.k8s.aws/v1beta1 EC2NodeClasses are converted to
// v1 by Karpenter's conversion rules, and a warning counts them; objects of
// kinds nodeplan does not read are counted in one warning (package kube
// has the details). Node states are read as Karpenter's cluster state
// reads them: a Node being deleted (its deletionTimestamp, or its
// NodeClaim's) takes no pod, and provision plans its pods again (all but
// daemonset pods); a Node whose Ready condition is False or Unknown
// spends its NodePool's disruption budgets, as one being disrupted (a
// Node without the condition counts as Ready); a NodeClaim launched
// (status.providerID) with no Node in the manifests is a node in flight,
// listed as existing, that pending pods may be placed on. For provision, -o table (the default) prints one line per
// node (new or existing, NodePool, instance type, zone, capacity type,
// hourly price, pods, CPU and memory use), the totals, and the
// unschedulable pods grouped by owner and reason ("Deployment shop/web ×12
// — Insufficient: …"); -o wide adds each node's architecture and candidate
// instance types and lists the pods of each group; --no-headers prints the
// node rows alone, for scripts, and sends the rest to stderr. The table is
// package planview's, shared with examples/quickstart. -o json prints the
// report schema documented in package kube, -o yaml the NodeClaims to
// create (the totals and unschedulable pods go to stderr). Every price
// carries its currency: "0.192000 USD", "USD/HOUR" in column headers; the
// header lines before the table say where the prices came from and how
// spot is modelled (--spot-discount, default 0.6; 0 prices spot at
// on-demand). With CapacityBuffers (autoscaling.x-k8s.io/v1beta1) in the
// input, provision keeps their room as Karpenter does with its
// CapacityBuffer feature gate on, and after the table prints one line a
// buffer: the replicas it asks for, how many of its virtual pods existing
// nodes hold, how many need new NodeClaims (which the plan launches and
// prices) and how many fit nowhere, and the Provisioning condition; -o
// json has them as headroom[]. diff, whose plan launches and prices the
// same nodes, prints and reports the same headroom.
//
// Preferences: provision --preferences respect (the default, Karpenter's)
// honours preferred node and pod (anti-)affinity and ScheduleAnyway
// spreads, relaxing them pod by pod only where a pod fits nowhere;
// ignore drops them (Karpenter's Ignore); within=F honours them while
// the plan costs at most F (0.10: 10 %) more than the plan that ignores
// them, relaxing the dearest first (packing.BudgetPreferences, which
// Karpenter lacks), and after the table prints one line a preferred term
// (owner, kind, weight, pods, honoured or not, and what honouring it adds
// to the hourly price, the other terms as decided); -o json has them as
// preferences.terms[].
//
// Bound: after the table, provision says how far the plan's new nodes can
// be from the cheapest ones placing the same pods: "2.689600 USD/hour —
// within 9.2 % of the best possible (2.463999 USD/hour lower bound)", the
// bound certified by package bound (bound.ForPlan: the configuration LP
// of the pods the plan placed; see its doc for what it relaxes); -o json
// has it as bound{pricePerHour, lowerBoundPerHour, gap, optimal, pods,
// classes}. provision --guided (package guide) solves again with each
// NodePool narrowed to the instance types the bound's LP launches (all of
// them, with the first plan's, or each pool's one to four most used), and
// with the pods held together on the LP's own nodes, and keeps the
// cheapest of those plans when it is cheaper than the first,
// leaves out the same pods and passes the checker (packing/verify); a
// second line says which plan it kept and
// what the search alone found, and the JSON bound has guided{taken,
// pinned, unguidedPricePerHour}. Its NodeClaims list fewer types to fall
// back on.
//
// Limits: when a NodePool's limits bind, provision --limit-policy
// most-pods (the default) gives its capacity first to the pods no other
// NodePool admits, placing no fewer pods than largest-first and usually
// more; largest-first is Karpenter's order, largest cpu then memory first
// (packing.LimitPolicy).
//
// Region: --region, else, for the embedded catalogs, the region the nodes
// of NodePools are labelled with (topology.kubernetes.io/region, as
// Karpenter labels every node it launches), else us-east-1 (aws) or eastus
// (azure). A region without prices is an error (exit 2) listing those that
// have them; a node of a NodePool labelled with another region, or in a
// zone of another region, is an error naming its file, document and label:
// nodeplan never plans a cluster at another region's prices.
//
// consolidate runs consolidation.Plan on the nodes with their bound pods,
// the NodePools (with their disruption settings), daemonsets, pending pods
// and PodDisruptionBudgets, nodes priced from the catalog. It prints each
// command (reason, method, delete or replace, candidates, replacements,
// savings per hour), where every displaced pod goes, and why each other
// node is kept. A node's last pod event is the newest creationTimestamp of
// its pods (manifests do not show pods that left).
//
// provision --then-consolidate then carries the plan out on the cluster
// (kube.Cluster.Apply: the pending pods bound to the nodes the plan
// chose; each new NodeClaim a node of its NodePool, instance type, zone
// and capacity type, priced at its offering, initialized and created at
// now, as Karpenter's cluster state sees a node right after launch; the
// pods of deleting nodes it placed off them; a pod event at now on every
// node that took pods) and prints what consolidation would do to that
// cluster: the consolidate command's table (without the price notes and
// warnings already printed; on stderr beside -o yaml and --no-headers),
// or in the JSON a consolidation field holding its ConsolidationReport.
// --now and --spot-to-spot are for it (without --then-consolidate they
// are an error). As consolidateAfter runs from a node's last pod event,
// a NodePool with consolidateAfter above 0 keeps the new nodes and the
// nodes that took pods (why ConsolidateAfter).
//
// diff answers "what would change?": it provisions the pending pods,
// carries the plan out as --then-consolidate does, consolidates the
// result, and compares that cluster with the cluster now. It prints, per
// NodePool (the nodes outside NodePools in a row "-"), the nodes now,
// added, removed and after and their price an hour now and after with
// the difference; the nodes added and removed (a node being deleted now
// counts as removed); the pods bound now that move (from which node to
// which, "(new)" for a node that does not exist now); the pending pods
// placed, counted by owner, on existing and on new nodes (-o wide lists
// each pod and its node); the provisioning summary with the unschedulable
// pods grouped by owner and reason, as provision prints them; and the
// totals. Nodes of unknown price are counted apart in each price
// ("0.192000 + 1 unknown"), never as 0. Its exit status is provision's.
//
// Unknown prices: an existing node whose instance type, zone and capacity
// type have no offering in the catalog (a type the region lacks, a node
// outside NodePools in another region, a missing karpenter.sh/capacity-type
// label) is never
// priced at 0. Its price is "unknown" in the tables and null in the JSON,
// totals count it apart ("plus 1 existing node of unknown price", "plus
// the unknown price of 1 node"), a warning names it and what the catalog
// lacks, and consolidate deletes it only when it is empty, keeping it
// otherwise (why PriceUnknown), as Karpenter does not consolidate a node
// whose instance type it cannot find.
//
// drift joins each Node to the NodeClaim whose status.nodeName names it and
// runs drift.Evaluate and drift.Commands. It reads the NodePool hash from
// the NodeClaim's (else the Node's) karpenter.sh/nodepool-hash and
// karpenter.sh/nodepool-hash-version annotations, the image from the
// NodeClaim's status.imageID (else the nodeplan.io/image-id annotation),
// the subnet from nodeplan.io/subnet-id and the security groups from
// nodeplan.io/security-group-ids (comma-separated), each on the NodeClaim
// or the Node; see package kube. It prints the findings, the replacement
// commands with their pods' homes, and the nodes left alone with why. The
// drifted nodes of static NodePools are left alone (blocked), as
// Karpenter's Drift skips static pools: nodeplan static shows their
// StaticDrift; their expiry and interruption are handled as any node's.
//
// static answers what Karpenter v1.14 does with its static NodePools
// (spec.replicas; the StaticCapacity feature gate), which provision,
// consolidate and drift leave alone: they launch nothing for pending pods
// (a pod only they would take is unschedulable, why Unavailable), their
// nodes are not consolidated nor replaced by drift's rules, and their
// nodes stay existing capacity for pending pods. It runs static.Decide on
// the static NodePools (spec.replicas, limits.nodes, Drifted budgets, the
// Ready condition, deletionTimestamp) and their NodeClaims
// (status.providerID, the Drifted condition, deletion, the node's
// karpenter.sh/disrupted taint, the node's pods) and prints per pool how
// many NodeClaims are active, deleting and pending disruption, how many
// it creates (scale-up to spec.replicas within limits.nodes, deleting
// NodeClaims counting against it), which it deletes (scale-down, in
// Karpenter's order: NodeClaims without a providerID, empty nodes, then
// the others by do-not-disrupt and rescheduling cost × lifetime
// remaining, ties by name), which drifted nodes it replaces (StaticDrift:
// within the Drifted budget and limits.nodes, none while over replicas),
// and why a pool does less or nothing. New NodeClaims (and replacements)
// are priced at the pool's cheapest compatible offering, which Karpenter's
// launch would pick for on-demand; the LAUNCH column names it. Package
// static has the rules and where nodeplan differs.
//
// repair runs Karpenter's node repair (package repair): a node whose
// status.conditions has a condition of a policy's type and status (its
// lastTransitionTime says since when) is unhealthy, and replaced once the
// policy's toleration has passed, unless more than 20 % of its NodePool's
// nodes (rounded up; of every node for a node of no NodePool) are
// unhealthy, or it has no NodeClaim (Karpenter manages it not), or its
// NodeClaim is already being deleted. The policies are the AWS provider's
// (Ready False or Unknown 30m, AcceleratedHardwareReady False 10m,
// StorageReady, NetworkingReady, KernelReady, ContainerRuntimeReady False
// 30m) unless --policy gives others, repeatable, each Type=Status:duration
// (Ready=False:5m); a bad one is exit status 2. It prints each node
// (NodePool, the condition that matched, since when, the deadline,
// replace or keep with the reason), each NodePool's count against the
// cap, and the plan for the replaced nodes' pods, as Karpenter's
// provisioner places them once the nodes go: their new nodes (existing
// ones with room, or new NodeClaims with their hourly price). A condition
// a policy reads without a lastTransitionTime, or with a status other
// than True, False or Unknown, is exit status 2 naming the Node and field.
//
// --now: consolidate, drift, repair, static, diff and provision --then-consolidate
// decide at the --now instant (RFC 3339). Without it, a cluster read live
// is decided at the clock's now; files at the newest creationTimestamp
// among the nodes, pods and NodeClaims of the input, so the same files
// always give the same answer; only when the input has no
// creationTimestamp at all do they read the clock. The first line of
// the table (and "now"/"nowFrom" in the JSON) says which rule applied.
//
// JSON (-o json; apiVersion nodeplan.io/v1, fields may be added, none
// removed): kind ConsolidationReport has now, nowFrom, commands[] (reason,
// method, decision, candidates[], replacements[] {name, nodePool,
// instanceType, zone, capacityType, pricePerHour, instanceTypes[]},
// savingsPerHour, placements[] {pod, from, node | nodeClaim},
// unknownPriceCandidates), kept[] {node, why, message}, summary {commands,
// deletedNodes, newNodes, keptNodes, savingsPerHour, savingsPerMonth,
// deletedUnknownPrice, currency}, notes[], warnings[]; savings leave the
// candidates of unknown price out, and unknownPriceCandidates and
// deletedUnknownPrice count them (both added to the first schema). Prices
// and savings are the amounts the table prints, from one exact sum: six
// decimals an hour, two a month (savingsPerMonth had six). kind
// DriftReport has now, nowFrom, findings[] {node,
// nodePool, reason, since, forceful, deadline, message}, commands[] {node,
// nodePool, reason, findings[], forceful, deadline, replacements[], homes[]
// {pod, node | nodeClaim | unschedulable}, protected[] {pod, deleteAt,
// why}}, blocked[] {node, nodePool, reason, why}, currency, notes[],
// warnings[]. currency is the ISO 4217 code of every price of the report,
// notes[] the price notes of the table header, protected[] the pods whose
// eviction is blocked now (do-not-disrupt, a PodDisruptionBudget) on a node
// drift replaces anyway within its NodePool's terminationGracePeriod, each
// deleted by deleteAt (the three added to the first schema).
//
// kind RepairReport has now, nowFrom, policies[] (Type=Status:duration),
// policiesFrom ("--policy" or "AWS provider defaults"), nodes[] {node,
// nodePool, condition (Type=Status, absent for a healthy node),
// unhealthySince, deadline, action ("replace" or "keep"), reason
// (Unhealthy for a replace, else Unmanaged, Healthy, Tolerating,
// PoolUnhealthy, ClusterUnhealthy or Deleting), message}, nodePools[]
// {nodePool ("" for the nodes of no NodePool, counted over the cluster),
// nodes, unhealthy, cap, blocked}, replacements[] (as consolidate's),
// homes[] {pod, from, node | nodeClaim | unschedulable}, summary {replace,
// keep, newNodes, movedPods, unschedulablePods, pricePerHour}, currency,
// notes[], warnings[].
//
// kind StaticReport has now, nowFrom, nodePools[] {nodePool, replicas,
// active, deleting, pendingDisruption, create, launch {instanceType, zone,
// capacityType, pricePerHour} (null when no offering fits), createPerHour
// (the created NodeClaims and replacements; null when launch is),
// remove[] {nodeClaim, kind (Unresolved, Empty or Occupied), cost,
// doNotDisrupt}, replace[] (the drifted NodeClaims replaced),
// explanations[] {reason, nodeClaim, message}}, summary {create, remove,
// replace, createPerHour, unknownPrice}, currency, notes[], warnings[].
// reason is a code and message its text, as in repair's nodes[];
// explanations[] named the code why before v1.14's static support was
// released. drift's blocked[] keeps its older spelling: reason the code,
// why the text.
//
// kind DiffReport has now, nowFrom, nodePools[] {nodePool ("" for the
// nodes outside NodePools), nodesNow, nodesAdded, nodesRemoved,
// nodesAfter, pricePerHourNow, pricePerHourAfter, differencePerHour,
// unknownPriceNow, unknownPriceAfter}, nodes[] {node, change ("added" or
// "removed"), nodePool, instanceType, zone, capacityType, pricePerHour
// (null when unknown)}, moves[] {pod, from, node | nodeClaim (a node that
// does not exist now)}, placed[] {namespace, owner, count, onExisting,
// onNew, pods[] {pod, node | nodeClaim}}, unschedulable[] and
// unschedulableGroups[] (as in the ProvisioningReport), summary {the
// nodePools[] counts and prices for the whole cluster,
// differencePerMonth, movedPods, placedPods, unschedulablePods,
// currency}, notes[], warnings[]. Prices leave the nodes of unknown price
// out; the unknownPrice counts say how many. headroom[] (absent without
// CapacityBuffers; added to the first schema) is provision's, of the
// provisioning step: the buffers' virtual pods are launched and priced
// in the plan diff compares, and the table prints the same Headroom lines
// after the provisioning summary. provision --then-consolidate
// -o json prints the ProvisioningReport with one field added,
// consolidation: the ConsolidationReport of the cluster with the plan
// applied.
//
// shadow watches a live cluster where Karpenter runs, with client-go
// informers (get, list and watch only: it never writes; the nodeplan-reader
// ClusterRole grants enough), reading the cluster the kube flags name
// (--kubeconfig, --context; --request-timeout bounds its discovery
// requests and a first one-object list of each resource, not the watches;
// it has no -n or -A: it watches every namespace, as Karpenter does, and
// takes no arguments), and prints one line per Karpenter action beside
// what nodeplan would have done, then a summary on SIGINT, SIGTERM or
// after --duration. A list the server refuses (Forbidden, Unauthorized)
// or cannot answer is exit status 2 with the server's message, before
// any watch; a stop before the cluster has been read prints "stopped
// before the cluster was read: no events" and exits 0, unless a list or
// watch was failing meanwhile: then that error, exit status 2; an object that does
// not decode (with the decoder of the other commands' reads) ends the
// watch, exit status 2, after the summary. A provisioning event is the
// NodeClaims Karpenter created within one batch window (--batch-idle 1s,
// --batch-max 10s, as Karpenter's); nodeplan plans (as provision does) the
// snapshot of the moment the first of them appeared, without them and
// their nodes (pods bound to those nodes are pending again). A
// disruption event opens when Karpenter marks a node it manages (the
// karpenter.sh/disrupted taint, a NodeClaim's DisruptionReason condition)
// or deletes a NodeClaim or a Node it manages (one of a NodeClaim, or with
// the karpenter.sh/nodepool label; another node's deletion is no event);
// the NodeClaims created within --batch-idle of its last mark are its
// replacements (Karpenter creates them right after marking, and deletes
// the candidates only once they are ready; later NodeClaims are
// provisioning), and nodeplan runs consolidate and drift on the snapshot
// of the moment before. The event is compared with nodeplan's answer for
// Karpenter's reason: drift for Drifted and Expired (a NodeClaim deleted
// unmarked past its expireAfter), consolidation for Underutilized, Empty
// or none; a node of unknown price that nodeplan deletes makes the
// difference unknown. Karpenter's NodeClaims are priced at the offering
// they resolved (their node.kubernetes.io/instance-type,
// topology.kubernetes.io/zone and karpenter.sh/capacity-type labels,
// awaited for --resolve-timeout) in nodeplan's catalog; one unresolved or
// of unknown price is reported unpriced, never at 0, and the event's
// difference is then unknown. The embedded catalogs have no reserved
// offerings, so a reserved NodeClaim is always unpriced, and price spot
// at the modelled discount (--spot-discount), not at what Karpenter paid.
// NodeClaims that exist when shadow starts are no event. The catalog is
// built as for the other commands, in the region of the cluster's
// NodePool nodes unless --region says otherwise. The table's columns: #,
// START, EVENT, PODS (pending/placed by nodeplan), KARPENTER and NODEPLAN
// (nodes launched, and removed), both hourly price changes, DIFFERENCE
// (Karpenter − nodeplan: positive when nodeplan is cheaper) and NOTES. The
// summary's pods count each pod once, however many events it was pending
// in. --metrics-addr ADDR serves the summary's counters at ADDR/metrics
// for Prometheus (nodeplan_shadow_events_total{type},
// nodeplan_shadow_nodes_launched_total{planner}, …_removed_total,
// …_unpriced_nodes_total, nodeplan_shadow_price_change_per_hour{planner},
// nodeplan_shadow_difference_per_hour, …).
//
// shadow -o json prints JSON lines: kind ShadowEvent has seq, type
// (Provisioning | Disruption), start, end, currency, karpenter {launched[],
// removed[] {name, node, nodePool, instanceType, zone, capacityType,
// pricePerHour (null when unpriced), unpriced (why), deleted}, kept[]
// (marked, not deleted), reason, changePerHour, unpriced}, nodeplan
// {pending, placed, unschedulable, nodes, pricePerHour, consolidation and
// drift {commands, deletedNodes, newNodes, deletedUnknownPrice,
// changePerHour}}, differencePerHour (null when unknown) and error; the
// last line, kind ShadowSummary, has events {Provisioning, Disruption},
// errors, pods, placed, karpenter and nodeplan {launched, removed,
// unpriced, changePerHour}, differencePerHour (over the events whose
// difference is known), unknownDifferences, currency and notes[].
//
// version prints the module version the binary's build information
// records, or "devel", with the VCS revision when the build recorded one.
// go install …@version, which records a release version, cannot build
// nodeplan today: the kube module's go.mod replaces the core module with
// its parent directory, and go install refuses a module with replace
// directives; build it from a clone.
// Help goes to stdout with exit status 0.
//
// Exit status: 0 on success (for provision and diff, when every pod is
// scheduled), 1 when provision or diff leaves some pod unscheduled, 2 on
// bad input (the error,
// naming the file, document, object and field, is printed on stderr).
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
