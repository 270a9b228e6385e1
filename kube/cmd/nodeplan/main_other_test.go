//go:build !unix

package main

import (
	"os"
	"testing"
)

// TestMain: without Unix, no live API server (apiservertest builds on
// Unix only); the tests still read no real cluster.
func TestMain(m *testing.M) {
	isolate()
	os.Exit(m.Run())
}
