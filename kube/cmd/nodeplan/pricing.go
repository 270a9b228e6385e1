package main

import "github.com/nodeplan/nodeplan/instancetypes"

// pricing is what the output says about the catalog's prices: their
// currency (ISO 4217) and header notes on where they came from and how
// spot is modelled.
type pricing struct {
	currency string
	notes    []string
}

// pricingOf describes the prices of cat, built from the flags of c (see
// catalogNotes).
func pricingOf(cat *instancetypes.Catalog, c config) pricing {
	return pricing{currency: cat.Origin().Currency, notes: catalogNotes(cat, c)}
}
