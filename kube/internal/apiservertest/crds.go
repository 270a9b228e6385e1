//go:build unix

package apiservertest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// crdResource is the API of CustomResourceDefinitions.
var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// crdTimeout bounds the wait for the CRDs to be Established.
const crdTimeout = time.Minute

// installCRDs creates every CustomResourceDefinition in the .yaml files
// of dir, and those of Karpenter's module that dir lacks (moduleCRDs), and
// waits until each is Established.
func installCRDs(config *rest.Config, dir string) error {
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return err
	}
	crds, err := readCRDs(dir)
	if err != nil {
		return err
	}
	more, err := moduleCRDs(crds)
	if err != nil {
		return err
	}
	crds = append(crds, more...)
	ctx, cancel := context.WithTimeout(context.Background(), crdTimeout)
	defer cancel()
	for _, crd := range crds {
		if _, err := client.Resource(crdResource).Create(ctx, crd, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("apiservertest: create CRD %s: %w", crd.GetName(), err)
		}
	}
	for _, crd := range crds {
		if err := waitEstablished(ctx, client, crd.GetName()); err != nil {
			return err
		}
	}
	return nil
}

// readCRDs reads the objects of every .yaml file in dir, in file-name
// order, and checks each is a CustomResourceDefinition.
func readCRDs(dir string) ([]*unstructured.Unstructured, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("apiservertest: no CRDs (*.yaml) in %s", dir)
	}
	slices.Sort(files)
	var crds []*unstructured.Unstructured
	for _, file := range files {
		objs, err := readObjects(file)
		if err != nil {
			return nil, err
		}
		crds = append(crds, objs...)
	}
	return crds, nil
}

// readObjects decodes each YAML document of file that is not empty.
func readObjects(file string) ([]*unstructured.Unstructured, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	var objs []*unstructured.Unstructured
	for i := 0; ; i++ {
		obj := &unstructured.Unstructured{}
		err := dec.Decode(&obj.Object)
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("apiservertest: %s: document %d: %w", file, i, err)
		}
		if len(obj.Object) == 0 {
			continue
		}
		if obj.GetKind() != "CustomResourceDefinition" {
			return nil, fmt.Errorf("apiservertest: %s: document %d: kind %q, want CustomResourceDefinition", file, i, obj.GetKind())
		}
		objs = append(objs, obj)
	}
}

// waitEstablished polls the CRD until its Established condition is True.
func waitEstablished(ctx context.Context, client dynamic.Interface, name string) error {
	for {
		crd, err := client.Resource(crdResource).Get(ctx, name, metav1.GetOptions{})
		if err == nil && established(crd) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("apiservertest: CRD %s not Established after %v (last error: %v)", name, crdTimeout, err)
		case <-time.After(pollInterval):
		}
	}
}

func established(crd *unstructured.Unstructured) bool {
	conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conditions {
		c, _ := c.(map[string]any)
		if c["type"] == "Established" && c["status"] == "True" {
			return true
		}
	}
	return false
}
