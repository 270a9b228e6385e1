// Package live reads a running cluster into [kube.Objects]: the objects
// nodeplan plans with, listed from the API server instead of decoded from
// manifests. kube.FromObjects turns them into the snapshot the nodeplan
// command plans on, as kube.Load does for files.
//
// [Config] loads a client configuration with kubectl's rules (client-go's
// clientcmd: --kubeconfig, else $KUBECONFIG, else ~/.kube/config, at
// --context or the current context; in a pod without any, its service
// account). [Read] lists, with get and list requests only:
//
//   - karpenter.sh/v1 NodePools and NodeClaims (not served: an error
//     wrapping [ErrNoKarpenter]) and karpenter.k8s.aws/v1 EC2NodeClasses
//     (not served: none, and a warning), decoded into Karpenter v1.14.1's
//     Go types and [kube.EC2NodeClass];
//   - karpenter.sh/v1alpha1 NodeOverlays (not served, as where the CRD
//     is not installed: none, and nothing said);
//   - Nodes, Pods, DaemonSets, Deployments, ReplicaSets, StatefulSets,
//     Jobs, PodDisruptionBudgets, PriorityClasses, PersistentVolumeClaims,
//     PersistentVolumes, StorageClasses, LimitRanges and CSINodes (the
//     nodes' CSI attach limits) at the versions kube.Load reads;
//   - PodTemplates and autoscaling.x-k8s.io/v1beta1 CapacityBuffers
//     (CapacityBuffers not served, as where the CRD is not installed:
//     none, and nothing said), in Options.Namespace when it is set, as
//     the workloads they keep room for.
//
// Each kind is listed in pages (limit and continue; [Options].PageSize,
// default 500, as kubectl), by one generic list that decodes each page
// into its Go type, and returned sorted by namespace and name. A field of
// a listed object that its Go type lacks (a server newer than the
// k8s.io/api or Karpenter release nodeplan is built with) is named in one
// warning, as kube.Load names it, and otherwise ignored.
//
// # Namespaces
//
// A node plan is cluster-wide: every namespace's pods use the nodes. So
// the zero [Options] reads every namespace, unlike kubectl, whose default
// is the context's namespace. [Options].Namespace narrows what is planned
// for, not what is counted: the pending pods (spec.nodeName unset) and the
// Deployments, ReplicaSets, StatefulSets and Jobs whose pods are planned
// are listed in that namespace alone, while the bound pods, Nodes,
// DaemonSets (their pods take room on every new node), PodDisruptionBudgets
// and PersistentVolumeClaims (consolidation moves bound pods of every
// namespace), LimitRanges and the cluster-scoped kinds are still listed
// cluster-wide, so what the nodes hold stays right.
//
// # Permissions
//
// kube/deploy/clusterrole.yaml is the ClusterRole nodeplan-reader: get,
// list and watch on exactly the resources Read lists, and nothing else
// (a test keeps the two equal). Bind it to the user or service account
// that runs nodeplan.
//
// # Errors
//
// A request that fails (server unreachable, Unauthorized, Forbidden, a
// timeout) is a [*ListError] naming the resource and namespace and
// wrapping the server's error, whose message it carries:
// apierrors.IsForbidden(err) and errors.As(err, &*ListError) hold on it.
// Read never panics on what the server sends; a response that does not
// decode is a ListError too.
//
// # Cost
//
// One request per page of each kind; Read holds one page's response
// besides the decoded objects, and copies each object once more to sort
// it. The kinds are read one after another, each a consistent list but not
// at one resourceVersion (as kubectl get with several kinds): an object
// created or bound between two lists may be missing from one of them,
// which kube.FromObjects warns about (a pod bound to a Node not read). A
// continue token that expires during a read of one kind longer than the
// server's compaction interval (5 minutes by default) makes Read list that
// kind again from its first page, once; a second expiry is the server's
// 410 Expired error.
//
// Functions are safe for concurrent use and do not modify their arguments.
//
// See ExampleRead.
package live
