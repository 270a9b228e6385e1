package enum

import "testing"

type color uint8

func TestString(t *testing.T) {
	names := []string{"Red", "Green"}
	for v, want := range map[color]string{0: "Red", 1: "Green", 2: "color(2)", 255: "color(255)"} {
		if got := String(v, "color", names); got != want {
			t.Errorf("String(%d) = %q; want %q", v, got, want)
		}
	}
}
