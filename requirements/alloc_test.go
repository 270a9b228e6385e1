package requirements

import "testing"

func TestNoAllocs(t *testing.T) {
	zone := MustNew(LabelZone, In, "a", "b", "c")
	notInB := MustNew(LabelZone, NotIn, "b")
	cpu := MustNew(LabelInstanceCPU, Gt, "4")
	node := NewSet(zone, cpu, MustNew(LabelArch, In, "amd64"), MustNew("team", In, "x"))
	pod := NewSet(notInB, MustNew(LabelInstanceCPU, In, "8", "16"), MustNew(LabelCapacityType, In, CapacityTypeSpot))
	taints := []Taint{{Key: "gpu", Value: "true", Effect: NoSchedule}, {Key: "dedicated", Value: "ml", Effect: NoExecute}}
	tolerations := []Toleration{{Key: "dedicated", Value: "ml"}, {Key: "gpu", Operator: TolerateExists}}
	sink := false
	tests := []struct {
		name string
		f    func()
	}{
		{"Requirement.Has", func() { sink = zone.Has("b") }},
		{"Requirement.Has bounded", func() { sink = cpu.Has("16") }},
		{"Requirement.Intersects", func() { sink = zone.Intersects(notInB) }},
		{"Requirement.Intersects bounded", func() { sink = cpu.Intersects(pod.Get(LabelInstanceCPU)) }},
		{"Set.Has", func() { sink = node.Has(LabelArch) }},
		{"Set.Get", func() { sink = node.Get(LabelZone).Has("a") }},
		{"Set.Get absent", func() { sink = node.Get(LabelOS).Has("linux") }},
		{"Set.Intersects", func() { sink = node.Intersects(pod) == nil }},
		{"Set.Compatible", func() { sink = node.Compatible(pod) == nil }},
		{"Tolerates", func() { sink = Tolerates(tolerations, taints) == nil }},
		{"Set.Add of nothing", func() { sink = node.Add().Has(LabelArch) }},
		{"Set.Intersect with the empty set", func() { sink = node.Intersect(Set{}).Has(LabelArch) }},
	}
	for _, tc := range tests {
		tc.f()
		if !sink {
			t.Fatalf("%s: precondition does not hold (want true)", tc.name)
		}
		if allocs := testing.AllocsPerRun(1000, tc.f); allocs != 0 {
			t.Errorf("%s: allocs = %v; want 0", tc.name, allocs)
		}
	}
}
