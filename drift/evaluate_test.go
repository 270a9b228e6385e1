package drift_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
)

func expr(key string, op requirements.Operator, vals ...string) requirements.Requirement {
	return requirements.MustNew(key, op, vals...)
}

func withReqs(reqs ...requirements.Requirement) func(*drift.Input) {
	return func(in *drift.Input) { in.NodePools[0].NodePool.Requirements = requirements.NewSet(reqs...) }
}

// TestEvaluate restates behaviours of Karpenter's nodeclaim drift and
// expiration suites, and its AWS provider's NodeClass drift, as tables.
func TestEvaluate(t *testing.T) {
	od := expr(requirements.LabelCapacityType, requirements.In, "on-demand")
	tests := []struct {
		name   string
		change func(*drift.Input)
		after  time.Duration // now = t0 + after; default 2h
		want   []string
	}{
		{name: "a node that matches its NodePool and NodeClass is not drifted", want: []string{}},
		{name: "an instance type the provider no longer lists is gone",
			change: func(in *drift.Input) { in.Nodes[0].Node.InstanceType = "m4.large" }, want: []string{"n1:InstanceTypeGone"}},
		{name: "instance type gone is not checked in the first hour",
			change: func(in *drift.Input) { in.Nodes[0].Node.InstanceType = "m4.large" }, after: 59 * time.Minute, want: []string{}},
		{name: "a node without an instance type is gone",
			change: func(in *drift.Input) { in.Nodes[0].Node.InstanceType = "" }, want: []string{"n1:InstanceTypeGone"}},
		{name: "a type with no offering in the node's zone is gone",
			change: func(in *drift.Input) { in.Nodes[0].Node.Zone = "zone-z" }, want: []string{"n1:InstanceTypeGone"}},
		{name: "an unavailable offering still counts as offered",
			change: func(in *drift.Input) {
				var err error
				in.Catalog, err = in.Catalog.WithAvailability(instancetypes.OfferingKey{InstanceType: "m5.large", Zone: "zone-a"})
				require.NoError(t, err)
			}, want: []string{}},
		{name: "a reserved node is matched by an on-demand offering",
			change: func(in *drift.Input) {
				in.Nodes[0].Node.CapacityType = instancetypes.Reserved
				in.Nodes[0].Node.Labels[requirements.LabelCapacityType] = "on-demand"
			}, want: []string{}},
		{name: "static drift is reported before NodeClass drift",
			change: func(in *drift.Input) {
				in.NodePools[0].NodePool.Labels = map[string]string{"team": "api"}
				in.Nodes[0].Image = "ami-ancient"
			}, want: []string{"n1:NodePoolDrifted", "n1:ImageDrifted"}},
		{name: "an unlaunched NodeClaim is never drifted",
			change: func(in *drift.Input) { in.Nodes[0].Unlaunched = true; in.Nodes[0].Image = "ami-ancient" }, want: []string{}},
		{name: "a node whose NodePool does not exist is not drifted",
			change: func(in *drift.Input) { in.Nodes[0].Node.NodePool = "gone" }, want: []string{}},
		{name: "a changed requirement drifts the node", change: withReqs(expr(requirements.LabelCapacityType, requirements.In, "spot")),
			want: []string{"n1:RequirementsDrifted"}},
		{name: "an added requirement on a label the node lacks drifts it",
			change: withReqs(od, expr(requirements.LabelArch, requirements.In, "amd64")), want: []string{"n1:RequirementsDrifted"}},
		{name: "a narrowed requirement that excludes the node drifts it",
			change: withReqs(od, expr(requirements.LabelOS, requirements.In, "windows")), want: []string{"n1:RequirementsDrifted"}},
		{name: "a widened requirement does not drift the node",
			change: withReqs(od, expr(requirements.LabelOS, requirements.In, "linux", "windows")), want: []string{}},
		{name: "a requirement relaxed to Exists does not drift the node",
			change: withReqs(od, expr(requirements.LabelOS, requirements.Exists)), want: []string{}},
		{name: "a requirement turned to DoesNotExist drifts a node with the label",
			change: withReqs(od, expr(requirements.LabelOS, requirements.DoesNotExist)), want: []string{"n1:RequirementsDrifted"}},
		{name: "Gt above the node's value drifts it",
			change: func(in *drift.Input) {
				in.Nodes[0].Node.Labels["test-label"] = "5"
				withReqs(od, expr("test-label", requirements.Gt, "10"))(in)
			}, want: []string{"n1:RequirementsDrifted"}},
		{name: "Lt below the node's value drifts it",
			change: func(in *drift.Input) {
				in.Nodes[0].Node.Labels["test-label"] = "2"
				withReqs(od, expr("test-label", requirements.Lt, "1"))(in)
			}, want: []string{"n1:RequirementsDrifted"}},
		{name: "requirement drift reads the node's fields when labels lack them",
			change: func(in *drift.Input) {
				delete(in.Nodes[0].Node.Labels, requirements.LabelCapacityType)
				withReqs(od)(in)
			}, want: []string{}},
		{name: "requirement drift reads a beta label under its stable key, over the node's field (packing.Node.Label)",
			change: func(in *drift.Input) {
				delete(in.Nodes[0].Node.Labels, requirements.LabelZone)
				in.Nodes[0].Node.Labels["failure-domain.beta.kubernetes.io/zone"] = "zone-b"
				withReqs(od, expr(requirements.LabelZone, requirements.In, in.Nodes[0].Node.Zone))(in)
			}, want: []string{"n1:RequirementsDrifted"}},
		{name: "a changed requirement alone does not change the hash",
			change: withReqs(od, expr(requirements.LabelOS, requirements.In, "linux", "windows")), want: []string{}},
		{name: "no static drift when the node has no hash",
			change: func(in *drift.Input) { in.Nodes[0].NodePoolHash = ""; in.NodePools[0].Annotations = nil }, want: []string{}},
		{name: "no static drift when the node has no hash version",
			change: func(in *drift.Input) { in.Nodes[0].NodePoolHashVersion = ""; in.NodePools[0].Annotations = nil }, want: []string{}},
		{name: "no static drift when the hash versions differ",
			change: func(in *drift.Input) { in.Nodes[0].NodePoolHashVersion = "v0"; in.NodePools[0].Annotations = nil }, want: []string{}},
		{name: "an image the NodeClass no longer resolves drifts the node",
			change: func(in *drift.Input) { in.Nodes[0].Image = "ami-ancient" }, want: []string{"n1:ImageDrifted"}},
		{name: "a subnet the NodeClass no longer resolves drifts the node",
			change: func(in *drift.Input) { in.Nodes[0].Subnet = "subnet-z" }, want: []string{"n1:SubnetDrifted"}},
		{name: "a removed security group drifts the node",
			change: func(in *drift.Input) { in.Nodes[0].SecurityGroups = []string{"sg-1", "sg-2", "sg-3"} }, want: []string{"n1:SecurityGroupsDrifted"}},
		{name: "an added security group drifts the node",
			change: func(in *drift.Input) { in.Nodes[0].SecurityGroups = []string{"sg-1"} }, want: []string{"n1:SecurityGroupsDrifted"}},
		{name: "a changed NodeClass spec drifts the node",
			change: func(in *drift.Input) {
				c := in.NodeClasses["default"]
				c.UserDataHash = "ud2"
				in.NodeClasses["default"] = c
			},
			want: []string{"n1:NodeClassDrifted"}},
		{name: "no NodeClass hash drift across hash versions",
			change: func(in *drift.Input) {
				c := in.NodeClasses["default"]
				c.UserDataHash = "ud2"
				in.NodeClasses["default"] = c
				in.Nodes[0].NodeClassHashVersion = "v0"
			}, want: []string{}},
		{name: "a missing NodeClass checks nothing of it",
			change: func(in *drift.Input) { in.NodeClasses = nil; in.Nodes[0].Image = "ami-ancient" }, want: []string{}},
		{name: "expireAfter Never never expires",
			change: func(in *drift.Input) {
				in.NodePools[0].NodePool.Disruption.ExpireNever = true
				in.Nodes[0].NodePoolHash = ""
			},
			after: 10000 * time.Hour, want: []string{}},
		{name: "a node younger than expireAfter is not expired", after: 719 * time.Hour, want: []string{}},
		{name: "the zero expireAfter is 720h and expires on the instant", after: 720 * time.Hour, want: []string{"n1:Expired"}},
		{name: "a node marked for deletion is not expired again",
			change: func(in *drift.Input) { in.Nodes[0].Node.MarkedForDeletion = true }, after: 800 * time.Hour, want: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := input(state("n1"))
			if tc.change != nil {
				tc.change(&in)
			}
			after := tc.after
			if after == 0 {
				after = 2 * time.Hour
			}
			got := evaluate(t, in, t0.Add(after))
			assert.Equal(t, tc.want, reasons(got))
			for _, f := range got {
				assert.NotEmpty(t, f.Message)
				assert.Equal(t, "default", f.NodePool)
			}
		})
	}
}

