package sidebyside

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestComplete: Fragmented.Complete carries a valid Move out (launch up
// at its offering's price, displaced pods bound, candidates gone, f
// untouched) and refuses every malformed one with ErrCompletion.
func TestComplete(t *testing.T) {
	f := handMade([]string{"fake-it-3 a:web:100 b:web:100", "fake-it-3 c:db:100", "fake-it-0"}, nil)
	launch := Launch{InstanceType: "fake-it-1", Zone: fragmentedZones[0], Price: f.nodePrice(BoundNode{InstanceType: "fake-it-1", Zone: fragmentedZones[0]})}
	valid := Move{Candidates: []string{"node-0"}, Launches: []Launch{launch},
		Homes: []Home{{Pod: "a", Node: "node-1"}, {Pod: "b", Launch: 0}}}
	before := handMade([]string{"fake-it-3 a:web:100 b:web:100", "fake-it-3 c:db:100", "fake-it-0"}, nil)
	got, err := f.Complete(valid)
	require.NoError(t, err)
	require.True(t, reflect.DeepEqual(before, f), "Complete modified its receiver")
	require.Empty(t, boundViolation(got))
	require.Equal(t, []BoundNode{{Name: "node-1", InstanceType: "fake-it-3", Zone: fragmentedZones[0], Pods: []int{0, 2}},
		{Name: "node-2", InstanceType: "fake-it-0", Zone: fragmentedZones[0]},
		{Name: "launch-00", InstanceType: "fake-it-1", Zone: fragmentedZones[0], Pods: []int{1}}}, got.Nodes)
	require.Equal(t, 1, got.Launched)
	require.InDelta(t, f.Price()-f.nodePrice(f.Nodes[0])+launch.Price, got.Price(), 1e-9)

	rows := []struct {
		name string
		edit func(m *Move)
	}{
		{"unknown candidate", func(m *Move) { m.Candidates = []string{"node-9"} }},
		{"candidate twice", func(m *Move) { m.Candidates = []string{"node-0", "node-0"} }},
		{"pod without a home", func(m *Move) { m.Homes = m.Homes[:1] }},
		{"pod with two homes", func(m *Move) { m.Homes = append(m.Homes, Home{Pod: "a", Node: "node-2"}) }},
		{"home for a pod that stays", func(m *Move) { m.Homes = append(m.Homes, Home{Pod: "c", Node: "node-2"}) }},
		{"home on a candidate", func(m *Move) { m.Homes[0].Node = "node-0" }},
		{"home on no node", func(m *Move) { m.Homes[0].Node = "node-7" }},
		{"no such launch", func(m *Move) { m.Homes[1].Launch = 1 }},
		{"launch under its offering's price", func(m *Move) { m.Launches[0].Price /= 2 }},
		{"launch of another type's price", func(m *Move) { m.Launches[0].InstanceType = "fake-it-9" }},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			m := valid
			m.Launches = append([]Launch(nil), valid.Launches...)
			m.Homes = append([]Home(nil), valid.Homes...)
			row.edit(&m)
			_, err := f.Complete(m)
			require.ErrorIs(t, err, ErrCompletion)
		})
	}
	full := handMade([]string{"fake-it-3 a:web:900 b:web:900", "fake-it-0"}, nil)
	_, err = full.Complete(Move{Candidates: []string{"node-0"}, Homes: []Home{{Pod: "a", Node: "node-1"}, {Pod: "b", Node: "node-1"}}})
	require.ErrorIs(t, err, ErrCompletion, "node-1 over its allocatable")
	require.ErrorContains(t, err, "over its allocatable")
}
