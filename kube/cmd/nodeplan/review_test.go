package main

// Review finding (i16-review2): FAILS on main at ff5935b.

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReviewLiveNowIsTheClock: read live, consolidate (and drift, diff)
// decide at the newest creationTimestamp of the objects read, as for
// manifests: a cluster where nothing was created for a day is planned
// as of a day ago (expireAfter, consolidateAfter, budgets' schedules).
// Read from the server, the instant is now.
func TestReviewLiveNowIsTheClock(t *testing.T) {
	old := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"default","creationTimestamp":"2020-01-01T00:00:00Z"},` +
		`"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}`
	kc := fakeCluster(t, []string{poolYAML}, []string{old}, "")
	out, _ := check(t, []string{"consolidate", "--kubeconfig", kc, "-o", "json"}, exitOK, "", "")
	var r struct{ Now, NowFrom string }
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	now, err := time.Parse(time.RFC3339, r.Now)
	require.NoError(t, err)
	t.Logf("%s %s", r.Now, r.NowFrom)
	assert.WithinDuration(t, time.Now(), now, time.Minute, "decided at %s (%s)", r.Now, r.NowFrom)
}
