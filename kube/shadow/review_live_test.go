//go:build unix

package shadow

// Review finding (i16-review2): FAILS on main at ff5935b.

import (
	"context"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
	"github.com/stretchr/testify/assert"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// TestReviewWatchForbidden: a user who may read the discovery documents
// (every authenticated user may) but not list the resources. Issue 16:
// "a forbidden API gives exit 2 with the server's message". Watch
// instead waits for informers that never sync (client-go retries the
// forbidden list forever, logging it through klog) until its context
// ends: nodeplan shadow hangs until SIGINT or --duration, then says
// "informers did not sync: context deadline exceeded".
func TestReviewWatchForbidden(t *testing.T) {
	srv := apiservertest.Require(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	start := time.Now()
	_, err := Watch(ctx, srv.Config(apiservertest.Nobody), WatchOptions{},
		func(kube.Objects) (Decider, error) { return &Planner{}, nil }, func(Event) error { return nil })
	t.Logf("after %v: %v", time.Since(start).Round(time.Second), err)
	assert.True(t, apierrors.IsForbidden(err), "want the server's Forbidden, got %v", err)
	assert.Less(t, time.Since(start), 20*time.Second, "a refused list is an error at once, not a hang")
}
