package buffer_test

import (
	"math"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// spec is a generated buffer and workload: optional fields are unset when
// their value is negative.
type spec struct {
	Replicas, Percentage, Workload int32
	Scalable                       bool
	LimitCPU, LimitMem             int64
	ReqCPU, ReqMem                 int64
}

// model is Karpenter's computeReplicas written out directly from
// K/controllers/capacitybuffer/controller.go:181-228 and helpers.go:32-67,
// in float64 as Karpenter computes (exact at the generated sizes).
func model(s spec) int32 {
	var candidates []int32
	if s.Scalable && s.Percentage >= 0 {
		n := s.Workload
		if n < 0 {
			n = 1 // nil spec.replicas
		}
		if n > 0 {
			p := int32(math.Ceil(float64(n) * float64(s.Percentage) / 100.0))
			if p < 1 && s.Percentage > 0 {
				p = 1
			}
			candidates = append(candidates, p)
		}
	}
	if s.Replicas >= 0 {
		candidates = append(candidates, s.Replicas)
	}
	desired := int32(0)
	for _, c := range candidates {
		desired = max(desired, c)
	}
	limit, matched := int32(math.MaxInt32), false
	for _, lr := range [][2]int64{{s.LimitCPU, s.ReqCPU}, {s.LimitMem, s.ReqMem}} {
		if lr[0] < 0 || lr[1] <= 0 {
			continue
		}
		matched = true
		limit = min(limit, int32(math.Floor(float64(lr[0])/float64(lr[1]))))
	}
	switch {
	case !matched:
		return desired
	case len(candidates) == 0:
		return limit
	}
	return min(desired, limit)
}

// toBuffer is s as package buffer's input.
func toBuffer(s spec) (buffer.Buffer, buffer.Workload) {
	b := buffer.Buffer{Namespace: "ns", Name: "cb", PodTemplate: "pt"}
	if s.Scalable {
		b.PodTemplate, b.Scalable = "", &buffer.ScalableRef{Kind: "Deployment", Name: "d"}
	}
	b.Replicas, b.HasReplicas = s.Replicas, s.Replicas >= 0
	b.Percentage, b.HasPercentage = s.Percentage, s.Percentage >= 0
	for n, v := range map[resources.Name]int64{resources.CPU: s.LimitCPU, resources.Memory: s.LimitMem} {
		if v >= 0 {
			if b.Limits == nil {
				b.Limits = map[resources.Name]int64{}
			}
			b.Limits[n] = v
		}
	}
	w := buffer.Workload{Template: packing.Pod{Requests: resources.List{CPU: max(s.ReqCPU, 0), Memory: max(s.ReqMem, 0)}},
		Replicas: s.Workload, HasReplicas: s.Workload >= 0}
	return b, w
}

func genSpec() gopter.Gen {
	return gopter.CombineGens(
		gen.Int32Range(-1, 50), gen.Int32Range(-1, 300), gen.Int32Range(-1, 40), gen.Bool(),
		gen.Int64Range(-1, 20000), gen.Int64Range(-1, 1<<36), gen.Int64Range(0, 4000), gen.Int64Range(0, 1<<32),
	).Map(func(v []any) spec {
		return spec{Replicas: v[0].(int32), Percentage: v[1].(int32), Workload: v[2].(int32), Scalable: v[3].(bool),
			LimitCPU: v[4].(int64), LimitMem: v[5].(int64), ReqCPU: v[6].(int64), ReqMem: v[7].(int64)}
	})
}

// TestPropertyReplicasModel: Replicas agrees with the direct model, and
// Evaluate makes exactly that many pods, each a buffer pod of the buffer.
func TestPropertyReplicasModel(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261212) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 5000
	props := gopter.NewProperties(params)
	props.Property("Replicas == model", prop.ForAll(func(s spec) bool {
		b, w := toBuffer(s)
		return buffer.Replicas(b, w) == model(s)
	}, genSpec()))
	props.Property("Pods has Replicas buffer pods", prop.ForAll(func(s spec) bool {
		b, w := toBuffer(s)
		tgt, _ := b.Target()
		r := buffer.Evaluate(b, buffer.Workloads{tgt: w})
		pods := r.Pods()
		if len(pods) != int(r.Replicas) || r.Replicas != model(s) {
			return false
		}
		for _, p := range pods {
			if p.Buffer != "cb" || p.Namespace != "ns" {
				return false
			}
		}
		return true
	}, genSpec()))
	props.TestingRun(t)
}
