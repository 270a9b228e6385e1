package requirements

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"failure-domain.beta.kubernetes.io/zone", LabelZone},
		{"failure-domain.beta.kubernetes.io/region", LabelRegion},
		{"beta.kubernetes.io/arch", LabelArch},
		{"beta.kubernetes.io/os", LabelOS},
		{"beta.kubernetes.io/instance-type", LabelInstanceType},
		{LabelZone, LabelZone},
		{"team", "team"},
		{"", ""},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, Normalize(tc.in), tc.in)
	}
	// Every beta key reaches New normalised.
	for _, beta := range []string{"failure-domain.beta.kubernetes.io/zone", "beta.kubernetes.io/os"} {
		assert.Equal(t, Normalize(beta), MustNew(beta, Exists).Key())
	}
}

func TestIsWellKnown(t *testing.T) {
	for _, k := range []string{
		LabelZone, LabelRegion, LabelInstanceType, LabelArch, LabelOS, LabelWindowsBuild, LabelCapacityType,
		LabelNodePool, LabelInstanceFamily, LabelInstanceCPU, LabelInstanceGPUName, LabelTopologyZoneID,
	} {
		assert.True(t, IsWellKnown(k), k)
	}
	for _, k := range []string{
		LabelHostname, LabelKarpenterInitialized, LabelKarpenterRegistered, "team", "",
		"failure-domain.beta.kubernetes.io/zone", "zone",
	} {
		assert.False(t, IsWellKnown(k), k)
	}
	keys := WellKnown()
	assert.True(t, slices.IsSorted(keys))
	assert.Len(t, slices.Compact(slices.Clone(keys)), len(keys), "duplicates")
	keys[0] = "mutated"
	assert.NotEqual(t, "mutated", WellKnown()[0], "WellKnown must return a copy")
}

func TestValidateKey(t *testing.T) {
	valid := []string{"a", "A1", "a.b_c-d", "example.com/x", "a-b.c/d", strings.Repeat("a", 63),
		strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "/n"}
	for _, k := range valid {
		assert.NoError(t, ValidateKey(k), k)
	}
	invalid := []string{"", "/", "a/", "/a", "-a", "a-", "a b", "a/b/c", "Ex.com/a", "a..b/c", "-a.com/b",
		strings.Repeat("a", 64), strings.Repeat("a", 254) + "/n", "a_b.com/c", "ä"}
	for _, k := range invalid {
		assert.ErrorIs(t, ValidateKey(k), ErrInvalid, k)
	}
}

func TestValidateValue(t *testing.T) {
	for _, v := range []string{"", "a", "0", "a.b-c_d", strings.Repeat("v", 63)} {
		assert.NoError(t, ValidateValue(v), v)
	}
	for _, v := range []string{"-1", "+1", "a-", " ", "a b", strings.Repeat("v", 64), "a/b"} {
		assert.ErrorIs(t, ValidateValue(v), ErrInvalid, v)
	}
}
