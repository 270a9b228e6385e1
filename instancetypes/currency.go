package instancetypes

// ValidCurrency reports whether c has the form of an ISO 4217 currency
// code, three upper-case ASCII letters ("USD", "CNY"), as every Origin's
// Currency has. It does not know which codes are assigned. It does not
// allocate.
func ValidCurrency(c string) bool { return validCurrency(c) }
