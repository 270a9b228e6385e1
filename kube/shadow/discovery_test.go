package shadow

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/kube/live"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

// discoveryServer serves the discovery documents of the group versions
// of resources whose group (or group/version) is not in missing; the
// others answer 404.
func discoveryServer(t *testing.T, missing ...string) *rest.Config {
	lists := map[string]*metav1.APIResourceList{}
	for _, r := range resources {
		gv := r.apiVersion()
		if lists[gv] == nil {
			lists[gv] = &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv}
		}
		lists[gv].APIResources = append(lists[gv].APIResources, metav1.APIResource{Name: r.gvr.Resource, Kind: r.kind,
			Verbs: []string{"get", "list", "watch"}})
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gv := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/apis/"), "/api/")
		l, ok := lists[gv]
		for _, g := range missing {
			ok = ok && gv != g && !strings.HasPrefix(gv, g+"/")
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		require.NoError(t, json.NewEncoder(w).Encode(l))
	}))
	t.Cleanup(srv.Close)
	return &rest.Config{Host: srv.URL}
}

func TestServedResources(t *testing.T) {
	var warnings []string
	warn := func(s string) { warnings = append(warnings, s) }
	got, err := servedResources(discoveryServer(t), warn)
	require.NoError(t, err)
	assert.Len(t, got, len(resources))
	assert.Empty(t, warnings)

	got, err = servedResources(discoveryServer(t, "karpenter.k8s.aws"), warn)
	require.NoError(t, err)
	assert.Len(t, got, len(resources)-1)
	assert.Equal(t, []string{"karpenter.k8s.aws/v1 ec2nodeclasses is not served: none are read"}, warnings)

	// NodeOverlays and CapacityBuffers, behind feature gates, are left
	// out without a word, as live.Read says nothing of them.
	warnings = nil
	got, err = servedResources(discoveryServer(t, "karpenter.sh/v1alpha1", "autoscaling.x-k8s.io"), warn)
	require.NoError(t, err)
	assert.Len(t, got, len(resources)-2)
	for _, r := range got {
		assert.NotContains(t, []string{"nodeoverlays", "capacitybuffers"}, r.gvr.Resource)
	}
	assert.Empty(t, warnings)

	_, err = servedResources(discoveryServer(t, "karpenter.sh"), warn)
	assert.ErrorIs(t, err, live.ErrNoKarpenter)

	_, err = servedResources(discoveryServer(t, "policy"), warn)
	assert.ErrorContains(t, err, "policy/v1 poddisruptionbudgets is not served")
}
