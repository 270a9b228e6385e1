package kube

import (
	"errors"
	"os"
	"testing"
)

// FuzzLoad checks that Load never panics and that every error it returns
// is a *DocumentError naming the file.
func FuzzLoad(f *testing.F) {
	if data, err := os.ReadFile("testdata/cluster.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(fullPod))
	f.Add([]byte(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}]}`))
	f.Add([]byte("kind: [\n"))
	f.Add([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 3}\n"))
	f.Add([]byte("[1, 2]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Load(Source{Name: "fuzz.yaml", Data: data})
		var de *DocumentError
		if err != nil && (!errors.As(err, &de) || de.File != "fuzz.yaml") {
			t.Fatalf("error %v is not a *DocumentError for fuzz.yaml", err)
		}
	})
}
