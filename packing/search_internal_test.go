package packing

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDefaultRestarts(t *testing.T) {
	pods := func(n int) []Pod { return make([]Pod, n) }
	tests := []struct {
		name string
		o    Options
		p    Problem
		want int
	}{
		{name: "empty problem", p: Problem{}, want: maxRestarts},
		{name: "32 pods", p: Problem{Pods: pods(32)}, want: maxRestarts},
		{name: "60 pods", p: Problem{Pods: pods(60)}, want: 17},
		{name: "100 pods", p: Problem{Pods: pods(100)}, want: 10},
		{name: "nodes and their pods count", p: Problem{Pods: pods(24), Nodes: []Node{{Pods: pods(487)}}}, want: 2},
		{name: "1024 pods", p: Problem{Pods: pods(1024)}, want: 1},
		{name: "1025 pods: the other greedy order still", p: Problem{Pods: pods(1025)}, want: 1},
		{name: "5000 pods: the other greedy order still", p: Problem{Pods: pods(5000)}, want: 1},
		{name: "explicit", o: Options{Restarts: 100}, p: Problem{Pods: pods(5000)}, want: 100},
		{name: "off", o: Options{Restarts: -1}, p: Problem{Pods: pods(1)}, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.o.restarts(&tc.p))
		})
	}
}
