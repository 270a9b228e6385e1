package kube

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

func TestPreferences(t *testing.T) {
	plan := packing.Plan{Preferences: []packing.PreferenceCost{
		{Term: packing.PreferenceTerm{Kind: packing.PreferredPodAntiAffinity, Namespace: "shop", Owner: "Deployment/web", Weight: 100,
			Term: "topologyKey kubernetes.io/hostname"}, Pods: 12, Measured: true, Cost: instancetypes.MustPriceFromDollars(0.3072)},
		{Term: packing.PreferenceTerm{Kind: packing.ScheduleAnywaySpread, Namespace: "shop"}, Pods: 1, Honoured: true},
	}}
	budget := packing.Options{Preferences: packing.BudgetPreferences, PreferenceBudget: 0.1}
	assert.Equal(t, &ReportPreferences{Policy: "Budget", Budget: 0.1, Terms: []ReportPreference{
		{Namespace: "shop", Owner: "Deployment/web", Kind: "PreferredPodAntiAffinity", Weight: 100, Term: "topologyKey kubernetes.io/hostname",
			Pods: 12, Measured: true, CostPerHour: 0.3072},
		{Namespace: "shop", Kind: "ScheduleAnywaySpread", Pods: 1, Honoured: true},
	}}, Preferences(budget, &plan))
	assert.Nil(t, Preferences(packing.Options{}, &plan), "Respect measures nothing")
	assert.Nil(t, Preferences(packing.Options{Preferences: packing.IgnorePreferences}, &plan))
}
