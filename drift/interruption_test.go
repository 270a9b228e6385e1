package drift_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
)

func spotNode(name string) drift.NodeClaimState {
	s := state(name, pod(name+"-p", "1500m"))
	s.Node.CapacityType, s.Node.InstanceType = instancetypes.Spot, "c5.large"
	s.Node.Labels["karpenter.sh/capacity-type"] = "spot"
	return s
}

func TestInterruption(t *testing.T) {
	spot := drift.Notice{Kind: drift.SpotInterruption, Node: "s1", Time: now}
	key := instancetypes.OfferingKey{InstanceType: "c5.large", Zone: "zone-a", CapacityType: instancetypes.Spot}
	t.Run("a spot notice marks the offering, drains the node and replaces it elsewhere", func(t *testing.T) {
		cl := cluster(spotNode("s1"))
		p, err := drift.Interruption([]drift.Notice{spot}, clusterAt(cl, now), cl.Catalog, time.Minute)
		require.NoError(t, err)
		assert.Equal(t, []drift.MarkedOffering{{Key: key, Until: now.Add(3 * time.Minute)}}, p.Unavailable)
		require.Len(t, p.Findings, 1)
		assert.Equal(t, drift.Interrupted, p.Findings[0].Reason)
		require.Len(t, p.Replacement.NodeClaims, 1)
		c := p.Replacement.NodeClaims[0]
		assert.False(t, c.InstanceType == key.InstanceType && c.Offering.Zone == key.Zone && c.Offering.CapacityType == key.CapacityType)
		it, _ := p.Catalog.Get("c5.large")
		for _, o := range it.Offerings {
			if o.Zone == "zone-a" && o.CapacityType == instancetypes.Spot {
				assert.False(t, o.Available)
			}
		}
		assert.Equal(t, now.Add(2*time.Minute), p.Deadline)
		assert.Equal(t, now.Add(time.Minute), p.ReadyAt)
		assert.True(t, p.Ready)
		assert.Equal(t, "interruption-replacement-1", p.Homes[0].NodeClaim)
	})
	t.Run("a slow launch misses the two-minute warning", func(t *testing.T) {
		cl := cluster(spotNode("s1"))
		p, err := drift.Interruption([]drift.Notice{spot}, clusterAt(cl, now), cl.Catalog, 150*time.Second)
		require.NoError(t, err)
		assert.False(t, p.Ready)
	})
	t.Run("pods that fit on existing nodes are ready at once", func(t *testing.T) {
		cl := cluster(spotNode("s1"), state("spare"))
		p, err := drift.Interruption([]drift.Notice{spot}, clusterAt(cl, now), cl.Catalog, time.Hour)
		require.NoError(t, err)
		assert.Empty(t, p.Replacement.NodeClaims)
		assert.Equal(t, "spare", p.Homes[0].Node)
		assert.True(t, p.Ready)
	})
	t.Run("a rebalance recommendation does nothing", func(t *testing.T) {
		cl := cluster(spotNode("s1"))
		p, err := drift.Interruption([]drift.Notice{{Kind: drift.RebalanceRecommendation, Node: "s1"}}, clusterAt(cl, now), cl.Catalog, 0)
		require.NoError(t, err)
		assert.Empty(t, p.Findings)
		assert.Empty(t, p.Unavailable)
		assert.False(t, p.Actions[0].Drain)
	})
	t.Run("a stopping instance drains, a running one does not", func(t *testing.T) {
		cl := cluster(state("n1"), state("n2"))
		p, err := drift.Interruption([]drift.Notice{{Kind: drift.StateChange, Node: "n1", State: "stopping"},
			{Kind: drift.StateChange, Node: "n2", State: "running"}}, clusterAt(
			cl, now),
			cl.Catalog, 0)

		require.NoError(t, err)
		assert.Equal(t, []string{"n1:Interrupted"}, reasons(p.Findings))
		assert.Empty(t, p.Unavailable, "only spot interruptions mark offerings")
	})
	t.Run("scheduled maintenance sets the deadline", func(t *testing.T) {
		cl := cluster(state("n1"))
		start := now.Add(time.Hour)
		p, err := drift.Interruption([]drift.Notice{{Kind: drift.ScheduledChange, Node: "n1", Start: start}}, clusterAt(cl, now), cl.Catalog, time.Minute)
		require.NoError(t, err)
		assert.Equal(t, start, p.Deadline)
		assert.True(t, p.Ready)
	})
	t.Run("duplicate notices mark once, unknown nodes are ignored", func(t *testing.T) {
		cl := cluster(spotNode("s1"))
		p, err := drift.Interruption([]drift.Notice{spot, spot, {Node: "ghost"}}, clusterAt(cl, now), cl.Catalog, 0)
		require.NoError(t, err)
		assert.Len(t, p.Unavailable, 1)
		assert.Len(t, p.Findings, 1)
		assert.Contains(t, p.Actions[2].Message, "not in the cluster")
	})
	t.Run("bad notices are errors naming them", func(t *testing.T) {
		_, err := drift.Interruption([]drift.Notice{{Kind: 9, Node: ""}}, clusterAt(cluster(), now), nil, -time.Second)
		require.Error(t, err)
		assert.True(t, errors.Is(err, drift.ErrInvalid))
		assert.Contains(t, err.Error(), "notices[0]: node: is empty")
		assert.Contains(t, err.Error(), "notices[0]: kind")
		assert.Contains(t, err.Error(), "launchLatency")
		cl := cluster(spotNode("s1"))
		_, err = drift.Interruption([]drift.Notice{spot}, clusterAt(cl, now), nil, 0)
		assert.ErrorIs(t, err, drift.ErrInvalid)
	})
	t.Run("notice kinds have names", func(t *testing.T) {
		assert.Equal(t, "ScheduledChange", drift.ScheduledChange.String())
		assert.Equal(t, "NoticeKind(9)", drift.NoticeKind(9).String())
	})
}

func TestEC2NodeClass(t *testing.T) {
	c := drift.EC2NodeClass{Name: "default",
		Spec: drift.EC2NodeClassSpec{InstanceProfile: "prof", UserData: "#!/bin/sh", Tags: map[string]string{"a": "b"}},
		Status: drift.EC2NodeClassStatus{AMIs: []drift.AMI{{ID: "ami-2"}, {ID: "ami-1"}}, Subnets: []drift.Subnet{{ID: "subnet-1", Zone: "zone-a"}},
			SecurityGroups: []drift.SecurityGroup{{ID: "sg-1"}}}}
	nc, err := c.NodeClass()
	require.NoError(t, err)
	assert.Equal(t, []string{"ami-1", "ami-2"}, nc.ImageIDs)
	assert.Equal(t, "instance-profile/prof", nc.Role)
	assert.Len(t, nc.UserDataHash, 64)
	c.Spec.UserData = "#!/bin/bash"
	nc2, err := c.NodeClass()
	require.NoError(t, err)
	assert.NotEqual(t, nc.Hash(), nc2.Hash(), "user data is hashed")
	c.Name = ""
	c.Status.Subnets = append(c.Status.Subnets, drift.Subnet{})
	_, err = c.NodeClass()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "status.subnets[1].id")
	assert.Contains(t, err.Error(), "name: is empty")
}
