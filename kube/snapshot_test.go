package kube_test

import (
	"os"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func loadFile(t *testing.T, name string) kube.Cluster {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	c, err := kube.Load(kube.Source{Name: name, Data: data})
	require.NoError(t, err)
	return c
}

func TestConsolidationSnapshot(t *testing.T) {
	c := loadFile(t, "testdata/consolidate.yaml")
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	now, err := c.Newest()
	require.NoError(t, err)
	assert.Equal(t, time.Date(2025, 6, 1, 11, 58, 0, 0, time.UTC), now.UTC())
	cl, err := c.Consolidation(cat, now)
	require.NoError(t, err)
	assert.Len(t, cl.Nodes, 7)
	assert.Len(t, cl.PDBs, 1)
	assert.True(t, now.Equal(cl.Now))
	assert.True(t, now.Equal(cl.LastPodEvent["fresh"]), "the fresh pod is the node's last event")
	assert.True(t, time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC).Equal(cl.LastPodEvent["idle-1"]), "the newest pod of the node")
	for _, n := range cl.Nodes {
		if n.NodePool != "" {
			assert.Positive(t, n.Price, n.Name)
		}
	}
}

func TestDriftSnapshot(t *testing.T) {
	c := loadFile(t, "testdata/drift.yaml")
	cl, warnings, err := c.Drift(nil)
	require.NoError(t, err)
	assert.Empty(t, warnings)
	require.Len(t, cl.Nodes, 4)
	s := cl.Nodes[0]
	assert.Equal(t, "node-old-ami", s.Node.Name)
	assert.Equal(t, "ami-0old", s.Image)
	assert.Equal(t, "subnet-0a", s.Subnet)
	assert.Equal(t, []string{"sg-0node"}, s.SecurityGroups)
	assert.False(t, s.Unlaunched)
	assert.Equal(t, 2*time.Minute, s.PodGracePeriods["default/web-1"])
	require.Contains(t, cl.NodeClasses, "default")
	nc := cl.NodeClasses["default"]
	assert.Equal(t, []string{"ami-0new"}, nc.ImageIDs)
	require.Len(t, nc.BlockDevices, 1)
	assert.Equal(t, int64(20), nc.BlockDevices[0].VolumeSizeGiB)
	assert.Equal(t, "default", cl.NodePools[0].NodeClassRef.Name)
}

func TestClaimWithoutNode(t *testing.T) {
	c, err := kube.Load(kube.Source{Name: "c.yaml", Data: []byte(`apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: nc-1, creationTimestamp: "2025-01-01T00:00:00Z"}
status:
  nodeName: gone
  conditions: [{type: Launched, status: "False", reason: Pending, message: "", lastTransitionTime: "2025-01-01T00:00:00Z"}]
`)})
	require.NoError(t, err)
	require.Len(t, c.NodeClaims, 1)
	assert.False(t, c.NodeClaims[0].Launched)
	_, warnings, err := c.Drift(nil)
	require.NoError(t, err)
	assert.Equal(t, []string{`skipped 1 NodeClaim: their node is not in the input: nc-1 (node "gone")`}, warnings)
}

func TestNewestEmpty(t *testing.T) {
	_, err := (&kube.Cluster{}).Newest()
	assert.ErrorIs(t, err, kube.ErrNoTimestamp)
}

func TestEC2NodeClassErrors(t *testing.T) {
	tests := []struct {
		name  string
		class kube.EC2NodeClass
		field string
	}{
		{"no name", kube.EC2NodeClass{}, "metadata.name"},
		{"empty term", kube.EC2NodeClass{Metadata: kube.ObjectMeta{Name: "c"},
			Spec: kube.EC2NodeClassSpec{SecurityGroupSelectorTerms: []kube.SelectorTerm{{ID: "sg-1"}, {}}}}, "spec.securityGroupSelectorTerms[1]"},
		{"bad volume", kube.EC2NodeClass{Metadata: kube.ObjectMeta{Name: "c"},
			Spec: kube.EC2NodeClassSpec{BlockDeviceMappings: []kube.BlockDeviceMapping{{EBS: &kube.EBSVolume{VolumeSize: "-1Gi"}}}}}, "spec.blockDeviceMappings[0].ebs.volumeSize"},
		{"subnet without id", kube.EC2NodeClass{Metadata: kube.ObjectMeta{Name: "c"},
			Status: kube.EC2NodeClassStatus{Subnets: []kube.ResolvedSubnet{{Zone: "z"}}}}, "status.subnets[0].id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.class.NodeClass()
			var oe *kube.ObjectError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, tc.field, oe.Field)
			assert.ErrorIs(t, err, kube.ErrInvalid)
		})
	}
}
