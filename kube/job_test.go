package kube

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jobDoc writes a batch/v1 Job named j with spec and status (flow YAML
// members, "" for none).
func jobDoc(spec, status string) string {
	doc := fmt.Sprintf("---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: batch}\nspec: {%s, template: {spec: {containers: [{name: c}], restartPolicy: Never}}}\n", spec)
	if status != "" {
		doc += "status: {" + status + "}\n"
	}
	return doc
}

// jobPod writes a pod of Job j in phase.
func jobPod(name, phase string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s, namespace: batch, ownerReferences: "+
		"[{apiVersion: batch/v1, kind: Job, name: j, uid: u, controller: true}]}\nspec: {containers: [{name: c}]}\nstatus: {phase: %s}\n", name, phase)
}

// A Job expands to the pods Kubernetes' job controller would still run:
// its status and its finished pods count.
func TestJobPods(t *testing.T) {
	tests := []struct {
		name, docs string
		want       int
	}{
		{"no status: parallelism", jobDoc("parallelism: 3, completions: 5", ""), 3},
		{"no status: at most the completions", jobDoc("parallelism: 5, completions: 2", ""), 2},
		{"no completions, no status: parallelism", jobDoc("parallelism: 2", ""), 2},
		{"completions left", jobDoc("parallelism: 4, completions: 4", "succeeded: 1"), 3},
		{"completions left below parallelism", jobDoc("parallelism: 2, completions: 5", "succeeded: 4"), 1},
		{"running pods count", jobDoc("parallelism: 2, completions: 5", "succeeded: 3, active: 2") + jobPod("j-a", "Running"), 1},
		{"Complete", jobDoc("parallelism: 1, completions: 1", `succeeded: 1, conditions: [{type: Complete, status: "True"}]`) + jobPod("j-a", "Succeeded"), 0},
		{"Complete without succeeded", jobDoc("parallelism: 2, completions: 4", `conditions: [{type: Complete, status: "True"}]`), 0},
		{"SuccessCriteriaMet", jobDoc("parallelism: 2, completions: 4", `succeeded: 2, conditions: [{type: SuccessCriteriaMet, status: "True"}]`), 0},
		{"Failed", jobDoc("parallelism: 1, completions: 1", `failed: 7, conditions: [{type: Failed, status: "True"}]`), 0},
		{"FailureTarget", jobDoc("parallelism: 1", `conditions: [{type: FailureTarget, status: "True"}]`), 0},
		{"a condition that is False", jobDoc("parallelism: 1", `conditions: [{type: Complete, status: "False"}]`), 1},
		{"suspended", jobDoc("parallelism: 3, suspend: true", ""), 0},
		{"no completions, one succeeded: only the active", jobDoc("parallelism: 3", "succeeded: 1, active: 2"), 2},
		{"no completions, one succeeded, active present", jobDoc("parallelism: 3", "succeeded: 1, active: 1") + jobPod("j-a", "Running"), 0},
		{"Succeeded pods count without a status", jobDoc("parallelism: 1, completions: 1", "") + jobPod("j-a", "Succeeded"), 0},
		{"Succeeded pods count beyond the status", jobDoc("parallelism: 3, completions: 3", "succeeded: 1") +
			jobPod("j-a", "Succeeded") + jobPod("j-b", "Succeeded"), 1},
		{"Failed pods over backoffLimit", jobDoc("parallelism: 1, completions: 1, backoffLimit: 1", "") +
			jobPod("j-a", "Failed") + jobPod("j-b", "Failed"), 0},
		{"Failed pods within backoffLimit are replaced", jobDoc("parallelism: 1, completions: 1, backoffLimit: 2", "") +
			jobPod("j-a", "Failed") + jobPod("j-b", "Failed"), 1},
		{"failed over the default backoffLimit 6", jobDoc("parallelism: 1", "failed: 7"), 0},
		{"backoffLimitPerIndex: failures counted per index", jobDoc("parallelism: 1, completions: 2, completionMode: Indexed, "+
			"backoffLimitPerIndex: 1", "failed: 7"), 1},
		{"Indexed", jobDoc("parallelism: 3, completions: 3, completionMode: Indexed", `succeeded: 1, completedIndexes: "1"`), 2},
		{"another Job's pods do not count", jobDoc("parallelism: 1, completions: 1", "") +
			"---\napiVersion: v1\nkind: Pod\nmetadata: {name: x, namespace: batch, ownerReferences: " +
			"[{apiVersion: batch/v1, kind: Job, name: other, uid: u, controller: true}]}\nspec: {containers: [{name: c}]}\nstatus: {phase: Succeeded}\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "job.yaml", Data: []byte(tc.docs)})
			require.NoError(t, err)
			n := 0
			for _, p := range c.Pods {
				if p.Owner == "Job/j" && !strings.HasPrefix(p.Name, "j-a") {
					n++
				}
			}
			assert.Equal(t, tc.want, n, "pods expanded")
		})
	}
}

// The shapes kubectl get cronjobs,jobs,pods -o yaml prints: a CronJob's
// finished and failed runs add nothing (issue 15).
func TestJobFixture(t *testing.T) {
	c, err := loadFixture(t, "jobs.yaml")
	require.NoError(t, err)
	assert.Equal(t, []string{"batch/train-0", "batch/train-1", "batch/train-2"}, names(c.Pods),
		"backup and migrate are finished, reindex has its one pod running, paused is suspended; train has 3 of 4 completions left")
	require.Len(t, c.Nodes, 1)
	assert.Equal(t, []string{"batch/reindex-b7r4t"}, names(c.Nodes[0].Pods))
}
