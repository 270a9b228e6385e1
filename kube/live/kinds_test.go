package live

import (
	"reflect"
	"testing"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/stretchr/testify/assert"
)

// TestKinds: Kinds has every field of kube.Objects once, New and Add put
// an object in its slice, and Karpenter's kinds and the optional one are
// marked (the optional ones: EC2NodeClass, absent on other providers,
// with a warning; NodeOverlay and CapacityBuffer, absent without their
// CRDs, quiet).
func TestKinds(t *testing.T) {
	var objs kube.Objects
	marked := map[string]string{}
	for _, k := range Kinds() {
		k.Add(&objs, k.New())
		switch {
		case k.Karpenter:
			marked[k.Kind] = "karpenter"
		case k.Optional && k.Quiet:
			marked[k.Kind] = "quiet"
		case k.Optional:
			marked[k.Kind] = "optional"
		case k.Quiet:
			marked[k.Kind] = "quiet but not optional"
		}
	}
	v := reflect.ValueOf(objs)
	for i := range v.NumField() {
		assert.Equal(t, 1, v.Field(i).Len(), v.Type().Field(i).Name)
	}
	assert.Equal(t, map[string]string{"NodePool": "karpenter", "NodeClaim": "karpenter", "EC2NodeClass": "optional",
		"NodeOverlay": "quiet", "CapacityBuffer": "quiet"}, marked)
}
