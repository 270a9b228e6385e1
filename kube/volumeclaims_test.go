package kube

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// Manifests of the volume rows: a NodePool, pods, claims, volumes, classes
// and a node with its CSINode.
const (
	vcPool  = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np}\n---\n"
	vcPod   = "apiVersion: v1\nkind: Pod\nmetadata: {name: %s, namespace: ns}\nspec: {%scontainers: [{name: c, resources: {requests: {cpu: 100m}}}], volumes: [%s]}\n---\n"
	vcClaim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: %s, namespace: ns%s}\nspec: {%s}\n%s---\n"
	vcPV    = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: %s%s}\nspec: {%s}\n---\n"
	vcClass = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: %s%s}\nprovisioner: %s\n%s---\n"
	vcNode  = "apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {topology.kubernetes.io/zone: us-east-1a, kubernetes.io/arch: amd64, kubernetes.io/os: linux}}\n" +
		"status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\n"
	vcCSINode = "apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n1}\nspec: {drivers: [%s]}\n---\n"
	bindDone  = ", annotations: {pv.kubernetes.io/bind-completed: 'yes'}"
	claimVol  = "{name: data, persistentVolumeClaim: {claimName: %s}}"
	zonesOf   = "allowedTopologies: [{matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [%s]}]}]\n"
	pvZones   = "nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [%s]}]}]}}"
	ephemeral = "{name: scratch, ephemeral: {volumeClaimTemplate: {spec: {storageClassName: %s}}}}"
	wffc      = "volumeBindingMode: WaitForFirstConsumer\n"
)

func vcf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// volumePlan loads doc, solves it on the on-demand AWS catalog and
// returns each pod's outcome by name: the zone of its new claim, "node:"
// and its node, or "unschedulable: " and its reason's kind and message.
func volumePlan(t *testing.T, doc string) map[string]string {
	t.Helper()
	c, err := Load(Source{Name: "v.yaml", Data: []byte(doc)})
	require.NoError(t, err)
	cat, err := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	require.NoError(t, err)
	p, err := c.Problem(cat)
	require.NoError(t, err)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Empty(t, verify.Plan(p, plan))
	out := map[string]string{}
	for _, b := range plan.Bindings {
		out[p.Pods[b.Pod].Name] = "node:" + b.Node
	}
	for _, nc := range plan.NodeClaims {
		for _, i := range nc.Pods {
			out[p.Pods[i].Name] = nc.Offering.Zone
		}
	}
	for _, u := range plan.Unschedulable {
		out[p.Pods[u.Pod].Name] = "unschedulable: " + u.Reason.Kind.String() + ": " + u.Reason.Message
	}
	return out
}

