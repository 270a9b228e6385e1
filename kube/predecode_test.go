package kube

import (
	"bytes"
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// Pods decoded and converted ahead on several goroutines, their heads read
// on several too (the list is long enough for appendItems), give what one
// goroutine gives: the same cluster (priorities from a default
// PriorityClass included) and warnings (unknown fields, in order), and
// the same first error when several pods are bad, in reading their heads
// (in one run of items or in two), decoding or converting.
func TestPredecodeAsSequential(t *testing.T) {
	require.Greater(t, 2*headsMin, 1500)
	good := podList(2 * headsMin)
	unknown := bytes.Replace(good, []byte(`"name":"web-5d8f9c7b6-00300"`), []byte(`"name":"web-5d8f9c7b6-00300","futureField":1`), 1)
	bad := bytes.Replace(unknown, []byte(`"name":"web-5d8f9c7b6-00400"`), []byte(`"name":"web-5d8f9c7b6-00400","generation":"x"`), 1)
	bad = bytes.Replace(bad, []byte(`"name":"web-5d8f9c7b6-00450"`), []byte(`"name":"web-5d8f9c7b6-00450","labels":"x"`), 1)
	badHeads := bytes.Replace(good, []byte(`"name":"web-5d8f9c7b6-00350"`), []byte(`"name":350`), 1)
	badHeads = bytes.Replace(badHeads, []byte(`"name":"web-5d8f9c7b6-00360"`), []byte(`"name":360`), 1)
	badHeads = bytes.Replace(badHeads, []byte(`"name":"web-5d8f9c7b6-01500"`), []byte(`"name":1500`), 1)
	lateHead := bytes.Replace(good, []byte(`"name":"web-5d8f9c7b6-01500"`), []byte(`"name":1500`), 1)
	badOperator := replaceNth(replaceNth(good, `"operator":"Equal"`, `"operator":"Maybe"`, 450), `"operator":"Equal"`, `"operator":"Maybe"`, 300)
	require.NotEqual(t, good, unknown)
	require.NotEqual(t, unknown, bad)
	require.NotEqual(t, good, badOperator)
	class := Source{Name: "class.yaml", Data: []byte("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: normal}\nvalue: 7\nglobalDefault: true\n")}
	load := func(procs int, data []byte) (Cluster, error) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		return Load(Source{Name: "pods.json", Data: data}, class)
	}
	require.NotEqual(t, good, lateHead)
	for _, data := range [][]byte{good, unknown, bad, badHeads, lateHead, badOperator} {
		one, err1 := load(1, data)
		two, err2 := load(2, data)
		four, err4 := load(4, data)
		assert.Equal(t, err1, err2)
		assert.Equal(t, err1, err4)
		assert.Equal(t, one, two)
		assert.Equal(t, one, four)
	}
	c, err := load(2, unknown)
	require.NoError(t, err)
	assert.Len(t, c.Pods, 2*headsMin)
	assert.Len(t, warningsWith(c, "spec.futureField"), 0, "metadata, not spec")
	assert.NotEmpty(t, warningsWith(c, "metadata.futureField"))
	assert.Equal(t, int32(7), c.Pods[0].Priority, "the default class's")
	_, err = load(2, bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "items[400]: Pod shop/web-5d8f9c7b6-00400: metadata.generation: cannot read", "the first bad pod")
	_, err = load(2, badHeads)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "items[350]: malformed document: metadata.name: cannot read number 350 as string", "the first bad head")
	_, err = load(2, lateHead)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "items[1500]: malformed document: metadata.name: cannot read number 1500 as string", "a bad head in a later run")
	_, err = load(2, badOperator)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "items[300]: Pod shop/web-5d8f9c7b6-00300: spec.tolerations", "the first bad pod")
}

// replaceNth replaces the n-th (from 0) occurrence of old in data.
func replaceNth(data []byte, old, new string, n int) []byte {
	at := 0
	for range n {
		at += bytes.Index(data[at:], []byte(old)) + len(old)
	}
	at += bytes.Index(data[at:], []byte(old))
	return slices.Concat(data[:at], []byte(new), data[at+len(old):])
}

// A manifest without pending pods gives no pending pods: nil, as before
// Load sized the slice.
func TestLoadNoPendingPods(t *testing.T) {
	c, err := Load(Source{Name: "n.json", Data: []byte(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},` +
		`"status":{"allocatable":{"cpu":"2","memory":"4Gi","pods":"10"}}}`)})
	require.NoError(t, err)
	assert.Nil(t, c.Pods)
	assert.Len(t, c.Nodes, 1)
}

// TestDecodeNotIntoItsSlot: readPod takes the k-th pod it reads from
// predecode's k-th result when that was decoded from the same object, and
// otherwise (which Load never does: a guard) decodes the object again
// into the elements it extends the snapshot by.
func TestDecodeNotIntoItsSlot(t *testing.T) {
	raw := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"shop","labels":{"app":"web"}}}`)
	o := object{file: "p.json", index: 1, item: -1, head: head{APIVersion: "v1", Kind: "Pod"}, raw: raw}
	other := object{file: "p.json", index: 2, item: -1, head: head{APIVersion: "v1", Kind: "Pod"},
		raw: []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b"}}`)}
	c := newChecker()
	var scratch corev1.Pod
	var facts podFacts
	var pod packing.Pod
	require.NoError(t, takeJSON(&c, &o, &scratch, &facts, &pod).err)
	require.Equal(t, "a", pod.Name)

	b := builder{check: newChecker(), expect: map[string]int{"Pod": 1}}
	b.in.pods = []podFacts{{name: "stale", nodeName: "n1"}}[:0]
	b.in.converted = []packing.Pod{{Name: "stale", Labels: map[string]string{"x": "y"}}}[:0]
	b.in.pre = []predecoded{{obj: &other}}
	require.NoError(t, readPod(&b, &o))
	require.Len(t, b.in.pods, 1)
	assert.Equal(t, facts, b.in.pods[0])
	assert.Equal(t, pod, b.in.converted[0])
	assert.Equal(t, map[string]string{"app": "web"}, b.in.converted[0].Labels)

	taken := errors.New("predecode's")
	b = builder{check: newChecker(), expect: map[string]int{"Pod": 1}}
	b.in.pre = []predecoded{{obj: &o, err: taken}}
	assert.Same(t, taken, readPod(&b, &o), "taken from pre, not decoded")
	assert.Equal(t, predecoded{}, b.in.pre[0], "released")
}
