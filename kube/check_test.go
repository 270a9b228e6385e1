package kube

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	sigsjson "sigs.k8s.io/json"
)

// TestReadHead: readHead reads a head as a case-sensitive decoder does
// (null left alone; escapes) in one pass, and reports a value of the
// wrong type, a name that is one only under case folding and a duplicate
// member with its path.
func TestReadHead(t *testing.T) {
	tests := []struct{ name, doc, err string }{
		{"plain", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"b"},"spec":{"x":[1,{"y":"}"}]}}`, ""},
		{"white space", " { \"kind\" : \"Pod\" ,\n \"metadata\" : { \"name\" : \"a\" } } ", ""},
		{"case-folded names", `{"Kind":"Pod","APIVERSION":"v1"}`, "Kind: unknown field: field names are case-sensitive; did you mean kind?"},
		{"case-folded name in metadata", `{"kind":"Pod","metadata":{"NAME":"a"}}`,
			"metadata.NAME: unknown field: field names are case-sensitive; did you mean name?"},
		{"an exact name and a folded one", `{"kind":"Pod","Kind":"Node"}`, "Kind: unknown field: field names are case-sensitive; did you mean kind?"},
		{"a duplicate", `{"kind":"Pod","kind":"Node"}`, "kind: duplicate field"},
		{"a duplicate in metadata", `{"kind":"Pod","metadata":{"name":"a","name":"b"}}`, "metadata.name: duplicate field"},
		{"metadata twice", `{"metadata":{"name":"a"},"metadata":{"namespace":"b"}}`, "metadata: duplicate field"},
		{"null leaves a field alone", `{"kind":"Pod","metadata":null}`, ""},
		{"other members are not read", `{"kind":"Pod","spec":1,"spec":2,"Spec":3}`, ""},
		{"escapes", `{"kind":"P\u006fd","metadata":{"n\u0061me":"a\"b","namespace":"ns\/x"}}`, ""},
		{"a non-ASCII key is not a name", `{"kınd":"Pod","kind":"Node"}`, ""},
		{"null document", `null`, ""},
		{"kind not a string", `{"kind":3}`, "kind: cannot read number 3 as string"},
		{"name not a string", `{"metadata":{"name":true}}`, "metadata.name: cannot read bool as string"},
		{"metadata not an object", `{"metadata":"x"}`, `metadata: cannot read string "x" as struct { Name string "json:\"name\""; Namespace string "json:\"namespace\"" }`},
		{"an escaped path as written", `{"metad\u0061ta":{"name":[1]}}`, "metadata.name: cannot read array as string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newChecker()
			var got head
			err := c.readHead([]byte(tc.doc), &got)
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			var want head
			require.NoError(t, sigsjson.UnmarshalCaseSensitivePreserveInts([]byte(tc.doc), &want))
			assert.Equal(t, want, got)
		})
	}
}

// TestCheck: the walk's verdicts and paths on what encoding/json would
// reject, and what it accepts.
func TestCheck(t *testing.T) {
	tests := []struct{ name, doc, err string }{
		{"a pod", `{"metadata":{"name":"a","labels":{"a b":"c"},"creationTimestamp":"2025-01-01T00:00:00Z"},` +
			`"spec":{"priority":-2147483648,"containers":[{"name":"c","resources":{"requests":{"cpu":"1","memory":null}}}]}}`, ""},
		{"an escaped map key in the path", `{"metadata":{"labels":{"a\u0020b":1}}}`, `metadata.labels["a b"]: cannot read number 1 as string`},
		{"an index in the path", `{"spec":{"containers":[{},{"ports":[{"containerPort":"http"}]}]}}`,
			`spec.containers[1].ports[0].containerPort: cannot read string "http" as int32`},
		{"int32 overflow", `{"spec":{"priority":2147483648}}`, "spec.priority: cannot read number 2147483648 as int32"},
		{"a fraction is no integer", `{"spec":{"priority":1.0}}`, "spec.priority: cannot read number 1.0 as int32"},
		{"a long integer", `{"spec":{"activeDeadlineSeconds":9223372036854775807}}`, ""},
		{"a long integer overflows", `{"spec":{"activeDeadlineSeconds":9223372036854775808}}`,
			"spec.activeDeadlineSeconds: cannot read number 9223372036854775808 as int64"},
		{"a time", `{"metadata":{"creationTimestamp":"2025-13-01T00:00:00Z"}}`,
			`metadata.creationTimestamp: cannot read "2025-13-01T00:00:00Z" as v1.Time: parsing time "2025-13-01T00:00:00Z": month out of range`},
		{"an escaped time", `{"metadata":{"creationTimestamp":"2025-01-01T00:00:00\u005a"}}`, ""},
		{"a quantity in a list", `{"spec":{"overhead":{"memory":"-1"}}}`, `spec.overhead.memory: "-1" is negative`},
		{"whole pods", `{"spec":{"overhead":{"pods":"1.5"}}}`, `spec.overhead.pods: "1.5" is not a whole number`},
		{"an escaped quantity is read as written, as apimachinery reads it", `{"spec":{"overhead":{"cpu":"\u0031"}}}`,
			`spec.overhead.cpu: "\\u0031" is not a quantity`},
		{"cpu beyond millicores", `{"spec":{"overhead":{"cpu":"10E"}}}`,
			`spec.overhead.cpu: "10E" is out of range (at most 2^63-1 units, 19 significant digits)`},
		{"an extended resource", `{"spec":{"overhead":{"example.com/dongle":"0.5"}}}`, `spec.overhead["example.com/dongle"]: "0.5" is not a whole number`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newChecker()
			err := c.check([]byte(tc.doc), reflect.TypeFor[corev1.Pod]())
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			var p corev1.Pod
			assert.NoError(t, json.Unmarshal([]byte(tc.doc), &p), "what the walk accepts decodes")
		})
	}
}

// TestPlainTime: the fast path for metav1.Time agrees with its
// UnmarshalJSON, in what it accepts and what it reads.
func TestPlainTime(t *testing.T) {
	for _, raw := range []string{`null`, `"2025-06-01T12:00:00Z"`, `"2025-06-01T12:00:00+02:00"`, `"2025-06-01"`, `""`,
		`"yesterday"`, `"2025-06-01T12:00:00\u005a"`, `3`, `"2025-06-01T25:00:00Z"`, `"2025-06-01T12:00:00.123456789-07:30"`} {
		var tm metav1.Time
		err := tm.UnmarshalJSON([]byte(raw))
		got, ok := plainTime([]byte(raw))
		if ok {
			assert.NoError(t, err, raw)
			assert.Equal(t, tm, got, raw)
		}
		if err != nil {
			assert.False(t, ok, raw)
		}
	}
}

// TestDecodedComplete: every type Load decodes the fixtures into has a
// shared plan, so that no Load builds plans of its own.
func TestDecodedComplete(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	more, err := filepath.Glob("testdata/manifests/*")
	require.NoError(t, err)
	kinds := map[string]bool{}
	for _, name := range append(files, more...) {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		b := builder{check: newChecker()}
		objs, err := split(nil, Source{Name: name, Data: data}, &b.check)
		require.NoError(t, err, name)
		for i := range objs {
			kinds[objs[i].head.Kind+" "+objs[i].head.APIVersion] = true
			_ = b.read(&objs[i])
		}
		assert.Empty(t, b.check.plans, "%s: plans built outside sharedPlans", name)
	}
	for _, k := range []string{"Pod v1", "Node v1", "DaemonSet apps/v1", "Deployment apps/v1", "ReplicaSet apps/v1", "StatefulSet apps/v1",
		"Job batch/v1", "PodDisruptionBudget policy/v1", "PriorityClass scheduling.k8s.io/v1", "NodePool karpenter.sh/v1",
		"NodeClaim karpenter.sh/v1", "EC2NodeClass karpenter.k8s.aws/v1", "NodePool karpenter.sh/v1beta1",
		"EC2NodeClass karpenter.k8s.aws/v1beta1", "PersistentVolumeClaim v1", "PersistentVolume v1", "StorageClass storage.k8s.io/v1",
		"LimitRange v1", "PodTemplate v1", "CapacityBuffer autoscaling.x-k8s.io/v1beta1", "CSINode storage.k8s.io/v1"} {
		assert.True(t, kinds[k], "the fixtures hold no %s", k)
	}
}

// FuzzCheck checks the walk against encoding/json and sigs.k8s.io/json's
// case-sensitive decoder on any input: it never panics; what it accepts as
// a Pod, json.Unmarshal decodes as the case-sensitive decoder does;
// readHead reads what the case-sensitive decoder reads, and accepts a head
// json.Unmarshal decodes unless a name matches only under case folding or
// a member is there twice.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","labels":{"a b":"c"},"creationTimestamp":"2025-01-01T00:00:00Z"},` +
		`"spec":{"priority":7,"containers":[{"name":"c","ports":[{"containerPort":80}],"resources":{"requests":{"cpu":"1","memory":null}}}]}}`))
	f.Add([]byte(`{"Kind":"Pod","kind":null,"METADATA":{"name":"a\u0062"},"spec":{"overhead":{"example.com/x":"0.5"}}}`))
	f.Add([]byte(`{"spec":{"containers":[{},{"ports":[{"containerPort":"http"}]}]}}`))
	f.Add([]byte(`{"metadata":{"creationTimestamp":"2025-13-01T00:00:00Z"}}`))
	f.Add([]byte(`{"spec":{"priority":2147483648, "x": [1, {"y": "}"}]}}`))
	f.Add([]byte(`[1,2`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newChecker()
		podErr := c.check(data, reflect.TypeFor[corev1.Pod]())
		var h head
		headErr := c.readHead(data, &h)
		if !json.Valid(data) {
			return
		}
		var p, sensitive corev1.Pod
		err := json.Unmarshal(data, &p)
		switch {
		case podErr == nil && err != nil:
			t.Fatalf("the walk accepts a pod json.Unmarshal rejects: %v", err)
		case podErr == nil && sigsjson.UnmarshalCaseSensitivePreserveInts(data, &sensitive) == nil && !reflect.DeepEqual(p, sensitive):
			t.Fatalf("the walk accepts a pod json.Unmarshal decodes otherwise than a case-sensitive decoder")
		}
		var want, folded head
		err = sigsjson.UnmarshalCaseSensitivePreserveInts(data, &want)
		switch {
		case headErr == nil && err == nil && want != h:
			t.Fatalf("readHead read %+v, the case-sensitive decoder %+v", h, want)
		case headErr != nil && json.Unmarshal(data, &folded) == nil && !errors.Is(headErr, ErrUnknownField) && !errors.Is(headErr, ErrDuplicateField):
			t.Fatalf("readHead rejects a head json.Unmarshal reads: %v", headErr)
		}
	})
}