// TestStaticFieldsDrift changes each hashed field in turn, as Karpenter's
// static drift table does.
func TestStaticFieldsDrift(t *testing.T) {
	tests := []struct {
		name   string
		change func(*drift.Template)
	}{
		{"labels", func(t *drift.Template) { t.NodePool.Labels = map[string]string{"team": "web", "k": "v"} }},
		{"annotations", func(t *drift.Template) { t.Annotations = map[string]string{"owner": "dev"} }},
		{"taints", func(t *drift.Template) {
			t.NodePool.Taints = []requirements.Taint{{Key: "k", Effect: requirements.NoExecute}}
		}},
		{"startup taints", func(t *drift.Template) {
			t.NodePool.StartupTaints = []requirements.Taint{{Key: "k", Effect: requirements.NoExecute}}
		}},
		{"nodeClassRef name", func(t *drift.Template) { t.NodeClassRef.Name = "other" }},
		{"expireAfter", func(t *drift.Template) { t.NodePool.Disruption.ExpireAfter = 100 * time.Minute }},
		{"terminationGracePeriod", func(t *drift.Template) { t.NodePool.Disruption.TerminationGracePeriod = time.Hour }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := input(state("n1"))
			other := nodeClass()
			other.Name = "other"
			in.NodeClasses["other"] = other
			tc.change(&in.NodePools[0])
			got := evaluate(t, in, t0.Add(time.Minute))
			require.NotEmpty(t, got)
			assert.Equal(t, drift.NodePoolDrifted, got[0].Reason)
		})
	}
}

