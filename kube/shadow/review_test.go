package shadow

// Review findings (i16-review2): each test below FAILS on main at ff5935b
// and states the answer the issue asks for.

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// run feeds steps to a fresh Accountant on s and returns the events.
func reviewRun(t *testing.T, d Decider, s *fakeServer, steps []step) (*Accountant, []Event) {
	t.Helper()
	acc := New(d, Options{})
	acc.Start(s.objects())
	var got []Event
	for _, st := range steps {
		now := t0.Add(st.at)
		switch {
		case st.tick:
			got = append(got, acc.Tick(now)...)
		case st.flush:
			got = append(got, acc.Flush(now)...)
		default:
			s.apply(st.c)
			evs, err := acc.Observe(now, st.c, s.objects)
			require.NoError(t, err)
			got = append(got, evs...)
		}
	}
	return acc, got
}

// TestReviewProvisioningDuringDisruptionWindow: Karpenter marks old-1
// and creates its replacement r1 at once (StartCommand); 5 s later its
// provisioner launches c for new pending pods. c is counted as a second
// replacement of the consolidation (its price in Karpenter's disruption
// change), and no provisioning event is reported for it.
func TestReviewProvisioningDuringDisruptionWindow(t *testing.T) {
	old1 := onNode(claim("old-1", "m5.xlarge"), "n1")
	r1, c := claim("r1", "m5.large"), claim("c", "m5.xlarge")
	s := &fakeServer{pods: []corev1.Pod{pending("p1")}, claims: []*karpv1.NodeClaim{old1}}
	_, got := reviewRun(t, &fake{}, s, []step{update(0, old1, next(old1, marked)), add(200*time.Millisecond, r1),
		add(5*time.Second, c), tick(7 * time.Second), update(60*time.Second, nil, next(next(old1, marked), deleting)), tick(62 * time.Second)})
	var prov, disr []string
	for _, e := range got {
		if e.Type == Provisioning {
			prov = append(prov, names(e.Karpenter.Launched)...)
		} else {
			disr = append(disr, names(e.Karpenter.Launched)...)
		}
	}
	assert.Equal(t, []string{"c"}, prov, "provisioning events' NodeClaims")
	assert.Equal(t, []string{"r1"}, disr, "the consolidation's replacements")
}