// TestCheckAllocs holds the walk to its allocation budget: on a valid pod,
// at most one string per quantity it parses (its four here), and nothing
// for times, the path, the members it skips or the types it meets;
// reading a head, its four strings.
func TestCheckAllocs(t *testing.T) {
	pod := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"shop","uid":"u",` +
		`"creationTimestamp":"2025-06-01T10:00:00Z","labels":{"app":"web"},"annotations":{"a":"b"},` +
		`"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"v","controller":true}]},` +
		`"spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80,"protocol":"TCP"}],` +
		`"resources":{"requests":{"cpu":"500m","memory":"512Mi"},"limits":{"cpu":"1","memory":"1Gi"}}}],` +
		`"tolerations":[{"key":"k","operator":"Exists"}],"priority":7},"status":{"phase":"Pending"}}`)
	c := newChecker()
	pt := reflect.TypeFor[corev1.Pod]()
	require.NoError(t, c.check(pod, pt))
	if allocs := testing.AllocsPerRun(100, func() { _ = c.check(pod, pt) }); allocs > 4 {
		t.Errorf("check allocs = %v; want at most 4 (one per quantity)", allocs)
	}
	var h head
	if allocs := testing.AllocsPerRun(100, func() { _ = c.readHead(pod, &h) }); allocs > 4 {
		t.Errorf("readHead allocs = %v; want at most 4", allocs)
	}
}
