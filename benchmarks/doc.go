// Package benchmarks holds nodeplan's scenario benchmarks over named
// workloads (see the workload package), and the conversion of those neutral
// workloads into nodeplan's inputs. Run them with
//
//	go test -run '^$' -bench . ./benchmarks/
//
// Results, with the command and machine, are in benchmarks/RESULTS.md.
package benchmarks
