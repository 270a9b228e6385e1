package requirements

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTolerationTolerates(t *testing.T) {
	gpu := Taint{Key: "gpu", Value: "true", Effect: NoSchedule}
	tests := []struct {
		name string
		tol  Toleration
		t    Taint
		want bool
	}{
		{"empty key Exists tolerates all", Toleration{Operator: TolerateExists}, gpu, true},
		{"empty key Exists any effect", Toleration{Operator: TolerateExists}, Taint{Key: "x", Effect: NoExecute}, true},
		{"empty key Exists with effect", Toleration{Operator: TolerateExists, Effect: NoExecute}, gpu, false},
		{"Equal same value", Toleration{Key: "gpu", Value: "true"}, gpu, true},
		{"Equal other value", Toleration{Key: "gpu", Value: "false"}, gpu, false},
		{"Equal empty value against valued taint", Toleration{Key: "gpu"}, gpu, false},
		{"Exists ignores value", Toleration{Key: "gpu", Operator: TolerateExists}, gpu, true},
		{"other key", Toleration{Key: "cpu", Operator: TolerateExists}, gpu, false},
		{"effect matches", Toleration{Key: "gpu", Operator: TolerateExists, Effect: NoSchedule}, gpu, true},
		{"effect differs", Toleration{Key: "gpu", Operator: TolerateExists, Effect: PreferNoSchedule}, gpu, false},
		{"AnyEffect matches NoExecute", Toleration{Key: "gpu", Value: "true"}, Taint{Key: "gpu", Value: "true", Effect: NoExecute}, true},
		{"zero toleration tolerates empty value of any key", Toleration{}, Taint{Key: "dedicated", Effect: NoSchedule}, true},
		{"zero toleration against a value", Toleration{}, gpu, false},
		{"unknown toleration operator", Toleration{Key: "gpu", Operator: TolerationOperator(7), Value: "true"}, gpu, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.tol.Tolerates(tc.t))
		})
	}
}

func TestTolerates(t *testing.T) {
	taints := []Taint{
		{Key: "a", Value: "1", Effect: NoSchedule},
		{Key: "b", Effect: NoExecute},
		{Key: "c", Value: "x", Effect: PreferNoSchedule},
	}
	tests := []struct {
		name  string
		tols  []Toleration
		first string // key of the first untolerated taint, "" when all are tolerated
	}{
		{"none", nil, "a"},
		{"all by wildcard", []Toleration{{Operator: TolerateExists}}, ""},
		{"each", []Toleration{{Key: "c", Operator: TolerateExists}, {Key: "a", Value: "1"}, {Key: "b", Operator: TolerateExists, Effect: NoExecute}}, ""},
		{"second missing", []Toleration{{Key: "a", Operator: TolerateExists}, {Key: "c", Operator: TolerateExists}}, "b"},
		{"third missing", []Toleration{{Key: "a", Value: "1"}, {Key: "b", Operator: TolerateExists}, {Key: "c", Value: "y"}}, "c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Tolerates(tc.tols, taints)
			if tc.first == "" {
				assert.NoError(t, err)
				return
			}
			var ue *UntoleratedError
			require.True(t, errors.As(err, &ue))
			assert.Equal(t, tc.first, ue.Taint.Key)
			assert.Contains(t, err.Error(), "did not tolerate taint "+ue.Taint.String())
		})
	}
	assert.NoError(t, Tolerates(nil, nil))
}

func TestTaintValidateAndString(t *testing.T) {
	tests := []struct {
		taint Taint
		str   string
		ok    bool
	}{
		{Taint{Key: "gpu", Value: "true", Effect: NoSchedule}, "gpu=true:NoSchedule", true},
		{Taint{Key: "example.com/x", Effect: NoExecute}, "example.com/x:NoExecute", true},
		{Taint{Key: "k", Effect: PreferNoSchedule}, "k:PreferNoSchedule", true},
		{Taint{}, ":", false},
		{Taint{Key: "k"}, "k:", false},
		{Taint{Key: "bad key", Effect: NoSchedule}, "bad key:NoSchedule", false},
		{Taint{Key: "k", Value: "a b", Effect: NoSchedule}, "k=a b:NoSchedule", false},
		{Taint{Key: "k", Effect: Effect(9)}, "k:Effect(9)", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.str, tc.taint.String())
		err := tc.taint.Validate()
		if tc.ok {
			assert.NoError(t, err, tc.str)
			continue
		}
		assert.ErrorIs(t, err, ErrInvalid, tc.str)
		assert.Contains(t, err.Error(), "taint "+tc.str)
	}
}

