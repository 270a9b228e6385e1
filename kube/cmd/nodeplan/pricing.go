package main

import "github.com/nodeplan/nodeplan/planview"

// pricing is what the output says about the catalog's prices: their
// currency (ISO 4217) and header notes on where they came from and how
// spot is modelled.
type pricing struct {
	currency string
	notes    []string
}

// pricingOf describes the prices of the catalog c selects. Every catalog
// nodeplan reads today is priced in US dollars.
//
// TODO(merge): the catalog flags (catalog.go: --region, --prices,
// --capacity-types) know the prices' source, currency and spot model;
// take the currency and the notes from there and delete this.
func pricingOf(config) pricing { return pricing{currency: planview.DefaultCurrency} }