// TestVolumeValidation restates the volume rows of Karpenter v1.14.1's
// provisioning suite (controllers/provisioning/suite_test.go) through
// Load, Problem and Solve: a pod whose claims ValidatePersistentVolumeClaims
// rejects is unschedulable with a reason naming the object and what is
// wrong, the other pods are planned, and a valid claim's zones hold.
func TestVolumeValidation(t *testing.T) {
	sc := func(name, extra string) string { return vcf(vcClass, name, "", "ebs.csi.aws.com", extra) }
	bound := func(claim, pv string) string {
		return vcf(vcClaim, claim, bindDone, "volumeName: "+pv+", storageClassName: ''", "")
	}
	unbound := func(claim, class string) string { return vcf(vcClaim, claim, "", "storageClassName: '"+class+"'", "") }
	pod := func(name, spec, vols string) string { return vcf(vcPod, name, spec, vols) }
	zoneAffinity := func(zones string) string {
		return "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: " +
			"[{key: topology.kubernetes.io/zone, operator: In, values: [" + zones + "]}]}]}}}, "
	}
	valid := pod("valid", "", "") // a pod without volumes, planned beside the invalid ones
	tests := []struct {
		name string
		doc  string
		want map[string]string // pod -> zone, or the start of "unschedulable: …"
	}{
		// suite_test.go:1995 and :2066: a missing claim.
		{"a missing claim", pod("p", "", vcf(claimVol, "gone")) + valid + sc("sc", ""),
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: PersistentVolumeClaim ns/gone is not in the input",
				"valid": "*"}},
		// :2004: a bound claim of storage class "" schedules.
		{"bound, empty class", pod("p", "", vcf(claimVol, "c")) + bound("c", "pv1") + vcf(vcPV, "pv1", "", vcf(pvZones, "us-east-1b")),
			map[string]string{"p": "us-east-1b"}},
		// :2024 and :2077: an unbound claim of storage class "".
		{"unbound, empty class", pod("p", "", vcf(claimVol, "c")) + unbound("c", "") + valid,
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: PersistentVolumeClaim ns/c is unbound and its storageClassName is \"\"",
				"valid": "*"}},
		// :2034: a bound claim whose class is missing schedules.
		{"bound, missing class", pod("p", "", vcf(claimVol, "c")) + vcf(vcClaim, "c", bindDone, "volumeName: pv1, storageClassName: gone", "") +
			vcf(vcPV, "pv1", "", vcf(pvZones, "us-east-1c")), map[string]string{"p": "us-east-1c"}},
		// :2054: an unbound claim whose class is missing.
		{"unbound, missing class", pod("p", "", vcf(claimVol, "c")) + unbound("c", "gone"),
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: StorageClass gone of PersistentVolumeClaim ns/c is not in the input"}},
		// :2090: a bound claim whose volume is missing.
		{"bound, missing volume", pod("p", "", vcf(claimVol, "c")) + bound("c", "gone") + valid,
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: PersistentVolume gone of PersistentVolumeClaim ns/c is not in the input",
				"valid": "*"}},
		// volumetopology.go:239-244: a claim being deleted, or Lost.
		{"a claim being deleted", pod("p", "", vcf(claimVol, "c")) +
			vcf(vcClaim, "c", ", deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [kubernetes.io/pvc-protection]", "storageClassName: sc", "") + sc("sc", ""),
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: PersistentVolumeClaim ns/c is being deleted"}},
		{"a lost claim", pod("p", "", vcf(claimVol, "c")) + vcf(vcClaim, "c", bindDone, "volumeName: pv1", "status: {phase: Lost}\n"),
			map[string]string{"p": `unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: PersistentVolumeClaim ns/c is Lost: its PersistentVolume "pv1" is gone`}},
		// volumetopology.go:286-288: a volume being deleted.
		{"a volume being deleted", pod("p", "", vcf(claimVol, "c")) + bound("c", "pv1") +
			vcf(vcPV, "pv1", ", deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [kubernetes.io/pv-protection]", ""),
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: PersistentVolume pv1 of PersistentVolumeClaim ns/c is being deleted"}},
		// volumetopology.go:253: a volumeName without pv.kubernetes.io/bind-completed counts as unbound.
		{"bound without bind-completed", pod("p", "", vcf(claimVol, "c")) + vcf(vcClaim, "c", "", "volumeName: pv1", "") + vcf(vcPV, "pv1", "", ""),
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: PersistentVolumeClaim ns/c names PersistentVolume pv1 but lacks the pv.kubernetes.io/bind-completed annotation"}},
		// volumetopology.go:267-270: an unbound claim of an Immediate class waits for its volume.
		{"an Immediate class", pod("p", "", vcf(claimVol, "c")) + unbound("c", "sc") + sc("sc", "volumeBindingMode: Immediate\n"),
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: PersistentVolumeClaim ns/c is unbound and its StorageClass sc binds Immediate"}},
		// :2103: class zones {b, c} ∩ pod zones {a, c} → c.
		{"class zones meet the pod's", pod("p", zoneAffinity("us-east-1a, us-east-1c"), vcf(claimVol, "c")) + unbound("c", "sc") +
			sc("sc", wffc+vcf(zonesOf, "us-east-1b, us-east-1c")), map[string]string{"p": "us-east-1c"}},
		// :2116: the same through a generic ephemeral volume's claim <pod>-<volume>.
		{"class zones meet the pod's (ephemeral)", pod("p", zoneAffinity("us-east-1a, us-east-1c"), vcf(ephemeral, "sc")) +
			unbound("p-scratch", "sc") + sc("sc", vcf(zonesOf, "us-east-1b, us-east-1c")), map[string]string{"p": "us-east-1c"}},
		// :2138 and :2150: class zones {b, c} against pod zone {a}.
		{"class zones miss the pod's", pod("p", zoneAffinity("us-east-1a"), vcf(claimVol, "c")) + unbound("c", "sc") +
			sc("sc", vcf(zonesOf, "us-east-1b, us-east-1c")), map[string]string{"p": "unschedulable: Incompatible: "}},
		{"class zones miss the pod's (ephemeral)", pod("p", zoneAffinity("us-east-1a"), vcf(ephemeral, "sc")) + unbound("p-scratch", "sc") +
			sc("sc", vcf(zonesOf, "us-east-1b, us-east-1c")), map[string]string{"p": "unschedulable: Incompatible: "}},
		// :2171 and :2182: a bound volume's zone.
		{"a bound volume's zone (ephemeral)", pod("p", "", vcf(ephemeral, "sc")) + bound("p-scratch", "pv1") + sc("sc", vcf(zonesOf, "us-east-1a")) +
			vcf(vcPV, "pv1", "", vcf(pvZones, "us-east-1b")), map[string]string{"p": "us-east-1b"}},
		// :2317 and :2330: a bound volume's zone against the pod's.
		{"a bound volume's zone misses the pod's", pod("p", zoneAffinity("us-east-1a"), vcf(claimVol, "c")) + bound("c", "pv1") +
			vcf(vcPV, "pv1", "", vcf(pvZones, "us-east-1b")), map[string]string{"p": "unschedulable: Incompatible: "}},
		// scheduling/suite_test.go:3165: two volumes' alternatives crossed, the pairs that do not intersect pruned:
		// {a, b} × {b, c} leaves b.
		{"two volumes crossed", pod("p", "", vcf(claimVol, "c1")+", {name: d2, persistentVolumeClaim: {claimName: c2}}") +
			unbound("c1", "ab") + unbound("c2", "bc") +
			sc("ab", "allowedTopologies: [{matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [us-east-1a]}]}, "+
				"{matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [us-east-1b]}]}]\n") +
			sc("bc", vcf(zonesOf, "us-east-1b, us-east-1c")), map[string]string{"p": "us-east-1b"}},
		// volumetopology.go:92-125: when every pair is pruned Karpenter keeps them all and no node fits; nodeplan names it.
		{"two volumes exclude each other", pod("p", "", vcf(claimVol, "c1")+", {name: d2, persistentVolumeClaim: {claimName: c2}}") +
			unbound("c1", "a") + unbound("c2", "b") + sc("a", vcf(zonesOf, "us-east-1a")) + sc("b", vcf(zonesOf, "us-east-1b")),
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: the zones (or other node labels) " +
				"its volumes allow exclude each other, from claim ns/c2 on"}},
		// The DefaultStorageClass admission plugin: an unset storageClassName takes the default class.
		{"the default class", pod("p", "", vcf(claimVol, "c")) + vcf(vcClaim, "c", "", "resources: {}", "") +
			vcf(vcClass, "std", ", annotations: {storageclass.kubernetes.io/is-default-class: 'true'}", "ebs.csi.aws.com", vcf(zonesOf, "us-east-1b")),
			map[string]string{"p": "us-east-1b"}},
		{"no default class", pod("p", "", vcf(claimVol, "c")) + vcf(vcClaim, "c", "", "resources: {}", "") + sc("sc", ""),
			map[string]string{"p": "unschedulable: InvalidVolume: pod ns/p: Karpenter provisions no node for it: PersistentVolumeClaim ns/c is unbound and names no StorageClass"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := volumePlan(t, vcPool+tc.doc)
			require.Len(t, got, len(tc.want), "%v", got)
			for pod, want := range tc.want {
				switch {
				case want == "*":
					assert.NotContains(t, got[pod], "unschedulable", pod)
				case strings.HasPrefix(want, "unschedulable"):
					assert.True(t, strings.HasPrefix(got[pod], want), "%s: %s\nwant %s", pod, got[pod], want)
				default:
					assert.Equal(t, want, got[pod], pod)
				}
			}
		})
	}
}

// TestAttachLimitsLoaded: CSINodes become the nodes' attach limits as
// Karpenter's cluster state reads them (state/cluster.go:845-857), and
// each claim's driver is resolved as scheduling/volumeusage.go does; the
// rows of the CSI migration context (scheduling/suite_test.go:3899,
// :3958) and the volume-limit ones (:2903, :3009) through Load.
func TestAttachLimitsLoaded(t *testing.T) {
	boundPod := "apiVersion: v1\nkind: Pod\nmetadata: {name: first, namespace: ns}\nspec: {nodeName: n1, containers: [{name: c}], volumes: [" +
		vcf(claimVol, "held") + "]}\n---\n"
	inTree := vcf(vcClass, "in-tree", "", "kubernetes.io/aws-ebs", wffc)
	held := vcf(vcClaim, "held", bindDone, "volumeName: pv-held", "") + vcf(vcPV, "pv-held", "", "awsElasticBlockStore: {volumeID: vol-1}")
	tests := []struct {
		name string
		doc  string
		want map[string]string
	}{
		// :3899: limit 1 of ebs.csi.aws.com, held by an in-tree EBS volume: a pod of a new claim of an in-tree class needs a new node.
		{"in-tree volume and class count against ebs.csi.aws.com", vcNode + vcf(vcCSINode, "{name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: 1}}") +
			boundPod + held + inTree + vcf(vcClaim, "new", "", "storageClassName: in-tree", "") +
			vcf(vcPod, "second", "", vcf(claimVol, "new")) + vcf(vcPod, "sharer", "", vcf(claimVol, "held")),
			map[string]string{"second": "us-east-1", "sharer": "node:n1"}},
		// The same with no limit on the driver (allocatable unset): both join n1.
		{"allocatable unset is no limit", vcNode + vcf(vcCSINode, "{name: ebs.csi.aws.com, nodeID: i-1}") + boundPod + held + inTree +
			vcf(vcClaim, "new", "", "storageClassName: in-tree", "") + vcf(vcPod, "second", "", vcf(claimVol, "new")),
			map[string]string{"second": "node:n1"}},
		// count unset reads as 0: n1, which already holds one volume of the driver, takes no pending pod.
		{"count unset is 0", vcNode + vcf(vcCSINode, "{name: ebs.csi.aws.com, nodeID: i-1, allocatable: {}}") + boundPod + held +
			vcf(vcPod, "plain", "", ""), map[string]string{"plain": "us-east-1"}},
		// :3958: an ephemeral volume of an in-tree class, on a node of limit 1.
		{"ephemeral claim of an in-tree class", vcNode + vcf(vcCSINode, "{name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: 1}}") + boundPod + held +
			inTree + vcf(vcPod, "second", "", vcf(ephemeral, "in-tree")) + vcf(vcClaim, "second-scratch", "", "storageClassName: in-tree", ""),
			map[string]string{"second": "us-east-1"}},
		// :3009: an NFS volume has no driver and is not counted, even at limit 0 of the only driver.
		{"NFS is not counted", vcNode + vcf(vcCSINode, "{name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: 0}}") +
			vcf(vcClaim, "nfs", bindDone, "volumeName: pv-nfs, storageClassName: ''", "") + vcf(vcPV, "pv-nfs", "", "nfs: {server: s, path: /p}") +
			vcf(vcPod, "a", "", vcf(claimVol, "nfs")) + vcf(vcPod, "b", "", vcf(claimVol, "nfs")),
			map[string]string{"a": "node:n1", "b": "node:n1"}},
		// No CSINode: no limit.
		{"no CSINode", vcNode + boundPod + held + inTree + vcf(vcClaim, "new", "", "storageClassName: in-tree", "") +
			vcf(vcPod, "second", "", vcf(claimVol, "new")), map[string]string{"second": "node:n1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := volumePlan(t, vcPool+tc.doc)
			require.Len(t, got, len(tc.want), "%v", got)
			for pod, want := range tc.want {
				assert.True(t, strings.HasPrefix(got[pod], want), "%s: got %s, want %s", pod, got[pod], want)
			}
		})
	}
}

// TestCSINodeRead: a CSINode's drivers become the node's limits (count
// unset: 0; allocatable unset: none), a CSINode without its node is named
// in a warning, and a bad CSINode is an error naming the field.
func TestCSINodeRead(t *testing.T) {
	c, err := Load(Source{Name: "v.yaml", Data: []byte(vcNode + vcf(vcCSINode,
		"{name: a.csi, nodeID: x, allocatable: {count: 7}}, {name: b.csi, nodeID: x, allocatable: {}}, {name: c.csi, nodeID: x}") +
		"apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: gone}\nspec: {drivers: []}\n")})
	require.NoError(t, err)
	assert.Equal(t, map[string]int32{"a.csi": 7, "b.csi": 0}, c.Nodes[0].VolumeLimits)
	assert.Equal(t, []string{"skipped 1 CSINode: its Node is not in the input: gone"}, warningsWith(c, "CSINode"))
	for _, tc := range []struct{ drivers, err string }{
		{"{name: a, nodeID: x, allocatable: {count: -1}}", "CSINode n1: spec.drivers[0].allocatable.count: -1 is negative"},
		{"{name: a, nodeID: x}, {name: a, nodeID: w}", `CSINode n1: spec.drivers[1].name: "a" is named twice`},
		{"{name: a, nodeID: x, allocatable: {count: many}}", "CSINode n1: spec.drivers[0].allocatable.count"},
	} {
		_, err := Load(Source{Name: "v.yaml", Data: []byte(vcf(vcCSINode, tc.drivers))})
		require.Error(t, err, tc.drivers)
		assert.Contains(t, err.Error(), tc.err)
	}
}

// TestVolumeSpread: a pod's volume requirements bound where it goes but
// not the domains its topology spread counts, as Karpenter keeps them on
// the NodeClaim: topology_test.go:3060 places a pod with a volume of zone
// us-east-1a and a zone spread of minDomains 3 over pods 1/1/1 in
// us-east-1a. Were the volume's zone in the pod's node affinity, under
// nodeAffinityPolicy Honor the pod would see one eligible domain, fewer
// than minDomains, and be refused.
func TestVolumeSpread(t *testing.T) {
	node := func(name, zone string) string {
		return vcf("apiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: {topology.kubernetes.io/zone: %s, kubernetes.io/arch: amd64, "+
			"kubernetes.io/os: linux}}\nstatus: {allocatable: {cpu: '1', memory: 1Gi, pods: '2'}}\n---\n", name, zone)
	}
	spread := func(policy string) string {
		return "topologySpreadConstraints: [{maxSkew: 1, minDomains: 3, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, " +
			"nodeAffinityPolicy: " + policy + ", labelSelector: {matchLabels: {app: x}}}], "
	}
	var cluster string
	for i, z := range []string{"us-east-1a", "us-east-1b", "us-east-1c"} {
		n := vcf("n%d", i)
		cluster += node(n, z) + vcf("apiVersion: v1\nkind: Pod\nmetadata: {name: p%d, namespace: ns, labels: {app: x}}\nspec: {nodeName: %s, %scontainers: [{name: c}]}\n---\n",
			i, n, spread("Honor"))
	}
	cluster += vcf(vcClaim, "c", bindDone, "volumeName: pv1", "") + vcf(vcPV, "pv1", "", vcf(pvZones, "us-east-1a"))
	pending := func(policy, vols string) string {
		return vcf("apiVersion: v1\nkind: Pod\nmetadata: {name: new, namespace: ns, labels: {app: x}}\nspec: {%scontainers: [{name: c}], volumes: [%s]}\n---\n",
			spread(policy), vols)
	}
	tests := []struct{ name, doc, want string }{
		{"Honor with the volume: placed on n0, in the volume's zone", pending("Honor", vcf(claimVol, "c")), "node:n0"},
		{"Honor with the volume in its own affinity: refused", vcf("apiVersion: v1\nkind: Pod\nmetadata: {name: new, namespace: ns, labels: {app: x}}\n"+
			"spec: {nodeSelector: {topology.kubernetes.io/zone: us-east-1a}, %scontainers: [{name: c}]}\n---\n", spread("Honor")), "unschedulable: Topology"},
		{"Ignore with the volume: placed on n0, in the volume's zone", pending("Ignore", vcf(claimVol, "c")), "node:n0"},
		{"Honor without the volume: placed", pending("Honor", ""), "node:n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := volumePlan(t, vcPool+cluster+tc.doc)
			assert.True(t, strings.HasPrefix(got["new"], tc.want), "got %s, want %s", got["new"], tc.want)
		})
	}
}
