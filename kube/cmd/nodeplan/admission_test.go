package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProvisionAdmittedRequests plans a cluster where admission changed
// requests: the Deployment's six pods take their namespace's LimitRange
// default (500m each, none without it, so they would all fit on the
// existing node), new nodes keep room for the DaemonSet's pod's 1 CPU (a
// VPA raised it from its template's 100m, for which one m5.xlarge holds
// all six), and the existing node holds its resized pod's 2800m (its spec's
// 500m would leave room for four of them there).
func TestProvisionAdmittedRequests(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"provision", "-f", "../../testdata/manifests/admission.yaml"}, nil, &stdout, &stderr)
	require.Equal(t, exitOK, code, stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "2 new nodes, 6 pods scheduled, 0 unschedulable")
	assert.Regexp(t, `admitted-1 +new +admitted +m5\.xlarge .* 5 `, out)
	assert.Regexp(t, `admitted-2 +new +admitted +m5\.large .* 1 `, out)
	assert.Regexp(t, `ip-10-0-9-10\.ec2\.internal +existing .* 2 `, out)
	assert.NotContains(t, out+stderr.String(), "LimitRange ×")
}
