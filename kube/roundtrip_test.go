package kube

import (
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// checkQuantities asserts the round-trip property of Quantities on l: each
// string it writes is read back by nodeplan (resources.ParseQuantity) and
// by Kubernetes (apimachinery's resource.ParseQuantity) to the value of l
// (math.MinInt64 to math.MinInt64+1, see Quantities), and a non-negative
// list comes back whole through resources.Parse.
func checkQuantities(t *testing.T, l resources.List) {
	t.Helper()
	written := Quantities(l)
	want := func(n resources.Name) int64 { return max(l.Get(n), math.MinInt64+1) }
	nonZero := 0
	for _, n := range []resources.Name{resources.CPU, resources.Memory, resources.EphemeralStorage, resources.Pods} {
		if l.Get(n) != 0 {
			nonZero++
		}
	}
	for range l.Extended() {
		nonZero++
	}
	require.Len(t, written, nonZero, "every non-zero dimension is written: %v", written)
	negative := false
	for name, s := range written {
		n := resources.Name(name)
		negative = negative || want(n) < 0
		q, err := resources.ParseQuantity(s)
		require.NoError(t, err, "nodeplan reads %s=%q", name, s)
		k, err := resource.ParseQuantity(s)
		require.NoError(t, err, "Kubernetes reads %s=%q", name, s)
		// apimachinery's Value and MilliValue overflow near ±2^63; Cmp is exact.
		if n == resources.CPU {
			assert.Equal(t, want(n), q.MilliValue(), "nodeplan: %s=%q", name, s)
			assert.Zero(t, k.Cmp(*resource.NewMilliQuantity(want(n), resource.DecimalSI)), "Kubernetes: %s=%q is %v", name, s, k.AsDec())
		} else {
			assert.Equal(t, want(n), q.Value(), "nodeplan: %s=%q", name, s)
			assert.Zero(t, k.Cmp(*resource.NewQuantity(want(n), resource.DecimalSI)), "Kubernetes: %s=%q is %v", name, s, k.AsDec())
		}
	}
	if negative {
		return
	}
	m := map[resources.Name]string{}
	for name, s := range written {
		m[resources.Name(name)] = s
	}
	back, err := resources.Parse(m)
	require.NoError(t, err)
	assert.True(t, l.Equal(back), "wrote %v, read %v", l, back)
}

func TestQuantitiesRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		l    resources.List
	}{
		{"zero", resources.List{}},
		{"typical", resources.List{CPU: 1500, Memory: 3 << 30, EphemeralStorage: 20e9, Pods: 110}},
		{"odd bytes", resources.List{Memory: 1023, EphemeralStorage: 1025}},
		{"largest", resources.List{CPU: math.MaxInt64, Memory: math.MaxInt64, EphemeralStorage: math.MaxInt64, Pods: math.MaxInt64}},
		{"largest binary", resources.List{Memory: math.MaxInt64 &^ 1023}},
		{"most negative (issue 20.13)", resources.List{CPU: math.MinInt64, Memory: math.MinInt64, Pods: math.MinInt64}},
		{"negative", resources.List{CPU: -1, Memory: -1024, EphemeralStorage: -7}},
		{"extended", resources.New(resources.Amount{Name: resources.GPU, Value: 8}, resources.Amount{Name: "example.com/dongle", Value: math.MaxInt64},
			resources.Amount{Name: resources.Neuron, Value: math.MinInt64})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkQuantities(t, tc.l) })
	}
}

// FuzzQuantitiesRoundTrip is the round-trip property of Quantities on
// every list.
func FuzzQuantitiesRoundTrip(f *testing.F) {
	for _, v := range []int64{0, 1, -1, 999, 1000, 1023, 1024, 1 << 30, 1<<62 + 1, math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1} {
		f.Add(v, v, v, v, v)
	}
	f.Fuzz(func(t *testing.T, cpu, mem, eph, pods, gpu int64) {
		checkQuantities(t, resources.New(resources.Amount{Name: resources.CPU, Value: cpu}, resources.Amount{Name: resources.Memory, Value: mem},
			resources.Amount{Name: resources.EphemeralStorage, Value: eph}, resources.Amount{Name: resources.Pods, Value: pods},
			resources.Amount{Name: resources.GPU, Value: gpu}))
	})
}

