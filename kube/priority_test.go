package kube

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A priorityClassName whose PriorityClass is not in the input is named
// in one warning per class with its pod count; Kubernetes' built-in
// classes resolve without one.
func TestPriorityClassMissing(t *testing.T) {
	const (
		deploy = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n" +
			"spec: {replicas: 3, template: {spec: {priorityClassName: high, containers: [{name: c}]}}}\n"
		pod  = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec: {priorityClassName: high, containers: [{name: c}]}\n"
		low  = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: q, namespace: shop}\nspec: {priorityClassName: low, containers: [{name: c}]}\n"
		set  = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: r, namespace: shop}\nspec: {priorityClassName: low, priority: 7, containers: [{name: c}]}\n"
		crit = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: s, namespace: kube-system}\nspec: {priorityClassName: system-node-critical, containers: [{name: c}]}\n" +
			"---\napiVersion: v1\nkind: Pod\nmetadata: {name: t, namespace: kube-system}\nspec: {priorityClassName: system-cluster-critical, containers: [{name: c}]}\n"
		class = "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n"
	)
	tests := []struct {
		name, docs string
		warnings   []string
		priority   map[string]int32
	}{
		{"a class missing, pods and a workload", deploy + pod, []string{"PriorityClass high is not in the input: 4 pods name it " +
			"and are planned with priority 0, which Kubernetes' admission would not give them (it rejects a pod whose class does not exist); add it to the manifests"},
			map[string]int32{"p": 0}},
		{"each class once, in name order", low + pod, []string{"PriorityClass high is not in the input: 1 pod names it", "PriorityClass low is not in the input: 1 pod names it"}, nil},
		{"the class present", class + deploy + pod, nil, map[string]int32{"p": 1000, "web-0": 1000}},
		{"spec.priority already set", set, nil, map[string]int32{"r": 7}},
		{"built-in classes", crit, nil, map[string]int32{"s": 2000001000, "t": 2000000000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "p.yaml", Data: []byte(tc.docs)})
			require.NoError(t, err)
			got := warningsWith(c, "PriorityClass ")
			require.Len(t, got, len(tc.warnings))
			for i := range got {
				assert.Contains(t, got[i], tc.warnings[i])
			}
			for _, p := range c.Pods {
				if want, ok := tc.priority[p.Name]; ok {
					assert.Equal(t, want, p.Priority, p.Name)
				}
			}
		})
	}
}
