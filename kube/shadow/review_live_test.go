//go:build unix

package shadow

// Review finding (i16-review2): FAILS on main at ff5935b.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
	"github.com/stretchr/testify/assert"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// TestReviewWatchClaimDuringStart: a NodeClaim Karpenter creates while
// Watch builds its Decider (nodeplan shadow builds the region's catalog
// there) is in the snapshot Accountant.Start takes afterwards, so it is
// "present at start" and its batch is never reported, though its Add
// came after the initial list. Start should take the snapshot the
// decider was given.
func TestReviewWatchClaimDuringStart(t *testing.T) {
	srv, k := start(t)
	cat := awsCatalog(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	events := make(chan Event, 10)
	done := make(chan error, 1)
	go func() {
		_, err := Watch(ctx, srv.Config(apiservertest.Reader), WatchOptions{Tick: 50 * time.Millisecond},
			func(kube.Objects) (Decider, error) {
				k.create(nodeClaimsGVR, "", strings.ReplaceAll(liveClaim, "{name: default-x1, labels: {karpenter.sh/nodepool: default}}",
					"{name: during-start, labels: {karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: m5.large, "+
						"topology.kubernetes.io/zone: us-east-1a, karpenter.sh/capacity-type: on-demand}}"))
				time.Sleep(2 * time.Second) // the informer stores it meanwhile, as a catalog build takes time
				return &Planner{Catalog: cat}, nil
			},
			func(e Event) error { events <- e; return nil })
		done <- err
	}()
	select {
	case e := <-events:
		assert.Equal(t, []string{"during-start"}, names(e.Karpenter.Launched))
	case err := <-done:
		t.Fatalf("Watch ended: %v", err)
	case <-time.After(20 * time.Second):
		t.Errorf("no event for the NodeClaim created after the initial list")
	}
	cancel()
	<-done
	assert.NoError(t, k.api.Resource(nodeClaimsGVR).Delete(context.Background(), "during-start", metav1.DeleteOptions{}))
}
