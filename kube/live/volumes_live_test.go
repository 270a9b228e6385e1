//go:build unix

package live

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
	"github.com/nodeplan/nodeplan/packing"
)

// TestLiveVolumes: a real API server's StorageClass, PersistentVolume,
// PersistentVolumeClaims and CSINode are read, and kube.FromObjects gives
// the node its attach limits, the bound pod its claim of the
// PersistentVolume's CSI driver, and a pending pod of a claim of an
// in-tree class its translated driver; a pending pod whose claim does not
// exist has an Invalid volume naming it.
func TestLiveVolumes(t *testing.T) {
	srv := apiservertest.Require(t)
	pod := func(name, node, claim string) string {
		return "{apiVersion: v1, kind: Pod, metadata: {namespace: vols, name: " + name + "}, spec: {nodeName: '" + node +
			"', containers: [{name: c, image: registry.k8s.io/pause:3.10}], volumes: [{name: data, persistentVolumeClaim: {claimName: " + claim + "}}]}}"
	}
	create(t, srv, "{apiVersion: v1, kind: Namespace, metadata: {name: vols}}",
		"{apiVersion: v1, kind: Node, metadata: {name: vols-node, labels: {topology.kubernetes.io/zone: us-east-1a}}}",
		"{apiVersion: storage.k8s.io/v1, kind: CSINode, metadata: {name: vols-node}, spec: {drivers: ["+
			"{name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: 25}}, {name: efs.csi.aws.com, nodeID: i-1}]}}",
		"{apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: vols-gp2}, provisioner: kubernetes.io/aws-ebs, "+
			"volumeBindingMode: WaitForFirstConsumer}",
		"{apiVersion: v1, kind: PersistentVolume, metadata: {name: vols-pv}, spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], "+
			"csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}, storageClassName: vols-gp2}}",
		"{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {namespace: vols, name: held, annotations: {pv.kubernetes.io/bind-completed: 'yes'}}, "+
			"spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, volumeName: vols-pv, storageClassName: vols-gp2}}",
		"{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {namespace: vols, name: new}, "+
			"spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: vols-gp2}}",
		pod("bound", "vols-node", "held"), pod("pending", "", "new"), pod("orphan", "", "gone"))
	objs, err := Read(t.Context(), srv.Config(apiservertest.Admin), Options{})
	require.NoError(t, err)
	c, err := kube.FromObjects(objs)
	require.NoError(t, err)
	var node *packing.Node
	for i := range c.Nodes {
		if c.Nodes[i].Name == "vols-node" {
			node = &c.Nodes[i]
		}
	}
	require.NotNil(t, node)
	assert.Equal(t, map[string]int32{"ebs.csi.aws.com": 25}, node.VolumeLimits)
	require.Len(t, node.Pods, 1)
	require.NotNil(t, node.Pods[0].Volumes)
	assert.Equal(t, []packing.Volume{{Driver: "ebs.csi.aws.com", Claim: "vols/held"}}, node.Pods[0].Volumes.Claims)
	pending := map[string][]packing.Volume{}
	for _, p := range c.Pods {
		if p.Namespace == "vols" {
			var claims []packing.Volume
			if p.Volumes != nil {
				claims = p.Volumes.Claims
			}
			pending[p.Name] = claims
		}
	}
	assert.Equal(t, map[string][]packing.Volume{
		"pending": {{Driver: "ebs.csi.aws.com", Claim: "vols/new"}},
		"orphan":  {{Claim: "vols/gone", Invalid: "PersistentVolumeClaim vols/gone is not in the input"}},
	}, pending)
}
