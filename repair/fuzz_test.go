package repair_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/repair"
)

// inputFromBytes reads an Input from data, four bytes a node (name, pool,
// condition type and status, age in minutes, flags), invalid values
// included: empty and duplicate names, status 0 or out of range, zero
// times. The first byte picks the policies (fake, AWS, or one with a
// negative toleration) and whether now is zero.
func inputFromBytes(data []byte) repair.Input {
	in := repair.Input{Now: noon}
	if len(data) == 0 {
		return in
	}
	switch data[0] % 4 {
	case 0:
		in.Policies = badNode
	case 1:
		in.Policies = []repair.Policy{{ConditionType: "BadNode", ConditionStatus: repair.ConditionFalse, TolerationDuration: -time.Minute}}
	case 2:
		in.Now = time.Time{}
	}
	types := []string{"", "Ready", "BadNode", "KernelReady"}
	for rest := data[1:]; len(rest) >= 4; rest = rest[4:] {
		b := rest[:4]
		n := repair.Node{NodePool: []string{"", "a", "b", "c"}[b[1]%4], Unmanaged: b[3]&1 != 0, Deleting: b[3]&2 != 0}
		if b[0] != 0 {
			n.Name = fmt.Sprint("n", b[0]%64)
		}
		for c := range int(b[3]>>2) % 3 {
			at := noon.Add(-time.Duration(b[2]) * time.Minute * time.Duration(c+1))
			if b[2] == 255 {
				at = time.Time{}
			}
			n.Conditions = append(n.Conditions, repair.Condition{Type: types[(int(b[1]>>2)+c)%4], Status: repair.Status(b[1]>>4) % 5, LastTransitionTime: at})
		}
		in.Nodes = append(in.Nodes, n)
	}
	return in
}

// FuzzDecide: Decide never panics; it fails only with ErrInvalidInput and
// a zero Result, and otherwise names every node exactly once, leaving its
// input unmodified.
func FuzzDecide(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 1, 0x24, 60, 4, 2, 0x24, 60, 0, 3, 0x24, 10, 4})
	f.Add([]byte{3, 1, 0x15, 40, 4, 2, 0x35, 20, 8})
	f.Add([]byte{0, 1, 1, 1, 4, 1, 1, 1, 4})          // duplicate names
	f.Add([]byte{0, 0, 0, 0, 0})                      // empty name
	f.Add([]byte{1, 1, 0x24, 60, 4})                  // negative toleration
	f.Add([]byte{2, 1, 0x24, 60, 4})                  // zero now
	f.Add([]byte{0, 1, 0x04, 60, 4, 2, 0x74, 255, 4}) // status 0, zero time
	f.Add([]byte{0, 1, 0x25, 60, 4, 2, 0x25, 60, 5, 3, 0x25, 60, 6, 4, 0x25, 60, 4, 5, 1, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := inputFromBytes(data)
		before := clone(in)
		res, err := repair.Decide(in)
		if err != nil {
			if !errors.Is(err, repair.ErrInvalidInput) || res.Replace != nil || res.Kept != nil {
				t.Fatalf("err = %v, res = %+v", err, res)
			}
			return
		}
		if !exactlyOnce(in, res) {
			t.Fatalf("not every node exactly once: %+v", res)
		}
		if fmt.Sprint(in) != fmt.Sprint(before) {
			t.Fatalf("input modified")
		}
	})
}
