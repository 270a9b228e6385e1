package kube

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// jobRun is what decides how many pods a Job's controller still runs:
// its spec and the progress its status records.
type jobRun struct {
	parallelism int // spec.parallelism, default 1
	completions int // spec.completions; -1 when unset
	// done is true once the Job is suspended or finished: a condition
	// Complete, Failed, SuccessCriteriaMet or FailureTarget is True.
	done              bool
	succeeded, failed int // status.succeeded, status.failed
	active            int // status.active
	backoffLimit      int // spec.backoffLimit, default 6; -1 when it does not apply
}

// defaultBackoffLimit is spec.backoffLimit's default.
const defaultBackoffLimit = 6

// terminal are the Job conditions after which its controller starts no
// pod: finished (Complete, Failed) or finishing (SuccessCriteriaMet,
// FailureTarget, which it sets before terminating the pods left).
var terminal = []batchv1.JobConditionType{batchv1.JobComplete, batchv1.JobFailed,
	batchv1.JobSuccessCriteriaMet, batchv1.JobFailureTarget}

func newJobRun(j *batchv1.Job) *jobRun {
	r := &jobRun{parallelism: replicas(j.Spec.Parallelism), completions: -1, backoffLimit: defaultBackoffLimit,
		succeeded: int(j.Status.Succeeded), failed: int(j.Status.Failed), active: int(j.Status.Active)}
	if j.Spec.Completions != nil {
		r.completions = int(*j.Spec.Completions)
	}
	switch {
	case j.Spec.BackoffLimitPerIndex != nil:
		r.backoffLimit = -1 // counted per index, which the manifests do not show
	case j.Spec.BackoffLimit != nil:
		r.backoffLimit = int(*j.Spec.BackoffLimit)
	}
	r.done = j.Spec.Suspend != nil && *j.Spec.Suspend
	for _, c := range j.Status.Conditions {
		for _, t := range terminal {
			r.done = r.done || c.Type == t && c.Status == corev1.ConditionTrue
		}
	}
	return r
}

// pods is how many pods the job controller keeps running (its manageJob's
// wantActive): none once the Job is suspended or finished, or when its
// failures exceed backoffLimit; without completions, parallelism until
// one pod has succeeded and then only those active; else parallelism, at
// most the completions left. finished counts the Job's Succeeded and
// Failed pods of the manifests (nil for none); they count towards its
// progress when its status records less, as for a Job without status.
func (r *jobRun) pods(finished *[2]int) int {
	succeeded, failed := r.succeeded, r.failed
	if finished != nil {
		succeeded, failed = max(succeeded, finished[0]), max(failed, finished[1])
	}
	switch {
	case r.done, r.backoffLimit >= 0 && failed > r.backoffLimit:
		return 0
	case r.completions < 0 && succeeded > 0:
		return r.active
	case r.completions < 0:
		return r.parallelism
	}
	return max(0, min(r.parallelism, r.completions-succeeded))
}
