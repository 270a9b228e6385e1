package repair_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/repair"
)

func TestParsePolicy(t *testing.T) {
	tests := []struct {
		in      string
		want    repair.Policy
		problem string
	}{
		{"Ready=False:30m", repair.Policy{ConditionType: "Ready", ConditionStatus: repair.ConditionFalse, TolerationDuration: 30 * time.Minute}, ""},
		{"KernelReady=Unknown:1h30m", repair.Policy{ConditionType: "KernelReady", ConditionStatus: repair.ConditionUnknown, TolerationDuration: 90 * time.Minute}, ""},
		{"example.com/Gpu=True:0s", repair.Policy{ConditionType: "example.com/Gpu", ConditionStatus: repair.ConditionTrue}, ""},
		{"Ready", repair.Policy{}, `repair: policy "Ready": want Type=Status:duration`},
		{"=False:30m", repair.Policy{}, `repair: policy "=False:30m": empty condition type`},
		{"Ready=False", repair.Policy{}, `repair: policy "Ready=False": no toleration`},
		{"Ready=false:30m", repair.Policy{}, `repair: policy "Ready=false:30m": unknown condition status "false": want True, False or Unknown`},
		{"Ready=False:soon", repair.Policy{}, `repair: policy "Ready=False:soon": toleration "soon": not a duration`},
		{"Ready=False:-5m", repair.Policy{}, `repair: policy "Ready=False:-5m": negative toleration -5m0s`},
		{"Ready=False:", repair.Policy{}, `toleration "": not a duration`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := repair.ParsePolicy(tc.in)
			if tc.problem == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
				return
			}
			require.ErrorIs(t, err, repair.ErrInvalidInput)
			var ie *repair.InputError
			assert.True(t, errors.As(err, &ie))
			assert.ErrorContains(t, err, tc.problem)
			assert.Zero(t, got)
		})
	}
}

// ParsePolicy reads back what Policy's parts print, for every AWS policy.
func TestParsePolicyRoundTrip(t *testing.T) {
	for _, p := range repair.AWSPolicies() {
		got, err := repair.ParsePolicy(p.ConditionType + "=" + p.ConditionStatus.String() + ":" + p.TolerationDuration.String())
		require.NoError(t, err)
		assert.Equal(t, p, got)
	}
}

func FuzzParsePolicy(f *testing.F) {
	for _, s := range []string{"", "Ready=False:30m", "=:", "a=b=c:d", "Ready=Unknown:-1ns", "x=True:9223372036854775807ns", "\x00=\xff:1h", "Ready=False:30m:1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := repair.ParsePolicy(s)
		if err != nil {
			if !errors.Is(err, repair.ErrInvalidInput) || p != (repair.Policy{}) {
				t.Fatalf("%q: err = %v, policy %+v", s, err, p)
			}
			return
		}
		if p.ConditionType == "" || !p.ConditionStatus.IsValid() || p.TolerationDuration < 0 {
			t.Fatalf("%q: invalid policy %+v accepted", s, p)
		}
	})
}