func TestTolerationValidate(t *testing.T) {
	tests := []struct {
		name string
		tol  Toleration
		ok   bool
	}{
		{"key Equal value", Toleration{Key: "gpu", Value: "true"}, true},
		{"key Equal empty value", Toleration{Key: "gpu"}, true},
		{"key Exists", Toleration{Key: "example.com/gpu", Operator: TolerateExists, Effect: NoExecute}, true},
		{"empty key Exists", Toleration{Operator: TolerateExists}, true},
		{"empty key Exists with effect", Toleration{Operator: TolerateExists, Effect: PreferNoSchedule}, true},
		{"zero toleration: empty key with Equal", Toleration{}, false},
		{"empty key Equal with value", Toleration{Value: "x"}, false},
		{"bad key", Toleration{Key: "bad key", Operator: TolerateExists}, false},
		{"bad value", Toleration{Key: "k", Value: "bad value!"}, false},
		{"Exists with a value", Toleration{Key: "k", Operator: TolerateExists, Value: "v"}, false},
		{"unknown operator", Toleration{Key: "k", Operator: TolerationOperator(2)}, false},
		{"unknown effect", Toleration{Key: "k", Effect: Effect(4)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.tol.Validate()
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, ErrInvalid)
			}
		})
	}
}

func TestParseEffect(t *testing.T) {
	for _, e := range []Effect{AnyEffect, NoSchedule, PreferNoSchedule, NoExecute} {
		got, err := ParseEffect(e.String())
		require.NoError(t, err)
		assert.Equal(t, e, got)
	}
	assert.Equal(t, "NoSchedule", NoSchedule.String())
	assert.Equal(t, "", AnyEffect.String())
	for _, s := range []string{"noschedule", "NoSchedule ", "Bogus"} {
		_, err := ParseEffect(s)
		assert.ErrorIs(t, err, ErrInvalid, s)
		assert.Contains(t, err.Error(), s)
	}
	assert.Equal(t, "Equal", TolerateEqual.String())
	assert.Equal(t, "Exists", TolerateExists.String())
	assert.Equal(t, "TolerationOperator(3)", TolerationOperator(3).String())
}

// TestFieldError: New, WithMinValues, Taint.Validate and Toleration.Validate
// name the invalid part, so that a manifest reader can point at its field.
func TestFieldError(t *testing.T) {
	minValues := func(n int) error { _, err := MustNew("k", In, "a").WithMinValues(n); return err }
	newErr := func(key string, op Operator, values ...string) error { _, err := New(key, op, values...); return err }
	tests := []struct {
		name  string
		err   error
		field string
	}{
		{"requirement key", newErr("bad key", Exists), "key"},
		{"requirement operator", newErr("k", Operator(9)), "operator"},
		{"In without values", newErr("k", In), "values"},
		{"Exists with values", newErr("k", Exists, "a"), "values"},
		{"Gt with two values", newErr("k", Gt, "1", "2"), "values"},
		{"Gt non-integer", newErr("k", Gt, "x"), "values[0]"},
		{"second value", newErr("k", In, "a", "b c"), "values[1]"},
		{"minValues above the values", minValues(2), "minValues"},
		{"minValues negative", minValues(-1), "minValues"},
		{"taint key", Taint{Key: "a b", Effect: NoSchedule}.Validate(), "key"},
		{"taint value", Taint{Key: "k", Value: "a b", Effect: NoSchedule}.Validate(), "value"},
		{"taint without effect", Taint{Key: "k"}.Validate(), "effect"},
		{"toleration key", Toleration{Key: " k", Operator: TolerateExists}.Validate(), "key"},
		{"toleration empty key with Equal", Toleration{Value: "v"}.Validate(), "operator"},
		{"toleration unknown operator", Toleration{Key: "k", Operator: TolerationOperator(5)}.Validate(), "operator"},
		{"toleration value", Toleration{Key: "k", Value: "a/b"}.Validate(), "value"},
		{"toleration Exists with a value", Toleration{Key: "k", Operator: TolerateExists, Value: "v"}.Validate(), "value"},
		{"toleration effect", Toleration{Key: "k", Effect: Effect(7)}.Validate(), "effect"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fe *FieldError
			require.ErrorAs(t, tc.err, &fe)
			assert.Equal(t, tc.field, fe.Field)
			assert.ErrorIs(t, fe.Err, ErrInvalid, "the cause wraps ErrInvalid")
			assert.ErrorIs(t, tc.err, ErrInvalid)
		})
	}
}
