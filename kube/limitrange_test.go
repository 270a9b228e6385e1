package kube

import (
	"errors"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// limitRangeDoc is a LimitRange name in namespace shop with spec.
func limitRangeDoc(name, spec string) string {
	return "apiVersion: v1\nkind: LimitRange\nmetadata: {name: " + name + ", namespace: shop}\nspec: " + spec + "\n"
}

// deploymentDoc is a one-replica Deployment web in namespace ns whose pod
// has the init containers and containers given (YAML flow lists).
func deploymentDoc(ns, inits, containers string) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: " + ns + "}\n" +
		"spec: {replicas: 1, template: {spec: {initContainers: " + inits + ", containers: " + containers + "}}}\n"
}

// TestLoadLimitRangeDefaults checks that the pods Load expands from
// workloads get their namespace's LimitRange defaults as the LimitRanger
// admission plugin gives them, and pods in the manifests do not.
func TestLoadLimitRangeDefaults(t *testing.T) {
	const bare = "[{name: c}]"
	tests := []struct {
		name   string
		docs   []string
		cpu    string // of the one pod
		memory string
	}{
		{"no LimitRange", []string{deploymentDoc("shop", "[]", bare)}, "0", "0"},
		{"defaultRequest", []string{limitRangeDoc("lr", "{limits: [{type: Container, defaultRequest: {cpu: 100m, memory: 128Mi}}]}"),
			deploymentDoc("shop", "[]", bare)}, "100m", "128Mi"},
		{"default limit requests it", []string{limitRangeDoc("lr", "{limits: [{type: Container, default: {cpu: 500m}}]}"),
			deploymentDoc("shop", "[]", bare)}, "500m", "0"},
		{"defaultRequest before default", []string{limitRangeDoc("lr",
			"{limits: [{type: Container, default: {cpu: 500m}, defaultRequest: {cpu: 200m}}]}"), deploymentDoc("shop", "[]", bare)}, "200m", "0"},
		{"max is the default limit", []string{limitRangeDoc("lr", "{limits: [{type: Container, max: {memory: 1Gi}}]}"),
			deploymentDoc("shop", "[]", bare)}, "0", "1Gi"},
		{"min is the default request", []string{limitRangeDoc("lr", "{limits: [{type: Container, min: {cpu: 50m}}]}"),
			deploymentDoc("shop", "[]", bare)}, "50m", "0"},
		{"a set request is kept", []string{limitRangeDoc("lr", "{limits: [{type: Container, defaultRequest: {cpu: 100m}}]}"),
			deploymentDoc("shop", "[]", "[{name: c, resources: {requests: {cpu: '2'}}}]")}, "2", "0"},
		{"a limit without a request requests the limit, not the default", []string{
			limitRangeDoc("lr", "{limits: [{type: Container, defaultRequest: {cpu: 100m}}]}"),
			deploymentDoc("shop", "[]", "[{name: c, resources: {limits: {cpu: '1'}}}]")}, "1", "0"},
		{"every container", []string{limitRangeDoc("lr", "{limits: [{type: Container, defaultRequest: {cpu: 100m}}]}"),
			deploymentDoc("shop", "[]", "[{name: a}, {name: b}]")}, "200m", "0"},
		{"init containers too", []string{limitRangeDoc("lr", "{limits: [{type: Container, defaultRequest: {memory: 1Gi}}]}"),
			deploymentDoc("shop", "[{name: s, restartPolicy: Always}]", "[{name: c, resources: {requests: {memory: 1Gi}}}]")}, "0", "2Gi"},
		{"Pod items default nothing", []string{limitRangeDoc("lr", "{limits: [{type: Pod, max: {cpu: '4'}}]}"),
			deploymentDoc("shop", "[]", bare)}, "0", "0"},
		{"the later Container item of one LimitRange", []string{limitRangeDoc("lr",
			"{limits: [{type: Container, defaultRequest: {cpu: 100m}}, {type: Container, defaultRequest: {cpu: 300m}}]}"),
			deploymentDoc("shop", "[]", bare)}, "300m", "0"},
		{"several LimitRanges: the first by name first", []string{
			limitRangeDoc("b", "{limits: [{type: Container, defaultRequest: {cpu: 300m, memory: 64Mi}}]}"),
			limitRangeDoc("a", "{limits: [{type: Container, defaultRequest: {cpu: 100m}}]}"),
			deploymentDoc("shop", "[]", bare)}, "100m", "64Mi"},
		{"another namespace's LimitRange", []string{limitRangeDoc("lr", "{limits: [{type: Container, defaultRequest: {cpu: 100m}}]}"),
			deploymentDoc("other", "[]", bare)}, "0", "0"},
		{"not a pod of the manifests", []string{limitRangeDoc("lr", "{limits: [{type: Container, defaultRequest: {cpu: 100m}}]}"),
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec: {containers: [{name: c}]}\n"}, "0", "0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "lr.yaml", Data: []byte(strings.Join(tc.docs, "---\n"))})
			require.NoError(t, err)
			require.Len(t, c.Pods, 1)
			want := resources.MustParse(map[resources.Name]string{resources.CPU: tc.cpu, resources.Memory: tc.memory})
			assert.True(t, want.Equal(c.Pods[0].Requests), "got %v; want %v", c.Pods[0].Requests, want)
			for _, w := range c.Warnings {
				assert.NotContains(t, w, "LimitRange ×", "a LimitRange is read, not skipped")
			}
		})
	}
}

func TestLoadLimitRangeConflict(t *testing.T) {
	c, err := Load(Source{Name: "lr.yaml", Data: []byte(strings.Join([]string{
		limitRangeDoc("b", "{limits: [{type: Container, defaultRequest: {cpu: 300m}}]}"),
		limitRangeDoc("a", "{limits: [{type: Container, default: {cpu: 100m}}]}"),
		limitRangeDoc("c", "{limits: [{type: Container, defaultRequest: {cpu: 100m}}]}")}, "---\n"))})
	require.NoError(t, err)
	assert.Contains(t, c.Warnings, "LimitRanges a and b of namespace shop default the cpu request of containers to 100m and 300m: "+
		"Kubernetes applies whichever its cache lists first; nodeplan applies a's (the first by name) to the pods it expands from workloads")
	assert.Len(t, c.Warnings, 1)
}

func TestLoadLimitRangeErrors(t *testing.T) {
	tests := []struct {
		name, spec, msg string
		is              error
	}{
		{"unknown type", "{limits: [{type: Namespace}]}",
			`lr.yaml: document 1: LimitRange shop/lr: spec.limits[0].type: "Namespace" is not one of Container, Pod, PersistentVolumeClaim`, nil},
		{"misspelt field", "{limits: [{type: Container, defaultRequests: {cpu: 100m}}]}",
			"lr.yaml: document 1: LimitRange shop/lr: spec.limits[0].defaultRequests", ErrUnknownField},
		{"bad quantity", "{limits: [{type: Container, defaultRequest: {cpu: abc}}]}",
			`lr.yaml: document 1: LimitRange shop/lr: spec.limits[0].defaultRequest.cpu: "abc" is not a quantity`, nil},
		{"negative quantity", "{limits: [{type: Container, default: {memory: -1Gi}}]}",
			"lr.yaml: document 1: LimitRange shop/lr: spec.limits[0].default.memory", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Source{Name: "lr.yaml", Data: []byte(limitRangeDoc("lr", tc.spec))})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
			if tc.is != nil {
				assert.True(t, errors.Is(err, tc.is), "%v", err)
			}
		})
	}
}
