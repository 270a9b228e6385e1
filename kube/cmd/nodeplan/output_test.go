package main

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// deployment is a Deployment of n replicas, each requesting cpu.
func deployment(name string, n int, cpu string) string {
	return `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ` + name + `, namespace: shop}
spec:
  replicas: ` + strconv.Itoa(n) + `
  template:
    metadata: {labels: {app: ` + name + `}}
    spec: {containers: [{name: c, resources: {requests: {cpu: "` + cpu + `"}}}]}
`
}

// TestOutput covers the grouping of unschedulable pods, -o wide and
// --no-headers.
func TestOutput(t *testing.T) {
	dir := tree(t, map[string]string{
		"pool.yaml": poolYAML,
		"apps.yaml": deployment("web", 12, "500") + deployment("api", 2, "1") + deployment("batch", 3, "600") +
			"---\napiVersion: v1\nkind: Pod\nmetadata: {name: lone, namespace: shop}\nspec: {containers: [{name: c, resources: {requests: {cpu: \"900\"}}}]}\n",
	})
	tests := []struct {
		name      string
		args      []string
		stdout    []string
		notStdout []string
		stderr    []string
	}{
		{"one line per owner and reason", []string{"-f", dir}, []string{
			"Unschedulable pods:\n" +
				"  Deployment shop/web ×12 — Insufficient: no instance type in NodePool default has 500 cpu (with daemonset overhead); largest has 127610m\n" +
				"  Deployment shop/batch ×3 — Insufficient: no instance type in NodePool default has 600 cpu (with daemonset overhead); largest has 127610m\n" +
				"  Pod shop/lone — Insufficient: no instance type in NodePool default has 900 cpu",
			"NODE       STATUS  NODEPOOL  INSTANCE TYPE  ZONE        CAPACITY  USD/HOUR  PODS  CPU              MEMORY\n" +
				"default-1  new     default   m6i.xlarge     us-east-1a  spot      0.076800  2     █████░░░░░  51%  ░░░░░░░░░░   0%\n\n",
			"2 pods scheduled, 16 unschedulable"},
			[]string{"web-0", "ARCH"}, nil},
		{"wide: arch, candidates, pod names", []string{"-f", dir, "-o", "wide"}, []string{
			"MEMORY           ARCH   INSTANCE TYPES\n",
			"0%  amd64  m6i.xlarge,m6i.2xlarge,m6i.4xlarge,m6i.8xlarge,m6i.12xlarge,+4\n",
			"  Deployment shop/web ×12 — Insufficient",
			"      pods: web-0, web-1, web-10, web-11, web-2, web-3, web-4, web-5, web-6, web-7, web-8, web-9\n",
			"      pods: batch-0, batch-1, batch-2\n  Pod shop/lone — Insufficient"},
			nil, nil},
		{"no headers: rows on stdout, the rest on stderr", []string{"-f", dir, "--no-headers"},
			[]string{"default-1  new  default  m6i.xlarge  us-east-1a  spot  0.076800  2  █████░░░░░  51%  ░░░░░░░░░░   0%\n"},
			[]string{"NODE", "unschedulable", "Unschedulable"},
			[]string{"1 new node, 2 pods scheduled, 16 unschedulable: 0.076800 USD/hour, 56.06 USD/month\n\nUnschedulable pods:\n  Deployment shop/web ×12"}},
		{"no headers, wide", []string{"-f", dir, "--no-headers", "-o", "wide"},
			[]string{"0%  amd64  m6i.xlarge,"},
			[]string{"NODE", "Unschedulable"},
			[]string{"      pods: web-0, web-1,"}},
		{"yaml: the summary on stderr", []string{"-f", dir, "-o", "yaml"},
			[]string{"kind: NodeClaim"},
			[]string{"Unschedulable"},
			[]string{"1 new node, 2 pods scheduled, 16 unschedulable", "Deployment shop/web ×12 — Insufficient"}},
		{"json: the groups", []string{"-f", dir, "-o", "json"},
			[]string{`"unschedulableGroups": [
    {
      "namespace": "shop",
      "owner": "Deployment/web",
      "reason": "Insufficient",
      "nodePool": "default",
      "message": "no instance type in NodePool default has 500 cpu (with daemonset overhead); largest has 127610m",
      "count": 12,`, `"currency": "USD"`, `"prices: embedded AWS on-demand prices for us-east-1`},
			nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"provision"}, tc.args...), nil, &stdout, &stderr)
			assert.Equal(t, exitUnschedulable, code, "stderr: %s", stderr.String())
			for _, s := range tc.stdout {
				assert.Contains(t, stdout.String(), s)
			}
			for _, s := range tc.notStdout {
				assert.NotContains(t, stdout.String(), s)
			}
			for _, s := range tc.stderr {
				assert.Contains(t, stderr.String(), s)
			}
			if tc.stderr == nil {
				assert.Empty(t, stderr.String())
			}
		})
	}
}
