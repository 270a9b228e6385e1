package kube

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// typedFixtures are the manifests both sources read: every fixture Load
// accepts but karpenter-v1beta1.yaml, whose v1beta1 objects have no type
// in Karpenter v1.14.1's Go module (Load converts them itself).
func typedFixtures(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{"testdata/*.yaml", "testdata/reschedulable/*.yaml", "testdata/manifests/*",
		"cmd/nodeplan/testdata/nodestates/*.yaml"} {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		for _, f := range files {
			if !strings.Contains(f, "v1beta1") {
				out = append(out, f)
			}
		}
	}
	require.Greater(t, len(out), 20)
	return out
}

// decodeTyped decodes manifests into Objects independently of Load's
// decoder: documents split by apimachinery's YAML reader (or a JSON
// stream), kubectl cluster-info dump's logs dropped, lists unpacked, each
// object decoded by sigs.k8s.io/yaml into its k8s.io/api or Karpenter Go
// type, and the defaults the API server writes from Karpenter's NodePool
// CRD applied where a nil NillableDuration would mean Never.
func decodeTyped(t *testing.T, data []byte) Objects {
	t.Helper()
	var objs Objects
	for _, doc := range typedDocuments(t, data) {
		addTyped(t, &objs, "", "", doc)
	}
	return objs
}

func typedDocuments(t *testing.T, data []byte) [][]byte {
	t.Helper()
	data = withoutLogs(data)
	var docs [][]byte
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err == io.EOF {
				return docs
			} else {
				require.NoError(t, err)
			}
			docs = append(docs, raw)
		}
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if err == io.EOF {
			return docs
		}
		require.NoError(t, err)
		j, err := yaml.YAMLToJSON(doc)
		require.NoError(t, err)
		docs = append(docs, j)
	}
}

// withoutLogs drops the lines from each "==== START logs" line to its
// "==== END logs" line.
func withoutLogs(data []byte) []byte {
	var out []byte
	in := false
	for line := range bytes.Lines(data) {
		switch {
		case bytes.HasPrefix(line, []byte("==== START logs")):
			in = true
		case bytes.HasPrefix(line, []byte("==== END logs")):
			in = false
		case !in:
			out = append(out, line...)
		}
	}
	return out
}

// addTyped decodes one JSON value into objs: an array or a list item by
// item (an item without kind taking the list's), else by its kind.
func addTyped(t *testing.T, objs *Objects, apiVersion, kind string, raw []byte) {
	t.Helper()
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return
	}
	var head struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}
	var items []json.RawMessage
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		require.NoError(t, json.Unmarshal(raw, &items))
	} else {
		require.NoError(t, json.Unmarshal(raw, &head))
		if head.Kind != "" {
			apiVersion, kind = head.APIVersion, head.Kind
		}
		if !strings.HasSuffix(kind, "List") {
			addKind(t, objs, apiVersion+" "+kind, raw)
			return
		}
		items, kind = head.Items, strings.TrimSuffix(kind, "List")
	}
	for _, item := range items {
		addTyped(t, objs, apiVersion, kind, item)
	}
}

func addKind(t *testing.T, objs *Objects, kind string, raw []byte) {
	t.Helper()
	switch kind {
	case "v1 Pod":
		appendTyped(t, raw, &objs.Pods)
	case "v1 Node":
		appendTyped(t, raw, &objs.Nodes)
	case "apps/v1 DaemonSet":
		appendTyped(t, raw, &objs.DaemonSets)
	case "apps/v1 Deployment":
		appendTyped(t, raw, &objs.Deployments)
	case "apps/v1 ReplicaSet":
		appendTyped(t, raw, &objs.ReplicaSets)
	case "apps/v1 StatefulSet":
		appendTyped(t, raw, &objs.StatefulSets)
	case "batch/v1 Job":
		appendTyped(t, raw, &objs.Jobs)
	case "policy/v1 PodDisruptionBudget":
		appendTyped(t, raw, &objs.PodDisruptionBudgets)
	case "scheduling.k8s.io/v1 PriorityClass":
		appendTyped(t, raw, &objs.PriorityClasses)
	case "v1 PersistentVolumeClaim":
		appendTyped(t, raw, &objs.PersistentVolumeClaims)
	case "v1 PersistentVolume":
		appendTyped(t, raw, &objs.PersistentVolumes)
	case "storage.k8s.io/v1 StorageClass":
		appendTyped(t, raw, &objs.StorageClasses)
	case "storage.k8s.io/v1 CSINode":
		appendTyped(t, raw, &objs.CSINodes)
	case "v1 LimitRange":
		appendTyped(t, raw, &objs.LimitRanges)
	case "karpenter.sh/v1 NodePool":
		appendTyped(t, withCRDDefaults(t, raw), &objs.NodePools)
	case "karpenter.sh/v1 NodeClaim":
		appendTyped(t, raw, &objs.NodeClaims)
	case "karpenter.k8s.aws/v1 EC2NodeClass":
		appendTyped(t, raw, &objs.EC2NodeClasses)
	case "v1 PodTemplate":
		appendTyped(t, raw, &objs.PodTemplates)
	case "autoscaling.x-k8s.io/v1beta1 CapacityBuffer":
		appendTyped(t, raw, &objs.CapacityBuffers)
	}
}

