package repair_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/repair"
)

// TestTotality: hostile strings in every string field and extreme numbers
// in every numeric one give a result or an ErrInvalidInput, never a panic
// (internal/totality's check, for this package).
func TestTotality(t *testing.T) {
	base := func() repair.Input {
		return repair.Input{Now: noon, Policies: []repair.Policy{{ConditionType: "BadNode", ConditionStatus: repair.ConditionFalse, TolerationDuration: time.Minute}},
			Nodes: []repair.Node{{Name: "a", NodePool: "p", Conditions: []repair.Condition{cond("BadNode", repair.ConditionFalse, time.Hour)}}, {Name: "b", NodePool: "p"}}}
	}
	check := func(name string, in repair.Input) {
		t.Helper()
		res, err := repair.Decide(in)
		if err != nil && !errors.Is(err, repair.ErrInvalidInput) {
			t.Errorf("%s: err = %v; want ErrInvalidInput", name, err)
		}
		if err == nil && !exactlyOnce(in, res) {
			t.Errorf("%s: not every node exactly once", name)
		}
	}
	for _, s := range problemgen.HostileStrings() {
		setters := map[string]func(*repair.Input){
			"name":      func(in *repair.Input) { in.Nodes[0].Name = s },
			"pool":      func(in *repair.Input) { in.Nodes[0].NodePool = s },
			"condition": func(in *repair.Input) { in.Nodes[0].Conditions[0].Type = s },
			"policy":    func(in *repair.Input) { in.Policies[0].ConditionType = s },
		}
		for field, set := range setters {
			in := base()
			set(&in)
			check(field+"="+s, in)
		}
		if _, err := repair.ParseStatus(s); err != nil && !errors.Is(err, repair.ErrInvalidInput) {
			t.Errorf("ParseStatus(%q) = %v", s, err)
		}
	}
	extremes := []time.Time{time.Unix(math.MaxInt64/2, 0), time.Unix(math.MinInt64/2, 0), time.Unix(0, 0), time.Time{}.Add(1), noon}
	for _, d := range []time.Duration{math.MaxInt64, math.MinInt64, 0, 1} {
		for _, at := range extremes {
			for _, now := range extremes {
				in := base()
				in.Policies[0].TolerationDuration = d
				in.Nodes[0].Conditions[0].LastTransitionTime = at
				in.Now = now
				check("extreme", in)
			}
		}
	}
	for _, st := range []repair.Status{0, 4, math.MaxUint8} {
		in := base()
		in.Nodes[0].Conditions[0].Status = st
		in.Policies[0].ConditionStatus = st
		check("status", in)
	}
}
