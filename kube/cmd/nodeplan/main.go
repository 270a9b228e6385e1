// Command nodeplan answers "what would Karpenter launch for this, and what
// would it cost?" from Kubernetes and Karpenter manifests:
//
//	nodeplan provision -f cluster.yaml [-f more.yaml ...] [--catalog aws|azure|PATH]
//	    [--region R] [--zones Z,...] [--spot-discount F] [-o table|json|yaml]
//
// The manifests may hold Pods, Nodes, DaemonSets, Deployments, ReplicaSets,
// StatefulSets, Jobs, PodDisruptionBudgets, PriorityClasses and
// karpenter.sh/v1 NodePools, as YAML or JSON, also as kind List (the
// output of kubectl get -o yaml). -o table (the default) prints one line
// per node, -o json the report schema documented in package kube, -o yaml
// the NodeClaims to create.
//
// Exit status: 0 when every pod is scheduled, 1 when some are not, 2 on bad
// input (the error is printed on stderr).
//
// consolidate and drift are not implemented yet: the consolidation and
// drift packages they need do not exist.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
