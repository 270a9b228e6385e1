package kube

import (
	"testing"
	"time"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// TestNillableReadsDuration (issue 16): Karpenter decides on a
// NillableDuration's Duration; Raw only keeps the text for re-marshalling.
// A controller that sets Duration on its copy of an informer object (Raw
// left as the API server sent it) must get the Duration it set.
func TestNillableReadsDuration(t *testing.T) {
	five, ninety := 5*time.Minute, 90*time.Minute
	for _, tc := range []struct {
		name string
		d    karpv1.NillableDuration
		want string
	}{
		{"Duration changed, Raw stale", karpv1.NillableDuration{Duration: &five, Raw: []byte(`"1h"`)}, "5m"},
		{"set to Never, Raw stale", karpv1.NillableDuration{Raw: []byte(`"720h"`)}, Never},
		{"Raw as written", karpv1.NillableDuration{Duration: &ninety, Raw: []byte(`"90m"`)}, "90m"},
		{"no Raw", karpv1.NillableDuration{Duration: &ninety}, "1h30m"},
	} {
		if got := nillable(tc.d); got != tc.want {
			t.Errorf("%s: nillable = %q, want %q (Karpenter reads %v)", tc.name, got, tc.want, tc.d.Duration)
		}
	}
}