func TestGracefulExpiration(t *testing.T) {
	in := input(state("n1"))
	in.Expiration.GracePeriod = 24 * time.Hour
	at := t0.Add(720 * time.Hour)
	f := evaluate(t, in, at.Add(time.Hour))
	require.Len(t, f, 1)
	assert.False(t, f[0].Forceful, "graceful inside the grace period")
	assert.Equal(t, at, f[0].Since)
	assert.Equal(t, at.Add(24*time.Hour), f[0].Deadline)
	f = evaluate(t, in, at.Add(24*time.Hour))
	require.Len(t, f, 1)
	assert.True(t, f[0].Forceful, "forceful from the deadline on")
	in.Expiration = drift.Expiration{}
	f = evaluate(t, in, at)
	assert.True(t, f[0].Forceful, "forceful by default, as Karpenter v1")
}

func TestDriftedSinceOrdersFindings(t *testing.T) {
	s := state("n1")
	s.Image = "ami-ancient"
	s.DriftedSince = t0.Add(time.Minute)
	f := evaluate(t, input(s), t0.Add(2*time.Hour))
	require.Len(t, f, 1)
	assert.Equal(t, s.DriftedSince, f[0].Since)
	s.DriftedSince = time.Time{}
	f = evaluate(t, input(s), t0.Add(2*time.Hour))
	assert.Equal(t, t0.Add(2*time.Hour), f[0].Since, "zero DriftedSince means now")
}

func TestEvaluateDoesNotModifyInput(t *testing.T) {
	s := state("n1")
	delete(s.Node.Labels, requirements.LabelZone)
	s.SecurityGroups = []string{"sg-2", "sg-1"}
	in := input(s)
	evaluate(t, in, t0.Add(2*time.Hour))
	assert.Equal(t, []string{"sg-2", "sg-1"}, in.Nodes[0].SecurityGroups)
	_, has := in.Nodes[0].Node.Labels[requirements.LabelZone]
	assert.False(t, has)
}

func TestValidate(t *testing.T) {
	in := input(state("n1"), state("n1"), state(""))
	in.NodeClasses["x"] = drift.NodeClass{Name: "y"}
	err := in.Validate()
	require.Error(t, err)
	assert.True(t, errors.Is(err, drift.ErrInvalid))
	var fe *drift.FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "nodes[1]", fe.Object)
	assert.Contains(t, err.Error(), "nodes[2]: node.name: is empty")
	assert.Contains(t, err.Error(), `NodeClass x: name: is "y"`)
	assert.NoError(t, input(state("n1")).Validate())
}

func TestReasonString(t *testing.T) {
	assert.Equal(t, "NodePoolDrifted", drift.NodePoolDrifted.String())
	assert.Equal(t, "Interrupted", drift.Interrupted.String())
	assert.Equal(t, "Reason(0)", drift.Reason(0).String())
	assert.Equal(t, "Reason(200)", drift.Reason(200).String())
	assert.True(t, drift.NodeClassDrifted.Drift())
	assert.False(t, drift.Expired.Drift())
	assert.Equal(t, "Expired", drift.Expired.Budget().String())
	assert.Equal(t, "Drifted", drift.SubnetDrifted.Budget().String())
}
