package consolidation_test

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/consolidation"
)

// TestPlanVerifies checks, on the clusters of TestPlanProperties, that
// VerifyCommands finds nothing wrong with what Plan returns.
func TestPlanVerifies(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261213) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 150
	props := gopter.NewProperties(params)
	props.Property("VerifyCommands accepts Plan's commands", prop.ForAll(func(sp spec) string {
		c := sp.cluster()
		r, err := consolidation.Plan(c, consolidation.Options{Repack: sp.Repack})
		if err != nil {
			return err.Error()
		}
		if v := consolidation.VerifyCommands(c, r.Commands); len(v) > 0 {
			return fmt.Sprint(v)
		}
		return ""
	}, genSpec()))
	props.TestingRun(t)
}