func appendTyped[T any](t *testing.T, raw []byte, dst *[]T) {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(raw, &v))
	*dst = append(*dst, v)
}

// withCRDDefaults writes into a NodePool's JSON the defaults Karpenter's
// CRD gives the API server for spec.template.spec.expireAfter (720h) and
// spec.disruption.consolidateAfter (0s), which a live NodePool always has.
func withCRDDefaults(t *testing.T, raw []byte) []byte {
	t.Helper()
	var np map[string]any
	require.NoError(t, json.Unmarshal(raw, &np))
	spec := jsonObject(np, "spec")
	if tmpl := jsonObject(jsonObject(spec, "template"), "spec"); tmpl["expireAfter"] == nil {
		tmpl["expireAfter"] = "720h"
	}
	if d := jsonObject(spec, "disruption"); d["consolidateAfter"] == nil {
		d["consolidateAfter"] = "0s"
	}
	out, err := json.Marshal(np)
	require.NoError(t, err)
	return out
}

// jsonObject returns m[key] as an object, adding an empty one when absent.
func jsonObject(m map[string]any, key string) map[string]any {
	o, ok := m[key].(map[string]any)
	if !ok {
		o = map[string]any{}
		m[key] = o
	}
	return o
}

// location matches where Load says an object was read, in warnings.
var location = regexp.MustCompile(` \([^()]*: document \d+(: items\[\d+\])?\)|[^ ]*: document \d+(: items\[\d+\])?: `)

// sameSnapshot returns c, read by Load, as FromObjects would build it
// from the objects decodeTyped decodes: without where the objects were
// read (origins, and in warnings), without the warnings only Load gives
// (skipped kinds, unknown fields), and with the NodePool defaults of
// withCRDDefaults.
func sameSnapshot(c Cluster) Cluster {
	c.origins = nil
	var ws []string
	for _, w := range c.Warnings {
		if !strings.HasPrefix(w, "skipped ") || !strings.Contains(w, " nodeplan does not read: ") {
			if !strings.HasPrefix(w, "ignored ") || !strings.Contains(w, "unknown field") {
				ws = append(ws, location.ReplaceAllString(w, ""))
			}
		}
	}
	c.Warnings = ws
	for i := range c.NodePools {
		np := &c.NodePools[i]
		if np.Spec.Template.Spec.ExpireAfter == "" {
			np.Spec.Template.Spec.ExpireAfter = "720h"
		}
		if np.Spec.Disruption.ConsolidateAfter == "" {
			np.Spec.Disruption.ConsolidateAfter = "0s"
		}
	}
	return c
}

// TestFromObjectsMatchesLoad: every fixture gives the same Cluster, and
// the same plan byte for byte, from Load and from FromObjects on the
// objects decoded independently of Load.
func TestFromObjectsMatchesLoad(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	for _, name := range typedFixtures(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			want, err := Load(Source{Name: name, Data: data})
			require.NoError(t, err)
			objs := decodeTyped(t, data)
			got, err := FromObjects(objs)
			require.NoError(t, err)
			got.origins = nil
			assert.Equal(t, sameSnapshot(want), got)
			assert.Equal(t, planJSON(t, &want, cat), planJSON(t, &got, cat))
			assert.Equal(t, decodeTyped(t, data), objs, "FromObjects modified its objects")
		})
	}
}

// planJSON solves c's problem and returns the plan as JSON, or the error.
func planJSON(t *testing.T, c *Cluster, cat *instancetypes.Catalog) string {
	t.Helper()
	p, err := c.Problem(cat)
	if err != nil {
		return "problem: " + err.Error()
	}
	plan, err := packing.Solve(p, packing.Options{})
	if err != nil {
		return "solve: " + err.Error()
	}
	out, err := json.Marshal(plan)
	require.NoError(t, err)
	return string(out)
}

// FuzzFromObjectsStrings: on the clusters of FuzzLoadStrings, FromObjects
// on the objects decoded independently of Load accepts what Load accepts,
// builds the same Cluster, and rejects what Load rejects with the same
// *ObjectError (Load's in a *DocumentError).
func FuzzFromObjectsStrings(f *testing.F) {
	addStringSeeds(f)
	f.Fuzz(func(t *testing.T, name, key, value, topology, pool string) {
		if key == topology || key == requirements.LabelNodePool || topology == requirements.LabelNodePool {
			return // a label key twice in one map, which only Load's decoder sees
		}
		data := []byte(stringsCluster(name, key, value, topology, pool))
		want, loadErr := Load(Source{Name: "s.json", Data: data})
		got, err := FromObjects(decodeTyped(t, data))
		if loadErr != nil || err != nil {
			var de *DocumentError
			if !errors.As(loadErr, &de) || err == nil || de.Err.Error() != err.Error() {
				t.Fatalf("Load: %v\nFromObjects: %v", loadErr, err)
			}
			return
		}
		got.origins = nil
		require.Equal(t, sameSnapshot(want), got)
	})
}
