package planview

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
)

// Knobs name, for the header notes, the setting a reader changes to
// change what a note says: command-line flags for the nodeplan command,
// option fields for a program. The zero Knobs name the fields of
// instancetypes.Options.
type Knobs struct {
	SpotDiscount  string // default "Options.SpotDiscount"
	CapacityTypes string // default "Options.CapacityTypes"
	Zones         string // default "Options.Zones"
}

func (k Knobs) or() Knobs {
	return Knobs{
		SpotDiscount:  cmp.Or(k.SpotDiscount, "Options.SpotDiscount"),
		CapacityTypes: cmp.Or(k.CapacityTypes, "Options.CapacityTypes"),
		Zones:         cmp.Or(k.Zones, "Options.Zones"),
	}
}

// Notes are the header lines every output prints with a catalog's prices
// ([Options.Notes]): where the prices come from and in which currency, how
// spot is priced (or that it is not offered), zones assumed for a region
// nodeplan knows no zones of, and that no reserved capacity is offered.
// k names the settings that change each note. Notes does not modify o.
func Notes(o instancetypes.Origin, k Knobs) []string {
	k = k.or()
	prices := fmt.Sprintf("prices: %s (%s)", o.Source, o.Currency)
	if o.Unpriced > 0 {
		prices += fmt.Sprintf("; %d instance types without a price there are left out", o.Unpriced)
	}
	notes := []string{prices, spotNote(o, k)}
	if o.ZonesAssumed {
		notes = append(notes, fmt.Sprintf("zones: %s assumed: nodeplan knows no zone names for %s; set %s, or give EC2NodeClasses with status.subnets",
			strings.Join(o.Zones, ", "), o.Region, k.Zones))
	}
	if slices.Contains(o.CapacityTypes, instancetypes.Reserved) {
		notes = append(notes, "reserved: none offered: capacity reservations are not in the catalog")
	}
	return notes
}

// spotNote says how spot offerings are priced, or that there are none.
func spotNote(o instancetypes.Origin, k Knobs) string {
	if !o.Spot() {
		return fmt.Sprintf("spot: not offered (%s)", k.CapacityTypes)
	}
	pct := strconv.FormatFloat(math.Round((1-o.SpotDiscount)*1e4)/100, 'f', -1, 64)
	model := fmt.Sprintf("estimated at %s %% of on-demand (%s %s)", pct, k.SpotDiscount, strconv.FormatFloat(o.SpotDiscount, 'f', -1, 64))
	if o.SpotGiven > 0 {
		return fmt.Sprintf("spot: given for %d instance types, else %s", o.SpotGiven, model)
	}
	return "spot: " + model
}
