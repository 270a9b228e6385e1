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
	long := strings.Repeat("p", 64) // a prefix part longer than a DNS label
	tests := []struct {
		key   string
		valid bool
	}{
		{"a", true}, {"A1", true}, {"a.b_c-d", true}, {"example.com/x", true}, {"a-b.c/d", true},
		{strings.Repeat("a", 63), true},
		{strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "/n", true},
		// apimachinery bounds the prefix's length (253), not its parts'.
		{long + ".com/n", true}, {long + "/n", true},
		{strings.Repeat("a", 253) + "/n", true},
		{"", false}, {"/", false}, {"a/", false}, {"/a", false}, {"-a", false}, {"a-", false},
		{"a b", false}, {" a", false}, {"a/b/c", false}, {"Ex.com/a", false}, {"a..b/c", false},
		{"-a.com/b", false}, {"a.com-/b", false}, {".a/b", false}, {"a./b", false},
		{strings.Repeat("a", 64), false}, {strings.Repeat("a", 254) + "/n", false},
		{"a_b.com/c", false}, {"ä", false}, {"a/ä", false}, {"a\n", false}, {"a\x00", false},
		{"rack:1", false}, {"a=b", false}, {`"a"`, false}, {"\xff", false},
	}
	for _, tc := range tests {
		err := ValidateKey(tc.key)
		if tc.valid {
			assert.NoError(t, err, tc.key)
		} else {
			assert.ErrorIs(t, err, ErrInvalid, tc.key)
		}
	}
}

func TestValidateValue(t *testing.T) {
	for _, v := range []string{"", "a", "0", "a.b-c_d", strings.Repeat("v", 63)} {
		assert.NoError(t, ValidateValue(v), v)
	}
	for _, v := range []string{"-1", "+1", "a-", " ", "a b", strings.Repeat("v", 64), "a/b", `a:b`, `"a"`, "é", "a\n"} {
		assert.ErrorIs(t, ValidateValue(v), ErrInvalid, v)
	}
}
