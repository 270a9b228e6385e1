package workload

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
)

// The core module's go.sum is not this package's to change, so the tests
// use these few stdlib checks in place of testify. Names mirror testify's
// so the tests read the same; each reports through t and never panics.

type checker struct{ fatal bool }

var (
	assert  = checker{}
	require = checker{fatal: true}
)

func (c checker) fail(t *testing.T, format string, args ...any) bool {
	t.Helper()
	if c.fatal {
		t.Fatalf(format, args...)
	}
	t.Errorf(format, args...)
	return false
}

func msg(extra []any) string {
	if len(extra) == 0 {
		return ""
	}
	if f, ok := extra[0].(string); ok {
		return ": " + fmt.Sprintf(f, extra[1:]...)
	}
	return fmt.Sprint(extra...)
}

func (c checker) Equal(t *testing.T, want, got any, extra ...any) bool {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		return c.fail(t, "got %v; want %v%s", got, want, msg(extra))
	}
	return true
}

func (c checker) True(t *testing.T, ok bool, extra ...any) bool {
	t.Helper()
	if !ok {
		return c.fail(t, "want true%s", msg(extra))
	}
	return true
}

func (c checker) False(t *testing.T, ok bool, extra ...any) bool {
	t.Helper()
	return c.True(t, !ok, extra...)
}

func (c checker) Zero(t *testing.T, v any, extra ...any) bool {
	t.Helper()
	if !reflect.ValueOf(v).IsZero() {
		return c.fail(t, "got %v; want zero%s", v, msg(extra))
	}
	return true
}

func (c checker) Len(t *testing.T, v any, n int, extra ...any) bool {
	t.Helper()
	if l := reflect.ValueOf(v).Len(); l != n {
		return c.fail(t, "len = %d; want %d%s", l, n, msg(extra))
	}
	return true
}

func (c checker) Empty(t *testing.T, v any, extra ...any) bool {
	t.Helper()
	return c.Len(t, v, 0, extra...)
}

func (c checker) InDelta(t *testing.T, want, got, delta float64, extra ...any) bool {
	t.Helper()
	if math.Abs(want-got) > delta {
		return c.fail(t, "got %v; want %v ± %v%s", got, want, delta, msg(extra))
	}
	return true
}

func contains[E comparable](t *testing.T, s []E, v E) {
	t.Helper()
	if !slices.Contains(s, v) {
		t.Errorf("%v not in %v", v, s)
	}
}
