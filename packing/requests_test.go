package packing_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

func TestEffectiveRequests(t *testing.T) {
	cpu := func(m int64) resources.List { return resources.List{CPU: m} }
	c := func(m int64, sidecar bool) packing.Container {
		return packing.Container{Requests: cpu(m), Sidecar: sidecar}
	}
	tests := []struct {
		name       string
		containers []packing.Container
		init       []packing.Container
		overhead   resources.List
		want       int64
	}{
		{"containers are summed", []packing.Container{c(100, false), c(200, false)}, nil, resources.List{}, 300},
		{"a larger init container wins", []packing.Container{c(100, false)}, []packing.Container{c(500, false)}, resources.List{}, 500},
		{"sidecars add to the containers", []packing.Container{c(100, false)}, []packing.Container{c(50, true)}, resources.List{}, 150},
		{"an init container runs beside earlier sidecars", []packing.Container{c(100, false)}, []packing.Container{c(50, true), c(400, false)}, resources.List{}, 450},
		{"an init container before a sidecar runs alone", []packing.Container{c(100, false)}, []packing.Container{c(400, false), c(50, true)}, resources.List{}, 400},
		{"overhead is added", []packing.Container{c(100, false)}, nil, cpu(250), 350},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, packing.EffectiveRequests(tc.containers, tc.init, tc.overhead).CPU)
		})
	}
}