// karpenterValid applies the rules Karpenter v1.14.1 puts on a NodeClaim
// requirement (its CRD's CEL rules and ValidateRequirement): a supported
// operator; In with values; Exists and DoesNotExist without; Gt, Lt, Gte
// and Lte with one non-negative integer; minValues at most the In values.
func karpenterValid(r Requirement) bool {
	switch r.Operator {
	case "In":
		return len(r.Values) > 0 && (r.MinValues == nil || *r.MinValues <= len(r.Values))
	case "NotIn":
		return len(r.Values) > 0
	case "Exists", "DoesNotExist":
		return len(r.Values) == 0
	case "Gt", "Lt", "Gte", "Lte":
		if len(r.Values) != 1 {
			return false
		}
		n, err := strconv.Atoi(r.Values[0])
		return err == nil && n >= 0
	}
	return false
}

// karpenterHas is whether a label value v satisfies every requirement rs
// on one key as Karpenter's requirement operators read them (a value that
// is not an integer satisfies no bound).
func karpenterHas(rs []Requirement, v string) bool {
	n, err := strconv.Atoi(v)
	for _, r := range rs {
		var ok bool
		switch r.Operator {
		case "In":
			ok = slices.Contains(r.Values, v)
		case "NotIn":
			ok = !slices.Contains(r.Values, v)
		case "Exists":
			ok = true
		case "Gt", "Lt", "Gte", "Lte":
			b, _ := strconv.Atoi(r.Values[0])
			ok = err == nil && map[string]bool{"Gt": n > b, "Lt": n < b, "Gte": n >= b, "Lte": n <= b}[r.Operator]
		}
		if !ok {
			return false
		}
	}
	return true
}

// checkRequirement asserts the round-trip property of Requirements on r:
// every requirement written is valid for Karpenter; requirements.Parse
// reads them back to r; Karpenter's operators accept exactly the values r
// accepts.
func checkRequirement(t *testing.T, r requirements.Requirement, probes []string) {
	t.Helper()
	written := Requirements(r)
	for _, w := range written {
		assert.True(t, karpenterValid(w), "Karpenter rejects %+v written for %v", w, r)
	}
	back, err := poolRequirements(written)
	require.NoError(t, err, "requirements.Parse reads %+v written for %v", written, r)
	got := back.Get(r.Key())
	assert.Equal(t, r.String(), got.String(), "written %+v", written)
	for _, v := range probes {
		assert.Equal(t, r.Has(v), got.Has(v), "nodeplan, value %q", v)
		assert.Equal(t, r.Has(v), karpenterHas(written, v), "Karpenter, value %q, written %+v", v, written)
	}
}

func boundProbes(ns ...int64) []string {
	out := []string{"a", "", "-1", "0", "1", strconv.FormatInt(math.MaxInt64, 10)}
	for _, n := range ns {
		for _, d := range []int64{-1, 0, 1} {
			if v := n + d; (d < 0 && v < n) || (d > 0 && v > n) || d == 0 {
				out = append(out, strconv.FormatInt(v, 10))
			}
		}
	}
	return out
}

