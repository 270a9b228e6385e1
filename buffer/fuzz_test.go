package buffer_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// FuzzEvaluate: for any spec, Evaluate never panics; a resolved buffer has
// 0..MaxReplicas replicas and names its pods after itself; any other reason
// carries a named error that names the buffer.
func FuzzEvaluate(f *testing.F) {
	f.Add("default", "cb", "", "apps", "Deployment", "d", int32(5), int32(80), int32(10), int64(4000), int64(1000), true)
	f.Add("default", "cb", "pt", "", "", "", int32(7), int32(-1), int32(-1), int64(-1), int64(1000), false)
	f.Add("ns", "cb", "", "batch", "Job", "j", int32(-5), int32(-1), int32(0), int64(0), int64(0), true)
	f.Add("", "", "", "", "", "", int32(0), int32(0), int32(0), int64(0), int64(0), false)
	f.Add("\x00ns", "cb/../x\n", "pt\u202e", "apps", "deployment", "d", int32(math.MaxInt32), int32(math.MaxInt32),
		int32(math.MaxInt32), int64(math.MaxInt64), int64(1), true)
	f.Add("ns", strings.Repeat("a", 300), "", "APPS", "StatefulSet", "s", int32(math.MinInt32), int32(math.MinInt32),
		int32(math.MinInt32), int64(math.MinInt64), int64(math.MinInt64), true)
	// Counts above MaxReplicas from each field: replicas, percentage, limits.
	f.Add("default", "cb", "pt", "", "", "", int32(buffer.MaxReplicas+1), int32(-1), int32(0), int64(-1), int64(1), true)
	f.Add("default", "cb", "", "apps", "Deployment", "d", int32(-1), int32(1000), int32(math.MaxInt32), int64(-1), int64(1), true)
	f.Add("default", "cb", "pt", "", "", "", int32(-2), int32(-1), int32(0), int64(math.MaxInt64), int64(1), true)
	f.Fuzz(func(t *testing.T, ns, name, pt, group, kind, target string, replicas, pct, workload int32, limit, req int64, found bool) {
		b := buffer.Buffer{Namespace: ns, Name: name, PodTemplate: pt,
			Replicas: replicas, HasReplicas: replicas >= -1, Percentage: pct, HasPercentage: pct != -1,
			Limits: map[resources.Name]int64{resources.CPU: limit}}
		if kind != "" || group != "" {
			b.Scalable = &buffer.ScalableRef{APIGroup: group, Kind: kind, Name: target}
		}
		ws := buffer.Workloads{}
		if tgt, err := b.Target(); err == nil && found {
			ws[tgt] = buffer.Workload{Template: packing.Pod{Requests: resources.List{CPU: req}}, Replicas: workload, HasReplicas: workload != 0}
		}
		r := buffer.Evaluate(b, ws)
		if r.Reason != buffer.Resolved {
			var re *buffer.RefError
			var tooMany *buffer.ReplicasError
			if r.Err == nil || (!errors.As(r.Err, &re) && !errors.As(r.Err, &tooMany) && !errors.Is(r.Err, buffer.ErrInvalidBuffer)) {
				t.Fatalf("reason %v with error %v", r.Reason, r.Err)
			}
			if !strings.Contains(r.Err.Error(), b.Key()) {
				t.Fatalf("error %q does not name %s", r.Err, b.Key())
			}
			return
		}
		if r.Replicas < 0 || r.Replicas > buffer.MaxReplicas || r.Err != nil {
			t.Fatalf("resolved with replicas %d, error %v", r.Replicas, r.Err)
		}
		if r.Replicas > 1000 {
			return // do not build millions of pods
		}
		for _, p := range r.Pods() {
			if p.Buffer != name || p.Namespace != ns || !strings.HasPrefix(p.Name, "capacity-buffer-"+name+"-") {
				t.Fatalf("pod %s/%s of buffer %q", p.Namespace, p.Name, p.Buffer)
			}
		}
	})
}
