package kube

import (
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

func decodePool(t *testing.T, doc string) *NodePool {
	t.Helper()
	var np NodePool
	require.NoError(t, yaml.Unmarshal([]byte(doc), &np))
	return &np
}

func TestFromNodePool(t *testing.T) {
	np := decodePool(t, `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  weight: 10
  template:
    metadata: {labels: {team: a}}
    spec:
      expireAfter: Never
      terminationGracePeriod: 1h
      requirements:
        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m5, c5, r5], minValues: 2}
        - {key: karpenter.k8s.aws/instance-cpu, operator: Gt, values: ["3"]}
      taints: [{key: a, value: b, effect: NoSchedule}]
      startupTaints: [{key: s, effect: NoExecute}]
  limits: {cpu: "100", memory: 100Gi, nodes: "5"}
  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: 30s
    budgets:
      - {nodes: "0", schedule: "0 9 * * mon-fri", duration: 8h, reasons: [Drifted]}
      - {nodes: "20%"}
`)
	got, err := FromNodePool(np)
	require.NoError(t, err)
	assert.Equal(t, "general", got.Name)
	assert.Equal(t, int32(10), got.Weight)
	assert.Equal(t, map[string]string{"team": "a"}, got.Labels)
	fam := got.Requirements.Get(requirements.LabelInstanceFamily)
	assert.Equal(t, 2, fam.MinValues())
	assert.True(t, got.Requirements.Get(requirements.LabelInstanceCPU).Has("4"))
	assert.False(t, got.Requirements.Get(requirements.LabelInstanceCPU).Has("3"))
	assert.Equal(t, []requirements.Taint{{Key: "a", Value: "b", Effect: requirements.NoSchedule}}, got.Taints)
	assert.Equal(t, []requirements.Taint{{Key: "s", Effect: requirements.NoExecute}}, got.StartupTaints)
	assert.Equal(t, map[resources.Name]int64{resources.CPU: 100000, resources.Memory: 100 << 30, packing.LimitNodes: 5}, got.Limits)
	assert.Equal(t, packing.Disruption{Policy: packing.WhenEmpty, ConsolidateAfter: 30 * time.Second, ExpireNever: true,
		TerminationGracePeriod: time.Hour, Budgets: []packing.Budget{
			{Nodes: "0", Schedule: "0 9 * * mon-fri", Duration: 8 * time.Hour, Reasons: []string{"Drifted"}}, {Nodes: "20%"}}},
		got.Disruption)
}

func TestFromNodePoolErrors(t *testing.T) {
	tests := []struct{ name, spec, msg string }{
		{"weight", `{weight: 0}`, "NodePool np: spec.weight: 0 is outside 1..100"},
		{"hostname label", `{template: {metadata: {labels: {kubernetes.io/hostname: h}}}}`,
			`NodePool np: spec.template.metadata.labels["kubernetes.io/hostname"]: kubernetes.io/hostname is restricted`},
		{"hostname requirement", `{template: {spec: {requirements: [{key: kubernetes.io/hostname, operator: Exists}]}}}`,
			"NodePool np: spec.template.spec.requirements[0].key: kubernetes.io/hostname is restricted"},
		{"operator", `{template: {spec: {requirements: [{key: a, operator: Near}]}}}`,
			"NodePool np: spec.template.spec.requirements[0].operator: "},
		{"minValues", `{template: {spec: {requirements: [{key: a, operator: In, values: [x], minValues: 99}]}}}`,
			"NodePool np: spec.template.spec.requirements[0].minValues: invalid requirement: 99 outside 0..50"},
		{"taint effect", `{template: {spec: {taints: [{key: a, effect: Soon}]}}}`, "NodePool np: spec.template.spec.taints[0].effect: "},
		{"startup taint", `{template: {spec: {startupTaints: [{key: a}]}}}`, "NodePool np: spec.template.spec.startupTaints[0].effect: invalid requirement: must be NoSchedule, PreferNoSchedule or NoExecute"},
		{"limit", `{limits: {cpu: "-2"}}`, "NodePool np: spec.limits: "},
		{"policy", `{disruption: {consolidationPolicy: Often}}`,
			`NodePool np: spec.disruption.consolidationPolicy: "Often" is not WhenEmptyOrUnderutilized, WhenEmpty or Balanced`},
		{"consolidateAfter", `{disruption: {consolidateAfter: soon}}`, `NodePool np: spec.disruption.consolidateAfter: "soon" is not a non-negative duration`},
		{"expireAfter", `{template: {spec: {expireAfter: "-1h"}}}`, `NodePool np: spec.template.spec.expireAfter: "-1h" is not a non-negative duration`},
		{"terminationGracePeriod", `{template: {spec: {terminationGracePeriod: Never}}}`,
			`NodePool np: spec.template.spec.terminationGracePeriod: "Never" is not a non-negative duration`},
		{"budget nodes", `{disruption: {budgets: [{nodes: "150%"}]}}`, `NodePool np: spec.disruption.budgets[0].nodes: "150%" is not a count or a percentage`},
		{"budget schedule without duration", `{disruption: {budgets: [{nodes: "1", schedule: "@daily"}]}}`,
			"NodePool np: spec.disruption.budgets[0]: schedule and duration must be set together"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromNodePool(decodePool(t, "metadata: {name: np}\nspec: "+tc.spec))
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestRequirementsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   []Requirement
	}{
		{"in", []Requirement{{Key: "a", Operator: "In", Values: []string{"x", "y"}}}},
		{"notin", []Requirement{{Key: "a", Operator: "NotIn", Values: []string{"x"}}}},
		{"exists", []Requirement{{Key: "a", Operator: "Exists"}}},
		{"does not exist", []Requirement{{Key: "a", Operator: "DoesNotExist"}}},
		{"bounds", []Requirement{{Key: "a", Operator: "Gt", Values: []string{"2"}}, {Key: "a", Operator: "Lt", Values: []string{"9"}}}},
		{"notin and bound", []Requirement{{Key: "a", Operator: "NotIn", Values: []string{"5"}}, {Key: "a", Operator: "Gt", Values: []string{"2"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set, err := poolRequirements(tc.in)
			require.NoError(t, err)
			var out []Requirement
			for r := range set.All() {
				out = append(out, Requirements(r)...)
			}
			back, err := poolRequirements(out)
			require.NoError(t, err)
			assert.Equal(t, set.String(), back.String())
			for _, v := range []string{"", "x", "y", "1", "2", "3", "5", "8", "9"} {
				assert.Equal(t, set.Get("a").Has(v), back.Get("a").Has(v), "value %q", v)
			}
		})
	}
}