func TestRequirementsWritten(t *testing.T) {
	const key = requirements.LabelInstanceCPU
	must := func(op requirements.Operator, v ...string) requirements.Requirement {
		return requirements.MustNew(key, op, v...)
	}
	tests := []struct {
		name  string
		r     requirements.Requirement
		wrote []Requirement
	}{
		{"Gte 0 (issue 20.13)", must(requirements.Gte, "0"), []Requirement{{Key: key, Operator: "Gte", Values: []string{"0"}}}},
		{"Gt 0", must(requirements.Gt, "0"), []Requirement{{Key: key, Operator: "Gt", Values: []string{"0"}}}},
		{"Lt 0", must(requirements.Lt, "0"), []Requirement{{Key: key, Operator: "Lt", Values: []string{"0"}}}},
		{"Lte max", must(requirements.Lte, "9223372036854775807"), []Requirement{{Key: key, Operator: "Lte", Values: []string{"9223372036854775807"}}}},
		{"Gte max", must(requirements.Gte, "9223372036854775807"), []Requirement{{Key: key, Operator: "Gt", Values: []string{"9223372036854775806"}}}},
		{"Lte 0", must(requirements.Lte, "0"), []Requirement{{Key: key, Operator: "Lt", Values: []string{"1"}}}},
		{"range", must(requirements.Gte, "0").Intersect(must(requirements.Lt, "8")),
			[]Requirement{{Key: key, Operator: "Gte", Values: []string{"0"}}, {Key: key, Operator: "Lt", Values: []string{"8"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.wrote, Requirements(tc.r))
			gte, _, lte, _ := tc.r.Bounds()
			checkRequirement(t, tc.r, boundProbes(gte, lte))
		})
	}
}

// FuzzRequirementsRoundTrip is the round-trip property of Requirements on
// the intersection of two requirements on one key, each of any operator
// and any valid operand.
func FuzzRequirementsRoundTrip(f *testing.F) {
	f.Add(uint8(requirements.Gte), int64(0), uint8(requirements.Lte), int64(5), "1,2,9")
	f.Add(uint8(requirements.Gt), int64(math.MaxInt64), uint8(requirements.NotIn), int64(3), "3")
	f.Add(uint8(requirements.Lt), int64(0), uint8(requirements.Exists), int64(0), "")
	f.Add(uint8(requirements.In), int64(7), uint8(requirements.Gte), int64(7), "7,8,x")
	f.Add(uint8(requirements.Lte), int64(math.MaxInt64), uint8(requirements.DoesNotExist), int64(0), "")
	f.Fuzz(func(t *testing.T, op1 uint8, n1 int64, op2 uint8, n2 int64, values string) {
		const key = requirements.LabelInstanceGeneration
		build := func(op uint8, n int64) (requirements.Requirement, bool) {
			o := requirements.Operator(op % 8)
			var vals []string
			switch o {
			case requirements.In, requirements.NotIn:
				vals = append(strings.Split(values, ","), strconv.FormatInt(max(n, 0), 10))
			case requirements.Gt, requirements.Lt, requirements.Gte, requirements.Lte:
				vals = []string{strconv.FormatInt(max(n, 0), 10)}
			}
			r, err := requirements.New(key, o, vals...)
			return r, err == nil
		}
		a, ok1 := build(op1, n1)
		b, ok2 := build(op2, n2)
		if !ok1 || !ok2 {
			return // not a valid requirement (a value that is not a label value)
		}
		checkRequirement(t, a.Intersect(b), append(boundProbes(max(n1, 0), max(n2, 0)), strings.Split(values, ",")...))
	})
}

// TestNodeClaimsRoundTrip writes the NodeClaims of real plans as YAML and
// reads them back: Load takes them, and their requirements and requests
// are what the plan holds, valid for Karpenter and read by Kubernetes.
func TestNodeClaimsRoundTrip(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	sample, err := os.ReadFile("testdata/cluster.yaml")
	require.NoError(t, err)
	bounded := `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: bounded}
spec:
  template:
    spec:
      requirements:
        - {key: karpenter.k8s.aws/instance-generation, operator: Gte, values: ["0"]}
        - {key: karpenter.k8s.aws/instance-cpu, operator: Lt, values: ["5"]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: small}
spec: {replicas: 3, template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1100m, memory: 1000Mi}}}]}}}
`
	for name, data := range map[string]string{"cluster.yaml": string(sample), "bounded.yaml": bounded} {
		t.Run(name, func(t *testing.T) {
			c, err := Load(Source{Name: name, Data: []byte(data)})
			require.NoError(t, err)
			p, err := c.Problem(cat)
			require.NoError(t, err)
			plan, err := packing.Solve(p, packing.Options{})
			require.NoError(t, err)
			require.NotEmpty(t, plan.NodeClaims)
			claims := NodeClaims(plan, c.NodePools, cat.Origin().Currency)
			var docs []string
			for _, nc := range claims {
				b, err := yaml.Marshal(nc)
				require.NoError(t, err)
				docs = append(docs, string(b))
			}
			back, err := Load(Source{Name: "claims.yaml", Data: []byte(strings.Join(docs, "---\n"))})
			require.NoError(t, err, "Load reads the NodeClaims nodeplan writes")
			require.Len(t, back.NodeClaims, len(claims))
			for i, nc := range claims {
				var decoded NodeClaim
				require.NoError(t, yaml.Unmarshal([]byte(docs[i]), &decoded))
				for _, r := range decoded.Spec.Requirements {
					assert.True(t, karpenterValid(r), "%s: Karpenter rejects %+v", nc.Metadata.Name, r)
				}
				reqs, err := poolRequirements(decoded.Spec.Requirements)
				require.NoError(t, err)
				want := plan.NodeClaims[i].Requirements.Add(requirements.MustNew(requirements.LabelInstanceType, requirements.In, plan.NodeClaims[i].InstanceTypes...))
				assert.Equal(t, want.String(), reqs.String(), nc.Metadata.Name)
				m := map[resources.Name]string{}
				for k, v := range decoded.Spec.Resources.Requests {
					m[resources.Name(k)] = v
				}
				requests, err := resources.Parse(m)
				require.NoError(t, err)
				assert.True(t, plan.NodeClaims[i].Requests.Equal(requests), "%s: wrote %v, read %v", nc.Metadata.Name, plan.NodeClaims[i].Requests, requests)
				checkQuantities(t, plan.NodeClaims[i].Requests)
			}
		})
	}
}
