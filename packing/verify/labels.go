package verify

import "github.com/nodeplan/nodeplan/requirements"

// counted returns the stable key of label key and whether the label
// counts: a beta label does not when the object also has its stable label
// (has reports whether the object has a label key). It restates the rule
// of packing's documentation rather than sharing the solver's code.
func counted(key string, has func(key string) bool) (string, bool) {
	stable := requirements.Normalize(key)
	return stable, stable == key || !has(stable)
}

// setAbsent sets l[k] = val when val is not empty and l has no k.
func setAbsent(l map[string]string, k, val string) {
	if _, ok := l[k]; !ok && val != "" {
		l[k] = val
	}
}
