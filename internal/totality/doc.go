// Package totality holds, in its tests only, the check that every public
// entry point of the core module (requirements, resources, instancetypes,
// packing, planview, consolidation, disruption, drift, static) answers every input with a
// result or a named error: hostile strings in every string field and
// extreme numbers in every numeric one, and never a panic. See
// problemgen.HostileStrings for the strings.
package totality
