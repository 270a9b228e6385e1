// Package enum formats the typed enums of nodeplan's packages: each keeps
// its names in an array indexed by value, and String falls back to the type
// name and number for a value out of range.
package enum

import "fmt"

// String returns names[v], or typ(v) such as "Rule(200)" when v has no name.
func String[T ~uint8](v T, typ string, names []string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}
