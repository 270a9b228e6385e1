package kube

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadFixture loads files under testdata/manifests.
func loadFixture(t *testing.T, files ...string) (Cluster, error) {
	t.Helper()
	var sources []Source
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("testdata", "manifests", f))
		require.NoError(t, err)
		sources = append(sources, Source{Name: f, Data: data})
	}
	return Load(sources...)
}

func nodeNames(c Cluster) []string {
	var out []string
	for _, n := range c.Nodes {
		out = append(out, n.Name)
	}
	return out
}

func TestLoadTypedLists(t *testing.T) {
	tests := []struct {
		name, file string
		pods       []string
		pools      []string
	}{
		{"PodList from the API (items without kind)", "podlist-api.json", []string{"jobs/batch-worker-0", "jobs/batch-worker-1"}, nil},
		{"NodePoolList from the API", "nodepoollist-api.json", nil, []string{"general"}},
		{"kubectl get -o yaml List", "get-all-list.yaml", []string{"shop/checkout-0", "shop/checkout-1", "shop/checkout-2"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := loadFixture(t, tc.file)
			require.NoError(t, err)
			assert.Equal(t, tc.pods, names(c.Pods))
			var pools []string
			for _, np := range c.NodePools {
				pools = append(pools, np.Metadata.Name)
				assert.Equal(t, KarpenterAPIVersion, np.APIVersion, "the item takes the list's apiVersion")
				assert.Equal(t, KindNodePool, np.Kind, "the item takes the list's element kind")
			}
			assert.Equal(t, tc.pools, pools)
		})
	}
}

func TestLoadTypedListItems(t *testing.T) {
	tests := []struct{ name, data, msg string }{
		{"typed list item keeps its own kind", `{"apiVersion":"v1","kind":"PodList","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}]}`, ""},
		{"untyped List item without kind", `{"apiVersion":"v1","kind":"List","items":[{"metadata":{"name":"a"}}]}`, "f.json: document 1: items[0]: malformed document: no kind"},
		{"empty typed list", `{"apiVersion":"v1","kind":"PodList","items":[]}` + "\n" + `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}`, ""},
		{"null items and null item", `{"apiVersion":"v1","kind":"PodList","items":null}` + "\n" + `{"kind":"List","items":[null,{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}]}`, ""},
		{"items not an array", `{"apiVersion":"v1","kind":"List","items":{"kind":"Pod"}}`, "f.json: document 1: malformed document: items: "},
		{"items under another case", `{"apiVersion":"v1","kind":"List","Items":[]}`, "f.json: document 1: malformed document: Items: unknown field: field names are case-sensitive; did you mean items?"},
		{"items twice", `{"apiVersion":"v1","kind":"List","items":[],"items":[]}`, "f.json: document 1: malformed document: items: duplicate field"},
		{"an item cut short", `{"apiVersion":"v1","kind":"List","items":[{"kind":"Pod"]}`, "f.json: document 1: malformed document"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "f.json", Data: []byte(tc.data)})
			if tc.msg != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{"default/a"}, names(c.Pods))
		})
	}
}

func TestLoadClusterInfoDump(t *testing.T) {
	c, err := loadFixture(t, "cluster-info-dump.txt")
	require.NoError(t, err)
	assert.Equal(t, []string{"ip-10-0-1-10.ec2.internal", "ip-10-0-2-20.ec2.internal"}, nodeNames(c))
	assert.Equal(t, []string{"kube-system/coredns-5b8cc885bc-7xk2p", "kube-system/kube-proxy-8fj2k", "default/web-6f7d9c5b8-2lq4x"},
		names(c.Nodes[0].Pods))
	assert.Equal(t, []string{"kube-system/coredns-5b8cc885bc-q9dfl", "kube-system/kube-proxy-zz81m"}, names(c.Nodes[1].Pods))
	assert.Empty(t, c.Pods, "coredns has its 2 replicas")
	require.Len(t, c.DaemonSets, 1)
	assert.Equal(t, "kube-system/kube-proxy", c.DaemonSets[0].Key())
	assert.Equal(t, "us-east-1a", c.Nodes[0].Zone, "from the beta zone label")
}

func TestStripLogs(t *testing.T) {
	const start, end = "==== START logs for container c of pod ns/p ====\n", "==== END logs for container c of pod ns/p ====\n"
	tests := []struct{ name, in, want string }{
		{"no logs", "{}\n{}\n", "{}\n{}\n"},
		{"one section", "{}\n" + start + "{ not json\n" + end + "{}\n", "{}\n{}\n"},
		{"an END of another container does not end it", "{}\n" + start + "==== END logs for container d of pod ns/p ====\n{\n" + end + "{}\n", "{}\n{}\n"},
		{"CRLF", "{}\r\n" + "==== START logs for container c of pod ns/p ====\r\nx\r\n==== END logs for container c of pod ns/p ====\r\n{}", "{}\r\n{}"},
		{"unterminated section runs to the end", "{}\n" + start + "x\n{}\n", "{}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, string(stripLogs([]byte(tc.in))))
		})
	}
}
